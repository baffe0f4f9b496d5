import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { stringify } from 'yaml'
import { loadFlowFile, type Flow } from '../flow/flow.js'
import { CorpusError, endpointKey, loadCorpus, type Source } from './corpus.js'

/**
 * `sandbox conformance add FLOW` (docs/behaviour.md#conformance): a flow recorded from the live test
 * environment (`sandbox start --proxy --record`, docs/behaviour.md#record) becomes an entry of the corpus, dated, of
 * kind `live`, in `entries/recorded/<id>.yaml`: the flow's steps as they are, its last call the
 * endpoint it is an entry of.
 */

export interface AddRecorded {
  /** the corpus: endpoints.yaml and entries/ */
  corpusDir: string
  flowFile: string
  /** YYYY-MM-DD: the day it was recorded */
  date: string
  source: Source
  id?: string
  /** `METHOD /path` as endpoints.yaml lists it; else the endpoint of the flow's last call */
  endpoint?: string
  tier?: 1 | 2 | 3
  profile: ('default' | 'live')[]
}

export class AddError extends Error {}

/** The endpoint of endpoints.yaml a call's method and path (its query left out) is a call of. */
function endpointOf(endpoints: { method: string; path: string }[], method: string, path: string): string | undefined {
  const bare = path.split('?')[0]
  for (const e of endpoints) {
    if (e.method !== method) continue
    const pattern = e.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]\w*/g, '[^/]+')
    if (new RegExp(`^${pattern}/?$`).test(bare)) return `${e.method} ${e.path}`
  }
  return undefined
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/\.(ya?ml|json)$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'recorded'

/** Writes the entry; returns its file and id. The corpus is read again after: an entry it refuses is taken back. */
export function addRecordedFlow(o: AddRecorded): { file: string; id: string; endpoint: string; tier: 1 | 2 | 3 } {
  const flow: Flow = loadFlowFile(o.flowFile)
  const corpus = loadCorpus(o.corpusDir, o.corpusDir)
  const calls = flow.steps.filter((s) => s.request && s.expect)
  const last = calls.at(-1)
  if (!last) throw new AddError(`${o.flowFile}: no call with an expected answer to make an entry of`)
  const endpoint = o.endpoint ?? endpointOf(corpus.endpoints, last.request!.method, last.request!.path)
  if (!endpoint) throw new AddError(`${o.flowFile}: its last call, ${last.request!.method} ${last.request!.path}, is no endpoint of endpoints.yaml; name one with --endpoint`)
  const [method, path] = endpoint.split(' ')
  if (!corpus.endpoints.some((e) => endpointKey(e.method, e.path) === endpointKey(method, path ?? ''))) throw new AddError(`--endpoint ${endpoint} is not in endpoints.yaml`)
  const status = last.expect!.status ?? 200
  const tier = o.tier ?? (status < 300 ? 1 : 2)
  const id = o.id ?? `recorded-${slug(basename(o.flowFile))}-${o.date}`
  if (corpus.entries.some((e) => e.id === id)) throw new AddError(`the corpus has an entry ${id} already; name another with --id`)
  const dir = join(o.corpusDir, 'entries', 'recorded')
  const file = join(dir, `${id}.yaml`)
  if (existsSync(file)) throw new AddError(`${file} exists`)
  const entry = {
    id,
    endpoint,
    tier,
    ...(flow.description ? { description: flow.description } : {}),
    ...(flow.vars ? { vars: flow.vars } : {}),
    steps: flow.steps,
  }
  const head = `# Recorded from the live test environment and added with sandbox conformance add (docs/behaviour.md#conformance)\n`
  mkdirSync(dir, { recursive: true })
  writeFileSync(file, head + stringify({ source: o.source, kind: 'live', date: o.date, profile: o.profile, entries: [entry] }, { lineWidth: 0 }))
  try {
    loadCorpus(o.corpusDir, o.corpusDir)
  } catch (e) {
    rmSync(file)
    if (e instanceof CorpusError) throw new AddError(`the entry is not taken: ${e.message}`)
    throw e
  }
  const near = relative(process.cwd(), file)
  return { file: near.startsWith('..') ? file : near, id, endpoint, tier }
}

import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { z } from 'zod'
import { DocumentIssues, readDocumentFile } from '../files.js'
import { stepSchema, type Flow } from '../flow/flow.js'
import { describeIssues } from '../scenario/index.js'

/**
 * The conformance corpus (docs/behaviour.md#conformance): `conformance/endpoints.yaml`, the endpoints
 * Kora documents, and `conformance/entries/**.yaml`, the answers its pages, its Postman collection,
 * public clients' live-run tests and integrators' recordings show, each entry a flow of the flow
 * format (docs/behaviour.md#flow-files) with where it comes from, its tier, the profile it holds for and its masks.
 */

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const
const METHOD_PATH = /^(GET|POST|PUT|DELETE|PATCH) \/\S*$/

/**
 * Another spelling of a listed endpoint (the bare `/api/v1/...` of a `/merchant/api/v1/...` one):
 * the canonical endpoint's entries are replayed against it, each a real request to this path.
 */
const aliasSchema = z
  .object({
    /** `METHOD /path` of the canonical endpoint, listed, not itself an alias */
    endpoint: z.string().regex(METHOD_PATH, '`METHOD /path`'),
    /** where this spelling is written (a page, a client, docs/api.md's section), and so used */
    source: z.string().min(3),
    /** the canonical entries to replay (default: every one that is scored and calls it) */
    entries: z.array(z.string().min(1)).min(1).optional(),
  })
  .strict()

const endpointSchema = z
  .object({
    area: z.string().min(1),
    method: z.enum(METHODS),
    path: z.string().startsWith('/', 'must start with /'),
    /** the page that documents it */
    source: z.string().url(),
    alias_of: aliasSchema.optional(),
  })
  .strict()
export type Endpoint = z.infer<typeof endpointSchema>

const endpointsSchema = z.object({ endpoints: z.array(endpointSchema).min(1) }).strict()

/** A source: a public page, or a file of a public repository at a commit; `item` says where in it. */
const sourceSchema = z.union([
  z.object({ url: z.string().url(), item: z.string().optional() }).strict(),
  z
    .object({
      repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'owner/name'),
      path: z.string().min(1),
      commit: z.string().regex(/^[0-9a-f]{40}$/, '40 hex digits'),
      /** the published page the file is a copy of */
      original: z.string().url().optional(),
      item: z.string().optional(),
    })
    .strict(),
])
export type Source = z.infer<typeof sourceSchema>

/** Paths a mask may not hide: the HTTP status, the envelope's status and all of data, the whole answer's verdict. */
const UNMASKABLE = new Set(['(body)', '(status)', 'status', 'data'])

const maskSchema = z
  .object({
    path: z
      .string()
      .regex(/^[\w$*-]+(\.[\w$*-]+)*( \(key order\))?$/, 'a dotted path (`*` for any one part)')
      .refine((p) => !UNMASKABLE.has(p) && !/^(data\.)?\*(\.\*)*$/.test(p), 'a mask never hides a whole answer (the HTTP status, the envelope status or all of data)'),
    reason: z.string().min(3),
  })
  .strict()
export type Mask = z.infer<typeof maskSchema>

const DATE = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
const PROFILE = z.array(z.enum(['default', 'live'])).min(1)
const KIND = z.enum(['live', 'docs'])

const entrySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and -'),
    /** `METHOD /path` as conformance/endpoints.yaml lists it */
    endpoint: z.string().regex(METHOD_PATH, '`METHOD /path`'),
    /** 1 the documented success path; 2 refusals and failure outcomes; 3 strict (exact texts, number vs string, key order) */
    tier: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    description: z.string().optional(),
    source: sourceSchema.optional(),
    date: DATE.optional(),
    kind: KIND.optional(),
    profile: PROFILE.optional(),
    /** where the request uses the sandbox's test values instead of the source's */
    test_values: z.string().optional(),
    masks: z.array(maskSchema).optional(),
    /** a difference kept for now: still a failure in the score, but not the exit code's */
    known_difference: z.string().min(3).optional(),
    /**
     * a source CONTRACT 15 puts first answers otherwise (a live recording before an older sample):
     * the entry that holds that answer, and why; listed, not scored
     */
    superseded_by: z.object({ entry: z.string().min(1), reason: z.string().min(3) }).strict().optional(),
    vars: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    steps: z.array(stepSchema).min(1),
  })
  .strict()

const fileSchema = z
  .object({
    /** defaults for every entry of the file */
    source: sourceSchema.optional(),
    date: DATE.optional(),
    kind: KIND.optional(),
    profile: PROFILE.optional(),
    entries: z.array(entrySchema).min(1),
  })
  .strict()

export interface Entry {
  /** `conformance/entries/x.yaml#id` */
  at: string
  id: string
  endpoint: string
  tier: 1 | 2 | 3
  source: Source
  date: string
  kind: 'live' | 'docs'
  profile: ('default' | 'live')[]
  testValues?: string
  masks: Mask[]
  knownDifference?: string
  /** the entry whose source outranks this one's (CONTRACT 15), and why: listed, not scored */
  supersededBy?: { entry: string; reason: string }
  /** a canonical entry replayed against an alias endpoint (its `endpoint`): the canonical `METHOD /path` */
  aliasOf?: string
  flow: Flow
}

export interface Corpus {
  endpoints: Endpoint[]
  entries: Entry[]
}

/** A corpus file refused: the file and every issue, each naming its field. */
export class CorpusError extends DocumentIssues {}

const read = (file: string) => readDocumentFile(file, (why) => new CorpusError(file, [why.message]))

/** `GET /merchant/api/v1/charges/:` : how a documented endpoint and a route are matched. */
export const endpointKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/:[A-Za-z_]\w*/g, ':').replace(/(.)\/+$/, '$1')}`

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) return yamlFiles(path)
      return /\.ya?ml$/.test(name) ? [path] : []
    })
}

/** Reads and checks the corpus under `dir`; names are given relative to `root`. */
export function loadCorpus(dir: string, root = process.cwd()): Corpus {
  const endpointsFile = join(dir, 'endpoints.yaml')
  const listed = endpointsSchema.safeParse(read(endpointsFile))
  const endpointsName = relative(root, endpointsFile)
  if (!listed.success) throw new CorpusError(endpointsName, describeIssues(listed.error))
  const endpoints = listed.data.endpoints
  const known = new Set<string>()
  for (const e of endpoints) {
    const key = endpointKey(e.method, e.path)
    if (known.has(key)) throw new CorpusError(endpointsName, [`${e.method} ${e.path}: listed twice`])
    known.add(key)
  }
  const entries: Entry[] = []
  const ids = new Set<string>()
  for (const file of yamlFiles(join(dir, 'entries'))) {
    const name = relative(root, file)
    const parsed = fileSchema.safeParse(read(file))
    if (!parsed.success) throw new CorpusError(name, describeIssues(parsed.error))
    const f = parsed.data
    const issues: string[] = []
    for (const [i, e] of f.entries.entries()) {
      const at = `entries.${i}`
      const source = e.source ?? f.source
      const date = e.date ?? f.date
      const kind = e.kind ?? f.kind
      const profile = e.profile ?? f.profile
      if (!source) issues.push(`${at}.source: required (on the entry or the file)`)
      if (!date) issues.push(`${at}.date: required (on the entry or the file)`)
      if (!kind) issues.push(`${at}.kind: required (on the entry or the file)`)
      if (!profile) issues.push(`${at}.profile: required (on the entry or the file)`)
      const [method, path] = e.endpoint.split(' ')
      if (!known.has(endpointKey(method, path))) issues.push(`${at}.endpoint: ${e.endpoint} is not in ${endpointsName}`)
      if (ids.has(e.id)) issues.push(`${at}.id: ${e.id} is used twice in the corpus`)
      ids.add(e.id)
      if (!e.steps.some((s) => s.request && s.expect)) issues.push(`${at}.steps: no request with an expected answer`)
      if (!source || !date || !kind || !profile) continue
      entries.push({
        at: `${name}#${e.id}`,
        id: e.id,
        endpoint: `${method} ${path}`,
        tier: e.tier,
        source,
        date,
        kind,
        profile,
        testValues: e.test_values,
        masks: e.masks ?? [],
        knownDifference: e.known_difference,
        supersededBy: e.superseded_by,
        flow: { name: e.id, description: e.description, vars: e.vars, steps: e.steps },
      })
    }
    if (issues.length) throw new CorpusError(name, issues)
  }
  for (const e of entries) {
    const by = e.supersededBy && entries.find((o) => o.id === e.supersededBy!.entry)
    if (e.supersededBy && (!by || by.supersededBy)) throw new CorpusError(e.at.split('#')[0], [`${e.id}.superseded_by.entry: ${e.supersededBy.entry} is not an entry of the corpus that is scored`])
  }
  const replays = endpoints.flatMap((e, i) => (e.alias_of ? aliasEntries(e, endpoints, entries, endpointsName, `endpoints.${i}.alias_of`) : []))
  return { endpoints, entries: [...entries, ...replays] }
}

/** `/merchant/api/v1/x/:id` as a pattern of a request's path: each `:name` one part (a `${var}` too), a query kept. */
const pathPattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]\w*/g, '([^/?]+)')}(\\?.*)?$`)

/**
 * The alias rule (docs/behaviour.md#conformance): an endpoint listed with `alias_of` is scored by replaying
 * the canonical endpoint's entries (or the subset it names) with every call to the canonical path
 * sent to the alias path instead (under the alias's method, which may differ: a call the service
 * takes by PATCH or POST), the same parts of the path and the same query; the rest of each
 * flow, its expected answers, tier, profile, masks and known difference are the canonical entry's.
 * An entry it names must be one of the canonical endpoint's, scored; one that calls the canonical
 * path nowhere is not replayed.
 */
function aliasEntries(alias: Endpoint, endpoints: Endpoint[], entries: Entry[], file: string, at: string): Entry[] {
  const of = alias.alias_of!
  const [method, path] = of.endpoint.split(' ')
  const canonical = endpoints.find((e) => endpointKey(e.method, e.path) === endpointKey(method, path))
  if (!canonical || canonical.alias_of) throw new CorpusError(file, [`${at}.endpoint: ${of.endpoint} is not a listed endpoint that is not itself an alias`])
  const pattern = pathPattern(canonical.path)
  const parts = alias.path.split(/(:[A-Za-z_]\w*)/)
  const mine = entries.filter((e) => endpointKey(...(e.endpoint.split(' ') as [string, string])) === endpointKey(method, path))
  const unknown = (of.entries ?? []).filter((id) => !mine.some((e) => e.id === id && !e.supersededBy))
  if (unknown.length) throw new CorpusError(file, [`${at}.entries: ${unknown.join(', ')}: not a scored entry of ${of.endpoint}`])
  const replays: Entry[] = []
  for (const e of mine.filter((e) => (of.entries ? of.entries.includes(e.id) : !e.supersededBy))) {
    let sent = 0
    const steps = e.flow.steps.map((s) => {
      const m = s.request?.method === canonical.method ? pattern.exec(s.request.path) : null
      if (!m || !s.request) return s
      sent++
      let n = 1
      const to = parts.map((p) => (p.startsWith(':') ? m[n++] : p)).join('') + (m[n] ?? '')
      return { ...s, request: { ...s.request, method: alias.method, path: to } }
    })
    if (!sent) continue
    const key = `${alias.method} ${alias.path}`
    replays.push({ ...e, at: `${e.at} as ${key}`, id: `${e.id} as ${key}`, endpoint: key, aliasOf: `${canonical.method} ${canonical.path}`, flow: { ...e.flow, name: `${e.id} as ${key}`, steps } })
  }
  // none (a corpus of a few entries, as a draft's): the alias has no entry, as the scoreboard then says
  return replays
}

/** Whether a mask covers a difference's path: the same dotted parts, or the start of them (`*` any one part). */
export function masks(mask: string, path: string): boolean {
  const m = mask.split('.')
  const p = path.split('.')
  return m.length <= p.length && m.every((part, i) => part === '*' || part === p[i])
}

import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import { keysFromEnv } from '../config.js'
import { seedFlags } from '../flags.js'
import { concurrencyOf, printReport, seedOf } from './cli.js'
import { isSandbox, liveTarget } from './verify-cli.js'

type Fail = (message: string, code?: number) => never

/** The corpus the package ships: `conformance/` beside `dist/`. */
export const CORPUS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../conformance')

/** The seed a run uses when none is given, so that two runs (and docs/conformance.md) agree. */
const DEFAULT_SEED = '48'

/** Every route the areas declare (src/areas.ts), by `endpointKey`: what the sandbox serves. */
export async function routeKeys(): Promise<Set<string>> {
  const [{ AREAS }, { endpointKey }] = await Promise.all([import('../areas.js'), import('./corpus.js')])
  return new Set(AREAS.flatMap((a) => a.routes.map((r) => endpointKey(r.method, r.path))))
}

interface ConformanceOptions {
  corpus: string
  against?: string
  format: string
  output?: string
  profile: string
  concurrency: string
  seed?: string
  clockStart?: string
}

interface AddOptions {
  date?: string
  source: string
  id?: string
  endpoint?: string
  tier?: string
  profile: string
}

export function registerConformance(program: Command, fail: Fail): void {
  const command = program
    .command('conformance')
    .description("run the conformance corpus (Kora's published and recorded answers) against a sandbox and print the scoreboard; exit 1 when a tier-1 entry fails")
    .option('--corpus <dir>', 'the corpus: endpoints.yaml and entries/', CORPUS_DIR)
    .option('--against <url>', 'a running sandbox, or the live test environment with the KORAPAY_* test keys (its live-profile entries); without it a fresh in-process one')
    .option('--format <format>', 'text, json or markdown', 'text')
    .option('--output <file>', 'write the report to this file (the text report still goes to stdout)')
    .option('--profile <profile>', 'the profiles scored: default, live or both (with --against: the one the sandbox answers under)', 'both')
    .option('--concurrency <n>', 'entries run at once', '8')
  for (const flag of seedFlags()) command.addOption(flag)
  command
    .command('add')
    .description('add a flow recorded from the live test environment (sandbox start --proxy --record) to the corpus as a dated entry of kind live')
    .argument('<flow>', 'the recorded flow file (YAML or JSON)')
    .option('--date <YYYY-MM-DD>', 'the day it was recorded (default: today, UTC)')
    .option('--source <url>', 'where it was recorded', 'https://api.korapay.com')
    .option('--id <id>', 'the entry id (default: recorded-<file name>-<date>)')
    .option('--endpoint <endpoint>', '"METHOD /path" of endpoints.yaml (default: that of the last call)')
    .option('--tier <n>', '1, 2 or 3 (default: 1 when the last answer is 2xx, else 2)')
    .option('--profile <profile>', 'the profiles it holds for: both, default or live', 'both')
    .action(async (flowFile: string, opts: AddOptions) => {
      const date = opts.date ?? new Date().toISOString().slice(0, 10)
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) fail(`--date must be a day, YYYY-MM-DD (got ${date})`)
      if (opts.tier !== undefined && !['1', '2', '3'].includes(opts.tier)) fail(`--tier must be 1, 2 or 3 (got ${opts.tier})`)
      if (!['both', 'default', 'live'].includes(opts.profile)) fail(`--profile must be both, default or live (got ${opts.profile})`)
      try {
        new URL(opts.source)
      } catch {
        fail(`--source must be a URL (got ${opts.source})`)
      }
      const [{ addRecordedFlow, AddError }, { CorpusError }, { FlowError }] = await Promise.all([import('./conformance-add.js'), import('./corpus.js'), import('../flow/flow.js')])
      try {
        const added = addRecordedFlow({
          // --corpus is the command's: given after add too, it is parsed there
          corpusDir: resolve((command.opts() as ConformanceOptions).corpus),
          flowFile,
          date,
          source: { url: opts.source, item: `recorded ${date}` },
          id: opts.id,
          endpoint: opts.endpoint,
          tier: opts.tier === undefined ? undefined : (Number(opts.tier) as 1 | 2 | 3),
          profile: opts.profile === 'both' ? ['default', 'live'] : [opts.profile as 'default' | 'live'],
        })
        process.stdout.write(`added ${added.id} (${added.endpoint}, tier ${added.tier}) to ${added.file}; sandbox conformance scores it\n`)
      } catch (e) {
        if (e instanceof AddError || e instanceof CorpusError || e instanceof FlowError) fail(e.message)
        throw e
      }
    })
  command
    .addHelpText(
      'after',
      `
Examples:
  $ sandbox conformance                                        # the scoreboard of the shipped corpus
  $ sandbox conformance --format markdown > docs/conformance.md
  $ sandbox conformance --against http://127.0.0.1:4000 --format json
  $ sandbox conformance add recorded.yaml --date 2026-11-28  # a flow recorded with --record, as an entry`,
    )
    .action(async (opts: ConformanceOptions) => {
      if (!['text', 'json', 'markdown'].includes(opts.format)) fail(`--format must be text, json or markdown (got ${opts.format})`)
      if (!['default', 'live', 'both'].includes(opts.profile)) fail(`--profile must be default, live or both (got ${opts.profile})`)
      if (opts.against && opts.profile === 'both') opts.profile = 'default'
      const profiles = (opts.profile === 'both' ? ['default', 'live'] : [opts.profile]) as ('default' | 'live')[]
      const concurrency = concurrencyOf(opts.concurrency, fail)
      const seeded = seedOf({ seed: opts.seed ?? DEFAULT_SEED, clockStart: opts.clockStart }, fail)
      const { CorpusError, loadCorpus } = await import('./corpus.js')
      const dir = resolve(opts.corpus)
      let corpus
      try {
        corpus = loadCorpus(dir, dirname(dir))
      } catch (e) {
        if (e instanceof CorpusError) fail(e.message)
        throw e
      }
      const against = opts.against?.replace(/\/+$/, '')
      let live: ReturnType<typeof liveTarget> | undefined
      if (against) {
        let sandbox = false
        try {
          sandbox = await isSandbox(against)
        } catch (e) {
          fail(`cannot reach ${against}: ${(e as Error).message}`, 1)
        }
        // not a sandbox: the live test environment, with the KORAPAY_* test keys, scored as the live profile
        if (!sandbox) {
          live = liveTarget(against, fail)
          profiles.splice(0, profiles.length, 'live')
        }
      }
      const [{ scoreCorpus }, reports, { startSandbox }, routes] = await Promise.all([import('./conformance.js'), import('./conformance-report.js'), import('../index.js'), routeKeys()])
      const { encryptionKey } = keysFromEnv()
      const boards = []
      for (const profile of profiles) {
        // a fresh sandbox under each profile (docs/behaviour.md#live-profile), or the one --against names
        const local = against ? undefined : await startSandbox({ port: 0, encryptionKey, profile, ...seeded })
        try {
          const target = live ?? { baseUrl: against ?? local!.url, encryptionKey }
          boards.push(await scoreCorpus(corpus, target, (key) => routes.has(key), { concurrency, seed: seeded.seed, profile }))
        } finally {
          await local?.close()
        }
      }
      const text = reports.textReport(boards)
      const chosen = opts.format === 'json' ? reports.jsonReport(boards) : opts.format === 'markdown' ? reports.markdownReport(boards) : text
      printReport(text, chosen, opts.output)
      process.exitCode = boards.some((b) => b.failing.length) ? 1 : 0
    })
}

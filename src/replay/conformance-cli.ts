import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import { keysFromEnv } from '../config.js'
import { seedFlags } from '../flags.js'
import { concurrencyOf, printReport, seedOf } from './cli.js'
import { isSandbox } from './verify-cli.js'

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

export function registerConformance(program: Command, fail: Fail): void {
  const command = program
    .command('conformance')
    .description("run the conformance corpus (Kora's published and recorded answers) against a sandbox and print the scoreboard; exit 1 when a tier-1 entry fails")
    .option('--corpus <dir>', 'the corpus: endpoints.yaml and entries/', CORPUS_DIR)
    .option('--against <url>', 'a running sandbox; without it a fresh in-process one')
    .option('--format <format>', 'text, json or markdown', 'text')
    .option('--output <file>', 'write the report to this file (the text report still goes to stdout)')
    .option('--profile <profile>', 'the profiles scored: default, live or both (with --against: the one the sandbox answers under)', 'both')
    .option('--concurrency <n>', 'entries run at once', '8')
  for (const flag of seedFlags()) command.addOption(flag)
  command
    .addHelpText(
      'after',
      `
Examples:
  $ sandbox conformance                                        # the scoreboard of the shipped corpus
  $ sandbox conformance --format markdown > docs/conformance.md
  $ sandbox conformance --against http://127.0.0.1:4000 --format json`,
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
      if (against) {
        let sandbox = false
        try {
          sandbox = await isSandbox(against)
        } catch (e) {
          fail(`cannot reach ${against}: ${(e as Error).message}`, 1)
        }
        if (!sandbox) fail(`${against} is not a sandbox: conformance runs against one (to compare the sandbox with the live service, use sandbox verify --against)`)
      }
      const [{ scoreCorpus }, reports, { startSandbox }, routes] = await Promise.all([import('./conformance.js'), import('./conformance-report.js'), import('../index.js'), routeKeys()])
      const { encryptionKey } = keysFromEnv()
      const boards = []
      for (const profile of profiles) {
        // a fresh sandbox under each profile (docs/behaviour.md 0.11), or the one --against names
        const local = against ? undefined : await startSandbox({ port: 0, encryptionKey, profile, ...seeded })
        try {
          const target = { baseUrl: against ?? local!.url, encryptionKey }
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

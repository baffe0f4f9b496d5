import { readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Command } from 'commander'
import { ConfigError, keysFromEnv, seedFrom } from '../config.js'
import { seedFlags } from '../flags.js'
import type { Flow } from '../flow/flow.js'

/** Flow files named, directories expanded to their .yaml/.yml/.json files (sorted). */
export function expandFlowPaths(paths: string[]): string[] {
  const out: string[] = []
  for (const p of paths) {
    let isDir = false
    try {
      isDir = statSync(p).isDirectory()
    } catch {
      /* reported when loaded */
    }
    if (isDir) {
      for (const f of readdirSync(p).sort()) if (/\.(ya?ml|json)$/.test(f)) out.push(join(p, f))
    } else out.push(p)
  }
  return out
}

/** Every flow the paths name (a file of conformance entries gives one per entry), loaded; a bad one ends the command with exit code 2. */
export async function loadFlows(paths: string[], fail: (message: string, code?: number) => never): Promise<{ flow: Flow; file: string }[]> {
  // loaded here, not at start-up: `sandbox start` never pays for the flow format
  const { FlowError, loadFlowFiles } = await import('../flow/flow.js')
  const files = expandFlowPaths(paths)
  if (!files.length) fail('no flow files found')
  const flows: { flow: Flow; file: string }[] = []
  for (const file of files) {
    try {
      flows.push(...loadFlowFiles(file))
    } catch (e) {
      if (e instanceof FlowError) fail(e.message)
      throw e
    }
  }
  return flows
}

/** `--seed` and `--clock-start` (src/flags.ts `seedFlags`), or their variables; a bad one ends the command with exit code 2. */
export function seedOf(opts: { seed?: string; clockStart?: string }, fail: (message: string, code?: number) => never): ReturnType<typeof seedFrom> {
  try {
    return seedFrom(opts)
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message)
    throw e
  }
}

/** `--concurrency`: a whole number from 1 to 64. */
export function concurrencyOf(given: string, fail: (message: string, code?: number) => never): number {
  const concurrency = Number(given)
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) fail(`--concurrency must be a whole number from 1 to 64`)
  return concurrency
}

/**
 * The report of `sandbox verify` and `sandbox conformance`: with `--output FILE` the chosen format
 * goes to FILE and the text report to stdout, else the chosen one to stdout.
 */
export function printReport(text: string, chosen: string, output?: string): void {
  if (output) {
    writeFileSync(output, chosen)
    process.stdout.write(text)
  } else process.stdout.write(chosen)
}

interface ReplayOptions {
  baseUrl?: string
  key?: string
  encryptionKey: string
  concurrency: string
  bail?: boolean
  reporter: string
  output?: string
  seed?: string
  clockStart?: string
}

export function registerReplay(program: Command, fail: (message: string, code?: number) => never): void {
  const replay = program
    .command('replay')
    .description('replay flow files against a sandbox; exit 1 on any mismatch, 2 on a bad flow file')
    .argument('<flows...>', 'flow files (YAML or JSON) or directories of them')
    .option('--base-url <url>', 'a running sandbox; without it an in-process sandbox is started')
    .option('--key <key>', 'run every flow with this key instead of a fresh namespace each')
    .option('--encryption-key <key>', 'the namespaces\' encryption key', keysFromEnv().encryptionKey)
    .option('--concurrency <n>', 'flows run at once', '4')
    .option('--bail', 'stop at the first failing flow')
    .option('--reporter <name>', 'pretty or junit', 'pretty')
    .option('--output <file>', 'write the report to this file (the pretty summary still goes to stdout)')
  for (const flag of seedFlags()) replay.addOption(flag)
  replay
    .addHelpText(
      'after',
      `
Examples:
  $ sandbox replay scenarios/flows                      # every shipped flow, in-process sandbox
  $ sandbox replay my-flow.yaml --base-url http://127.0.0.1:4010
  $ sandbox replay flows/ --reporter junit --output reports/flows.xml
  $ sandbox replay scenarios/flows --seed 7              # the same keys, references and answers every run`,
    )
    .action(async (paths: string[], opts: ReplayOptions) => {
      if (!['pretty', 'junit'].includes(opts.reporter)) fail(`--reporter must be pretty or junit (got ${opts.reporter})`)
      const concurrency = concurrencyOf(opts.concurrency, fail)
      const flows = await loadFlows(paths, fail)
      const seeded = seedOf(opts, fail)
      // loaded here, not at start-up: `sandbox start` never pays for the runner
      const { junitReport, prettyReport } = await import('./report.js')
      const { runFlows } = await import('./runner.js')
      let baseUrl = opts.baseUrl?.replace(/\/+$/, '')
      let close: (() => Promise<void>) | undefined
      if (!baseUrl) {
        const { startSandbox } = await import('../index.js')
        const sb = await startSandbox({ port: 0, encryptionKey: opts.encryptionKey, ...seeded })
        baseUrl = sb.url
        close = sb.close
      }
      const tty = process.stderr.isTTY
      try {
        const results = await runFlows(flows, {
          baseUrl,
          key: opts.key,
          encryptionKey: opts.encryptionKey,
          concurrency,
          bail: opts.bail,
          seed: seeded.seed,
          onFlow: (r, done, total) => {
            if (tty) process.stderr.write(`\r[${done}/${total}] ${r.ok ? 'ok  ' : 'FAIL'} ${r.file}`.padEnd(80) + (done === total ? '\n' : ''))
          },
        })
        const pretty = prettyReport(results, { color: process.stdout.isTTY })
        if (opts.reporter === 'junit') {
          const xml = junitReport(results)
          if (opts.output) {
            writeFileSync(opts.output, xml)
            process.stdout.write(pretty)
          } else process.stdout.write(xml)
        } else {
          process.stdout.write(pretty)
          if (opts.output) writeFileSync(opts.output, prettyReport(results))
        }
        process.exitCode = results.length === flows.length && results.every((r) => r.ok) ? 0 : 1
      } finally {
        await close?.()
      }
    })
}

export function registerExportFlow(program: Command, fail: (message: string, code?: number) => never): void {
  program
    .command('export-flow')
    .description("turn a namespace's request journal into a replayable flow file (YAML)")
    .requiredOption('--base-url <url>', 'the running sandbox')
    .option('--key <key>', 'the namespace\'s secret key', keysFromEnv().secretKey)
    .option('--output <file>', 'write the flow here instead of stdout')
    .option('--name <name>', 'the flow\'s name', 'recorded session')
    .addHelpText('after', `\nExample:\n  $ sandbox export-flow --base-url http://127.0.0.1:4010 --key sk_test_ci --output flows/recorded.yaml`)
    .action(async (opts: { baseUrl: string; key: string; output?: string; name: string }) => {
      let res: Response
      try {
        res = await fetch(`${opts.baseUrl.replace(/\/+$/, '')}/_sandbox/requests?format=flow`, { headers: { authorization: `Bearer ${opts.key}` } })
      } catch (e) {
        fail(`cannot reach ${opts.baseUrl}: ${(e as Error).message}`, 1)
      }
      const body = (await res.json().catch(() => null)) as { status?: boolean; message?: string; data?: Record<string, unknown> } | null
      if (!res.ok || !body?.status || !body.data) fail(`the sandbox answered ${res.status}: ${body?.message ?? 'no flow'}`, 1)
      const { stringify } = await import('yaml')
      const text = `# recorded from ${opts.baseUrl}\n` + stringify({ ...body.data, name: opts.name }, { lineWidth: 0 })
      if (opts.output) writeFileSync(opts.output, text)
      else process.stdout.write(text)
    })
}

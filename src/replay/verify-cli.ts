import type { Command } from 'commander'
import { keysFromEnv, liveKeysFromEnv } from '../config.js'
import { seedFlags } from '../flags.js'
import { concurrencyOf, loadFlows, printReport, seedOf } from './cli.js'

type Fail = (message: string, code?: number) => never

/** A sandbox answers its control API; the live service has none (docs/behaviour.md#verify). */
export async function isSandbox(baseUrl: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/_sandbox/clock`, { headers: { authorization: 'Bearer sk_test_verify_probe', accept: 'application/json' } })
  const body = (await res.json().catch(() => null)) as { status?: boolean } | null
  return res.status === 200 && body?.status === true
}

/** The live service's test keys, or the reason to refuse them. */
export function liveTarget(baseUrl: string, fail: Fail) {
  const keys = liveKeysFromEnv()
  if (!keys.secretKey || !keys.encryptionKey) fail(`${baseUrl} is not a sandbox: set KORAPAY_SECRET_KEY and KORAPAY_ENCRYPTION_KEY to your test keys`)
  if (/^(sk|pk)_live_/.test(keys.secretKey) || keys.publicKey?.startsWith('pk_live_')) {
    fail('refusing a live key: verify runs against the test mode only (KORAPAY_SECRET_KEY / KORAPAY_PUBLIC_KEY)')
  }
  return { baseUrl, live: true, key: keys.secretKey, publicKey: keys.publicKey, encryptionKey: keys.encryptionKey }
}

interface VerifyOptions {
  against?: string
  format: string
  output?: string
  concurrency: string
  seed?: string
  clockStart?: string
}

export function registerVerify(program: Command, fail: Fail): void {
  const verify = program
    .command('verify')
    .description('replay flows against a target and compare every answer by shape; exit 1 on any difference, 2 on a bad flow file')
    .argument('<flows...>', 'flow files (YAML or JSON) or directories of them')
    .option('--against <url>', 'the target: a running sandbox, or the live service with KORAPAY_* test keys; without it an in-process sandbox')
    .option('--format <format>', 'text, json or junit', 'text')
    .option('--output <file>', 'write the report to this file (the text report still goes to stdout)')
    .option('--concurrency <n>', 'flows run at once', '4')
  for (const flag of seedFlags()) verify.addOption(flag)
  verify
    .addHelpText(
      'after',
      `
Examples:
  $ sandbox verify recorded.yaml                                  # the sandbox against a recorded session
  $ KORAPAY_SECRET_KEY=sk_test_... KORAPAY_PUBLIC_KEY=pk_test_... KORAPAY_ENCRYPTION_KEY=... \\
      sandbox verify scenarios/flows --against https://api.korapay.com --format junit --output verify.xml`,
    )
    .action(async (paths: string[], opts: VerifyOptions) => {
      if (!['text', 'json', 'junit'].includes(opts.format)) fail(`--format must be text, json or junit (got ${opts.format})`)
      const concurrency = concurrencyOf(opts.concurrency, fail)
      const flows = await loadFlows(paths, fail)
      const seeded = seedOf(opts, fail)
      const { verifyFlows } = await import('./verify.js')
      const { jsonReport, junitReport, textReport } = await import('./verify-report.js')
      const { startSandbox } = await import('../index.js')
      const { encryptionKey } = keysFromEnv()
      const against = opts.against?.replace(/\/+$/, '')
      let sandboxAt: boolean
      try {
        sandboxAt = against ? await isSandbox(against) : true
      } catch (e) {
        fail(`cannot reach ${against}: ${(e as Error).message}`, 1)
      }
      const live = against && !sandboxAt ? liveTarget(against, fail) : undefined
      // the in-process sandbox: the target by default, else the one whose whole answers are expected
      const local = await startSandbox({ port: 0, encryptionKey, ...seeded })
      try {
        const target = live ?? { baseUrl: against ?? local.url, live: false, encryptionKey }
        const reference = against ? { baseUrl: local.url, encryptionKey } : undefined
        const report = await verifyFlows(flows, target, { reference, concurrency, seed: seeded.seed })
        const text = textReport(report)
        const chosen = opts.format === 'json' ? jsonReport(report) : opts.format === 'junit' ? junitReport(report) : text
        printReport(text, chosen, opts.output)
        process.exitCode = report.differences.length ? 1 : 0
      } finally {
        await local.close()
      }
    })
}

import type { Command } from 'commander'
import { readFileSync } from 'node:fs'
import { clientFromEnv, keysFromEnv } from './config.js'
import { OPTIONS } from './config-options.js'
import type { OutcomeReport } from './control/report-format.js'
import { callSandbox } from './sandbox-client.js'

interface ReportOptions {
  key: string
  baseUrl: string
  controlToken?: string
  all?: boolean
  format: string
  unmet: string
  require?: string
  min?: string
  since?: string
}

const FORMATS = ['text', 'json', 'markdown', 'junit']

/**
 * `sandbox report` (docs/behaviour.md#readiness-report): the readiness report of a running sandbox, asked of
 * `GET /_sandbox/report`, in a format, gated by `--require` and `--min`, compared with a former
 * JSON report by `--since`. Exit 1 when the gate fails, 2 on a mistake of use.
 */
export function registerReport(program: Command, fail: (message: string, code?: number) => never): void {
  program
    .command('report')
    .description('which outcomes of the catalogue your calls met (docs/outcomes.md), and what your webhook receiver answered; exit 1 when --require or --min is not met')
    .option('--key <key>', "the namespace's secret key", keysFromEnv().secretKey)
    .option('--base-url <url>', 'the running sandbox (env: SANDBOX_URL)', clientFromEnv().baseUrl)
    .option('--control-token <token>', `the sandbox's control token, when it is called beyond loopback (env: ${OPTIONS.controlToken.env})`, clientFromEnv().controlToken)
    .option('--all', 'every namespace: an outcome is met when one of them met it')
    .option('--format <format>', 'text, json, markdown (a CI step summary) or junit (one test case per outcome)', 'text')
    .option('--unmet <how>', 'junit: an unmet outcome is a skipped or a failed test case (skip or fail)', 'skip')
    .option('--require <ids>', 'outcomes that must have been met, comma-separated (card.otp,transfer.failed,webhook.charge.failed)')
    .option('--min <percent>', "each area's share of its outcomes that must have been met")
    .option('--since <file>', 'a former JSON report: list what it met that this run did not')
    .addHelpText('after', `\nExamples:\n  $ sandbox report --key sk_test_ci\n  $ sandbox report --all --format markdown >> "$GITHUB_STEP_SUMMARY"\n  $ sandbox report --require card.otp,transfer.failed,webhook.charge.failed --min 50\n  $ sandbox report --format json > outcomes.json; sandbox report --since outcomes.json`)
    .action(async (opts: ReportOptions) => {
      if (!FORMATS.includes(opts.format)) fail(`--format must be one of ${FORMATS.join(', ')}`)
      if (opts.unmet !== 'skip' && opts.unmet !== 'fail') fail('--unmet must be skip or fail')
      const min = opts.min === undefined ? undefined : Number(opts.min)
      if (min !== undefined && !(opts.min!.trim() !== '' && Number.isFinite(min) && min >= 0 && min <= 100)) fail('--min must be a percentage from 0 to 100')
      const require = opts.require?.split(',').map((s) => s.trim()).filter(Boolean)
      const format = await import('./control/report-format.js')
      let former: OutcomeReport | undefined
      if (opts.since !== undefined) {
        let raw: unknown
        try {
          raw = JSON.parse(readFileSync(opts.since, 'utf8'))
        } catch (e) {
          fail(`cannot read ${opts.since}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
        }
        if (!format.isReport(raw)) fail(`${opts.since} is not a JSON report of sandbox report --format json`)
        former = raw
      }
      const { res, body } = await callSandbox<OutcomeReport>(opts, `/_sandbox/report${opts.all ? '?scope=all' : ''}`, fail)
      if (!res.ok || !body?.status || !body.data) fail(`the sandbox answered ${res.status}: ${body?.message ?? 'no report'}`, 1)
      const report = body.data
      const lost = former ? format.stoppedCovering(report, former) : []
      const failures = format.gateFailures(report, { require, min })
      if (opts.format === 'json') process.stdout.write(`${JSON.stringify(former ? { ...report, no_longer_met: lost } : report, null, 2)}\n`)
      else if (opts.format === 'markdown') process.stdout.write(format.reportMarkdown(report, lost, failures))
      else if (opts.format === 'junit') process.stdout.write(format.reportJunit(report, opts.unmet as 'skip' | 'fail'))
      else process.stdout.write(format.reportText(report, lost))
      if (failures.length) {
        process.stderr.write(`sandbox: the gate failed:\n${failures.map((f) => `  ${f}\n`).join('')}`)
        process.exitCode = 1
      }
    })
}

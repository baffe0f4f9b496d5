/**
 * What the webhook probe answers (docs/behaviour.md#webhook-probe), and its text: the control call answers
 * the report as JSON, `sandbox probe-webhook` prints it as text or that JSON. No other import, so
 * the CLI loads nothing of the app to print it.
 */

/** How a delivery of the probe was signed. */
export type ProbeSignature = 'valid' | 'bad' | 'other body' | 'missing'

/** One delivery the handler got, and what the sandbox saw of it. */
export interface ProbeDelivery {
  event: string
  /** `data.reference` of the delivery */
  reference: string
  /** `data.status` of the delivery */
  status: string
  signature: ProbeSignature
  /** the handler's answer, or why there was none (`timeout: no answer within N ms` ...) */
  status_code?: number
  error?: string
  ms: number
  /** the journal shows a query of the transaction between the delivery and its answer */
  queried: boolean
}

export interface ProbeCheck {
  /** `signed`, `bad_signature` ... (PROBE_CHECKS) */
  check: string
  passed: boolean
  /** what was seen, and on a failure what to change */
  why: string
  deliveries: ProbeDelivery[]
}

export interface ProbeReport {
  url: string
  timeout_ms: number
  passed: boolean
  checks: ProbeCheck[]
}

/** The checks, in the order they run, each with the line the text report gives it. */
export const PROBE_CHECKS = {
  signed: 'a correctly signed event is answered 2xx in time',
  bad_signature: 'a bad signature is refused',
  other_body_signature: "another body's signature is refused",
  missing_signature: 'a delivery without a signature is refused',
  event_name: 'the same data under another event name is refused or queried',
  duplicate: 'a duplicate delivery is refused or queried',
  out_of_order: 'a failed event after a success is refused or queried',
  timeout: 'every delivery is answered within the timeout',
} as const

export type ProbeCheckName = keyof typeof PROBE_CHECKS

/** The report as text: a line per check (PASS or FAIL, what it checks), why under it, then the count. */
export function probeText(report: ProbeReport): string {
  const lines = [`Webhook probe of ${report.url} (timeout ${report.timeout_ms} ms)`, '']
  for (const c of report.checks) {
    lines.push(`${c.passed ? 'PASS' : 'FAIL'}  ${c.check}: ${PROBE_CHECKS[c.check as ProbeCheckName] ?? c.check}`)
    lines.push(`      ${c.why}`)
  }
  const passed = report.checks.filter((c) => c.passed).length
  lines.push('', `${passed} of ${report.checks.length} checks passed`)
  return `${lines.join('\n')}\n`
}

/**
 * The readiness report's shape, its formats, its gate and its comparison with a former report
 * (docs/behaviour.md#readiness-report): what `GET /_sandbox/report` answers, and what `sandbox report` and the
 * GitHub Action make of it without loading the app (this module imports nothing).
 */

export interface ReportOutcome {
  id: string
  /** the area that declares it (`webhooks` for an event the receiver answered) */
  area: string
  label: string
  met: boolean
  /** the reference of the record that met it (the first found), null when unmet */
  reference: string | null
}

export interface AreaShare {
  area: string
  met: number
  total: number
  percent: number
}

/** What the webhook receiver answered to the deliveries of one event type. */
export interface WebhookAnswers {
  event: string
  /** events of the type recorded */
  events: number
  /** answered 2xx at the first attempt */
  first_try: number
  /** answered 2xx after one or more failed attempts */
  after_retries: number
  /** never answered 2xx (yet): every attempt failed, or it is still being retried */
  never: number
  /** no webhook URL was set: recorded, not sent */
  no_target: number
}

export interface OutcomeReport {
  /** `namespace`: the key's namespace; `all`: every namespace, an outcome met when one of them met it */
  scope: 'namespace' | 'all'
  met: number
  total: number
  percent: number
  areas: AreaShare[]
  outcomes: ReportOutcome[]
  webhooks: WebhookAnswers[]
}

export const percentOf = (met: number, total: number): number => (total ? Math.round((met / total) * 1000) / 10 : 100)

/** Each area's share of its outcomes met, in the catalogue's order. */
export function sharesOf(outcomes: readonly ReportOutcome[]): AreaShare[] {
  const by = new Map<string, { met: number; total: number }>()
  for (const o of outcomes) {
    const a = by.get(o.area) ?? { met: 0, total: 0 }
    a.total++
    if (o.met) a.met++
    by.set(o.area, a)
  }
  return [...by].map(([area, { met, total }]) => ({ area, met, total, percent: percentOf(met, total) }))
}

/** What a gate asks: outcomes that must be met, and a share each area must reach. */
export interface Gate {
  require?: readonly string[]
  min?: number
}

/** Why a gate fails: one line per outcome missing or area short; empty when it passes. */
export function gateFailures(report: OutcomeReport, gate: Gate): string[] {
  const byId = new Map(report.outcomes.map((o) => [o.id, o]))
  const lines: string[] = []
  for (const id of gate.require ?? []) {
    const o = byId.get(id)
    if (!o) lines.push(`${id}: no such outcome in the catalogue`)
    else if (!o.met) lines.push(`${id}: not met (${o.label})`)
  }
  if (gate.min !== undefined) for (const a of report.areas) if (a.percent < gate.min) lines.push(`${a.area}: ${a.percent}% of ${a.total} outcomes met, under ${gate.min}%`)
  return lines
}

/** What a former report (`--since`) had met that this one has not: the outcomes the suite stopped covering. */
export function stoppedCovering(report: OutcomeReport, former: OutcomeReport): ReportOutcome[] {
  const now = new Map(report.outcomes.map((o) => [o.id, o]))
  return former.outcomes.filter((o) => o.met && !now.get(o.id)?.met)
}

/** A JSON text is a former report when it has the report's lists. */
export function isReport(x: unknown): x is OutcomeReport {
  const r = x as OutcomeReport | null
  return !!r && typeof r === 'object' && Array.isArray(r.outcomes) && Array.isArray(r.areas) && r.outcomes.every((o) => o && typeof o.id === 'string' && typeof o.met === 'boolean')
}

const answersLine = (w: WebhookAnswers) => `${w.first_try} at first try, ${w.after_retries} after retries, ${w.never} never${w.no_target ? `, ${w.no_target} not sent (no webhook URL)` : ''}`

/** The report as the terminal shows it. */
export function reportText(r: OutcomeReport, lost: readonly ReportOutcome[] = []): string {
  const out = [`Outcomes met: ${r.met} of ${r.total} (${r.percent}%)${r.scope === 'all' ? ', every namespace' : ''}`, '']
  for (const a of r.areas) {
    out.push(`${a.area}: ${a.met}/${a.total} (${a.percent}%)`)
    for (const o of r.outcomes.filter((x) => x.area === a.area)) out.push(`  ${o.met ? 'met  ' : 'unmet'} ${o.id}${o.met ? `  (${o.reference})` : ''}  ${o.label}`)
  }
  const sent = r.webhooks.filter((w) => w.events)
  if (sent.length) out.push('', 'Webhook receiver', ...sent.map((w) => `  ${w.event}: ${answersLine(w)}`))
  if (lost.length) out.push('', 'No longer met (met in the former report)', ...lost.map((o) => `  ${o.id}  ${o.label}`))
  return `${out.join('\n')}\n`
}

/** Text for a Markdown table's cell: its pipes escaped. */
export const cell = (s: string) => s.replace(/\|/g, '\\|')

/** The report as Markdown, for a CI job's step summary. */
export function reportMarkdown(r: OutcomeReport, lost: readonly ReportOutcome[] = [], failures: readonly string[] = []): string {
  const out = ['## Can I go live? Outcomes met', '', `**${r.met} of ${r.total}** outcomes met (${r.percent}%)${r.scope === 'all' ? ' over every namespace' : ''}.`, '']
  if (failures.length) out.push('### Gate failed', '', ...failures.map((f) => `- ${cell(f)}`), '')
  if (lost.length) out.push('### No longer met', '', ...lost.map((o) => `- \`${o.id}\` ${cell(o.label)}`), '')
  out.push('| area | met | of | share |', '|---|---:|---:|---:|', ...r.areas.map((a) => `| ${a.area} | ${a.met} | ${a.total} | ${a.percent}% |`), '')
  const sent = r.webhooks.filter((w) => w.events)
  if (sent.length) out.push('| webhook event | first try | after retries | never | not sent |', '|---|---:|---:|---:|---:|', ...sent.map((w) => `| ${w.event} | ${w.first_try} | ${w.after_retries} | ${w.never} | ${w.no_target} |`), '')
  out.push('<details><summary>Every outcome</summary>', '', '| outcome | met | reference | what |', '|---|---|---|---|')
  for (const o of r.outcomes) out.push(`| \`${o.id}\` | ${o.met ? 'yes' : 'no'} | ${o.reference ? `\`${cell(o.reference)}\`` : ''} | ${cell(o.label)} |`)
  out.push('', '</details>')
  return `${out.join('\n')}\n`
}

/** Text for a JUnit XML attribute or element (the readiness report's and replay's alike). */
export const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The report as JUnit XML: one test suite per area, one test case per outcome; unmet is skipped or failed. */
export function reportJunit(r: OutcomeReport, unmet: 'skip' | 'fail' = 'skip'): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="outcomes" tests="${r.total}" ${unmet === 'fail' ? 'failures' : 'skipped'}="${r.total - r.met}">`]
  for (const a of r.areas) {
    const unmetHere = a.total - a.met
    out.push(`  <testsuite name="${xmlEscape(a.area)}" tests="${a.total}" failures="${unmet === 'fail' ? unmetHere : 0}" skipped="${unmet === 'skip' ? unmetHere : 0}">`)
    for (const o of r.outcomes.filter((x) => x.area === a.area)) {
      const open = `    <testcase classname="${xmlEscape(a.area)}" name="${xmlEscape(o.id)}"`
      if (o.met) out.push(`${open}><system-out>${xmlEscape(`met by ${o.reference}: ${o.label}`)}</system-out></testcase>`)
      else if (unmet === 'skip') out.push(`${open}><skipped message="${xmlEscape(`not met: ${o.label}`)}"/></testcase>`)
      else out.push(`${open}><failure message="${xmlEscape(`not met: ${o.label}`)}"/></testcase>`)
    }
    out.push('  </testsuite>')
  }
  out.push('</testsuites>')
  return `${out.join('\n')}\n`
}

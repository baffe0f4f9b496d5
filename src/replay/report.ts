import { xmlEscape } from '../control/report-format.js'
import type { FlowResult } from './runner.js'

export { xmlEscape }

const fmt = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v))

/** A step as the reports name it: its number in the flow and its name. */
export const stepLabel = (s: { index: number; name: string }) => `${s.index + 1}. ${s.name}`


/** A readable report: a line per flow, and for a failed one each step with the diff. */
export function prettyReport(results: FlowResult[], { color = false } = {}): string {
  const c = (code: number, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s)
  const lines: string[] = []
  for (const r of results) {
    lines.push(`${r.ok ? c(32, '✓') : c(31, '✗')} ${r.file}  ${r.name}  (${r.steps.length} steps, ${r.ms} ms)`)
    if (r.ok) continue
    for (const s of r.steps) {
      lines.push(`    ${s.ok ? c(32, '✓') : c(31, '✗')} ${stepLabel(s)}${s.status ? `  [${s.status}]` : ''}`)
      if (s.error) lines.push(`        ${s.error}`)
      for (const m of s.mismatches) lines.push(`        ${m.path}: expected ${fmt(m.expected)}, got ${fmt(m.actual)}`)
    }
  }
  const failed = results.filter((r) => !r.ok).length
  lines.push('')
  lines.push(`${results.length - failed} passed, ${failed} failed`)
  return lines.join('\n') + '\n'
}

/** JUnit XML: a testsuite per flow, a testcase per step. */
export function junitReport(results: FlowResult[]): string {
  const tests = results.reduce((n, r) => n + r.steps.length, 0)
  const failures = results.reduce((n, r) => n + r.steps.filter((s) => !s.ok).length, 0)
  const time = seconds(results.reduce((t, r) => t + r.ms, 0))
  return junitXml(`name="paysandbox replay" tests="${tests}" failures="${failures}" time="${time}"`, results, {
    counts: (r) => ({ failures: r.steps.filter((s) => !s.ok).length }),
    holds: (_r, s) => {
      if (s.ok) return []
      const detail = [s.error, ...s.mismatches.map((m) => `${m.path}: expected ${fmt(m.expected)}, got ${fmt(m.actual)}`)].filter(Boolean).join('\n')
      return [`<failure message="${xmlEscape(detail.split('\n')[0] ?? 'failed')}">${xmlEscape(detail)}</failure>`]
    },
  })
}

const seconds = (ms: number) => (ms / 1000).toFixed(3)

/** What a JUnit report reads of a flow and its steps. */
interface JunitFlow {
  name: string
  file: string
  ms: number
  steps: readonly { index: number; name: string; ms: number }[]
}

/**
 * The JUnit XML document of replay and verify (docs/behaviour.md#replay, docs/behaviour.md#verify): `<testsuites>` with
 * `attrs`, a testsuite per flow (its tests, then the `counts` of each kind, then its time), a
 * testcase per step holding the elements `holds` gives it (a failure, a skip).
 */
export function junitXml<F extends JunitFlow>(
  attrs: string,
  flows: readonly F[],
  of: { counts: (flow: F) => Record<string, number>; holds: (flow: F, step: F['steps'][number]) => string[] },
): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites ${attrs}>`]
  for (const f of flows) {
    const counts = Object.entries(of.counts(f)).map(([name, n]) => ` ${name}="${n}"`).join('')
    out.push(`  <testsuite name="${xmlEscape(f.name)}" file="${xmlEscape(f.file)}" tests="${f.steps.length}"${counts} time="${seconds(f.ms)}">`)
    for (const s of f.steps) {
      out.push(`    <testcase classname="${xmlEscape(f.file)}" name="${xmlEscape(stepLabel(s))}" time="${seconds(s.ms)}">`)
      for (const element of of.holds(f, s)) out.push(`      ${element}`)
      out.push('    </testcase>')
    }
    out.push('  </testsuite>')
  }
  out.push('</testsuites>')
  return out.join('\n') + '\n'
}

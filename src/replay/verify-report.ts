import { junitXml, stepLabel, xmlEscape as esc } from './report.js'
import { ABSENT } from './shape.js'
import type { Difference, VerifyReport } from './verify.js'

/** The three reports of `sandbox verify` (docs/behaviour.md#verify). */

const shown = (v: unknown) => (v === ABSENT ? ABSENT : JSON.stringify(v))

/** One difference, one line: the flow, the step, the path and both values. */
export const differenceLine = (d: Difference) => `${d.flow}  step ${d.step}  ${d.path}: expected ${shown(d.expected)}, got ${shown(d.got)}`

export function textReport(r: VerifyReport): string {
  const lines = r.differences.map(differenceLine)
  const skipped = r.skipped.length ? `, ${r.skipped.length} skipped (not checkable live; --format json lists them)` : ''
  lines.push(`${r.flows} flows, ${r.steps} steps checked${skipped}: ${r.differences.length ? `${r.differences.length} differences` : 'no difference'}`)
  return lines.join('\n') + '\n'
}

export function jsonReport(r: VerifyReport): string {
  return JSON.stringify({ flows: r.flows, steps: r.steps, skipped: r.skipped, differences: r.differences }, null, 2) + '\n'
}

/** JUnit XML: a testsuite per flow, a testcase per step, failed by its differences or skipped. */
export function junitReport(r: VerifyReport): string {
  const tests = r.results.reduce((n, f) => n + f.steps.length, 0)
  // each failing step's differences, once
  const byStep = new Map<string, Difference[]>()
  for (const d of r.differences) {
    const key = `${d.flow}\n${d.step}`
    byStep.set(key, [...(byStep.get(key) ?? []), d])
  }
  const mine = (file: string, s: { index: number; name: string }) => byStep.get(`${file}\n${stepLabel(s)}`) ?? []
  return junitXml(`name="paysandbox verify" tests="${tests}" failures="${byStep.size}" skipped="${r.skipped.length}"`, r.results, {
    counts: (f) => ({ failures: f.steps.filter((s) => mine(f.file, s).length).length, skipped: f.steps.filter((s) => s.skipped).length }),
    holds: (f, s) => {
      const diffs = mine(f.file, s)
      return [
        ...(s.skipped ? [`<skipped message="${esc(s.skipped)}"/>`] : []),
        ...(diffs.length ? [`<failure message="${esc(`${diffs.length} differences`)}">${esc(diffs.map(differenceLine).join('\n'))}</failure>`] : []),
      ]
    },
  })
}

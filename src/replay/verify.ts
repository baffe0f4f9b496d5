import type { Flow, Mismatch, Step } from '../flow/flow.js'
import { runFlows, type FlowResult, type StepAt, type StepResult } from './runner.js'
import { stepLabel as label } from './report.js'
import { compareShape } from './shape.js'

/**
 * `sandbox verify` (docs/behaviour.md#verify): replays flows against a target and compares each
 * answer with the expected one by shape (`src/replay/shape.ts`). The expected answer is the
 * flow's expectation; against another URL than the in-process sandbox it is the whole answer a
 * fresh in-process sandbox gives to the same step (a recorded expectation, `whole`, stays as it is).
 */

export interface Target {
  baseUrl: string
  encryptionKey: string
  /** the live service (anything not a sandbox): one key for every flow, and the sandbox's own steps skipped */
  live: boolean
  key?: string
  publicKey?: string
}

export interface Difference {
  flow: string
  step: string
  path: string
  expected: unknown
  got: unknown
}

export interface Skipped {
  flow: string
  step: string
  reason: string
}

export interface VerifyReport {
  flows: number
  steps: number
  skipped: Skipped[]
  differences: Difference[]
  /** every flow's run, for the JUnit report */
  results: FlowResult[]
}

const moves = (s: Step) => s.advance !== undefined || (s.request !== undefined && s.request.path.startsWith('/_sandbox') && s.request.method !== 'GET')

/** A step only a sandbox can take: its clock, its webhook URL, its event log, its control calls and pages under `/_sandbox`. */
export function sandboxOnly(s: Step): boolean {
  return s.advance !== undefined || s.freeze !== undefined || s.webhook_url !== undefined || s.wait_event !== undefined || !!s.request?.path.startsWith('/_sandbox')
}

/**
 * Why the live check does not run a step, or undefined when it does: a step only a sandbox can
 * take, a step the flow marks `live: false`, and, unless it is marked `live: true`, any step after
 * one that moved the sandbox (its clock or a control call), whose answer the live service could not give.
 */
export function notLive(steps: readonly Step[], index: number): string | undefined {
  const step = steps[index]
  if (sandboxOnly(step)) return 'only a sandbox can take it'
  if (step.live === false) return 'the flow marks it live: false'
  if (step.live === true) return undefined
  const mover = steps.slice(0, index).findIndex(moves)
  return mover < 0 ? undefined : `it follows step ${mover + 1}, which only a sandbox can take`
}

/** Compares one answer with the expected one: the HTTP status as `(status)`, the body by shape. */
function compareStep(expected: { status?: number; body?: unknown; whole: boolean } | undefined, answer: { status: number; body: unknown }, strict: boolean): Mismatch[] {
  if (!expected) return []
  const out: Mismatch[] = []
  if (expected.status !== undefined && expected.status !== answer.status) out.push({ path: '(status)', expected: expected.status, actual: answer.status })
  if (expected.body !== undefined) out.push(...compareShape(expected.body, answer.body, expected.whole, '', strict))
  return out
}

/**
 * Verifies the flows against the target; `reference` is the in-process sandbox whose whole answers
 * are expected, absent when it is the target itself; `strict` compares values and key order too
 * (`compareShape`, the conformance corpus's tier 3).
 */
export async function verifyFlows(
  flows: { flow: Flow; file: string }[],
  target: Target,
  options: { reference?: { baseUrl: string; encryptionKey: string }; concurrency: number; seed?: number; strict?: boolean },
): Promise<VerifyReport> {
  const answers = new Map<string, StepResult[]>()
  if (options.reference) {
    const ran = await runFlows(flows, { ...options.reference, concurrency: options.concurrency, seed: options.seed, keepGoing: true, compare: () => [] })
    for (const r of ran) answers.set(r.file, r.steps)
  }
  const expectedAt = (at: StepAt, expect: Step['expect']) => {
    if (expect?.whole) return { status: expect.status, body: expect.body, whole: true }
    const ref = answers.get(at.file)?.find((s) => s.index === at.index)
    if (ref?.status !== undefined) return { status: ref.status, body: ref.body, whole: true }
    return expect && { status: expect.status, body: expect.body, whole: false }
  }
  const results = await runFlows(flows, {
    baseUrl: target.baseUrl,
    encryptionKey: target.encryptionKey,
    key: target.key,
    publicKey: target.publicKey,
    concurrency: options.concurrency,
    seed: options.seed,
    keepGoing: true,
    skip: target.live ? notLive : undefined,
    compare: (at, expect, answer) => compareStep(expectedAt(at, expect), answer, options.strict ?? false),
  })
  const report: VerifyReport = { flows: results.length, steps: 0, skipped: [], differences: [], results }
  for (const r of results) {
    for (const s of r.steps) {
      if (s.skipped) {
        report.skipped.push({ flow: r.file, step: label(s), reason: s.skipped })
        continue
      }
      report.steps++
      for (const m of s.mismatches) report.differences.push({ flow: r.file, step: label(s), path: m.path, expected: m.expected, got: m.actual })
      if (s.error) report.differences.push({ flow: r.file, step: label(s), path: '(step)', expected: 'an answer', got: s.error })
    }
  }
  return report
}

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { encryptChargeData } from '../cards/index.js'
import { interpolate, match, pick, UnknownVariableError, type Flow, type Mismatch, type Step, type Vars } from '../flow/flow.js'
import { Random } from '../random.js'

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

export interface StepResult {
  index: number
  name: string
  ok: boolean
  ms: number
  /** what went wrong: mismatches, or an error text */
  mismatches: Mismatch[]
  error?: string
  status?: number
  /** the answer's body (parsed JSON, or its text) */
  body?: unknown
  /** why the step was not run (`sandbox verify` against the live service) */
  skipped?: string
}

export interface FlowResult {
  file: string
  name: string
  ok: boolean
  ms: number
  steps: StepResult[]
}

export interface RunOptions {
  baseUrl: string
  /** the flow's namespace key; a fresh one per flow by default */
  key?: string
  encryptionKey: string
  /**
   * under a seed, the names a flow makes up (its key, `ref`) are drawn from it, a stream per flow
   * file, and no step is timed (docs/behaviour.md#seed-and-clock-start)
   */
  seed?: number
  /** the public key the flow's `${public_key}` stands for; by default the secret key's, `sk_` made `pk_` */
  publicKey?: string
  onStep?: (flow: Flow, result: StepResult) => void
  /** a reason not to run a step, or undefined to run it; a later step using what it would have saved is not run either */
  skip?: (steps: readonly Step[], index: number) => string | undefined
  /** compares a request step's answer with its expectation (interpolated); by default the subset match of `match` */
  compare?: (at: StepAt, expect: Step['expect'], answer: { status: number; body: unknown }) => Mismatch[]
  /** go on after a step whose answer differs (an error still ends the flow) */
  keepGoing?: boolean
}

/** Which step of which flow file an answer is to. */
export interface StepAt {
  file: string
  index: number
}

/** The subset match `sandbox replay` checks a step with (docs/behaviour.md#flow-files). */
function matchExpectation(_at: StepAt, exp: Step['expect'], res: { status: number; body: unknown }): Mismatch[] {
  if (!exp) return []
  const out: Mismatch[] = []
  if (exp.status !== undefined && exp.status !== res.status) out.push({ path: 'status', expected: exp.status, actual: res.status })
  if (exp.body !== undefined) out.push(...match(exp.body, res.body))
  return out
}

/** The variables a step sets for the steps after it. */
function savedBy(step: Step): string[] {
  if (step.receiver) return ['receiver_url']
  return Object.keys(step.save ?? step.wait_event?.save ?? {})
}

/** The first variable a step uses from `unset`, if any. */
function usesAny(step: Step, unset: Set<string>): string | undefined {
  const text = JSON.stringify(step)
  return [...unset].find((name) => text.includes(`\${${name}}`))
}

/** Describes a step for the report: its name, or what it does. */
export function stepLabel(step: Step, index: number): string {
  if (step.name) return step.name
  if (step.request) return `${step.request.method} ${step.request.path}`
  if (step.advance !== undefined) return `advance the clock ${step.advance} s`
  if (step.freeze !== undefined) return step.freeze ? 'freeze the clock' : 'unfreeze the clock'
  if (step.webhook_url !== undefined) return `set the webhook URL`
  if (step.receiver) return 'start a webhook receiver'
  if (step.wait_event) return `wait for ${step.wait_event.event ?? 'an event'}`
  return `step ${index + 1}`
}

/** A local receiver a flow can point webhooks at; it fails the first N posts with 500. */
async function startFlowReceiver(failFirst: number): Promise<{ url: string; server: Server; received: unknown[] }> {
  const received: unknown[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'))
      res.statusCode = received.length <= failFirst ? 500 : 200
      res.end()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, server, received }
}

/**
 * Runs one flow: each step in order, stopping at the first failure. Every flow gets its own
 * namespace (a fresh `sk_test_flow_...` key), so flows can run in parallel and again.
 */
export async function runFlow(flow: Flow, file: string, options: RunOptions): Promise<FlowResult> {
  const random = new Random(options.seed)
  const id = () => random.text(`flow:${file}`, ID_ALPHABET, 10)
  const key = options.key ?? `sk_test_flow_${id()}`
  const vars: Vars = { ...flow.vars, ref: `flow-${id()}`, key, public_key: options.publicKey ?? key.replace(/^sk_/, 'pk_'), base_url: options.baseUrl }
  const unset = new Set<string>()
  const results: StepResult[] = []
  const servers: Server[] = []
  const elapsed = random.stopwatch()
  const call = async (method: string, path: string, body?: unknown, opts: { key?: string | null; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers }
    const k = opts.key === undefined ? key : opts.key
    if (k) headers.authorization = `Bearer ${k}`
    if (body !== undefined) headers['content-type'] ??= 'application/json'
    // a string body goes as it is (a form, say); anything else as JSON
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
    const res = await fetch(`${options.baseUrl}${path}`, { method, headers, body: payload, redirect: 'manual' })
    const text = await res.text()
    let json: unknown = text
    try {
      json = JSON.parse(text)
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: json }
  }
  try {
    for (const [index, step] of flow.steps.entries()) {
      const took = random.stopwatch()
      const result: StepResult = { index, name: stepLabel(step, index), ok: true, ms: 0, mismatches: [] }
      const unsetVar = usesAny(step, unset)
      result.skipped = options.skip?.(flow.steps, index) ?? (unsetVar && `it uses \${${unsetVar}}, which a step not run would have saved`)
      if (result.skipped) {
        for (const name of savedBy(step)) unset.add(name)
        results.push(result)
        options.onStep?.(flow, result)
        continue
      }
      try {
        await runStep(step, { file, index }, vars, call, result, servers, options.compare ?? matchExpectation)
      } catch (e) {
        result.ok = false
        result.error = e instanceof UnknownVariableError ? e.message : `${(e as Error).message}`
      }
      result.ms = Math.round(took())
      results.push(result)
      options.onStep?.(flow, result)
      if (!result.ok && (result.error || !options.keepGoing)) break
    }
  } finally {
    for (const s of servers) {
      s.closeAllConnections()
      s.close()
    }
  }
  return { file, name: flow.name, ok: results.every((r) => r.ok) && results.length === flow.steps.length, ms: Math.round(elapsed()), steps: results }
}

type Call = (method: string, path: string, body?: unknown, opts?: { key?: string | null; headers?: Record<string, string> }) => Promise<{ status: number; body: unknown }>

type Compare = NonNullable<RunOptions['compare']>

async function runStep(step: Step, at: StepAt, vars: Vars, call: Call, result: StepResult, servers: Server[], compare: Compare): Promise<void> {
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body)
    if (res.status !== 200) {
      result.ok = false
      result.status = res.status
      result.error = `${method} ${path} answered ${res.status}: ${(res.body as { message?: string })?.message ?? ''}`
    }
    return res
  }
  if (step.request) {
    const req = interpolate(step.request, vars) as NonNullable<Step['request']>
    let body = req.body
    if (req.encrypt) {
      const encKey = String(vars.encryption_key)
      body = { charge_data: encryptChargeData(body, encKey) }
    }
    const res = await call(req.method, req.path, body, { key: req.key, headers: req.headers })
    result.status = res.status
    result.body = res.body
    result.mismatches.push(...compare(at, interpolate(step.expect, vars) as Step['expect'], res))
    for (const [name, path] of Object.entries(step.save ?? {})) {
      const v = pick(res.body, path)
      if (v === undefined) result.mismatches.push({ path: `save ${name} <- ${path}`, expected: 'a value', actual: undefined })
      vars[name] = v
    }
    if (result.mismatches.length) result.ok = false
    return
  }
  if (step.advance !== undefined) return void (await control('POST', '/_sandbox/clock/advance', { seconds: step.advance }))
  if (step.freeze !== undefined) return void (await control('POST', '/_sandbox/clock/freeze', { frozen: step.freeze }))
  if (step.webhook_url !== undefined) {
    return void (await control('PUT', '/_sandbox/webhook-url', { url: step.webhook_url === null ? null : interpolate(step.webhook_url, vars) }))
  }
  if (step.receiver) {
    const rx = await startFlowReceiver(step.receiver.fail_first ?? 0)
    servers.push(rx.server)
    vars.receiver_url = rx.url
    return
  }
  if (step.wait_event) {
    const w = interpolate(step.wait_event, vars) as NonNullable<Step['wait_event']>
    const q = new URLSearchParams()
    if (w.reference) q.set('reference', w.reference)
    if (w.event) q.set('event', w.event)
    if (w.status) q.set('status', w.status)
    q.set('wait', String(w.timeout_ms ?? 10_000))
    const res = await control('GET', `/_sandbox/events?${q}`)
    if (!result.ok) return
    const events = (res.body as { data: unknown[] }).data
    if (!events.length) {
      result.ok = false
      result.error = `no event matched ${q.toString()} within ${w.timeout_ms ?? 10_000} ms`
      return
    }
    if (w.expect !== undefined) result.mismatches.push(...match(w.expect, events[0], 'event'))
    for (const [name, path] of Object.entries(w.save ?? {})) vars[name] = pick(events[0], path)
    if (result.mismatches.length) result.ok = false
  }
}

/** Runs flows with at most `concurrency` at once, in their given order of results. */
export async function runFlows(
  flows: { flow: Flow; file: string }[],
  options: RunOptions & { concurrency?: number; bail?: boolean; onFlow?: (r: FlowResult, done: number, total: number) => void },
): Promise<FlowResult[]> {
  const results: FlowResult[] = new Array(flows.length)
  let next = 0
  let done = 0
  let stop = false
  const worker = async () => {
    while (!stop && next < flows.length) {
      const i = next++
      const { flow, file } = flows[i]
      const vars = { encryption_key: options.encryptionKey }
      const r = await runFlow({ ...flow, vars: { ...vars, ...flow.vars } }, file, options)
      results[i] = r
      done++
      options.onFlow?.(r, done, flows.length)
      if (!r.ok && options.bail) stop = true
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker))
  return results.filter(Boolean)
}

import { DocumentIssues, readDocumentFile } from '../files.js'
import { z } from 'zod'
import { describeIssues } from '../scenario/index.js'

/**
 * Flow files (docs/behaviour.md#packs-and-replay): a script of steps. Each step does exactly one thing: an API call
 * (`request`, with `expect` and `save`), or a control step (`advance`, `freeze`, `webhook_url`,
 * `receiver`, `wait_event`). Strings may use `${name}`: variables saved by earlier steps, the
 * flow's `vars`, and the built-ins `ref` (unique per run), `key`, `public_key`, `base_url`,
 * `receiver_url`.
 */

const requestSchema = z
  .object({
    method: z.enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']),
    path: z.string().startsWith('/', 'must start with /'),
    body: z.unknown().optional(),
    /** turn `body` into `{charge_data}` encrypted with the namespace's key */
    encrypt: z.boolean().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** send another key than the flow's (e.g. to check a refusal); null sends none */
    key: z.string().nullable().optional(),
  })
  .strict()

const expectSchema = z
  .object({
    status: z.number().int().min(100).max(599).optional(),
    /** subset match: exact values, `$any`, `{$regex: "..."}`, `{$absent: true}` */
    body: z.unknown().optional(),
    /** the body is the whole answer (a recorded one): `sandbox verify` reports a field beyond it */
    whole: z.boolean().optional(),
  })
  .strict()

const waitEventSchema = z
  .object({
    reference: z.string().optional(),
    event: z.string().optional(),
    status: z.enum(['pending', 'delivered', 'failed', 'no_target']).optional(),
    timeout_ms: z.number().int().min(1).max(30_000).optional(),
    /** subset match against the first matching event */
    expect: z.unknown().optional(),
    save: z.record(z.string(), z.string()).optional(),
  })
  .strict()

const receiverSchema = z
  .object({
    /** answer 500 to this many posts before answering 200 */
    fail_first: z.number().int().min(0).max(100).optional(),
  })
  .strict()

export const stepSchema = z
  .object({
    name: z.string().optional(),
    request: requestSchema.optional(),
    expect: expectSchema.optional(),
    save: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'variable names are letters, digits and _'), z.string()).optional(),
    advance: z.number().min(0).max(10 * 365 * 86400).optional(),
    freeze: z.boolean().optional(),
    webhook_url: z.string().nullable().optional(),
    receiver: receiverSchema.optional(),
    wait_event: waitEventSchema.optional(),
    /** whether `sandbox verify` runs this step against the live service (docs/behaviour.md#verify) */
    live: z.boolean().optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const actions = (['request', 'advance', 'freeze', 'webhook_url', 'receiver', 'wait_event'] as const).filter((k) => s[k] !== undefined)
    if (actions.length !== 1) {
      ctx.addIssue({ code: 'custom', message: `a step does exactly one of request, advance, freeze, webhook_url, receiver, wait_event (found ${actions.join(', ') || 'none'})` })
    }
    if ((s.expect || s.save) && !s.request) ctx.addIssue({ code: 'custom', path: ['expect'], message: 'expect and save go with a request' })
  })
export type Step = z.infer<typeof stepSchema>

export const flowSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    vars: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    steps: z.array(stepSchema).min(1),
  })
  .strict()
export type Flow = z.infer<typeof flowSchema>

/** A flow refused: its file and every issue found. */
export class FlowError extends DocumentIssues {}

/** Validates a parsed flow; errors name the file, the step and the field. */
export function validateFlow(raw: unknown, file: string): Flow {
  const r = flowSchema.safeParse(raw)
  if (!r.success) throw new FlowError(file, describeIssues(r.error))
  return r.data
}

export function loadFlowFile(file: string): Flow {
  return validateFlow(readDocumentFile(file, (why) => new FlowError(file, [why.message])), file)
}

/**
 * The flows of a file: a flow file's one flow, or, for a file of conformance entries
 * (`{entries: [{id, steps, ...}]}`, docs/behaviour.md#conformance), each entry's steps as a flow named
 * `FILE#id`; the entries' other fields are the corpus's, not the flow's.
 */
export function loadFlowFiles(file: string): { flow: Flow; file: string }[] {
  const raw = readDocumentFile(file, (why) => new FlowError(file, [why.message]))
  const entries = (raw as { entries?: unknown })?.entries
  if (!Array.isArray(entries) || (raw as { steps?: unknown }).steps !== undefined) return [{ flow: validateFlow(raw, file), file }]
  return entries.map((entry: { id?: unknown; description?: unknown; vars?: unknown; steps?: unknown }, i) => {
    const at = `${file}#${typeof entry?.id === 'string' ? entry.id : i}`
    return { flow: validateFlow({ name: entry?.id, description: entry?.description, vars: entry?.vars, steps: entry?.steps }, at), file: at }
  })
}

export type Vars = Record<string, unknown>

const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/
const PART = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g

export class UnknownVariableError extends Error {}

/** Replaces `${name}` everywhere in a value; a string that is only `${name}` keeps the variable's type. */
export function interpolate(value: unknown, vars: Vars): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value)
    if (whole) {
      if (!(whole[1] in vars)) throw new UnknownVariableError(`unknown variable \${${whole[1]}}`)
      return vars[whole[1]]
    }
    return value.replace(PART, (_, name: string) => {
      if (!(name in vars)) throw new UnknownVariableError(`unknown variable \${${name}}`)
      return String(vars[name])
    })
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, vars))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, vars)]))
  }
  return value
}

export interface Mismatch {
  path: string
  expected: unknown
  actual: unknown
}

/** Subset match of `actual` against `expected`; returns every mismatch with its dotted path. */
export function match(expected: unknown, actual: unknown, path = ''): Mismatch[] {
  const at = path || '(body)'
  if (expected === '$any') return actual === undefined ? [{ path: at, expected: 'any value', actual }] : []
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    const e = expected as Record<string, unknown>
    if ('$regex' in e && Object.keys(e).length === 1) {
      return typeof actual === 'string' && new RegExp(String(e.$regex)).test(actual) ? [] : [{ path: at, expected: `/${e.$regex}/`, actual }]
    }
    if ('$absent' in e && Object.keys(e).length === 1) return actual === undefined ? [] : [{ path: at, expected: 'absent', actual }]
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return [{ path: at, expected: 'an object', actual }]
    return Object.entries(e).flatMap(([k, v]) => match(v, (actual as Record<string, unknown>)[k], path ? `${path}.${k}` : k))
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path: at, expected: 'an array', actual }]
    if (actual.length !== expected.length) return [{ path: `${at}.length`, expected: expected.length, actual: actual.length }]
    return expected.flatMap((v, i) => match(v, actual[i], `${path}${path ? '.' : ''}${i}`))
  }
  return Object.is(expected, actual) || (expected === actual) ? [] : [{ path: at, expected, actual }]
}

/** Reads `data.transaction_reference` (dotted path, numeric parts index arrays). */
export function pick(value: unknown, path: string): unknown {
  let cur: unknown = value
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined) return undefined
    cur = (cur as Record<string, unknown>)[part]
  }
  return cur
}

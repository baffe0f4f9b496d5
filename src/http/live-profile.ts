import type { Context } from 'hono'
import type { AppEnv } from './context.js'
import type { Middleware } from './middleware/chain.js'
import { toDecimalString, toMinor } from '../money.js'

/**
 * The live profile (CONTRACT 15, docs/behaviour.md#live-profile): where an answer recorded from the live
 * test environment, or published by the service where nothing was recorded, contradicts the interface document
 * (docs/api.md), the default profile answers as it and a namespace under `profile: live` (the pack setting,
 * `--profile live`, `SANDBOX_PROFILE=live`) answers as recorded. Every such contradiction is one
 * row of `LIVE_ANSWERS`, applied to the answer as it is sent (`sendJson`), so the areas answer as
 * the document says and none of them asks which profile it is under; docs/behaviour.md#live-profile lists the
 * rows (test/live-profile.test.ts holds the two together).
 */

/** In a row's `live.data`: the field is left out under the live profile. */
export const DROP = Symbol('drop')
/** In a row's `live.data`: the field, a number of major units, is written as a decimal string (`500000` as `"500000.00"`). */
export const DECIMAL = Symbol('decimal')

export interface LiveAnswer {
  /** the calls it applies to, `METHOD /path` as the routes write them (under `/merchant` or not); every call when absent */
  route?: string
  /** the default profile's answer it replaces: each field given must match */
  when: { status?: number; message?: string; error?: string; code?: string; data?: Record<string, unknown> }
  /**
   * what the live profile answers instead: the fields given replace the default's (`code: null`
   * leaves it out); `customErrorMessage` writes each field's `{message}` in `data` again beside it;
   * `data` sets fields of `data` by their dotted paths (`DROP` leaves one out, `DECIMAL` writes its
   * number as a decimal string), where `when.data`
   * matches the fields it names
   */
  live: { status?: number; message?: string; code?: string | null; customErrorMessage?: true; data?: Record<string, unknown> }
  /** where the live answer was seen (a recording or a page), and the section of docs/api.md it contradicts */
  source: string
}

export const LIVE_ANSWERS: readonly LiveAnswer[] = [
  {
    when: { error: 'validation_error', message: 'Invalid request data' },
    live: { message: 'One or more fields are invalid. Please fix them and try again.', customErrorMessage: true },
    source: 'recorded from the live test environment, 2026-10 (CONTRACT 15), and the newest Postman sample (misc mobile-money resolve); docs/api.md 7.2 names Invalid request data',
  },
  {
    route: 'POST /merchant/api/v1/charges/card/authorize',
    when: { status: 409, message: 'Payment has already been completed' },
    live: { message: 'Transaction has already been completed' },
    source: "the collection's card authorize sample on a finished charge; docs/api.md 7.2 names Payment has already been completed for a completed payment",
  },
  {
    route: 'POST /merchant/api/v1/charges/card/resend-otp',
    when: { status: 409, message: 'Payment has already been completed' },
    live: { message: 'Transaction has already been completed' },
    source: "the collection's card resend-otp sample on a finished charge; docs/api.md 7.2 names Payment has already been completed for a completed payment",
  },
  {
    route: 'POST /merchant/api/v1/identities/gh/passport',
    when: { message: 'GH passport verified successfully' },
    live: { message: 'Passport verified successfully' },
    source: "the collection's Ghana passport sample (2025-07); docs/api.md 2.13 names GH passport verified successfully",
  },
  {
    route: 'POST /merchant/api/v1/charges/mobile-money',
    when: { code: 'AA001' },
    live: { code: null },
    source: "the collection's mobile-money charge samples (OTP and STK, 2023-08) write no code; docs/api.md 2.1 puts AA001 beside Authorization required",
  },
  {
    route: 'POST /merchant/api/v1/charges/card',
    when: { data: { auth_model: 'PIN', status: 'processing' } },
    live: { data: { status: 'pending', authorization: DROP } },
    source: "the collection's PIN card sample (status pending, no authorization); docs/api.md 2.3 and 3.1 give processing and authorization.required_fields",
  },
  {
    route: 'POST /merchant/api/v1/charges/card',
    when: { data: { auth_model: 'OTP' } },
    live: { data: { authorization: DROP } },
    source: "the collection's OTP card sample (no authorization); docs/api.md 2.3 gives authorization.required_fields while more is needed",
  },
  {
    route: 'POST /merchant/api/v1/charges/card/authorize',
    when: { data: { status: 'success' } },
    live: { data: { authorization: {} } },
    source: "the collection's authorize sample on success (authorization {}); docs/api.md 2.3 has authorization only while more is needed",
  },
  {
    route: 'POST /merchant/api/v1/charges/mobile-money/authorize',
    when: { code: 'AA001' },
    live: { code: null, data: { narration: DROP, customer: DROP } },
    source: "the collection's mobile-money authorize samples (OTP accepted, invalid OTP; 2023-08) write no code, narration or customer; docs/api.md 2.1 puts AA001 beside Authorization required and 4.2 gives data per 2.7",
  },
  {
    route: 'POST /merchant/api/v1/charges/mobile-money/sandbox/authorize-stk',
    when: { data: { status: 'success' } },
    live: { data: { narration: DROP, customer: DROP } },
    source: "the collection's authorize-stk sample on success (2023-08) writes no narration or customer; docs/api.md 2.7 lists both",
  },
  {
    route: 'GET /merchant/api/v1/direct-debit/authorizations/:reference',
    when: { status: 200, message: 'success' },
    live: { message: 'Direct debit authorization retrieved successfully', data: { amount: DECIMAL } },
    source: "the collection's authorization sample (2026-04, www-environment live): its text and amount \"100.00\"; docs/api.md 4.3 names success and 2.9 types amount a number",
  },
  {
    route: 'POST /merchant/api/v1/direct-debit/authorizations/:code/debits',
    when: { status: 200, message: 'success', data: { status: 'processing' } },
    live: { message: 'Variable authorization debited successfully', data: { status: 'pending', interbank_transaction_id: DROP } },
    source: "the collection's debit sample (2026-04, www-environment live): its text, status pending, no interbank_transaction_id; docs/api.md 4.3 names success, 2.10 and 3.5 give processing and the identifier",
  },
]

interface Compiled extends LiveAnswer {
  method?: string
  path?: RegExp
}

/** `/api/v1/...` and `/merchant/api/v1/...` alike; `:name` is one part. */
function routeMatcher(route: string): { method: string; path: RegExp } {
  const [method, path] = route.split(' ')
  const bare = path.replace(/^\/merchant/, '')
  const pattern = bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]\w*/g, '[^/]+')
  return { method, path: new RegExp(`^(/merchant)?${pattern}/?$`) }
}

const COMPILED: readonly Compiled[] = LIVE_ANSWERS.map((a) => ({ ...a, ...(a.route ? routeMatcher(a.route) : {}) }))

/** Marks a call of a namespace under the live profile, for `sendJson`; after the key named the namespace. */
export function liveProfile(isLive: (ns: string) => boolean): Middleware {
  return (c, next) => {
    if (isLive(c.get('ns'))) c.set('live', true)
    return next()
  }
}

type Body = { status?: unknown; message?: unknown; error?: unknown; code?: unknown; [k: string]: unknown }

/**
 * The answer a call marked live sends: the first row that matches the call and the default's
 * answer rewrites it; keys keep their order. Anything else is sent as it is.
 */
export function liveAnswer(c: Context<AppEnv>, text: string, status: number): { text: string; status: number } {
  const method = c.req.method
  const path = c.req.path
  let body: Body | undefined
  for (const row of COMPILED) {
    if (row.method && (row.method !== method || !row.path!.test(path))) continue
    if (row.when.status !== undefined && row.when.status !== status) continue
    body ??= parse(text)
    if (!body) return { text, status }
    if (!matches(row.when, body)) continue
    const next: Body = {}
    for (const [k, v] of Object.entries(body)) {
      // a code the default leaves out goes where the envelope writes it, before the message
      if (k === 'message' && row.live.code && !('code' in body)) next.code = row.live.code
      if (k === 'message' && row.live.message !== undefined) next.message = row.live.message
      else if (k === 'code' && row.live.code !== undefined) {
        if (row.live.code !== null) next.code = row.live.code
      } else if (k === 'data' && row.live.customErrorMessage) next.data = withCustomErrorMessages(v)
      else if (k === 'data' && row.live.data) next.data = patched(v, row.live.data)
      else next[k] = v
    }
    return { text: JSON.stringify(next), status: row.live.status ?? status }
  }
  return { text, status }
}

/** `{field: {message}}` as `{field: {message, customErrorMessage}}`, the same text twice. */
function withCustomErrorMessages(data: unknown): unknown {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data
  const out: Record<string, unknown> = {}
  for (const [field, v] of Object.entries(data)) {
    const message = (v as { message?: unknown } | null)?.message
    out[field] = typeof message === 'string' ? { ...(v as object), customErrorMessage: message } : v
  }
  return out
}

function parse(text: string): Body | undefined {
  try {
    const v = JSON.parse(text)
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined
  } catch {
    return undefined
  }
}

function matches(when: LiveAnswer['when'], body: Body): boolean {
  return (
    (when.message === undefined || body.message === when.message) &&
    (when.error === undefined || body.error === when.error) &&
    (when.code === undefined || body.code === when.code) &&
    (when.data === undefined || Object.entries(when.data).every(([path, v]) => at(body.data, path) === v))
  )
}

function at(value: unknown, path: string): unknown {
  let v = value
  for (const part of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined
  return v
}

/** `data` with the fields of `patch` set (or left out, `DROP`; a number as a decimal string, `DECIMAL`) by their dotted paths; keys keep their order. */
function patched(data: unknown, patch: Record<string, unknown>): unknown {
  if (!data || typeof data !== 'object') return data
  const copy = structuredClone(data) as Record<string, unknown>
  for (const [path, v] of Object.entries(patch)) {
    const parts = path.split('.')
    let target: unknown = copy
    for (const part of parts.slice(0, -1)) target = target && typeof target === 'object' ? (target as Record<string, unknown>)[part] : undefined
    if (!target || typeof target !== 'object') continue
    const last = parts.at(-1)!
    const fields = target as Record<string, unknown>
    if (v === DROP) delete fields[last]
    else if (v === DECIMAL) {
      if (typeof fields[last] === 'number') fields[last] = toDecimalString(toMinor(fields[last]))
    } else fields[last] = v
  }
  return copy
}

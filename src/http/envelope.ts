import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ApiError } from '../errors.js'
import { MSG } from '../messages.js'
import { liveAnswer } from './live-profile.js'

/** The response envelope of docs/api.md 2.1, the only JSON shape the API writes. */
export interface Envelope<T = unknown> {
  status: boolean
  message: string
  code?: string | null
  /** the kind of some refusals: `validation_error`, `conflict` (docs/behaviour.md#envelope) */
  error?: string
  data: T
}

export function ok<T>(c: Context, message: string, data: T, extra: { code?: string; status?: ContentfulStatusCode } = {}): Response {
  return sendJson(c, okJson(message, data, extra.code), extra.status ?? 200)
}

/** The text `ok()` answers with (also for an answer kept to be sent again with `sendJson`). */
export function okJson(message: string, data: unknown, code?: string): string {
  const body: Envelope = code ? { status: true, code, message, data } : { status: true, message, data }
  return JSON.stringify(body)
}

/**
 * The app's one error handler (`app.onError`): the only place an error becomes an answer. An
 * ApiError is answered with its status, message and data; anything else is a bug, logged, and
 * answered 500 with docs/api.md 7.3's internal error text.
 */
export function errorEnvelope(err: Error, c: Context): Response {
  const e = refusalOf(err)
  return sendJson(c, refusalJson(e), e.status)
}

/** What an error is answered as: an ApiError as it is; anything else, a bug, logged and 500. */
export function refusalOf(err: Error): ApiError {
  if (err instanceof ApiError) return err
  console.error('paysandbox: unhandled error:', err)
  return new ApiError(500, MSG.INTERNAL)
}

/** The text of an ApiError's envelope: `{status: false, error?, code?, message, data}`. */
export function refusalJson(e: ApiError): string {
  if (e.error === undefined && e.code === undefined) return errorJson(e.message, e.data)
  return JSON.stringify({ status: false, error: e.error, code: e.code, message: e.message, data: e.data } satisfies Envelope)
}

/** The text of an error envelope (also for the server's answer to HTTP it cannot parse). */
export function errorJson(message: string, data: unknown = null): string {
  return JSON.stringify({ status: false, message, data } satisfies Envelope)
}

const JSON_TYPE = { 'content-type': 'application/json' }

/**
 * Answers with an envelope already serialized, keeping the text for the journal (which then does
 * not serialize the answer again).
 */
export function sendJson(c: Context, text: string, status: ContentfulStatusCode = 200): Response {
  // a namespace under the live profile: the answers the interface document and the live service give differently, as recorded (live-profile.ts)
  if (c.get('live')) ({ text, status } = liveAnswer(c, text, status) as { text: string; status: ContentfulStatusCode })
  const note = c.get('journal') as { response?: string } | undefined
  if (note) note.response = text
  return c.body(text, status, JSON_TYPE)
}

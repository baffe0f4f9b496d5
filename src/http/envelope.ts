import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

/** The response envelope of SPEC.md 2.1, the only JSON shape the API writes. */
export interface Envelope<T = unknown> {
  status: boolean
  message: string
  code?: string
  data: T
}

export function ok<T>(c: Context, message: string, data: T, extra: { code?: string; status?: ContentfulStatusCode } = {}): Response {
  return sendJson(c, okJson(message, data, extra.code), extra.status ?? 200)
}

export function fail(c: Context, status: ContentfulStatusCode, message: string, data: unknown = null): Response {
  return sendJson(c, JSON.stringify({ status: false, message, data } satisfies Envelope), status)
}

/** The text `ok()` answers with (also for an answer kept to be sent again with `sendJson`). */
export function okJson(message: string, data: unknown, code?: string): string {
  const body: Envelope = code ? { status: true, code, message, data } : { status: true, message, data }
  return JSON.stringify(body)
}

const JSON_TYPE = { 'content-type': 'application/json' }

/**
 * Answers with an envelope already serialized, keeping the text for the journal (which then does
 * not serialize the answer again).
 */
export function sendJson(c: Context, text: string, status: ContentfulStatusCode = 200): Response {
  c.set('responseJson', text)
  return c.body(text, status, JSON_TYPE)
}

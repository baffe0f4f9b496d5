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
  const body: Envelope<T> = extra.code
    ? { status: true, code: extra.code, message, data }
    : { status: true, message, data }
  return send(c, body, extra.status ?? 200)
}

export function fail(c: Context, status: ContentfulStatusCode, message: string, data: unknown = null): Response {
  return send(c, { status: false, message, data }, status)
}

const JSON_TYPE = { 'content-type': 'application/json' }

/** c.json(), keeping the text for the journal (which then does not serialize the answer again). */
function send(c: Context, body: Envelope, status: ContentfulStatusCode): Response {
  return sendJson(c, JSON.stringify(body), status)
}

/** The text `ok()` answers with (for an answer kept to be sent again with `sendJson`). */
export function okJson(message: string, data: unknown): string {
  return JSON.stringify({ status: true, message, data } satisfies Envelope)
}

/** Answers with an envelope already serialized. */
export function sendJson(c: Context, text: string, status: ContentfulStatusCode = 200): Response {
  c.set('responseJson', text)
  return c.body(text, status, JSON_TYPE)
}

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
  c.set('responseBody', body)
  return c.json(body, extra.status ?? 200)
}

export function fail(c: Context, status: ContentfulStatusCode, message: string, data: unknown = null): Response {
  const body: Envelope = { status: false, message, data }
  c.set('responseBody', body)
  return c.json(body, status)
}

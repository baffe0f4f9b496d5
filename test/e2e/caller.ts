import { SECRET } from '../helpers.js'

/**
 * A JSON caller of the sandbox at `url` with the default secret key: the method, the path and the
 * body (sent as JSON when given), answering the status and the parsed body.
 */
export function caller(url: string, timeoutMs = 10_000) {
  const headers = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) })
    return { status: res.status, body: (await res.json()) as any }
  }
}

import { SECRET } from '../helpers.js'
import { api } from './process.js'

/**
 * A JSON caller of the sandbox at `url` with the default secret key: the method, the path and the
 * body (sent as JSON when given), answering the status and the parsed body.
 */
export function caller(url: string, timeoutMs = 10_000) {
  return (method: string, path: string, body?: unknown) => api(url, SECRET, method, path, body, timeoutMs)
}

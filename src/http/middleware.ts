import type { Context, MiddlewareHandler } from 'hono'
import type { Deps } from '../deps.js'
import { NamespaceLimitError } from '../namespaces.js'
import { nodeRequest, type AppEnv } from './context.js'
import { ApiError, MSG, tooLarge } from './errors.js'

const KEY_SHAPE = /^sk_test_[A-Za-z0-9_-]{1,200}$/

/** The secret key of an Authorization header, or null. */
function bearerKey(h: string | undefined): string | null {
  if (!h) return null
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(h)
  return m ? m[1] : null
}

/**
 * A request header (name in lower case). Served by @hono/node-server, read from node's own parsed
 * headers: `c.req.header()` builds a Headers view on the first call and checks and normalizes the
 * name and value on each, which node's HTTP/1 parser did already (values trimmed, CR, LF and NUL
 * refused; a repeated Authorization or Content-Length kept once).
 */
function header(c: Context, name: string): string | undefined {
  const incoming = nodeRequest(c)
  if (incoming?.headers && incoming.httpVersionMajor === 1) {
    const v = incoming.headers[name]
    return typeof v === 'string' ? v : v === undefined ? undefined : v.join(', ')
  }
  return c.req.header(name)
}

/** Authenticated keys (their shape checked), so a repeat caller costs one Map lookup. */
const knownKeys = new Map<string, string>()

/**
 * CONTRACT.md 1: every merchant, identity and control call carries `Bearer sk_test_...`. Sets the
 * request's namespace or throws the 401 (or the namespace limit's 403).
 */
export function authenticateRequest(c: Context<AppEnv>, deps: Deps): void {
  const auth = header(c, 'authorization')
  let key = auth === undefined ? undefined : knownKeys.get(auth)
  if (key === undefined) {
    key = bearerKey(auth) ?? undefined
    if (!key) throw new ApiError(401, MSG.INVALID_KEY)
    if (key.startsWith('sk_live_')) throw new ApiError(401, MSG.LIVE_KEY)
    if (!KEY_SHAPE.test(key)) throw new ApiError(401, MSG.INVALID_KEY)
    if (knownKeys.size < 10_000) knownKeys.set(auth!, key)
  }
  if (deps.config.strictKeys && !deps.namespaces.isConfigured(key)) throw new ApiError(401, MSG.INVALID_KEY)
  try {
    c.set('nsMeta', deps.namespaces.resolve(key))
  } catch (e) {
    if (e instanceof NamespaceLimitError) throw new ApiError(403, `Namespace limit reached: ${e.message}; restart the sandbox or reuse a key`)
    throw e
  }
  c.set('ns', key)
}

export function authenticate(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    authenticateRequest(c, deps)
    await next()
  }
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

/** The peer address of a request served by @hono/node-server; undefined under app.request(). */
export function remoteAddress(c: Context): string | undefined {
  return nodeRequest(c)?.socket?.remoteAddress
}

/** CONTRACT.md 9: the control API answers only on loopback unless a control token is set and sent. */
export function loopbackOnly(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const addr = remoteAddress(c)
    const local = addr === undefined || LOOPBACK.test(addr)
    if (!local) {
      const token = deps.config.controlToken
      const sent = header(c, 'x-sandbox-control-token') ?? c.req.query('token')
      if (!token || sent !== token) throw new ApiError(403, MSG.FORBIDDEN_CONTROL)
    }
    await next()
  }
}

/**
 * Body limits (CONTRACT.md 2): 413 with the envelope. A declared Content-Length over the limit is
 * refused at once; otherwise readBodyText counts the bytes as they arrive.
 */
export function limitBody(c: Context<AppEnv>, maxSize: number): void {
  c.set('bodyLimit', maxSize)
  const declared = header(c, 'content-length')
  if (declared && Number(declared) > maxSize) throw tooLarge(maxSize)
}

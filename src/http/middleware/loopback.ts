import { ApiError, MSG } from '../../errors.js'
import { header, nodeRequest } from '../context.js'
import type { Middleware } from './chain.js'

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

/**
 * docs/behaviour.md 9: the control API and the dashboard answer only on loopback, unless a control token
 * is set and sent (header `X-Sandbox-Control-Token` or `?token=`). Under `app.request()` there is
 * no peer: it counts as loopback.
 */
export function loopbackOnly({ controlToken }: { controlToken?: string }): Middleware {
  return (c, next) => {
    const addr = nodeRequest(c)?.socket?.remoteAddress
    if (addr !== undefined && !LOOPBACK.test(addr)) {
      const sent = header(c, 'x-sandbox-control-token') ?? c.req.query('token')
      if (!controlToken || sent !== controlToken) throw new ApiError(403, MSG.FORBIDDEN_CONTROL)
    }
    return next()
  }
}

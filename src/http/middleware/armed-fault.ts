import type { Context } from 'hono'
import { ApiError } from '../../errors.js'
import { MSG } from '../../messages.js'
import type { Fault, Faults } from '../../faults.js'
import { nodeRequest, type AppEnv } from '../context.js'
import type { Answer, Middleware } from './chain.js'

/**
 * Fault injection on merchant and identity calls (docs/behaviour.md#control-api): after the key chose the
 * namespace, a fault armed for this method and path takes the call (consuming one of its `times`).
 */
export function armedFault({ faults }: { faults: Faults }): Middleware {
  return (c, next) => {
    const fault = faults.takeApi(c.get('ns'), c.req.method, c.req.path)
    return fault ? apply(c, next, fault) : next()
  }
}

async function apply(c: Context<AppEnv>, next: () => Answer, fault: Fault): Promise<Response> {
  const status = (fault.status ?? 503) as 503
  const message = fault.message ?? (fault.kind === 'commit_then_error' ? MSG.TRY_AGAIN : MSG.SERVICE_UNAVAILABLE)
  switch (fault.kind) {
    case 'latency':
      await new Promise((r) => setTimeout(r, fault.delay_ms))
      return next()
    case 'error':
      throw new ApiError(status, message)
    case 'drop': {
      const socket = nodeRequest(c)?.socket
      if (socket) {
        socket.destroy()
        return new Response(null, { status: 499 })
      }
      // no socket (in-process app.request): the closest is an empty 502
      return new Response(null, { status: 502 })
    }
  }
  // commit_then_error (takeApi gives API faults only): the operation runs and is stored, its
  // events fire; the client sees a server error
  await next()
  throw new ApiError(status, message)
}

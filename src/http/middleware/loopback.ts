import { BlockList, isIP } from 'node:net'
import { ApiError } from '../../errors.js'
import { MSG } from '../../messages.js'
import { header, nodeRequest } from '../context.js'
import type { Middleware } from './chain.js'

/** This machine's loopback: 127.0.0.0/8 and ::1. */
const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')
/** The unspecified addresses: never a peer, but a connection made to one reaches this machine. */
const UNSPECIFIED = new BlockList()
UNSPECIFIED.addAddress('0.0.0.0', 'ipv4')
UNSPECIFIED.addAddress('::', 'ipv6')

/** `list.check` for an IP address (an IPv4 address written as IPv6, `::ffff:7f00:1`, is its IPv4 one); false for anything else. */
function holds(list: BlockList, address: string | undefined): boolean {
  const family = isIP(address ?? '')
  return family !== 0 && list.check(address as string, family === 6 ? 'ipv6' : 'ipv4')
}

/** Whether a peer's address is loopback: the one the control API lets in without a token (docs/behaviour.md#control-access). */
export function isLoopback(address: string | undefined): boolean {
  return holds(LOOPBACK, address)
}

/**
 * Whether connecting to `address` (an IP address, not a name) reaches this machine's loopback: a
 * loopback address or an unspecified one. The proxy does not connect there for a client beyond
 * loopback (docs/behaviour.md#proxy).
 */
export function reachesLoopback(address: string | undefined): boolean {
  return isLoopback(address) || holds(UNSPECIFIED, address)
}

/**
 * docs/behaviour.md#control-api: the control API and the dashboard answer only on loopback, unless a control token
 * is set and sent (header `X-Sandbox-Control-Token` or `?token=`). Under `app.request()` there is
 * no peer: it counts as loopback.
 */
export function loopbackOnly({ controlToken }: { controlToken?: string }): Middleware {
  return (c, next) => {
    const addr = nodeRequest(c)?.socket?.remoteAddress
    if (!controlAllowed(addr, () => header(c, 'x-sandbox-control-token') ?? c.req.query('token'), controlToken)) throw new ApiError(403, MSG.FORBIDDEN_CONTROL)
    return next()
  }
}

/**
 * The rule itself: a peer on loopback (or none), or the control token sent (`sent` reads it). Also
 * asked before a call is forwarded to another process (src/cluster.ts), which would see the
 * forwarding process as the peer.
 */
export function controlAllowed(address: string | undefined, sent: () => string | undefined, controlToken: string | undefined): boolean {
  return address === undefined || isLoopback(address) || (!!controlToken && sent() === controlToken)
}

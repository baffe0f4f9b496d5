import type { Context } from 'hono'
import { hostKey } from '../config-options.js'
import { header } from './context.js'

/**
 * The header the in-process interception names the host it intercepted in (src/reach/intercept.ts):
 * it sends the request on to the sandbox's own HTTP port, whose URL no longer says that host.
 */
export const INTERCEPTED_HOST = 'x-forwarded-host'

/** `http://host:port` of an absolute URL, without parsing it whole. */
function originOfUrl(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2)
  return slash < 0 ? url : url.slice(0, slash)
}

/** The name of `host`, `host:port` or `[v6]:port`. */
function hostName(authority: string): string {
  if (authority.startsWith('[')) return authority.slice(0, authority.indexOf(']') + 1)
  const colon = authority.lastIndexOf(':')
  return colon < 0 ? authority : authority.slice(0, colon)
}

/**
 * The origin every URL the sandbox hands out names (a checkout's `checkout_url`, a card's 3DS
 * page, the customer pages' own links back): the origin the client called (docs/behaviour.md#urls-handed-out).
 * A request for an intercepted host, through the proxy or the in-process interception, names
 * `https://<that host>`, which the same proxy or interception serves; any other request names the
 * origin it arrived on (the TLS port's over `--tls`, the HTTP port's otherwise).
 */
export function clientOrigin(c: Context, intercepted: readonly string[]): string {
  const origin = originOfUrl(c.req.url)
  const authority = header(c, INTERCEPTED_HOST) ?? origin.slice(origin.indexOf('//') + 2)
  const name = hostKey(hostName(authority))
  return intercepted.includes(name) ? `https://${name}` : origin
}

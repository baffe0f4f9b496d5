import { BatchInterceptor } from '@mswjs/interceptors'
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest'
import { FetchInterceptor } from '@mswjs/interceptors/fetch'
import { syncBuiltinESMExports } from 'node:module'
import { INTERCEPTED_HOST } from '../http/origin.js'
import { InterceptedHosts } from './hosts.js'

/**
 * `startSandbox({ intercept: true })` (docs/behaviour.md#intercept): requests this process makes to an
 * intercepted host, through the global `fetch` (undici) or node's `http` / `https` (and so axios
 * and the SDKs built on them), are answered by the sandbox, with @mswjs/interceptors (what msw is
 * built on). Each is sent on to the sandbox's own HTTP port over loopback, so it passes the same
 * request handler, middleware and journal as any other call; every other request goes out as it
 * would have. The returned function restores the network.
 */

/** The one interception of this process: the interceptors patch process-wide modules, once. */
const ACTIVE = Symbol.for('paysandbox.intercept')
type Holder = typeof globalThis & { [ACTIVE]?: string }

/** headers fetch will not take from a caller, or that belong to one connection */
const DROPPED = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'expect', 'upgrade', 'proxy-connection', 'te', 'trailer'])

export function interceptHosts(hosts: string[], sandboxUrl: string): () => void {
  const holder = globalThis as Holder
  if (holder[ACTIVE]) throw new Error(`startSandbox({ intercept: true }): the sandbox at ${holder[ACTIVE]} already intercepts in this process; close it first`)
  const wanted = new InterceptedHosts(hosts)
  // the fetch of before the interception: what the sandbox's own answer travels by
  const send = globalThis.fetch
  const interceptor = new BatchInterceptor({ name: 'paysandbox', interceptors: [new ClientRequestInterceptor(), new FetchInterceptor()] })
  interceptor.on('request', async ({ request, controller }) => {
    const url = new URL(request.url)
    if (!wanted.has(url.hostname)) return
    const headers = new Headers()
    request.headers.forEach((value, name) => {
      if (!DROPPED.has(name)) headers.append(name, value)
    })
    // the URLs the sandbox hands out then name the host this process called (docs/behaviour.md#urls-handed-out)
    headers.set(INTERCEPTED_HOST, url.hostname)
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
    try {
      const answer = await send(sandboxUrl + url.pathname + url.search, {
        method: request.method,
        headers,
        body: hasBody ? await request.arrayBuffer() : undefined,
        redirect: 'manual',
      })
      controller.respondWith(answer)
    } catch (e) {
      controller.errorWith(e as Error)
    }
  })
  interceptor.apply()
  // the interceptors replace http.request, https.request ... on the modules' objects: code that
  // imported them by name (import { request } from 'node:https') sees them once the named
  // exports are synced with the objects
  syncBuiltinESMExports()
  holder[ACTIVE] = sandboxUrl
  let restored = false
  return () => {
    if (restored) return
    restored = true
    interceptor.dispose()
    syncBuiltinESMExports()
    delete holder[ACTIVE]
  }
}

import { createServer, request as httpRequest, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { connect, isIP, type LookupFunction, type Socket } from 'node:net'
import { MSG } from '../messages.js'
import { answerClientError, writeRawError, type ClientErrorListener } from '../http/client-error.js'
import { errorJson } from '../http/envelope.js'
import { isLoopback, reachesLoopback } from '../http/middleware/loopback.js'
import type { InterceptedHosts } from './hosts.js'

/**
 * The forward proxy of `sandbox start --proxy` (docs/behaviour.md#proxy). A client sends it:
 *
 * An intercepted host is known by name whatever its spelling (`InterceptedHosts`).
 *
 * - `CONNECT host:port`: for an intercepted host, the proxy answers 200 and hands the socket to
 *   `terminate` (the sandbox's HTTPS server, which ends TLS with the sandbox's leaf certificate
 *   and serves the requests inside with the sandbox's own request handler); any other host is
 *   tunnelled to as it is, bytes both ways, its TLS untouched (unless `onlyIntercepted`);
 * - a request in absolute form (`POST https://host/path`, as axios sends through a proxy, or
 *   `http://host/path`): for an intercepted host it is served by `serve`, the same handler;
 *   any other host is forwarded and its answer passed back;
 * - a request in origin form (`GET /path`): served by the sandbox, as on its HTTP port.
 */

export interface ProxyOptions {
  hosts: InterceptedHosts
  onlyIntercepted: boolean
  /** the sandbox's request handler (the one its HTTP port serves) */
  serve: RequestListener
  /** takes a client socket whose next bytes are a TLS handshake for an intercepted host */
  terminate: (socket: Socket) => void
  /** answers HTTP node cannot parse: the sandbox's own listener (src/server.ts), else the envelope */
  clientError?: ClientErrorListener
}

export const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade']

/** The host of `host:port`, `[v6]:port` or a URL's host, lower case and without brackets. */
export function hostOf(authority: string): string {
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(authority)
  return (v6 ? v6[1] : authority.replace(/:\d+$/, '')).toLowerCase()
}

/** A `CONNECT` target, `host:port`; undefined when it is not one. */
export function connectTarget(url: string | undefined): { host: string; port: number } | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(url ?? '')
  if (!m) return undefined
  const port = Number(m[2])
  if (port < 1 || port > 65535) return undefined
  return { host: hostOf(m[1]), port }
}

/**
 * For a client beyond loopback, a forward or tunnel whose target is this machine's loopback is
 * refused (docs/behaviour.md#proxy): through it the client would reach the control API as a
 * loopback peer. The address connected to is what counts: an IP literal is checked as it is, a
 * name by every address it resolves to (`localhost`, a name in /etc/hosts or DNS for 127.0.0.1).
 */
class LoopbackRefused extends Error {}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, found: LookupAddress[]) => {
    if (err) return callback(err, '', 0)
    if (found.some((a) => reachesLoopback(a.address))) return callback(new LoopbackRefused(hostname), '', 0)
    if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, found)
    callback(null, found[0].address, found[0].family)
  })
}

/** The proxy's answer when it could not connect: refused for loopback, or the host not reached. */
function failure(err: Error): [number, string] {
  return err instanceof LoopbackRefused ? [403, MSG.PROXY_LOOPBACK_REFUSED] : [502, MSG.PROXY_UPSTREAM_FAILED]
}

/** How the proxy connects for this client: anywhere from loopback; from beyond, never back to it. */
interface Guard {
  /** the target is an IP literal of this machine's loopback */
  refusesLiteral(host: string): boolean
  lookup?: LookupFunction
}

function guardFor(client: Socket): Guard {
  if (isLoopback(client.remoteAddress)) return { refusesLiteral: () => false }
  return { refusesLiteral: (host) => isIP(host) !== 0 && reachesLoopback(host), lookup: guardedLookup }
}

function refuseResponse(res: ServerResponse, status: number, message: string): void {
  const body = errorJson(message)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' })
  res.end(body)
}

/** Forwards a request in absolute form for a host the sandbox does not answer, and its answer back. */
function forward(req: IncomingMessage, res: ServerResponse, url: URL, guard: Guard): void {
  if (guard.refusesLiteral(hostOf(url.host))) return refuseResponse(res, 403, MSG.PROXY_LOOPBACK_REFUSED)
  const headers = { ...req.headers }
  for (const h of HOP_BY_HOP) delete headers[h]
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  // a far client's request gets a connection of its own (agent: false): a pooled one, opened for a
  // loopback client, was never looked up by the guard
  const upstream = send(url, { method: req.method, headers, ...(guard.lookup && { lookup: guard.lookup, agent: false }) }, (answer) => {
    const back = { ...answer.headers }
    for (const h of HOP_BY_HOP) delete back[h]
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, back)
    answer.pipe(res)
  })
  upstream.on('error', (err) => {
    if (!res.headersSent) refuseResponse(res, ...failure(err))
    else res.destroy()
  })
  // a client that goes away takes its forwarded request with it
  res.on('close', () => upstream.destroy())
  req.pipe(upstream)
}

/** Pipes a client's socket to `host:port` once connected (answering it 200), or answers 502. */
function tunnel(client: Socket, head: Buffer, host: string, port: number, open: Set<Socket>): void {
  const guard = guardFor(client)
  if (guard.refusesLiteral(host)) return writeRawError(client, 403, MSG.PROXY_LOOPBACK_REFUSED)
  const upstream = connect({ host, port, lookup: guard.lookup })
  open.add(upstream)
  let connected = false
  upstream.once('connect', () => {
    connected = true
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    if (head.length) upstream.write(head)
    upstream.pipe(client)
    client.pipe(upstream)
  })
  upstream.on('error', (err) => {
    if (connected) client.destroy()
    else writeRawError(client, ...failure(err))
  })
  upstream.on('close', () => {
    open.delete(upstream)
    if (connected) client.destroy()
  })
  client.on('error', () => upstream.destroy())
  client.on('close', () => upstream.destroy())
}

export interface Proxy {
  server: Server
  /** ends every tunnel still open */
  closeTunnels(): void
}

export function createProxy({ hosts, onlyIntercepted, serve, clientError = answerClientError, terminate }: ProxyOptions): Proxy {
  const open = new Set<Socket>()
  const server = createServer((req, res) => {
    const target = req.url ?? '/'
    if (target.startsWith('/')) return serve(req, res)
    let url: URL
    try {
      url = new URL(target)
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme')
    } catch {
      return refuseResponse(res, 400, MSG.PROXY_BAD_TARGET)
    }
    if (hosts.has(hostOf(url.host))) return serve(req, res)
    if (onlyIntercepted) return refuseResponse(res, 403, MSG.PROXY_HOST_REFUSED)
    forward(req, res, url, guardFor(req.socket))
  })
  server.keepAliveTimeout = 65_000
  server.on('clientError', clientError)
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const target = connectTarget(req.url)
    if (!target) return writeRawError(socket, 400, MSG.PROXY_BAD_TARGET)
    if (hosts.has(target.host)) {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      open.add(socket)
      socket.once('close', () => open.delete(socket))
      // what the client sends first in the tunnel: a TLS handshake (a record of type 22) is ended
      // with the sandbox's certificate; anything else is plain HTTP, served as such
      const route = (first: Buffer) => {
        if (first[0] === 0x16) {
          socket.pause()
          socket.unshift(first)
          return terminate(socket)
        }
        // node's HTTP parser reads the socket's own handle from now on: what was read is given to it
        server.emit('connection', socket)
        socket.emit('data', first)
      }
      if (head.length) return route(head)
      // a client that opens a tunnel and sends nothing is let go as the HTTP port lets go of one
      // that sends no request line (node's headersTimeout)
      socket.setTimeout(server.headersTimeout, () => socket.destroy())
      socket.once('data', (first: Buffer) => {
        socket.setTimeout(0)
        route(first)
      })
      return
    }
    if (onlyIntercepted) return writeRawError(socket, 403, MSG.PROXY_HOST_REFUSED)
    open.add(socket)
    socket.once('close', () => open.delete(socket))
    tunnel(socket, head, target.host, target.port, open)
  })
  return {
    server,
    closeTunnels() {
      for (const s of open) s.destroy()
      open.clear()
    },
  }
}

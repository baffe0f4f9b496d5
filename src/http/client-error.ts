import { getRequestListener, RequestError } from '@hono/node-server'
import { STATUS_CODES, type IncomingMessage, type RequestListener } from 'node:http'
import type { Duplex } from 'node:stream'
import { MSG } from '../messages.js'
import { errorJson, refusalJson, refusalOf } from './envelope.js'
import { refusalPageHtml, type CustomerPages } from './html-page.js'

/** What node's parser reports, mapped as node itself maps it (docs/behaviour.md#status-codes). */
function statusOf(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: MSG.HEADERS_TOO_LARGE }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: MSG.CHUNK_EXTENSIONS_TOO_LARGE }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: MSG.REQUEST_TIMEOUT }
    default:
      return { status: 400, message: MSG.MALFORMED_REQUEST }
  }
}

/** A server's `clientError` listener (src/server.ts makes the one its servers share). */
export type ClientErrorListener = (err: Error & { code?: string }, socket: Duplex) => void

/**
 * The server's `clientError` listener: HTTP that node cannot parse (a garbage request line, a
 * header too large, a bad length or chunk, a request that timed out) is answered with the envelope
 * and the status node would have sent bare, with `Connection: close`, and the socket is closed
 * once the answer is written (docs/behaviour.md#status-codes, docs/behaviour.md#envelope); on a customer page (`isPage`, the
 * areas' pages) it is the page's refusal, in HTML. When an answer has already begun on that
 * socket, or it cannot be written, it is only closed, as node does.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex, isPage: CustomerPages = () => undefined): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (!socket.writable || inFlight?.headersSent || err.code === 'ECONNRESET') {
    socket.destroy()
    return
  }
  const { status, message } = statusOf(err.code)
  // a bad body of a request to a customer page: the page's refusal is a page too
  const path = (inFlight as { req?: { url?: string } } | undefined)?.req?.url
  if (path !== undefined && isPage(path)) return writeRaw(socket, status, 'text/html; charset=UTF-8', refusalPageHtml(message))
  writeRawError(socket, status, message)
}

/**
 * An answer written straight to a socket no HTTP server answers on (a client error, a proxy's own
 * refusal): the envelope with `message`, `Connection: close`, then the socket is closed. A socket
 * that can no longer be written is only closed.
 */
export function writeRawError(socket: Duplex, status: number, message: string): void {
  writeRaw(socket, status, 'application/json', errorJson(message))
}

function writeRaw(socket: Duplex, status: number, type: string, body: string): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const head =
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    `Content-Type: ${type}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n'
  socket.end(head + body, () => socket.destroy())
}

/** What the servers hand a request to (src/server.ts): the app, or the start-up gateway before it. */
export type FetchCallback = (req: Request, env: unknown) => Response | Promise<Response>

/**
 * The request listener of every server of the sandbox (plain HTTP, `--tls`, behind `--proxy`):
 * @hono/node-server's, with its own answer to what it cannot make a fetch Request of replaced.
 * A request node parsed but a URL parser does not accept (a backslash in the path, a Host of
 * `a@x` or `x:99999`, a request target `*` or `ftp://x/`) is answered as HTTP node cannot parse
 * is (`answerClientError`): 400 `Malformed HTTP request` with the envelope, or the page's refusal
 * in HTML when the target names a customer page (docs/behaviour.md#status-codes, docs/behaviour.md#checkout-page); the request was
 * whole, so the connection stays open. Anything else that escapes the app is its 500 envelope,
 * never an empty answer. `pages` gives the areas' customer pages, or a promise of them while the
 * areas load.
 */
export function requestListener(fetch: FetchCallback, hostname: string, pages: () => CustomerPages | Promise<CustomerPages>): RequestListener {
  // the request being turned into a fetch Request: the library calls its error handler at once,
  // in the same call, when it cannot, and gives it only the error
  let parsing: IncomingMessage | undefined
  const refusal = (err: unknown): Response | Promise<Response> => {
    if (!(err instanceof RequestError) || !parsing) {
      const e = refusalOf(err instanceof Error ? err : new Error(String(err)))
      return new Response(refusalJson(e), { status: e.status, headers: { 'content-type': 'application/json' } })
    }
    const path = parsing.url ?? ''
    const answer = (isPage: CustomerPages) =>
      isPage(path)
        ? new Response(refusalPageHtml(MSG.MALFORMED_REQUEST), { status: 400, headers: { 'content-type': 'text/html; charset=UTF-8' } })
        : new Response(errorJson(MSG.MALFORMED_REQUEST), { status: 400, headers: { 'content-type': 'application/json' } })
    const known = pages()
    return known instanceof Promise ? known.then(answer) : answer(known)
  }
  const listener = getRequestListener(fetch as never, { hostname, errorHandler: refusal }) as unknown as RequestListener
  return (incoming, outgoing) => {
    parsing = incoming
    try {
      return listener(incoming, outgoing)
    } finally {
      parsing = undefined
    }
  }
}

import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { MSG } from '../errors.js'
import { errorJson } from './envelope.js'
import { refusalPageHtml, type CustomerPages } from './html-page.js'

/** What node's parser reports, mapped as node itself maps it (docs/behaviour.md 2.1). */
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
 * once the answer is written (docs/behaviour.md 2.1, 2.2); on a customer page (`isPage`, the
 * areas' pages) it is the page's refusal, in HTML. When an answer has already begun on that
 * socket, or it cannot be written, it is only closed, as node does.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex, isPage: CustomerPages = () => false): void {
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

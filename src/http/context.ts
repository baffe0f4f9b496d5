import type { Context } from 'hono'
import type { IncomingMessage } from 'node:http'
import type { NsMeta } from '../namespaces.js'

/**
 * What the journal keeps of one request: filled in where the request is read (the parsed body, or
 * what stands for it: a card charge's decrypted payload, masked) and where it is answered (the
 * JSON text sent). The journal middleware makes it; see middleware/journal.ts.
 */
export interface JournalNote {
  /** the request body as the journal keeps it; masked by the journal unless `masked` */
  request?: unknown
  masked?: boolean
  /** the text `request` was parsed from, as sent: its size is what a cut entry names (journal.ts) */
  sent?: string
  /** the JSON text answered */
  response?: string
}

/** Variables a request carries through the middleware chain. */
export interface AppEnv {
  Variables: {
    /** the namespace (secret key) of an authenticated request */
    ns: string
    nsMeta: NsMeta
    /** the body limit of this route, in bytes */
    bodyLimit: number
    /** the body as read (once) */
    rawBody: string
    journal: JournalNote
    /** the namespace answers under the live profile (http/live-profile.ts) */
    live: boolean
  }
}

/** Keeps what the journal shows of the request body (the last call wins). */
export function noteRequest(c: Context<AppEnv>, request: unknown, masked = false, sent?: string): void {
  const note = c.get('journal')
  if (!note) return
  note.request = request
  note.masked = masked
  note.sent = sent
}

/** The node request behind a call served by @hono/node-server; undefined under app.request(). */
export function nodeRequest(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
}

/**
 * A request header (name in lower case). Served by @hono/node-server, read from node's own parsed
 * headers: `c.req.header()` builds a Headers view on the first call and checks and normalizes the
 * name and value on each, which node's HTTP/1 parser did already (values trimmed, CR, LF and NUL
 * refused; a repeated Authorization or Content-Length kept once).
 */
export function header(c: Context, name: string): string | undefined {
  const incoming = nodeRequest(c)
  if (incoming?.headers && incoming.httpVersionMajor === 1) {
    const v = incoming.headers[name]
    return typeof v === 'string' ? v : v === undefined ? undefined : v.join(', ')
  }
  return c.req.header(name)
}

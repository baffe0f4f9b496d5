import type { Context } from 'hono'
import type { IncomingMessage } from 'node:http'
import type { NsMeta } from '../namespaces.js'

/** Variables a request carries through the middleware chain. */
export interface AppEnv {
  Variables: {
    /** the namespace (secret key) of an authenticated request */
    ns: string
    nsMeta: NsMeta
    /** the parsed request body, for the journal (masked before it is kept) */
    body: unknown
    /** what the journal keeps instead of the body (for example decrypted charge_data, masked) */
    journalBody: unknown
    /** the JSON text the response carries, for the journal */
    responseJson: string
    /** the body limit of this route, in bytes */
    bodyLimit: number
    /** the body as read (once) */
    rawBody: string
    /** journalBody is already masked */
    journalMasked: boolean
    /** the request went through `around` in app.ts (the gate, durability, the journal) */
    around: boolean
  }
}

/** The node request behind a call served by @hono/node-server; undefined under app.request(). */
export function nodeRequest(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
}

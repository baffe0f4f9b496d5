import '../zod-messages.js'
import type { Context } from 'hono'
import type { Readable } from 'node:stream'
import type { z } from 'zod'
import { header, nodeRequest, noteRequest, type AppEnv } from './context.js'
import { parseInSteps } from './json-steps.js'
import { invalid, tooLarge, type FieldErrors } from '../errors.js'

const DEFAULT_LIMIT = 1 << 20

/**
 * The one place a request body's size is held to its limit (docs/behaviour.md#limits), before
 * anything else looks at the request (a key, a reference): called by the `bodyLimit` middleware
 * once a declared Content-Length within the limit is known, or none. A body of unknown length (a
 * chunked one) is read here and now, its bytes counted as they arrive: past the route's limit the
 * read stops, nothing of it is kept, and the request is refused 413; every handler, API call or
 * customer page, then gets the same text again (`readBodyText`, `readForm`, `readJsonObject`). A
 * declared length within the limit is held to by node's parser, so that body is read where the
 * handler asks for it (a card charge pays no extra step). Undefined when nothing is read now.
 */
export function readBodyFirst(c: Context): Promise<string> | undefined {
  const unknownLength = nodeRequest(c) ? header(c, 'transfer-encoding') !== undefined : c.req.raw.body !== null
  return unknownLength ? readBodyText(c) : undefined
}

/**
 * The request body as text, at most the route's limit (413 past it, counted as the bytes arrive;
 * a declared Content-Length over it was refused by the bodyLimit middleware already), read once:
 * a second call has the same text. Served by @hono/node-server, it is read straight from the
 * socket's IncomingMessage: going through `c.req.text()` there would build a full fetch Request
 * (with its AbortSignal) on every call.
 */
export function readBodyText(c: Context): Promise<string> {
  const cached = c.get('rawBody') as string | undefined
  if (cached !== undefined) return Promise.resolve(cached)
  const limit = (c.get('bodyLimit') as number | undefined) ?? DEFAULT_LIMIT
  const incoming = nodeRequest(c)
  if (!incoming || typeof incoming.on !== 'function' || incoming.readableEnded) return readViaRequest(c, limit)
  return readLimited(incoming, limit, (body) => {
    const text = body.toString('utf8')
    c.set('rawBody', text)
    return text
  })
}

/**
 * A stream's bytes, at most `limit`, counted as they arrive: past it the read stops, what came is
 * let go and the promise rejects with 413 `Request body is too large` (what is still coming is
 * not kept); a stream that breaks rejects with `Invalid request data`. `done` makes the result of
 * the bytes. The one counting reader: a route's body (`readBodyText`) and what `--record` takes in
 * (src/reach/recorder.ts). One promise for the whole read (no async function around it: a card
 * charge awaits this once).
 */
export function readLimited<T>(stream: Readable, limit: number, done: (body: Buffer) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        cleanup()
        chunks = []
        reject(tooLarge(limit))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      cleanup()
      resolve(done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)))
    }
    const onError = () => {
      cleanup()
      reject(invalid({ body: 'could not be read' }))
    }
    const cleanup = () => {
      stream.off('data', onData)
      stream.off('end', onEnd)
      stream.off('error', onError)
      stream.off('aborted', onError)
    }
    stream.on('data', onData)
    stream.on('end', onEnd)
    stream.on('error', onError)
    stream.on('aborted', onError)
  })
}

/** The body through the fetch Request (under `app.request()`, with no socket), counted as it arrives too. */
async function readViaRequest(c: Context, limit: number): Promise<string> {
  const body = c.req.raw.body
  const chunks: Uint8Array[] = []
  if (body) {
    let size = 0
    const reader = body.getReader()
    for (;;) {
      let part: ReadableStreamReadResult<Uint8Array>
      try {
        part = await reader.read()
      } catch {
        throw invalid({ body: 'could not be read' })
      }
      if (part.done) break
      size += part.value.byteLength
      if (size > limit) {
        void reader.cancel().catch(() => {})
        throw tooLarge(limit)
      }
      chunks.push(part.value)
    }
  }
  const text = Buffer.concat(chunks).toString('utf8')
  c.set('rawBody', text)
  return text
}

/**
 * A customer page's form post: its fields, from an `application/x-www-form-urlencoded` body (what
 * a browser's form sends) or a `multipart/form-data` one (`curl -F`); read by `readBodyText`, so
 * within the limit. A multipart body that cannot be parsed has no fields.
 */
export async function readForm(c: Context): Promise<URLSearchParams> {
  const text = await readBodyText(c)
  const type = header(c, 'content-type') ?? ''
  if (!/^multipart\/form-data/i.test(type)) return new URLSearchParams(text)
  const fields = new URLSearchParams()
  try {
    for (const [name, value] of await new Response(text, { headers: { 'content-type': type } }).formData()) if (typeof value === 'string') fields.append(name, value)
  } catch {
    // not multipart after all: no fields
  }
  return fields
}

/**
 * Reads a JSON object body, `null` in a field taken as the field left out (`dropNullFields`).
 * Malformed JSON or a non-object is `Invalid request data`. `asSent` keeps the nulls, for the
 * control calls where null is a value of its own: `{url: null}` clears the webhook URL, and a
 * scenario pack's identity records hold null fields the lookup answers. `inSteps`: as sent,
 * parsed a piece at a time with the event loop free between pieces (`parseInSteps`: a 16 MiB
 * snapshot).
 */
export function readJsonObject(c: Context<AppEnv>, { asSent = false, inSteps = false } = {}): Promise<Record<string, unknown>> {
  if (inSteps) return readBodyText(c).then(async (text) => jsonObject(c, text, await parseInSteps(text).catch(() => NOT_JSON)))
  return readBodyText(c).then((text) => {
    const body = jsonObject(c, text)
    // the journal keeps the body as sent: the call reads a copy of its own (a text with no null needs none)
    return asSent || !text.includes('null') ? body : dropNullFields(JSON.parse(text) as Record<string, unknown>)
  })
}

/**
 * `null` in a field is the field left out, on every endpoint (docs/behaviour.md#invalid-request-data): public
 * clients send the optional fields they were not given as null, and a required one sent as null
 * is refused as missing. Drops, in place, the fields holding null from objects at any depth,
 * inside arrays too (an array's null items stay: they are no fields); a `metadata` object is the
 * merchant's own, stored and echoed as sent. Returns the value. No recursion: a body may nest
 * thousands of levels (test/fuzz.test.ts sends 5,000).
 */
export function dropNullFields<T>(value: T): T {
  const stack: unknown[] = [value]
  while (stack.length) {
    const v = stack.pop()
    if (Array.isArray(v)) {
      for (const item of v) if (typeof item === 'object' && item !== null) stack.push(item)
      continue
    }
    if (typeof v !== 'object' || v === null) continue
    const object = v as Record<string, unknown>
    for (const key in object) {
      const field = object[key]
      if (field === null) delete object[key]
      else if (typeof field === 'object' && key !== 'metadata') stack.push(field)
    }
  }
  return value
}

/**
 * A body's JSON text parsed, `null` in a field taken as the field left out (`dropNullFields`: not
 * walked at all when the text holds no null); undefined when the text is not JSON.
 */
export function parseWithoutNullFields(text: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  return text.includes('null') ? dropNullFields(value) : value
}

/** Whether a value is a JSON object (not null, not an array). */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** What `jsonObject` is handed for a text that is not JSON. */
const NOT_JSON = Symbol('not JSON')

/** The body's text parsed (or `parsed` already, as `parseInSteps` read it) as a JSON object, noted for the journal; refused otherwise. */
function jsonObject(c: Context<AppEnv>, text: string, parsed?: unknown): Record<string, unknown> {
  if (text.trim() === '') throw invalid({ body: 'is required: send a JSON object' })
  let value: unknown = parsed
  if (parsed === undefined) {
    try {
      value = JSON.parse(text)
    } catch {
      value = NOT_JSON
    }
  }
  if (value === NOT_JSON) throw invalid({ body: 'must be valid JSON' })
  if (!isJsonObject(value)) throw invalid({ body: 'must be a JSON object' })
  noteRequest(c, value, false, text)
  return value
}

/** One entry per bad field, keyed by its dotted path (docs/behaviour.md#http). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : 'body'
    if (!(key in out)) out[key] = issue.message
  }
  return out
}

/** Validates with a zod schema; throws `Invalid request data` with field errors. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value)
  if (!r.success) throw invalid(fieldErrors(r.error))
  return r.data
}

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { decryptChargeData } from '../cards/index.js'
import type { Config } from '../config.js'
import { ApiError, invalid } from '../errors.js'
import { MSG } from '../messages.js'
import { jsonOf } from '../files.js'
import { readLimited } from '../http/body.js'
import { errorJson, okJson, refusalJson } from '../http/envelope.js'
import { maskSecrets } from '../http/mask.js'
import { FlowFile } from '../flow/append.js'
import type { Step } from '../flow/flow.js'
import { flowSession, type Exchange, type FlowSession } from '../flow/from-journal.js'
import { ActiveScenarios, Scenarios, packRules } from '../scenario/index.js'
import { AREAS } from '../areas.js'
import { customerPages } from '../http/html-page.js'
import { ReachError } from './errors.js'
import { HOP_BY_HOP } from './proxy.js'

/**
 * Recording the service through the proxy (docs/behaviour.md#record): with `--record FILE`, a
 * request to an intercepted host is not served but forwarded to `--upstream` with node's own
 * HTTPS client (it trusts the system's CAs and NODE_EXTRA_CA_CERTS, and its verification is left
 * as it is); the upstream's answer goes back to the client unchanged and the exchange becomes a
 * step of the flow file, whose expectation is that answer. What the file holds is what the
 * journal would hold (src/flow/from-journal.ts turns it into steps): no key (the `Authorization` header
 * is not written, and the key an answer names is the replay's `${key}`), `charge_data` decrypted
 * with the upstream's key and masked as the journal masks it, the answer masked the same way, so
 * the flow replays under any key with the pack's test values.
 */

/** The control path a webhook of the service is posted to while recording (docs/behaviour.md#record). */
export const RECORD_WEBHOOK_PATH = '/_sandbox/record/webhook'

/** Request headers of a webhook not written with it: the tunnel's and the connection's. */
const NOT_KEPT = new Set([...HOP_BY_HOP, 'host', 'authorization', 'cookie', 'content-length', 'transfer-encoding'])

/** A key of the live mode, in an `Authorization` header: never forwarded. */
const LIVE_KEY = /\b(sk|pk)_live_/
/** The key of an `Authorization` header */
const BEARER = /^\s*Bearer\s+(\S+)\s*$/i

export interface Recorder {
  /** serves a request to an intercepted host: forwarded to the upstream, its exchange recorded */
  forward(req: IncomingMessage, res: ServerResponse): void
  /** `POST /_sandbox/record/webhook`: keeps the webhook the service sent (its headers and JSON body) as a step; undefined for any other request */
  webhook(req: Request, incoming: IncomingMessage): Promise<Response> | undefined
  close(): void
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (c: Buffer) => chunks.push(c))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })
}

function answer(res: ServerResponse, status: number, json: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) })
  res.end(json)
}

/** A body as text, decoded from the content encodings node's client does not undo. */
function decoded(body: Buffer, encoding: string | undefined): string {
  const e = (encoding ?? '').trim().toLowerCase()
  try {
    const raw = e === 'gzip' || e === 'x-gzip' ? gunzipSync(body) : e === 'deflate' ? inflateSync(body) : e === 'br' ? brotliDecompressSync(body) : body
    return raw.toString('utf8')
  } catch {
    // not what its encoding says: no JSON to expect, the step expects the status
    return ''
  }
}

/** The flow file, or the reason it cannot be written as a refusal of the start. */
function openFlowFile(path: string, head: ConstructorParameters<typeof FlowFile>[1]): FlowFile {
  try {
    return new FlowFile(path, head)
  } catch (e) {
    throw new ReachError(`cannot write the flow file ${path} for --record (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
  }
}

export function startRecording(config: Config): Recorder {
  // the packs first: a pack that refuses the start leaves the file as it was
  const rules = packRules(AREAS)
  const session: FlowSession = flowSession(new ActiveScenarios(Scenarios.loadPacks(config.scenarioFiles, { rules }), rules), customerPages(AREAS))
  const file = openFlowFile(config.recordFile!, {
    name: 'recorded session',
    description: `recorded through the sandbox's proxy from ${config.upstream}`,
    comment: `paysandbox --record (docs/behaviour.md#record): each step is an exchange with ${config.upstream}, its answer the expectation`,
  })
  const upstream = config.upstream.replace(/\/+$/, '')
  /** A step that cannot be written is said on stderr; the client has its answer already. */
  const append = (steps: Step[], comment?: string): void => {
    try {
      file.append(steps, comment)
    } catch (e) {
      process.stderr.write(`sandbox: cannot write to ${file.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`)
    }
  }

  /** The request as the journal keeps it: JSON masked, `charge_data` decrypted (when the key opens it) and masked. */
  const noted = (text: string): unknown => {
    if (!text) return null
    const body = jsonOf(text)
    if (body === undefined) return maskSecrets(text)
    const chargeData = (body as { charge_data?: unknown } | null)?.charge_data
    if (typeof chargeData !== 'string') return maskSecrets(body)
    const decrypted = config.upstreamEncryptionKey ? decryptChargeData(chargeData, config.upstreamEncryptionKey) : undefined
    return decrypted === undefined ? { charge_data: '(encrypted)' } : { charge_data: '(encrypted)', decrypted: maskSecrets(decrypted) }
  }

  const record = (req: IncomingMessage, sent: URL, requestText: string, status: number, answerText: string): void => {
    // the answer masked as the request is: a card number the upstream echoes is not written whole
    const exchange: Exchange = { method: req.method ?? 'GET', path: sent.pathname, query: sent.search, status, request: noted(requestText), response: maskSecrets(jsonOf(answerText) ?? null) }
    const key = BEARER.exec(req.headers.authorization ?? '')?.[1]
    const steps = session.exchange(exchange, key ? { secret: key } : undefined)
    // a call made with no key replays with none
    if (!req.headers.authorization && steps[0]?.request) steps[0].request.key = null
    append(steps)
  }

  return {
    forward(req, res) {
      if (LIVE_KEY.test(req.headers.authorization ?? '')) return answer(res, 401, errorJson(MSG.LIVE_KEY))
      // in a tunnel the path; in absolute form the whole URL, whose path and query are kept
      const sent = new URL(req.url ?? '/', 'https://upstream.invalid')
      const target = new URL(upstream + sent.pathname + sent.search)
      const headers: IncomingHttpHeaders = { ...req.headers }
      for (const h of [...HOP_BY_HOP, 'host']) delete headers[h]
      // the largest body a route of the sandbox takes (the identity calls'), counted as it arrives
      readLimited(req, config.identityBodyLimit, (body) => body).then((body) => {
        const send = target.protocol === 'https:' ? httpsRequest : httpRequest
        const out = send(target, { method: req.method, headers }, (up) => {
          readAll(up).then((answerBody) => {
            const back = { ...up.headers }
            for (const h of [...HOP_BY_HOP, 'transfer-encoding']) delete back[h]
            back['content-length'] = String(answerBody.length)
            const status = up.statusCode ?? 502
            res.writeHead(status, up.statusMessage, back)
            res.end(answerBody)
            record(req, sent, body.toString('utf8'), status, decoded(answerBody, up.headers['content-encoding']))
          }, () => res.destroy())
        })
        out.on('error', () => (res.headersSent ? res.destroy() : answer(res, 502, errorJson(MSG.PROXY_UPSTREAM_FAILED))))
        out.end(body)
      }, (e: unknown) => (e instanceof ApiError && e.status === 413 ? answer(res, 413, refusalJson(e)) : res.destroy()))
    },
    webhook(req, incoming) {
      if (req.method !== 'POST' || new URL(req.url).pathname !== RECORD_WEBHOOK_PATH) return undefined
      const reply = (status: number, text: string) => new Response(text, { status, headers: { 'content-type': 'application/json' } })
      const refusal = (e: ApiError) => reply(e.status, refusalJson(e))
      const refused = (e: unknown) => refusal(e instanceof ApiError ? e : invalid({ body: 'could not be read' }))
      return readLimited(incoming, config.bodyLimit, (body) => body.toString('utf8')).then((body) => {
        const payload = jsonOf(body)
        if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return refusal(invalid({ body: 'must be a JSON object' }))
        const kept = Object.fromEntries([...req.headers].filter(([k]) => !NOT_KEPT.has(k) && !k.startsWith('x-forwarded-')))
        append([session.webhook(payload)], `the webhook's headers: ${JSON.stringify(kept)}`)
        return reply(200, okJson(MSG.RECORD_WEBHOOK_KEPT, null))
      }, refused)
    },
    close: () => file.close(),
  }
}

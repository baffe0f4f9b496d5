import { timingSafeEqual } from 'node:crypto'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { hostname } from 'node:os'
import { Readable } from 'node:stream'
import { KEY_SHAPE } from './config-options.js'
import type { Config } from './config.js'
import { MSG } from './messages.js'
import { errorJson } from './http/envelope.js'
import { controlAllowed } from './http/middleware/loopback.js'
import { bearerKey } from './http/middleware/secret-key.js'
import { CHARGES } from './engine/types.js'
import { pageId, type Namespaces } from './namespaces.js'
import { HOP_BY_HOP } from './reach/proxy.js'
import type { Leases } from './store/pg-lease.js'
import type { Store } from './store/store.js'

/**
 * Several processes on one database (docs/architecture.md, "Several processes, one database"):
 * before the app, a call is routed by the namespace its key names (a customer page, which carries
 * no key, by the namespace holding the charge its path names; the dashboard by the namespace its
 * `ns` names). The namespace's owner serves it (this process, after taking a free or expired lease,
 * given back when the call left the namespace holding nothing); another process's namespace is forwarded
 * to its owner as it came (method, path, headers but the hop-by-hop ones, body), and its answer handed back as it is. A
 * call forwarded to us (it carries the deployment's secret, `peerSecret`) is never forwarded again. An owner that cannot be reached (no connection
 * made in 2 s, or refused: the call never got there) is waited for until its lease runs out, then the namespace
 * is taken over here and the call served; any other failure of a forward is answered 503, since
 * the owner may have done it.
 */

/**
 * The header a forwarded call carries: the deployment's forwarding secret (pg-lease.ts, `peerSecret`).
 * Sent by a client without it, the call is routed as any other (and the header replaced if forwarded).
 */
export const FORWARDED = 'x-paysandbox-forwarded-by'

/** How many times a call looks for its namespace's owner before it is answered 503. */
const TRIES = 3

/** How long a forward waits for the owner's connection: a vanished host answers nothing. */
const CONNECT_MS = 2_000

/** The dashboard's pages of one namespace (src/control/dashboard/page.tsx), which name it by `?ns=` and carry no key. */
const DASHBOARD = ['/_sandbox/ui', '/_sandbox/ui/fragment']

/** undefined: served here as it comes (no lease asked); else the answer, from here or the owner */
type Routed = Promise<Response> | undefined

type Incoming = { headers: IncomingHttpHeaders; url?: string; socket?: { remoteAddress?: string } }

/** The URL other processes reach this one at: `SANDBOX_ADVERTISE_URL`, else the address it listens on (the host's name when on every address). */
export function advertisedUrl(config: Config, port: number): string {
  if (config.advertiseUrl) return config.advertiseUrl.replace(/\/+$/, '')
  const wildcard = config.host === '0.0.0.0' || config.host === '::'
  const host = wildcard ? hostname() : config.host.includes(':') ? `[${config.host}]` : config.host
  return `http://${host}:${port}`
}

/**
 * The router: undefined when this process serves the call now (the usual case: one header read,
 * one Map lookup), else a promise of the answer: the owner's, or this process's (`serve`) once the
 * namespace is taken here.
 */
export function clusterRouter(
  leases: Leases,
  namespaces: Namespaces,
  store: Store,
  pagePrefixes: readonly string[],
  { strictKeys, controlToken }: Pick<Config, 'strictKeys' | 'controlToken'>,
): (req: Request, incoming: Incoming, serve: () => Response | Promise<Response>) => Routed {
  return (req, incoming, serve) => {
    const url = incoming.url ?? ''
    // a control call the app here would refuse (src/http/middleware/loopback.ts) is refused here, never forwarded: the
    // owner would take this process, on its loopback maybe, for the caller
    if (url.startsWith('/_sandbox/') && !controlAllowed(incoming.socket?.remoteAddress, () => controlTokenOf(incoming), controlToken)) return undefined
    // made only for a call routed: a call this process serves now reads no more than its key (and the secret is compared only then)
    const to = (): Target => ({ leases, req, serve, sent: incoming.headers[FORWARDED] })
    const auth = incoming.headers.authorization
    if (auth === undefined) {
      const shown = dashboardNs(url)
      if (shown !== undefined) return leases.owns(shown) ? undefined : route(to(), shown)
      // a customer page names its charge (and maybe its namespace's page id), no key
      const page = pageOf(url, pagePrefixes)
      return page && !locallyHeld(page, namespaces, store) ? routePage(to(), page) : undefined
    }
    const ns = namespaceOf(auth, namespaces, strictKeys)
    if (ns === undefined || leases.owns(ns)) return undefined
    return route(to(), ns)
  }
}

/** Whether a call's FORWARDED header is the deployment's secret: sent by a process of it, not by a client. */
function fromPeer(sent: string | string[] | undefined, secret: string): boolean {
  if (typeof sent !== 'string') return false
  const [a, b] = [Buffer.from(sent), Buffer.from(secret)]
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The control token a call sends (header, or `?token=`), as src/http/middleware/loopback.ts reads it. */
function controlTokenOf(incoming: Incoming): string | undefined {
  const header = incoming.headers['x-sandbox-control-token']
  if (header !== undefined) return Array.isArray(header) ? header[0] : header
  return new URLSearchParams((incoming.url ?? '').split('?')[1] ?? '').get('token') ?? undefined
}

/** The namespace a dashboard page of one namespace names (`?ns=`), when it has a key's shape. */
function dashboardNs(url: string): string | undefined {
  const [path, query = ''] = url.split('?')
  if (!DASHBOARD.includes(path)) return undefined
  const ns = new URLSearchParams(query).get('ns')
  return ns !== null && KEY_SHAPE.test(ns) ? ns : undefined
}

/** What a routed call is served with: here, or by its namespace's owner. */
interface Target {
  leases: Leases
  req: Request
  serve: () => Response | Promise<Response>
  /** the FORWARDED header sent: the deployment's secret when another process forwarded the call (never forwarded again) */
  sent: string | string[] | undefined
}

interface Page {
  tx: string
  pageId?: string
}

/** The charge a customer page's path names: `PREFIX[PAGE_ID/]TX[/...]` (src/engine/pages.ts). */
function pageOf(url: string, prefixes: readonly string[]): Page | undefined {
  const path = url.split('?')[0]
  const prefix = prefixes.find((p) => path.startsWith(p))
  if (prefix === undefined) return undefined
  const [first, second] = path.slice(prefix.length).split('/')
  const named = /^[0-9a-f]{16}$/.test(first) && !!second
  let tx: string
  try {
    tx = decodeURIComponent(named ? second : first)
  } catch {
    return undefined
  }
  if (!tx) return undefined
  return named ? { tx, pageId: first } : { tx }
}

/** Whether a namespace this process serves holds the page's charge (under its page id, when named: the namespaces' own look-up). */
function locallyHeld(page: Page, namespaces: Namespaces, store: Store): boolean {
  if (page.pageId !== undefined) {
    const ns = namespaces.ofPageId(page.pageId)
    return ns !== undefined && !!store.col(ns, CHARGES).get(page.tx)
  }
  for (const ns of store.namespaces()) if (store.col(ns, CHARGES).get(page.tx)) return true
  return false
}

/** A page of a namespace another process serves: the one namespace holding its charge (under its page id), routed by it. */
async function routePage(to: Target, page: Page): Promise<Response> {
  let holders: string[]
  try {
    holders = (await to.leases.holdersOfCharge(page.tx)).filter((ns) => page.pageId === undefined || pageId(ns) === page.pageId)
  } catch {
    return unavailable()
  }
  // none, or several (the page then says so): answered here as the app answers it
  return holders.length === 1 ? route(to, holders[0]) : to.serve()
}

/**
 * The namespace a call's key names (a public key's for the look-ups), or undefined: the app refuses
 * it (src/http/middleware/secret-key.ts: a key of no shape, or one --strict-keys does not take,
 * which must leave no lease behind), or it has none.
 */
function namespaceOf(auth: string, namespaces: Namespaces, strictKeys: boolean): string | undefined {
  const key = bearerKey(auth)
  if (key === null) return undefined
  const ns = key.startsWith('pk_test_') ? namespaces.publicKeyNamespace(key) : key
  return ns !== null && KEY_SHAPE.test(ns) && (!strictKeys || namespaces.isConfigured(ns)) ? ns : undefined
}

/** The call served by its namespace's owner: this process once it takes the lease, or the one it forwards to. */
async function route({ leases, req, serve, sent }: Target, ns: string): Promise<Response> {
  const forwarded = fromPeer(sent, leases.secret)
  let asked = false
  for (let i = 0; i < TRIES; i++) {
    let claim
    try {
      claim = await leases.claim(ns)
    } catch {
      return unavailable()
    }
    if (claim.mine) {
      const answer = await serve()
      // a namespace the call did not make (refused: --max-namespaces; a dashboard of none) keeps no lease
      await leases.giveBack(ns)
      return answer
    }
    // a call forwarded here by a process that took us for the owner: wait for the lease instead
    // (an owner still starting has no URL yet: waited for as one that cannot be reached)
    if (!forwarded && claim.url && claim.url !== leases.url) {
      const answer = await forward(claim.url, req, leases.secret)
      if (answer !== 'refused') return answer
      // the owner we knew of may have given the lease back (stopped): ask the database once more at once
      if (!asked) {
        asked = true
        leases.forget(ns)
        i--
        continue
      }
    }
    // the owner is gone (or not yet taken over): its lease runs out within leftMs
    await new Promise((r) => setTimeout(r, claim.leftMs + 50))
    leases.forget(ns)
  }
  return unavailable()
}

function unavailable(): Response {
  return new Response(errorJson(MSG.SERVICE_UNAVAILABLE), { status: 503, headers: { 'content-type': 'application/json' } })
}

/**
 * The call sent on to the owner as it came, its answer streamed back. 'refused' when no connection
 * was made (nothing of the call was sent): the caller may serve it elsewhere.
 */
function forward(owner: string, req: Request, secret: string): Promise<Response | 'refused'> {
  const url = new URL(req.url)
  const target = new URL(url.pathname + url.search, owner)
  const headers: Record<string, string> = {}
  // as a proxy forwards (src/reach/proxy.ts): what belongs to the client's connection stays with it
  req.headers.forEach((v, k) => {
    if (!HOP_BY_HOP.includes(k)) headers[k] = v
  })
  headers[FORWARDED] = secret
  return new Promise((resolve) => {
    let connected = false
    // a connection of its own (no agent): the body is sent only once it is made
    const out = httpRequest(target, { method: req.method, headers, agent: false }, (res) => {
      const h = new Headers()
      for (const [k, v] of Object.entries(res.headers)) {
        if (v === undefined || HOP_BY_HOP.includes(k) || k === 'transfer-encoding') continue
        for (const one of Array.isArray(v) ? v : [v]) h.append(k, one)
      }
      const body = req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304 ? null : (Readable.toWeb(res) as ReadableStream)
      resolve(new Response(body, { status: res.statusCode ?? 502, headers: h }))
    })
    // nothing of the call was sent before the connection was made: the owner is not there
    out.on('error', () => resolve(connected ? unavailable() : 'refused'))
    const giveUp = setTimeout(() => out.destroy(), CONNECT_MS)
    out.on('socket', (socket) => {
      socket.once('connect', () => {
        clearTimeout(giveUp)
        connected = true
        if (req.body) Readable.fromWeb(req.body as import('node:stream/web').ReadableStream).pipe(out)
        else out.end()
      })
    })
  })
}

import { Hono } from 'hono'
import type { Deps } from './deps.js'
import { notFound } from './errors.js'
import { MSG } from './messages.js'
import { mount, type Access, type AnyArea } from './http/area.js'
import type { AppEnv } from './http/context.js'
import { errorEnvelope } from './http/envelope.js'
import { customerPages, pageRefusal } from './http/html-page.js'
import { armedFault } from './http/middleware/armed-fault.js'
import { bodyLimit } from './http/middleware/body-limit.js'
import { chain } from './http/middleware/chain.js'
import { durability } from './http/middleware/durability.js'
import { journal } from './http/middleware/journal.js'
import { liveProfile } from './http/live-profile.js'
import { loopbackOnly } from './http/middleware/loopback.js'
import { secretKey } from './http/middleware/secret-key.js'

/**
 * `/api/v1/...` paths docs/api.md does not name (its direct debit and identities) nor the pages write bare
 * (chargebacks, account holders, upload URLs, pool accounts: CONTRACT 15) are not API routes: the
 * live host answers them 200 with a plain-text welcome, changing nothing (docs/behaviour.md#beyond-the-seed).
 */
const NOT_API = /^\/api\/v1\/(?!direct-debit\/|identities\/|chargebacks(\/|$)|virtual-bank-account\/account-holders(\/|$)|files\/generate-upload-url(\/|$)|pool-accounts(\/|$))/

/** The identity calls, which carry selfies: a larger body limit. */
const IDENTITY = /^\/(merchant\/)?api\/v1\/identities\//
/** A snapshot put back (docs/behaviour.md#snapshots): the limit of `--snapshot-bytes`. */
const SNAPSHOT = /^\/_sandbox\/snapshot$/

/**
 * The whole HTTP API as a function of the wired sandbox: tests build it over an in-memory store
 * and call `app.request()`; server.ts puts it on a socket. Each area's routes (src/areas.ts) are
 * served inside the middleware of their access, in order (http/middleware/); whatever is thrown is
 * answered by `errorEnvelope`.
 */
export function createApp<L extends readonly AnyArea[]>(deps: Deps<L>) {
  const { config, store, clocks, namespaces, faults } = deps
  const app = new Hono<AppEnv>()

  // every request: journaled (once it has a namespace), durable before it is answered, its body limited
  const every = [journal({ journal: deps.journal, clocks, random: deps.random }), durability({ store }), bodyLimit({ maxSize: config.bodyLimit, larger: [{ path: IDENTITY, maxSize: config.identityBodyLimit }, { path: SNAPSHOT, maxSize: config.snapshotBytes }] })]
  const key = secretKey({ namespaces, strictKeys: config.strictKeys })
  const loopback = loopbackOnly({ controlToken: config.controlToken })
  const live = liveProfile((ns) => deps.scenarios.forNs(ns).settings.profile === 'live')
  const api = chain([...every, key, live, armedFault({ faults })], errorEnvelope)
  const control = chain([...every, loopback, key], errorEnvelope)
  const open = chain(every, errorEnvelope)
  const chains: Record<Access, ReturnType<typeof chain>> = {
    // health, the OpenAPI document, the customer's 3DS and checkout pages (docs/behaviour.md#checkout-page)
    open,
    // the dashboard: no key, loopback only
    dashboard: chain([...every, loopback], errorEnvelope),
    control,
    // merchant and identity calls
    'secret key': api,
    // the look-ups also take a public test key (docs/behaviour.md#look-ups); every other call refuses it
    'public key': chain([...every, secretKey({ namespaces, strictKeys: config.strictKeys, publicKeys: true }), live, armedFault({ faults })], errorEnvelope),
  }
  // the customer pages refuse in HTML, whatever refuses (docs/behaviour.md#checkout-page)
  const pages = chain(every, pageRefusal)
  const isCustomerPage = customerPages(deps.areas)
  for (const area of deps.areas) for (const route of area.routes) mount(app, isCustomerPage(route.path) ? pages : chains[route.access], route, deps)

  // a path no route serves: refused as its neighbours would be (a control or API path without a key: 401)
  app.notFound((c) => {
    if (NOT_API.test(c.req.path)) return open(c, () => c.text(MSG.WELCOME))
    const around = isCustomerPage(c.req.path) ? pages : c.req.path.startsWith('/_sandbox/') ? control : /^\/(merchant|api)(\/|$)/.test(c.req.path) ? api : open
    return around(c, () => {
      throw notFound(MSG.ROUTE_NOT_FOUND)
    })
  })
  app.onError(errorEnvelope)
  return app
}

import { Hono } from 'hono'
import { cardRoutes } from './cards/routes.js'
import { threeDsRoutes } from './cards/three-ds.js'
import { chargeQueryRoutes } from './charges/routes.js'
import { dashboardRoutes } from './control/dashboard/page.js'
import { controlRoutes } from './control/routes.js'
import type { Deps } from './deps.js'
import { directDebitControlRoutes, directDebitRoutes } from './direct-debit/routes.js'
import { MSG, notFound } from './errors.js'
import type { AppEnv } from './http/context.js'
import { errorEnvelope, ok } from './http/envelope.js'
import { armedFault } from './http/middleware/armed-fault.js'
import { bodyLimit } from './http/middleware/body-limit.js'
import { chain, mount } from './http/middleware/chain.js'
import { durability } from './http/middleware/durability.js'
import { journal } from './http/middleware/journal.js'
import { loopbackOnly } from './http/middleware/loopback.js'
import { secretKey } from './http/middleware/secret-key.js'
import { identityRoutes } from './identity/routes.js'
import { miscRoutes } from './misc/routes.js'
import { mobileMoneyRoutes } from './mobile-money/routes.js'
import { healthBody } from './version.js'
import { payinRoutes } from './pay-ins/routes.js'
import { checkoutControlRoutes, checkoutRoutes } from './checkout/routes.js'
import { checkoutPageRoutes } from './checkout/page.js'
import { bankTransferRoutes } from './bank-transfer/routes.js'
import { balanceControlRoutes, balanceRoutes } from './balances/routes.js'
import { bulkPayoutRoutes, payoutControlRoutes, payoutListRoutes, payoutRoutes } from './payouts/routes.js'
import { virtualAccountRoutes } from './virtual-accounts/routes.js'
import { refundControlRoutes, refundRoutes } from './refunds/routes.js'

/** The identity calls, which carry selfies: a larger body limit. */
const IDENTITY = /^\/(merchant\/)?api\/v1\/identities\//

/**
 * The whole HTTP API as a function of the wired sandbox: tests build it over an in-memory store
 * and call `app.request()`; server.ts puts it on a socket. Each group of routes is served inside
 * its middleware, in order (http/middleware/); whatever is thrown is answered by `errorEnvelope`.
 */
export function createApp(deps: Deps) {
  const { config, store, clocks, namespaces, faults, cards, preauth, mobileMoney, directDebit, identity, checkout, virtualAccounts } = deps
  const app = new Hono<AppEnv>()

  // every request: journaled (once it has a namespace), durable before it is answered, its body limited
  const every = [journal({ journal: deps.journal, clocks }), durability({ store }), bodyLimit({ maxSize: config.bodyLimit, larger: { path: IDENTITY, maxSize: config.identityBodyLimit } })]
  const key = secretKey({ namespaces, strictKeys: config.strictKeys })
  const loopback = loopbackOnly({ controlToken: config.controlToken })
  const open = chain(every, errorEnvelope) // health, OpenAPI, the customer's 3DS and checkout pages
  const local = chain([...every, loopback], errorEnvelope) // the dashboard: no key, loopback only
  const control = chain([...every, loopback, key], errorEnvelope) // the control API
  const api = chain([...every, key, armedFault({ faults })], errorEnvelope) // merchant and identity calls
  // the look-ups also take a public test key (docs/behaviour.md 13.5); every other call refuses it
  const lookups = chain([...every, secretKey({ namespaces, strictKeys: config.strictKeys, publicKeys: true }), armedFault({ faults })], errorEnvelope)

  mount(app, '/_sandbox', open, infoRoutes(deps))
  mount(app, '/_sandbox/3ds', open, threeDsRoutes(deps))
  // the hosted checkout page: the customer's browser, no key (docs/behaviour.md 13.1.1)
  mount(app, '/checkout', open, checkoutPageRoutes(deps))
  mount(app, '/_sandbox/ui', local, dashboardRoutes(deps))
  mount(app, '/_sandbox', control, controlRoutes(deps))
  mount(app, '/_sandbox/direct-debit', control, directDebitControlRoutes(directDebit))
  mount(app, '/_sandbox/checkouts', control, checkoutControlRoutes(deps))
  mount(app, '/_sandbox/balances', control, balanceControlRoutes(deps.balances))
  mount(app, '/_sandbox/refunds', control, refundControlRoutes(deps.refunds))
  mount(app, '/_sandbox/payouts', control, payoutControlRoutes(deps.payouts))

  mount(app, '/merchant/api/v1/charges/card', api, cardRoutes(cards, preauth))
  mount(app, '/merchant/api/v1/charges/mobile-money', api, mobileMoneyRoutes(mobileMoney))
  mount(app, '/merchant/api/v1/charges', api, checkoutRoutes(checkout))
  mount(app, '/merchant/api/v1/charges/bank-transfer', api, bankTransferRoutes(deps))
  mount(app, '/merchant/api/v1/balances', api, balanceRoutes(deps.balances))
  mount(app, '/merchant/api/v1/refunds', api, refundRoutes(deps.refunds))
  // docs/behaviour.md 13.7: payouts
  mount(app, '/merchant/api/v1/transactions', api, payoutRoutes(deps.payouts))
  mount(app, '/merchant/api/v1/payouts', api, payoutListRoutes(deps.payouts))
  // docs/behaviour.md 13.7.1: bulk payouts under both prefixes
  mount(app, '/merchant/api/v1/transactions', api, bulkPayoutRoutes(deps.bulkPayouts))
  mount(app, '/api/v1/transactions', api, bulkPayoutRoutes(deps.bulkPayouts))
  // docs/behaviour.md 6 and 7: served with and without the /merchant prefix
  mount(app, '/merchant/api/v1/direct-debit', api, directDebitRoutes(directDebit))
  mount(app, '/api/v1/direct-debit', api, directDebitRoutes(directDebit))
  mount(app, '/api/v1/identities', api, identityRoutes(identity))
  mount(app, '/merchant/api/v1/identities', api, identityRoutes(identity))
  mount(app, '/merchant/api/v1/virtual-bank-account', api, virtualAccountRoutes(virtualAccounts))
  mount(app, '/merchant/api/v1/misc', lookups, miscRoutes())
  mount(app, '/merchant/api/v1/pay-ins', api, payinRoutes(deps.payins))
  mount(app, '/merchant/api/v1/charges', api, chargeQueryRoutes({ store, clocks, cache: config.queryCache, extras: deps.queryExtras }))

  // a path no route serves: refused as its neighbours would be (a control or API path without a key: 401)
  app.notFound((c) => {
    const around = c.req.path.startsWith('/_sandbox/') ? control : /^\/(merchant|api)(\/|$)/.test(c.req.path) ? api : open
    return around(c, () => {
      throw notFound(MSG.ROUTE_NOT_FOUND)
    })
  })
  app.onError(errorEnvelope)
  return app
}

/** GET /_sandbox/health and the raw OpenAPI document (no key, no envelope; loaded on first use). */
function infoRoutes(deps: Deps) {
  const app = new Hono<AppEnv>()
  app.get('/health', (c) => {
    const { message, data } = healthBody(deps.startedAt)
    return ok(c, message, data)
  })
  app.get('/openapi.json', async (c) => c.json((await import('./openapi.js')).buildOpenApi(deps.version)))
  return app
}

export type App = ReturnType<typeof createApp>

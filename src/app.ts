import { Hono } from 'hono'
import { cardRoutes } from './cards/routes.js'
import { threeDsRoutes } from './cards/three-ds.js'
import { chargeQueryRoutes } from './charges/routes.js'
import type { CardCharge } from './charges/types.js'
import { dashboardRoutes } from './control/dashboard.js'
import { controlRoutes } from './control/routes.js'
import type { Deps } from './deps.js'
import { directDebitControlRoutes, directDebitRoutes } from './direct-debit/routes.js'
import type { DirectDebit } from './direct-debit/service.js'
import { MSG, notFound } from './errors.js'
import type { AppEnv } from './http/context.js'
import { errorEnvelope, ok } from './http/envelope.js'
import { armedFault } from './http/middleware/armed-fault.js'
import { bodyLimit } from './http/middleware/body-limit.js'
import { durability } from './http/middleware/durability.js'
import { journal } from './http/middleware/journal.js'
import { loopbackOnly } from './http/middleware/loopback.js'
import { secretKey } from './http/middleware/secret-key.js'
import { identityRoutes } from './identity/routes.js'
import { mobileMoneyRoutes } from './mobile-money/routes.js'
import type { MobileMoneyCharge } from './mobile-money/service.js'
import { healthBody } from './version.js'

/** The identity calls, which carry selfies: a larger body limit. */
const IDENTITY = /^\/(merchant\/)?api\/v1\/identities\//

/**
 * The whole HTTP API as a function of the wired sandbox: tests build it over an in-memory store
 * and call `app.request()`; server.ts puts it on a socket. Middleware runs in the order it is
 * registered; whatever any of it or any route throws, `errorEnvelope` answers.
 */
export function createApp(deps: Deps) {
  const { config, store, clocks, namespaces, cards, preauth, mobileMoney, directDebit, identity } = deps
  const app = new Hono<AppEnv>()
  const key = secretKey({ namespaces, strictKeys: config.strictKeys })

  // every request: journaled (once it has a namespace), durable before it is answered, its body limited
  app.use('*', journal({ journal: deps.journal, clocks }), durability({ store }), bodyLimit({ maxSize: config.bodyLimit, larger: { path: IDENTITY, maxSize: config.identityBodyLimit } }))

  // no key: the health check, the OpenAPI document (loaded on first use) and the 3DS page, which
  // the customer's browser opens
  app.get('/_sandbox/health', (c) => {
    const { message, data } = healthBody(deps.startedAt)
    return ok(c, message, data)
  })
  app.get('/_sandbox/openapi.json', async (c) => c.json((await import('./openapi.js')).buildOpenApi(deps.version)))
  app.route('/_sandbox/3ds', threeDsRoutes(deps))

  // the rest of /_sandbox: loopback only; the dashboard takes no key, the control API does
  app.use('/_sandbox/*', loopbackOnly({ controlToken: config.controlToken }))
  app.route('/_sandbox/ui', dashboardRoutes(deps))
  app.use('/_sandbox/*', key)
  app.route('/_sandbox', controlRoutes(deps))
  app.route('/_sandbox/direct-debit', directDebitControlRoutes(directDebit))

  // the merchant and identity API: the key chooses the namespace, then an armed fault may take the call
  for (const api of ['/merchant/*', '/api/*']) app.use(api, key, armedFault({ faults: deps.faults }))
  app.route('/merchant/api/v1/charges/card', cardRoutes(cards, preauth))
  app.route('/merchant/api/v1/charges/mobile-money', mobileMoneyRoutes(mobileMoney))
  // CONTRACT.md 6 and 7: served with and without the /merchant prefix
  app.route('/merchant/api/v1/direct-debit', directDebitRoutes(directDebit))
  app.route('/api/v1/direct-debit', directDebitRoutes(directDebit))
  app.route('/api/v1/identities', identityRoutes(identity))
  app.route('/merchant/api/v1/identities', identityRoutes(identity))
  app.route('/merchant/api/v1/charges', chargeQueryRoutes({
    store,
    clocks,
    cache: config.queryCache,
    extras: {
      card: (ns, charge) => preauth.queryExtras(ns, charge as CardCharge),
      mobile_money: (_ns, charge) => mobileMoney.queryExtras(charge as MobileMoneyCharge),
      direct_debit: (_ns, charge) => directDebit.queryExtras(charge as DirectDebit),
    },
  }))

  app.notFound(() => {
    throw notFound(MSG.ROUTE_NOT_FOUND)
  })
  app.onError(errorEnvelope)
  return app
}

export type App = ReturnType<typeof createApp>

import { Hono } from 'hono'
import { cardRoutes } from './cards/routes.js'
import { CardService } from './cards/service.js'
import { PreauthService } from './cards/preauth.js'
import { mobileMoneyRoutes } from './mobile-money/routes.js'
import { identityRoutes } from './identity/routes.js'
import { IdentityService } from './identity/service.js'
import { directDebitControlRoutes, directDebitRoutes } from './direct-debit/routes.js'
import { DirectDebitService, type DirectDebit } from './direct-debit/service.js'
import { MobileMoneyService, type MobileMoneyCharge } from './mobile-money/service.js'
import { threeDsRoutes } from './cards/three-ds.js'
import { chargeQueryRoutes } from './charges/routes.js'
import { controlRoutes } from './control/routes.js'
import { dashboardRoutes } from './control/dashboard.js'
import type { Deps } from './deps.js'
import type { CardCharge } from './charges/types.js'
import type { AppEnv } from './http/context.js'
import { fail, ok } from './http/envelope.js'
import { ApiError, MSG } from './http/errors.js'
import { authenticate, authenticateRequest, limitBody, loopbackOnly } from './http/middleware.js'
import { applyFault } from './control/faults.js'
import { healthBody } from './version.js'

/** Paths whose requests are not journaled (reading the journal or events would drown it). */
const UNJOURNALED = /^\/_sandbox\/(requests|events|ui|health)/

/**
 * The whole HTTP API as a function of its dependencies: tests build it over an in-memory store
 * and call `app.request()`; server.ts puts it on a socket.
 */
export function createApp(deps: Deps) {
  const app = new Hono<AppEnv>()
  const preauth = new PreauthService(deps)
  const cards = new CardService(deps, { onPreauthorized: (ns, charge) => preauth.place(ns, charge) })
  const mm = new MobileMoneyService(deps)
  const dd = new DirectDebitService(deps)
  const identity = new IdentityService(deps)

  // 4 MiB on the identity endpoints (selfies), 1 MiB everywhere else
  const IDENTITY = /^\/(merchant\/)?api\/v1\/identities\//

  // merchant and identity calls (what `app.use('/merchant/*')` and `'/api/*'` would match)
  const API = /^\/(merchant|api)(\/|$)/

  // Outermost, one middleware for every request (each level of middleware costs): the body
  // limit; on merchant and identity calls the gate (the key chooses the namespace, then an armed
  // fault may take the call); then after the handler durability (with --data the answer leaves
  // only once the change it reports is in the file) and the journal.
  app.use('*', async (c, next) => {
    const t0 = performance.now()
    const path = c.req.path
    limitBody(c, IDENTITY.test(path) ? deps.config.identityBodyLimit : deps.config.bodyLimit)
    if (API.test(path)) {
      // a 401 or 403 thrown here has no namespace yet: it is answered and not journaled
      authenticateRequest(c, deps)
      const fault = deps.faults.takeApi(c.get('ns'), c.req.method, path)
      if (fault) {
        const res = await applyFault(c, next, fault)
        if (res instanceof Response) c.res = res
      } else await next()
    } else await next()
    if (deps.store.dirty) {
      try {
        await deps.store.sync()
      } catch (e) {
        console.error('paysandbox: could not write the data file:', e)
        c.res = fail(c, 500, MSG.INTERNAL)
      }
    }
    const ns = c.get('ns')
    if (ns && !UNJOURNALED.test(c.req.path)) {
      const url = c.req.url
      const q = url.indexOf('?')
      const journalBody = c.get('journalBody')
      deps.journal.add(
        ns,
        {
          at: deps.clocks.iso(ns),
          method: c.req.method,
          path: c.req.path,
          // a control token sent as ?token= is a secret: never journaled
          query: q < 0 ? '' : url.slice(q).replace(/([?&]token=)[^&]*/g, '$1***'),
          status: c.res.status,
          ms: Math.round((performance.now() - t0) * 100) / 100,
        },
        journalBody ?? c.get('body') ?? null,
        journalBody !== undefined && c.get('journalMasked') === true,
        c.get('responseJson'),
      )
    }
  })

  app.get('/_sandbox/health', (c) => {
    const { message, data } = healthBody(deps.startedAt)
    return ok(c, message, data)
  })
  // no key, no envelope: the raw OpenAPI document, loaded on first use (off the cold-start path)
  app.get('/_sandbox/openapi.json', async (c) => c.json((await import('./openapi.js')).buildOpenApi(deps.version)))
  // the customer's browser: no key (see three-ds.tsx)
  app.route('/_sandbox/3ds', threeDsRoutes(deps, cards))

  app.use('/_sandbox/*', loopbackOnly(deps))
  // the dashboard takes no key, but stays under the loopback rule (CONTRACT.md 9)
  app.route('/_sandbox/ui', dashboardRoutes(deps))
  app.use('/_sandbox/*', authenticate(deps))
  app.route('/merchant/api/v1/charges/card', cardRoutes(cards, preauth))
  app.route('/merchant/api/v1/charges/mobile-money', mobileMoneyRoutes(mm))
  // CONTRACT.md 6: served with and without the /merchant prefix
  app.route('/merchant/api/v1/direct-debit', directDebitRoutes(dd))
  app.route('/api/v1/direct-debit', directDebitRoutes(dd))
  app.route('/api/v1/identities', identityRoutes(identity))
  app.route('/merchant/api/v1/identities', identityRoutes(identity))
  app.route('/merchant/api/v1/charges', chargeQueryRoutes(deps, {
      card: (ns, charge) => preauth.queryExtras(ns, charge as CardCharge),
      mobile_money: (_ns, charge) => mm.queryExtras(charge as MobileMoneyCharge),
      direct_debit: (_ns, charge) => dd.queryExtras(charge as DirectDebit),
    }))
  app.route('/_sandbox', controlRoutes(deps, { card: cards.complete.bind(cards), mobile_money: mm.complete.bind(mm), direct_debit: dd.completeNow.bind(dd) }, [(ns) => deps.webhooks.forget(ns)], preauth))

  app.route('/_sandbox/direct-debit', directDebitControlRoutes(dd))

  app.notFound((c) => fail(c, 404, MSG.ROUTE_NOT_FOUND))
  app.onError((err, c) => {
    if (err instanceof ApiError) return fail(c, err.status, err.message, err.data)
    console.error('paysandbox: unhandled error:', err)
    return fail(c, 500, MSG.INTERNAL)
  })

  return app
}

export type App = ReturnType<typeof createApp>

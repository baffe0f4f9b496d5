import { Hono, type Context, type Handler, type Next } from 'hono'
import { mergePath } from 'hono/utils/url'
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
import { dashboardRoutes } from './control/dashboard/page.js'
import type { Deps } from './deps.js'
import type { CardCharge } from './charges/types.js'
import type { AppEnv } from './http/context.js'
import { fail, ok } from './http/envelope.js'
import { ApiError, MSG } from './http/errors.js'
import { authenticate, authenticateRequest, limitBody, loopbackOnly } from './http/middleware.js'
import { applyFault, type Fault } from './control/faults.js'
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

  const onError = (err: Error, c: Context<AppEnv>): Response => {
    if (err instanceof ApiError) return fail(c, err.status, err.message, err.data)
    console.error('paysandbox: unhandled error:', err)
    return fail(c, 500, MSG.INTERNAL)
  }

  /** A route's answer in c.res; what it throws answered as onError does. */
  const respond = async (c: Context<AppEnv>, next: Next, handler: Handler<AppEnv>): Promise<void> => {
    try {
      c.res = (await handler(c, next)) as Response
    } catch (e) {
      c.res = onError(e as Error, c)
    }
  }

  // Around every request, once: the body limit; on merchant and identity calls the gate (the key
  // chooses the namespace, then an armed fault may take the call); the answer: `handler`'s, or
  // with none (as a middleware) `next`'s; then durability (with --data the answer leaves only
  // once the change it reports is in the file) and the journal. A handler that answers at once
  // (a charge query, say) with nothing to write is answered at once too: no promise is made
  // for it here or in Hono's dispatch (about 3 % of a charge query's time over a socket, measured
  // before server.ts batched answers: the batch now makes the one promise per request node sees).
  const around = (c: Context<AppEnv>, next: Next, handler?: Handler<AppEnv>): Response | Promise<Response> => {
    const t0 = performance.now()
    c.set('around', true)
    const path = c.req.path
    limitBody(c, IDENTITY.test(path) ? deps.config.identityBodyLimit : deps.config.bodyLimit)
    let fault: Fault | undefined
    const api = API.test(path)
    if (api) {
      // a 401 or 403 thrown here has no namespace yet: it is answered and not journaled
      authenticateRequest(c, deps)
      fault = deps.faults.takeApi(c.get('ns'), c.req.method, path)
    }
    if (fault || !handler) return aroundLater(c, next, handler, fault, t0, path, api)
    let out: Response | Promise<Response | void> | void
    try {
      out = handler(c, next) as Response | Promise<Response | void> | void
    } catch (e) {
      out = onError(e as Error, c)
    }
    if (out instanceof Promise) return aroundLater(c, next, handler, undefined, t0, path, api, out)
    c.res = out as Response
    if (deps.store.dirty) return aroundLater(c, next, handler, undefined, t0, path, api, null)
    journal(c, t0, path, api)
    return c.res
  }

  /**
   * The rest of `around` when something is awaited: an armed fault, a middleware's `next`, a
   * handler's promise (`pending`; null when the handler already answered), the data file.
   */
  const aroundLater = async (
    c: Context<AppEnv>,
    next: Next,
    handler: Handler<AppEnv> | undefined,
    fault: Fault | undefined,
    t0: number,
    path: string,
    api: boolean,
    pending?: Promise<Response | void> | null,
  ): Promise<Response> => {
    if (pending) {
      try {
        c.res = (await pending) as Response
      } catch (e) {
        c.res = onError(e as Error, c)
      }
    } else if (pending === undefined) {
      if (fault) {
        const res = await applyFault(c, handler ? () => respond(c, next, handler) : next, fault)
        if (res instanceof Response) c.res = res
      } else if (handler) await respond(c, next, handler)
      else await next()
    }
    if (deps.store.dirty) {
      try {
        await deps.store.sync()
      } catch (e) {
        console.error('paysandbox: could not write the data file:', e)
        c.res = fail(c, 500, MSG.INTERNAL)
      }
    }
    journal(c, t0, path, api)
    return c.res
  }

  /** Journals the call (a namespace's merchant and identity calls, and its control calls). */
  const journal = (c: Context<AppEnv>, t0: number, path: string, api: boolean): void => {
    const ns = c.get('ns')
    if (!ns || !(api || !UNJOURNALED.test(path))) return
    const url = c.req.url
    const q = url.indexOf('?')
    const journalBody = c.get('journalBody')
    deps.journal.add(
      ns,
      {
        at: deps.clocks.iso(ns),
        method: c.req.method,
        path,
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

  /**
   * The merchant and identity routes: each handler wrapped in `around` itself rather than put
   * under a middleware. A route with a single handler skips Hono's compose, and with it a level
   * of async dispatch and its promises on every call (3 % of the instructions of a charge query).
   */
  const mount = (base: string, sub: Hono<AppEnv>): void => {
    for (const r of sub.routes) {
      const handler = r.handler
      app.on(r.method, mergePath(base, r.path), (c, next) => around(c, next, handler))
    }
  }

  // the control API, the 3-D Secure page and the dashboard keep their middleware chains, all
  // under `around` as a middleware
  // (with no handler, `around` awaits `next` and so always answers with a promise)
  app.use('/_sandbox/*', (c, next) => around(c, next) as Promise<Response>)
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
  app.route('/_sandbox/ui', dashboardRoutes(deps, { preauth, directDebit: dd, identity }))
  app.use('/_sandbox/*', authenticate(deps))
  mount('/merchant/api/v1/charges/card', cardRoutes(cards, preauth))
  mount('/merchant/api/v1/charges/mobile-money', mobileMoneyRoutes(mm))
  // CONTRACT.md 6: served with and without the /merchant prefix
  mount('/merchant/api/v1/direct-debit', directDebitRoutes(dd))
  mount('/api/v1/direct-debit', directDebitRoutes(dd))
  mount('/api/v1/identities', identityRoutes(identity))
  mount('/merchant/api/v1/identities', identityRoutes(identity))
  mount('/merchant/api/v1/charges', chargeQueryRoutes(deps, {
      card: (ns, charge) => preauth.queryExtras(ns, charge as CardCharge),
      mobile_money: (_ns, charge) => mm.queryExtras(charge as MobileMoneyCharge),
      direct_debit: (_ns, charge) => dd.queryExtras(charge as DirectDebit),
    }))
  app.route('/_sandbox', controlRoutes(deps, { card: cards.complete.bind(cards), mobile_money: mm.complete.bind(mm), direct_debit: dd.completeNow.bind(dd) }, [(ns) => deps.webhooks.forget(ns)], preauth))

  app.route('/_sandbox/direct-debit', directDebitControlRoutes(dd))

  // a path no route serves: under /_sandbox/ `around` ran already, as the middleware
  const routeNotFound = (c: Context<AppEnv>): Response => fail(c, 404, MSG.ROUTE_NOT_FOUND)
  app.notFound((c) => (c.get('around') ? routeNotFound(c) : around(c, async () => {}, routeNotFound)))
  app.onError(onError)

  return app
}

export type App = ReturnType<typeof createApp>

import { Hono } from 'hono'
import type { Deps } from '../deps.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { MSG, notFound } from '../http/errors.js'
import { chargeQueryRecord } from './query.js'
import { CHARGES, type ChargeBase } from './types.js'

/** Finds a charge of any kind by payment reference or transaction reference. */
export function findCharge(deps: Deps, ns: string, reference: string): ChargeBase | undefined {
  const col = deps.store.col<ChargeBase>(ns, CHARGES)
  return col.findBy('payment_reference', reference) ?? col.get(reference)
}

/** GET /merchant/api/v1/charges/:reference (SPEC.md 2.8) */
export function chargeQueryRoutes(deps: Deps) {
  const app = new Hono<AppEnv>()
  app.get('/:reference', (c) => {
    const charge = findCharge(deps, c.get('ns'), c.req.param('reference'))
    if (!charge) throw notFound(MSG.CHARGE_NOT_FOUND)
    return ok(c, MSG.CHARGE_RETRIEVED, chargeQueryRecord(charge))
  })
  return app
}

import { Hono } from 'hono'
import type { Deps } from '../deps.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { MSG, notFound } from '../http/errors.js'
import { chargeQueryRecord } from './query.js'
import { CHARGES, type ChargeBase, type PaymentMethod } from './types.js'

/** Finds a charge of any kind by payment reference or transaction reference. */
export function findCharge(deps: Deps, ns: string, reference: string): ChargeBase | undefined {
  const col = deps.store.col<ChargeBase>(ns, CHARGES)
  return col.findBy('payment_reference', reference) ?? col.get(reference)
}

/** GET /merchant/api/v1/charges/:reference (SPEC.md 2.8) */
export type QueryExtras = (ns: string, charge: ChargeBase) => Record<string, unknown>

export function chargeQueryRoutes(deps: Deps, extras: Partial<Record<PaymentMethod, QueryExtras>> = {}) {
  const app = new Hono<AppEnv>()
  app.get('/:reference', (c) => {
    const ns = c.get('ns')
    const charge = findCharge(deps, ns, c.req.param('reference'))
    if (!charge) throw notFound(MSG.CHARGE_NOT_FOUND)
    // Object.assign, not spread: this is the hottest read and spreading a fresh record is slow
    const extra = extras[charge.kind]?.(ns, charge)
    return ok(c, MSG.CHARGE_RETRIEVED, extra ? Object.assign(chargeQueryRecord(charge), extra) : chargeQueryRecord(charge))
  })
  return app
}

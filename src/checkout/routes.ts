import { Hono } from 'hono'
import { originOf } from '../cards/routes.js'
import { readJsonObject, validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import type { Namespaces } from '../namespaces.js'
import type { Scenarios } from '../scenario/index.js'
import { payAsCustomer } from './pay.js'
import { controlPaySchema, initializeSchema } from './schemas.js'
import { CHECKOUT_MSG, type CheckoutCharge, type CheckoutService } from './service.js'

/** The hosted page of a checkout, on the sandbox's own origin (docs/behaviour.md 13.1). */
export const checkoutUrl = (origin: string, c: CheckoutCharge) => `${origin}/checkout/${encodeURIComponent(c.transaction_reference)}/pay`

/** POST /merchant/api/v1/charges/initialize */
export function checkoutRoutes(checkout: CheckoutService) {
  const app = new Hono<AppEnv>()
  app.post('/initialize', async (c) => {
    const input = validate(initializeSchema, await readJsonObject(c))
    const charge = checkout.initialize(c.get('ns'), input)
    return ok(c, CHECKOUT_MSG.CREATED, { reference: charge.payment_reference, checkout_url: checkoutUrl(originOf(c.req.url), charge) })
  })
  return app
}

/** What the control calls answer about a checkout. */
export function checkoutSummary(checkout: CheckoutService, ns: string, charge: CheckoutCharge) {
  const c = checkout.get(ns, charge.transaction_reference)
  return {
    reference: c.payment_reference,
    transaction_reference: c.transaction_reference,
    status: c.status,
    payment_method: c.payment_method,
    message: c.failure_message ?? c.response_message,
    payment_attempts: c.attempts,
  }
}

/** POST /_sandbox/checkouts/:reference/pay and /cancel (docs/behaviour.md 13.1) */
export function checkoutControlRoutes({ checkout, scenarios, namespaces }: { checkout: CheckoutService; scenarios: Scenarios; namespaces: Namespaces }) {
  const app = new Hono<AppEnv>()
  app.post('/:reference/pay', async (c) => {
    const ns = c.get('ns')
    const input = validate(controlPaySchema, await readJsonObject(c))
    const charge = checkout.get(ns, c.req.param('reference'))
    payAsCustomer(checkout, scenarios, ns, charge, input, checkoutUrl(originOf(c.req.url), charge), namespaces.get(ns)?.name ?? 'Sandbox Merchant')
    const summary = checkoutSummary(checkout, ns, charge)
    return ok(c, `Checkout ${summary.status}`, summary)
  })
  app.post('/:reference/cancel', (c) => {
    const ns = c.get('ns')
    const charge = checkout.cancel(ns, checkout.get(ns, c.req.param('reference')))
    return ok(c, 'Checkout cancelled', checkoutSummary(checkout, ns, charge))
  })
  return app
}

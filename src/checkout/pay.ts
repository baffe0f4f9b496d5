import type { Frozen } from '../store/frozen.js'
import { checkoutChannelOf } from '../engine/checkout-channel.js'
import type { ControlPayInput } from './schemas.js'
import type { CheckoutCharge, CheckoutService, PageOf } from './service.js'

/**
 * POST /_sandbox/checkouts/:reference/pay (docs/behaviour.md#checkout): pays a checkout as a customer
 * on the page would, for CI without a browser, by the channel's own script (`pay`, declared with
 * the channel: src/engine/checkout-channel.ts). Without a test value given, the channel's first
 * one whose outcome is the one asked for; every step is answered with the pack's values, so the
 * attempt ends as its test value says.
 */
export function payAsCustomer(checkout: CheckoutService, ns: string, c: Frozen<CheckoutCharge>, input: ControlPayInput, page: PageOf): void {
  // the schema admits the declared channels only
  const channel = checkoutChannelOf(input.channel)!
  channel.pay(checkout.wired, ns, input, input.outcome ?? 'success', checkout.drive(ns, c, input.channel, page))
}

import type { Frozen } from '../store/frozen.js'
import { clientOrigin } from '../http/origin.js'
import { checkoutPagePath, pageRoutePaths } from '../engine/pages.js'
import { validateWithMetadata } from '../engine/schemas.js'
import type { Kit } from '../engine/kit.js'
import { chargeKind } from '../engine/types.js'
import { MINOR, NUMBER, OBJECT, STRING, described, each, listOf, maybe, shape, type Check } from '../store/validate.js'
import { CURRENCY } from '../scenario/lookups.js'
import type { Area } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { checkoutChannelOf, checkoutChannels } from '../engine/checkout-channel.js'
import { checkoutPage, type CheckoutPage } from './page.js'
import { CHECKOUT_MSG } from './messages.js'
import { payAsCustomer } from './pay.js'
import { channelNames, checkoutSummarySchema, controlPaySchema, initializeAnswerSchema, initializeSchema, type ControlPayInput } from './schemas.js'
import { CheckoutService, type CheckoutCharge } from './service.js'
import { chargesOf, slug } from '../engine/outcomes.js'

/** its kind of charge, declared to the engine (`ChargeKinds`, src/engine/types.ts) */
declare module '../engine/types.js' {
  interface ChargeKinds { checkout: { record: CheckoutCharge } }
}

/** The hosted page of a checkout, on the origin the client called (docs/behaviour.md#checkout, docs/behaviour.md#urls-handed-out). */
export const checkoutUrl = (origin: string, c: Frozen<CheckoutCharge>) => `${origin}${checkoutPagePath(c.transaction_reference)}`

const [PAGE, PAGE_BARE] = pageRoutePaths('/checkout/:tx/pay')
const [CANCEL, CANCEL_BARE] = pageRoutePaths('/checkout/:tx/cancel')

/** What the control calls answer about a checkout. */
export function checkoutSummary(checkout: CheckoutService, ns: string, charge: Frozen<CheckoutCharge>) {
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

const summary = { name: 'CheckoutSummary', schema: checkoutSummarySchema }

/** A data file's checkout offers, and was paid by, the channels declared (docs/behaviour.md#persistence). */
const CHANNEL: Check = described((v) => typeof v === 'string' && checkoutChannelOf(v) !== undefined, () => `one of ${channelNames().join(', ')}`)

/** Checkout Standard (docs/behaviour.md#checkout): initialize, the hosted page, the control calls that pay or cancel. */
export const checkoutArea: Area<{ checkout: CheckoutService; checkoutPage: CheckoutPage }, Kit> = {
  key: 'checkout',
  outcomes: {
    list: () => [
      ...checkoutChannels().map(({ kind }) => ({ id: `checkout.paid.${slug(kind)}`, label: `paid by ${kind.replace(/_/g, ' ')}` })),
      { id: 'checkout.attempt-failed', label: 'an attempt failed, the checkout stayed open' },
      { id: 'checkout.cancelled', label: 'cancelled by the customer' },
      { id: 'checkout.expired', label: 'nobody paid: expired' },
    ],
    *met(s, ns) {
      for (const c of chargesOf<CheckoutCharge>(s.store, ns, 'checkout')) {
        const ref = c.payment_reference
        if (c.status === 'success' && c.payment_method) yield [`checkout.paid.${slug(c.payment_method)}`, ref]
        if (c.attempts.some((a) => a.status === 'failed')) yield ['checkout.attempt-failed', ref]
        if (c.status === 'failed' && c.failure_message === CHECKOUT_MSG.CANCELLED) yield ['checkout.cancelled', ref]
        if (c.status === 'expired') yield ['checkout.expired', ref]
      }
    },
  },
  // its page's posts carry the card the journal masked: a recorded session cannot post them again
  pages: { prefix: '/checkout/', replaysAsForm: false },
  tags: { checkout: 'Checkout Standard: a charge the customer pays on the hosted page by a channel the paying areas declare, and the control calls that pay or cancel it without a browser' },
  collections: [chargeKind('checkout', { channels: each(CHANNEL), payment_method: maybe(CHANNEL), amount_paid: MINOR, cost_borne: MINOR, expires_at: STRING, conversion: maybe(shape({ currency: CURRENCY, amount: MINOR, payment_currency: CURRENCY, settlement_currency: CURRENCY, rate: OBJECT })), split: maybe(shape({ merchant_amount: NUMBER, accounts: listOf({ split_account_reference: STRING, amount: MINOR }) })) })],
  build(kit) {
    const { namespaces, kinds } = kit
    const checkout = new CheckoutService(kit, kit)
    kinds.declare<CheckoutCharge>({
      kind: 'checkout',
      // the channel of the attempt that paid it (docs/behaviour.md#virtual-accounts)
      method: (c) => c.payment_method ?? null,
      paid: (_ns, c) => checkout.paid(c),
      settlement: (c, credit) => checkout.settlement(c, credit),
      queryExtras: (_ns, c) => checkout.queryExtras(c),
      complete: (ns, tx, outcome, message) => checkout.completeCurrent(ns, tx, outcome, message),
      // what it offers, or what paid it
      instrument: (c) => {
        const label = (ch: string) => kinds.of(ch).label
        const lines = [c.payment_method ? `paid ${kinds.payBy(c.payment_method)}` : `offers ${c.channels.map(label).join(', ') || 'no channel'}`]
        if (c.attempts.length) lines.push(`${c.attempts.length} attempt${c.attempts.length === 1 ? '' : 's'}`)
        return lines
      },
    })
    return { checkout, checkoutPage: checkoutPage({ checkout, namespaces, kinds, scenarios: kit.scenarios, intercepted: kit.config.interceptHosts }) }
  },
  routes: [
    {
      method: 'post', path: '/merchant/api/v1/charges/initialize', access: 'secret key', tag: 'checkout', operationId: 'initializeCheckout',
      summary: 'Initialize a charge the customer pays on the hosted checkout page', body: { name: 'InitializeRequest', get schema() { return initializeSchema() } }, closed: true,
      answer: { name: 'InitializeAnswer', schema: initializeAnswerSchema },
      get description() {
        return `Send the customer to \`checkout_url\`; the outcome comes by the \`charge.success\` webhook (to \`notification_url\` or the namespace's URL) and the charge query. \`channels\` (${channelNames().join(', ')}) keeps those that take the currency (${checkoutChannels().map((ch) => `${ch.kind} ${ch.currencies.join(', ')}`).join('; ')}), or every channel that takes it when none does; \`default_channel\` falls back the same way. An unpaid checkout expires after 24 hours on the namespace clock.`
      },
      handler: async (c, { checkout, config, scenarios }) => {
        const ns = c.get('ns')
        const input = validateWithMetadata(initializeSchema(), await readJsonObject(c), scenarios.forNs(ns).metadataUnderscores)
        const charge = checkout.initialize(ns, input)
        return ok(c, CHECKOUT_MSG.CREATED, { reference: charge.payment_reference, checkout_url: checkoutUrl(clientOrigin(c, config.interceptHosts), charge) })
      },
    },
    {
      method: 'post', path: '/_sandbox/checkouts/:reference/pay', access: 'control', tag: 'checkout', operationId: 'payCheckout',
      summary: 'Pay a checkout as a customer on the page would, by the channel given (for CI without a browser)', body: { name: 'CheckoutPayRequest', get schema() { return controlPaySchema() } }, answer: summary, step: true,
      get description() {
        return `Pays as the channel's customer would, ending as \`outcome\` (default \`success\`): without a test value given, the active packs' first of the channel that ends so; every step is answered with the pack's values. ${checkoutChannels().map((ch) => ch.payNote).join(' ')} \`reference\` is the merchant's or the transaction reference.`
      },
      handler: async (c, { checkout, namespaces, config }) => {
        const ns = c.get('ns')
        const input = validate(controlPaySchema(), await readJsonObject(c)) as ControlPayInput
        const charge = checkout.get(ns, c.req.param('reference')!)
        payAsCustomer(checkout, ns, charge, input, { returnUrl: checkoutUrl(clientOrigin(c, config.interceptHosts), charge), merchant: namespaces.get(ns)?.name ?? 'Sandbox Merchant' })
        const done = checkoutSummary(checkout, ns, charge)
        return ok(c, CHECKOUT_MSG.ended(done.status), done)
      },
    },
    {
      method: 'post', path: '/_sandbox/checkouts/:reference/cancel', access: 'control', tag: 'checkout', operationId: 'cancelCheckout',
      summary: 'Cancel a checkout as the customer does on the page (it fails)', answer: summary, step: true,
      handler: (c, { checkout }) => {
        const ns = c.get('ns')
        const charge = checkout.cancel(ns, checkout.get(ns, c.req.param('reference')!).transaction_reference)
        return ok(c, CHECKOUT_MSG.CHECKOUT_CANCELLED, checkoutSummary(checkout, ns, charge))
      },
    },
    // the hosted page: the customer's browser, no key (docs/behaviour.md#checkout-page); its namespace named, or the reference alone
    { method: 'get', path: PAGE, access: 'open', page: true, handler: (c, s) => s.checkoutPage.show(c) },
    { method: 'post', path: PAGE, access: 'open', page: true, handler: (c, s) => s.checkoutPage.pay(c) },
    { method: 'post', path: CANCEL, access: 'open', page: true, handler: (c, s) => s.checkoutPage.cancel(c) },
    { method: 'get', path: PAGE_BARE, access: 'open', page: true, handler: (c, s) => s.checkoutPage.show(c) },
    { method: 'post', path: PAGE_BARE, access: 'open', page: true, handler: (c, s) => s.checkoutPage.pay(c) },
    { method: 'post', path: CANCEL_BARE, access: 'open', page: true, handler: (c, s) => s.checkoutPage.cancel(c) },
  ],
}

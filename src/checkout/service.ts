import type { Settings } from '../scenario/schema.js'
import type { Context } from 'hono'
import type { Kit } from '../engine/kit.js'
import { locateCharge } from '../engine/pages.js'
import { ChargeLifecycle, requested, type LifecycleParts } from '../engine/lifecycle.js'
import { CHARGES, type ChargeBase, type PaymentMethod } from '../engine/types.js'
import { checkoutChannelOf, checkoutPricedBy, checkoutChannels, type AnyCheckoutChannel } from '../engine/checkout-channel.js'
import { badRequest, conflict, notFound } from '../errors.js'
import { MSG } from '../messages.js'
import { copyOf, type Frozen } from '../store/frozen.js'
import { CHECKOUT_MSG } from './messages.js'
import { offeredChannels, type CheckoutChannel, type InitializeInput } from './schemas.js'
import { isoAt } from '../time.js'
import { parseAmount, toMajor, unitOf } from '../money.js'
import { decimalsOf } from '../scenario/lookups.js'
import { conversionOf, paymentAmount, settlementAmount, type Conversion } from './conversion.js'
import { splitOf, type Split } from './split.js'

/**
 * Checkout Standard (docs/behaviour.md#checkout): a charge whose channel the customer picks on the
 * hosted page. Each try is an attempt: a charge of its channel (a channel its area declares,
 * src/engine/checkout-channel.ts) run by that channel's own service, with `parent` set to the
 * checkout. An attempt's end is not announced; the checkout hears of it: after its own call into
 * the channel returns (`#drive`), or from the lifecycle's hook when it ends otherwise (a page of
 * the channel, a timer): a success ends the checkout as a success (and announces it), a failure is
 * kept among its attempts and the customer may try again. The customer may cancel (the checkout
 * fails); unpaid, it expires on the namespace clock.
 */

/** docs/behaviour.md#checkout: a checkout is open this long on the namespace clock */
export const CHECKOUT_HOURS = 24

export interface CheckoutCharge extends ChargeBase {
  kind: 'checkout'
  /** offered on the page, in the order asked for (those that take its currency) */
  channels: CheckoutChannel[]
  default_channel: CheckoutChannel | null
  redirect_url: string | null
  notification_url: string | null
  merchant_bears_cost: boolean
  /** what the customer paid through the attempt that paid it (0 until then), and of it the fee and VAT they bore */
  amount_paid: number
  cost_borne: number
  /** the channel of the attempt that paid it */
  payment_method: PaymentMethod | null
  /** the attempt under way (its transaction reference), if any */
  current: string | null
  expires_at: string
  /** paid in another currency, or settled in one (docs/behaviour.md#checkout-split-and-conversion): its amount and currency are then the customer's */
  conversion?: Conversion
  /** a split payment: what its accounts receive of the amount */
  split?: Split & { split_reference?: string }
}

/** where an attempt is started from: the checkout's page (a page of the channel sends the customer back there) and the merchant the customer sees */
export interface PageOf {
  returnUrl: string
  merchant: string
}

/** an attempt: a charge of a declared channel's kind */
export type Attempt = ChargeBase

export class CheckoutService {
  readonly #charges: ChargeLifecycle<CheckoutCharge>
  /** the ends of attempts heard while the checkout is calling into their channel, by `<ns> <checkout>`: applied once the call returns */
  readonly #heldEnds = new Map<string, Frozen<ChargeBase>[]>()

  /** `wired`: what the channels' calls are given (the kit and the services built before it, src/areas.ts) */
  constructor(private readonly kit: Pick<Kit, LifecycleParts | 'namespaces'>, readonly wired: unknown) {
    // its attempts are charges of the channels built before it: they tell it when one ends
    kit.attempts.on((ns, charge) => this.#heard(ns, charge))
    this.#charges = new ChargeLifecycle<CheckoutCharge>(kit, {
      kind: 'checkout',
      prefix: 'PI',
      // its attempts are listed as they end, not the checkout itself
      attempt: null,
      fees: checkoutPricedBy() as keyof Settings['fees'],
      succeeded: MSG.CHARGE_SUCCESSFUL,
      onSuccess: (ns, c) => this.#ended(ns, c),
      onFailure: (ns, c) => this.#ended(ns, c),
      expired: CHECKOUT_MSG.EXPIRED,
      onExpire: (ns, c) => this.#ended(ns, c),
    })
  }

  /** POST /charges/initialize */
  initialize(ns: string, input: InitializeInput): CheckoutCharge {
    const conversion = conversionOf(this.kit.scenarios.forNs(ns).settings.conversion_rates, input, (cur) => checkoutChannels().some((ch) => ch.currencies.includes(cur)))
    const split = splitRequested(input)
    // the customer's amount and currency: what the page, the attempts and the fees are in
    const due = conversion ? { amount: paymentAmount(conversion), currency: conversion.payment_currency } : { amount: input.amount, currency: input.currency }
    const base = this.#charges.create(ns, requested({ ...input, ...due }, input.narration ?? null, CHECKOUT_MSG.PENDING, CHECKOUT_MSG.INITIALIZED))
    const offered = offeredChannels(due.currency, input.channels, input.default_channel)
    const closes = this.kit.clocks.now(ns) + CHECKOUT_HOURS * 3_600_000
    const charge: CheckoutCharge = Object.assign(base, {
      ...(conversion ? { conversion } : {}),
      ...(split ? { split } : {}),
      status: 'pending' as const,
      ...offered,
      redirect_url: input.redirect_url ?? null,
      notification_url: input.notification_url ?? null,
      merchant_bears_cost: input.merchant_bears_cost ?? true,
      amount_paid: 0,
      cost_borne: 0,
      payment_method: null,
      current: null,
      expires_at: isoAt(closes),
    })
    this.#charges.expireAt(ns, charge, closes)
    this.#charges.save(ns, charge)
    return charge
  }

  /** The checkout with this merchant or transaction reference. */
  find(ns: string, reference: string): Frozen<CheckoutCharge> | undefined {
    return this.#charges.find(ns, reference)
  }

  /** The checkout, or 404 `Charge not found`. */
  get(ns: string, reference: string): Frozen<CheckoutCharge> {
    const c = this.find(ns, reference)
    if (!c) throw notFound(MSG.CHARGE_NOT_FOUND)
    return c
  }

  /** The checkout a page's request names, found without a key (its link: src/engine/pages.ts). */
  locate(c: Context): { ns: string; checkout: Frozen<CheckoutCharge> } | { ns?: undefined; several: boolean } {
    const found = locateCharge<CheckoutCharge>(this.kit.store, this.kit.namespaces, c, 'checkout')
    return found.ns === undefined ? found : { ns: found.ns, checkout: found.charge }
  }

  /** The attempt under way, if any. */
  current(ns: string, c: Frozen<CheckoutCharge>): Frozen<Attempt> | undefined {
    return c.current ? (this.kit.store.col<ChargeBase>(ns, CHARGES).get(c.current) as Frozen<Attempt> | undefined) : undefined
  }

  /** Every attempt's charge, oldest first. */
  attempts(ns: string, c: Frozen<CheckoutCharge>): Frozen<Attempt>[] {
    const col = this.kit.store.col<ChargeBase>(ns, CHARGES)
    return c.attempts.map((a) => col.get(a.reference) as Frozen<Attempt> | undefined).filter((a) => a !== undefined)
  }

  /*
   * What the customer does on the page, by the checkout's transaction reference: each reads the
   * checkout as stored when it starts (an earlier step may have changed it).
   */

  /**
   * The customer starts paying by `channel` with what its form gave: an attempt of the checkout's
   * amount, made by the channel (`start`), or the attempt under way that the channel keeps.
   */
  start(ns: string, tx: string, channel: CheckoutChannel, input: unknown, { returnUrl, merchant }: PageOf): Frozen<Attempt> {
    const c = this.get(ns, tx)
    const ch = checkoutChannelOf(channel)
    const under = this.current(ns, c)
    if (ch && under?.kind === ch.kind && ch.keeps?.(under)) return under
    this.#open(c, channel)
    const order = {
      reference: this.#attemptReference(c),
      parent: c.transaction_reference,
      amount: c.amount,
      currency: c.currency,
      customer: this.#customer(c),
      description: c.description ?? undefined,
      metadata: (c.metadata ?? undefined) as Record<string, unknown> | undefined,
      merchant_bears_cost: c.merchant_bears_cost,
      returnUrl,
      merchant,
    }
    return this.#drive(ns, c.transaction_reference, () => ch!.start(this.wired, ns, order, input), true)
  }

  /** The answer to a step of the attempt under way (of `kind`, when given): refused when none waits. */
  step(ns: string, tx: string, action: string, value: unknown, kind?: string): Frozen<Attempt> {
    const c = this.get(ns, tx)
    const child = this.current(ns, c)
    if (!child || (kind !== undefined && child.kind !== kind) || child.status !== 'processing') throw badRequest(CHECKOUT_MSG.NO_ATTEMPT)
    return this.#drive(ns, c.transaction_reference, () => this.#channelOf(child).step(this.wired, ns, child, action, value), false)
  }

  /** The channel an attempt's kind declares. */
  #channelOf(a: Frozen<Attempt>): AnyCheckoutChannel {
    const ch = checkoutChannelOf(a.kind)
    if (!ch) throw badRequest(CHECKOUT_MSG.NO_ATTEMPT)
    return ch
  }

  /** The scripted customer's hands (pay.ts): start, steps and the completer of the checkout's attempt under way. */
  drive(ns: string, c: Frozen<CheckoutCharge>, channel: CheckoutChannel, page: PageOf) {
    const tx = c.transaction_reference
    return {
      currency: c.currency,
      start: (input: unknown) => this.start(ns, tx, channel, input, page),
      step: (action: string, value: unknown) => this.step(ns, tx, action, value, channel),
      complete: (outcome: 'success' | 'failed') => void this.completeCurrent(ns, tx, outcome),
    }
  }

  /** The customer cancels: the checkout fails and says so (docs/behaviour.md#checkout). */
  cancel(ns: string, tx: string): Frozen<CheckoutCharge> {
    const c = copyOf<CheckoutCharge>(this.get(ns, tx))
    if (!isOpen(c)) throw conflict(c.status === 'success' ? MSG.PAYMENT_COMPLETED : MSG.TRANSACTION_COMPLETED)
    this.#charges.fail(ns, c, CHECKOUT_MSG.CANCELLED, 'cancel')
    return this.#charges.save(ns, c)
  }

  /** Control: finish the attempt under way, as the channel's own completer does; returns the checkout then. */
  completeCurrent(ns: string, tx: string, outcome: 'success' | 'failed', message?: string): Frozen<CheckoutCharge> {
    const child = this.current(ns, this.get(ns, tx))
    if (!child || child.status !== 'processing') throw badRequest(CHECKOUT_MSG.NO_ATTEMPT)
    this.#drive(ns, child.parent!, () => this.kit.kinds.of(child.kind).complete!(ns, child.transaction_reference, outcome, message), false)
    return this.get(ns, tx)
  }

  /**
   * Calls into an attempt's channel; an end of an attempt of this checkout heard meanwhile is held
   * and applied once the call returns (or throws), after the attempt it started is listed.
   */
  #drive<T>(ns: string, tx: string, call: () => T, starts: boolean): T {
    const key = `${ns} ${tx}`
    const list = (child: T) => {
      if (starts) this.#charges.col(ns).update(tx, (fresh) => this.#listStarted(ns, fresh, child as Frozen<Attempt>))
      return child
    }
    // called from within a call of its own: the outer call applies what is heard
    if (this.#heldEnds.has(key)) return list(call())
    const held: Frozen<ChargeBase>[] = []
    this.#heldEnds.set(key, held)
    try {
      return list(call())
    } finally {
      this.#heldEnds.delete(key)
      // as stored now, by its own lifecycle
      for (const end of held) this.#attemptEnded(ns, this.kit.store.col<ChargeBase>(ns, CHARGES).get(end.transaction_reference) ?? end)
    }
  }

  /** The lifecycle's hook: an attempt ended. Held while the checkout's own call into the channel runs, else applied now. */
  #heard(ns: string, child: Frozen<ChargeBase>): void {
    const held = child.parent ? this.#heldEnds.get(`${ns} ${child.parent}`) : undefined
    if (held) held.push(child)
    else this.#attemptEnded(ns, child)
  }

  /**
   * An attempt ended: kept among the checkout's attempts; a success pays the checkout, whose fee
   * is then the channel's.
   */
  #attemptEnded(ns: string, child: Frozen<ChargeBase>): void {
    const c = child.parent ? this.#charges.col(ns).draft(child.parent) : undefined
    if (!c || !isCheckout(c)) return
    const line = c.attempts.find((a) => a.reference === child.transaction_reference)
    if (line) {
      line.status = child.status
      line.message = child.failure_message ?? child.response_message
    }
    if (c.current === child.transaction_reference) c.current = null
    if (!isOpen(c)) {
      // paid after the checkout ended (a transfer arriving late): kept, the checkout stays as it is
      this.#charges.note(ns, c, 'attempt', CHECKOUT_MSG.attemptAfterEnd(child.transaction_reference, child.status))
      this.#charges.save(ns, c)
      return
    }
    if (child.status === 'success') {
      c.payment_method = child.kind as PaymentMethod
      c.fee = child.fee
      c.vat = child.vat
      // what the attempt's own rule says the customer paid, read now: a stored copy of it may be older
      const money = this.kit.kinds.money(ns, child)
      c.amount_paid = money.paid
      c.cost_borne = money.paid - money.refundable
      this.#charges.note(ns, c, 'attempt', CHECKOUT_MSG.attemptSucceeded(child.transaction_reference))
      this.#charges.succeed(ns, c)
    } else {
      c.response_message = child.failure_message ?? child.response_message
      c.updated_at = this.kit.clocks.iso(ns)
      this.#charges.note(ns, c, 'attempt', CHECKOUT_MSG.attemptEnded(child.transaction_reference, child.status, c.response_message))
    }
    this.#charges.save(ns, c)
  }

  /** What the customer paid for a checkout that succeeded: what its paying attempt took; and what its split's accounts receive. */
  paid(c: Frozen<CheckoutCharge>): { paid: number; borne: number; shared: number } {
    return { paid: c.amount_paid, borne: c.cost_borne, shared: c.split ? c.amount - c.split.merchant_amount : 0 }
  }

  /** A checkout settled in another currency than the customer paid in: the credit converted, rounded down (docs/behaviour.md#checkout-split-and-conversion). */
  settlement(c: Frozen<CheckoutCharge>, credit: number): { currency: string; amount: number } | null {
    const conv = c.conversion
    return conv && conv.settlement_currency !== c.currency ? { currency: conv.settlement_currency, amount: settlementAmount(conv, credit) } : null
  }

  /** docs/behaviour.md#checkout: what the charge query adds for a checkout. */
  queryExtras(c: Frozen<CheckoutCharge>): Record<string, unknown> {
    return {
      payment_method: c.payment_method,
      payment_attempts: c.attempts,
      merchant_bears_cost: c.merchant_bears_cost,
      expires_at: c.expires_at,
      ...(c.conversion ? { conversion: conversionAnswer(c.conversion, c.amount) } : {}),
      ...(c.split ? { split: splitAnswer(c.split) } : {}),
    }
  }

  /** Refuses a new attempt when the checkout is over, the channel is not offered, or one is under way. */
  #open(c: Frozen<CheckoutCharge>, channel: CheckoutChannel): void {
    if (!isOpen(c)) throw conflict(c.status === 'success' ? MSG.PAYMENT_COMPLETED : CHECKOUT_MSG.NOT_OPEN)
    if (!c.channels.includes(channel)) throw badRequest(CHECKOUT_MSG.CHANNEL_NOT_OFFERED)
  }

  /** An attempt started: listed as processing (or as it already ended), the checkout under way. */
  #listStarted(ns: string, fresh: CheckoutCharge, child: Frozen<Attempt>): void {
    if (!fresh.attempts.some((a) => a.reference === child.transaction_reference)) {
      fresh.attempts.push({ reference: child.transaction_reference, status: child.status, channel: child.kind as CheckoutCharge['attempts'][number]['channel'], message: child.failure_message ?? child.response_message })
    }
    // once tried, a checkout is processing until it ends (a failed try may be followed by another)
    if (fresh.status === 'pending') fresh.status = 'processing'
    if (child.status === 'processing' && isOpen(fresh)) {
      fresh.current = child.transaction_reference
      fresh.response_message = CHECKOUT_MSG.IN_PROGRESS
    }
    fresh.updated_at = this.kit.clocks.iso(ns)
    // an attempt that ended at once (a declined card) has its end noted next (#drive): its start would say it twice
    if (child.status === 'processing') this.#charges.note(ns, fresh, 'attempt', CHECKOUT_MSG.attemptStarted(this.kit.kinds.of(child.kind).label, child.transaction_reference, child.status))
  }

  /** `<checkout's transaction reference>-<n>`: the payment reference of its n-th attempt */
  #attemptReference(c: Frozen<CheckoutCharge>): string {
    return `${c.transaction_reference}-${c.attempts.length + 1}`
  }

  #customer(c: Frozen<CheckoutCharge>): { email: string; name?: string } {
    return { email: c.customer?.email ?? '', ...(c.customer?.name ? { name: c.customer.name } : {}) }
  }

  /**
   * The checkout ended: its expiry is cancelled, and an attempt still under way is told by its
   * channel (`stop`: a transfer no longer arrives by itself, since a customer who paid otherwise,
   * or left, sends none; its account takes one until it expires, docs/behaviour.md#checkout).
   */
  #ended(ns: string, c: CheckoutCharge): void {
    c.current = null
    for (const a of this.attempts(ns, c)) {
      // the checkout's line of an attempt says whether it is under way: the attempt whose end ends
      // the checkout is stored by its own lifecycle after this
      const line = c.attempts.find((l) => l.reference === a.transaction_reference)
      if (line?.status !== 'processing') continue
      const stopped = checkoutChannelOf(a.kind)?.stop?.(this.wired, ns, a)
      if (stopped) this.#charges.note(ns, c, 'attempt', stopped)
    }
  }
}

/** The split a request asks for (docs/behaviour.md#checkout-split-and-conversion), its flat shares in minor units; refused 400 `AA027` when the amount is too small for them. */
function splitRequested(input: InitializeInput): (Split & { split_reference?: string }) | undefined {
  if (input.split_reference) return { split_type: 'flat', accounts: [], merchant_amount: input.amount, split_reference: input.split_reference }
  const conf = input.split_configuration
  if (!conf) return undefined
  const accounts = conf.split_accounts.map((a) => ({ split_account_reference: a.split_account_reference, value: conf.split_type === 'flat' ? parseAmount(a.value, { allowString: true })! : Number(a.value) }))
  return splitOf(input.amount, input.currency, unitOf(decimalsOf(input.currency)), { split_type: conf.split_type, split_accounts: accounts })
}

/** What the charge query shows of a conversion: the merchant's amount, the customer's, and the rates (major units). */
function conversionAnswer(c: Frozen<Conversion>, paymentMinor: number) {
  return {
    amount: toMajor(c.amount),
    currency: c.currency,
    payment_amount: toMajor(paymentMinor),
    payment_currency: c.payment_currency,
    settlement_currency: c.settlement_currency,
    rate: c.rate.rate,
    ...(c.settlement_rate ? { settlement_rate: c.settlement_rate.rate } : {}),
  }
}

/** What the charge query shows of a split (major units; a flat share's value as an amount, a percentage as sent). */
function splitAnswer(s: Frozen<Split & { split_reference?: string }>) {
  return {
    ...(s.split_reference ? { split_reference: s.split_reference } : { split_type: s.split_type }),
    split_accounts: s.accounts.map((a) => ({ split_account_reference: a.split_account_reference, value: s.split_type === 'flat' ? toMajor(a.value) : a.value, amount: toMajor(a.amount) })),
    merchant_amount: toMajor(s.merchant_amount),
  }
}

/** Whether a charge is a checkout. */
export const isCheckout = (c: Frozen<ChargeBase>): c is Frozen<CheckoutCharge> => c.kind === 'checkout'

/** Whether a checkout still takes payment. */
export function isOpen(c: Frozen<CheckoutCharge>): boolean {
  return c.status === 'pending' || c.status === 'processing'
}

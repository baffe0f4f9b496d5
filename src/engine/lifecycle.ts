import { createHash } from 'node:crypto'
import { badRequest, conflict, notFound } from '../errors.js'
import { FAILURE, MSG } from '../messages.js'
import { computeFee } from '../money.js'
import type { Random } from '../random.js'
import type { Clocks } from '../clock.js'
import type { Scenarios } from '../scenario/index.js'
import type { Store } from '../store/store.js'
import type { Events } from '../webhooks/events.js'
import type { Ledger } from './ledger.js'
import type { Kinds } from './kinds.js'
import { decimalsOf } from '../scenario/lookups.js'
import type { Settings } from '../scenario/schema.js'
import type { AttemptEnds, Kit } from './kit.js'
import type { Collection } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { chargeEventData } from './charge-record.js'
import { CHARGES, type ChargeBase, type PaymentAttempt, type SteppedCharge } from './types.js'

/**
 * One charge lifecycle for every pay-in channel: a charge is created (its reference checked, its
 * amount counted into what the namespace takes in, its fee and VAT from the pack settings), goes
 * through the channel's steps, then succeeds (its credit posted to the ledger) or fails once,
 * announces its end with charge.success / charge.failed (a checkout's attempt tells `AttemptEnds`
 * instead, and counts and credits nothing), and is stored by the channel's service (`save`).
 * A channel only describes itself (`Channel`, `StepChannel`): its steps, their prompts, how a step
 * is answered and what its responses look like stay with the channel's service.
 */

const TX_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
/** `KPY-<prefix>-<14 characters>`, the transaction reference the sandbox gives a charge. */
export const newTransactionReference = (random: Random, ns: string, prefix: string): string => {
  const ref = `KPY-${prefix}-${random.text(ns, TX_ALPHABET, 14)}`
  // one flat string, not a concatenation: it is a key of the store's maps for the charge's life
  ref.charCodeAt(0)
  return ref
}

/**
 * docs/api.md 7.2: a step on a charge needs it to exist and still be processing. Unknown: 404
 * `Transaction not found`; succeeded: 409 `Payment has already been completed`; failed:
 * 409 `Transaction has already been completed` (docs/behaviour.md#status-codes); `ended`, the channel's one
 * text for both ends where its samples show one (`Channel.ended`).
 */
export function requireProcessing<T extends Frozen<ChargeBase>>(charge: T | undefined, ended?: string): T {
  if (!charge) throw notFound(MSG.TRANSACTION_NOT_FOUND)
  if (charge.status === 'success') throw conflict(ended ?? MSG.PAYMENT_COMPLETED)
  if (charge.status === 'failed' || charge.status === 'expired') throw conflict(ended ?? MSG.TRANSACTION_COMPLETED)
  return charge
}

/** Expected PINs and OTPs are kept as this hash, never as the value. */
export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex')

/** `{name?, email}` as sent: name only when given. */
function customerOf(c: { email: string; name?: string }): { email: string; name?: string } {
  return c.name ? { name: c.name, email: c.email } : { email: c.email }
}

/** The fields every merchant's charge request carries, as the channels' schemas give them. */
interface ChargeRequest {
  reference: string
  /** minor units */
  amount: number
  currency: string
  customer: { email: string; name?: string }
  metadata?: ChargeBase['metadata']
}

/**
 * A new charge from a merchant's request: its reference, amount (minor units, as its schema hands
 * it on), currency, customer and metadata as sent; the channel says its description, what it says while it starts, the first history
 * line, and the checkout it is an attempt of.
 */
export function requested(r: ChargeRequest, description: string | null, response_message: string, created: string, parent?: string): NewCharge {
  return { payment_reference: r.reference, amount: r.amount, currency: r.currency, description, customer: customerOf(r.customer), metadata: r.metadata, response_message, created, parent }
}

/**
 * A transfer pay-in's narration when the request gives none: `Payment on <the merchant's name>`, as
 * the bank-transfer page's and the pay-with-bank collection's samples show (docs/behaviour.md#bank-transfer,
 * docs/behaviour.md#pay-with-bank). Stored as the charge's description, so the query and the lists show it too.
 */
export function narrationOr(given: string | null | undefined, merchant: string | undefined): string {
  return given ?? `Payment on ${merchant ?? 'Sandbox Merchant'}`
}

/** What a channel sends to start a charge; the lifecycle makes the rest of its record. */
export interface NewCharge {
  payment_reference: string
  /** minor units */
  amount: number
  currency: string
  description: string | null
  customer: ChargeBase['customer']
  metadata?: ChargeBase['metadata']
  /** what the charge says while it starts */
  response_message: string
  /** the first history line's result */
  created: string
  /** the checkout this charge is an attempt of (its transaction reference) */
  parent?: string
}

/** What the lifecycle needs to know of a channel; the hooks are optional. */
export interface Channel<C extends ChargeBase> {
  kind: C['kind']
  /** of its transaction references: KPY-<prefix>-... */
  prefix: string
  /** the channel of its payment attempts (docs/api.md 2.8) when not its kind's name; null: a failure adds no attempt */
  attempt?: PaymentAttempt['channel'] | null
  /** the pack's fee rule it is charged by (its kind when absent) */
  fees?: keyof Settings['fees']
  /** its response_message once it succeeded */
  succeeded: string
  /** the `code` beside `Duplicate payment reference` where the service's samples show one (CONTRACT 15) */
  duplicateCode?: string
  /** what a step on an ended charge answers, whatever its end, where the service's samples show one text for both (mobile money) */
  ended?: string
  /** after it succeeded, before its event */
  onSuccess?(ns: string, charge: C): void
  /** after it failed, before its event: cancel what the channel registered (a prompt's timer) */
  onFailure?(ns: string, charge: C, message: string): void
  /** whether its end is announced by an event (all are, unless this says no) */
  announces?(charge: C): boolean
  /** whether its success brings the merchant money, a ledger credit (all do, unless this says no) */
  payin?(charge: C): boolean
  /** a charge of the channel that expires (`expireAt`): what it says then */
  expired?: string
  /** when it expires, before it is stored: cancel what the channel registered */
  onExpire?(ns: string, charge: C): void
  /** its events' `data`, when not the one of docs/behaviour.md#webhook-payloads */
  eventData?(charge: C): Record<string, unknown>
}

/** A channel whose charges go through steps (`SteppedCharge`). */
export interface StepChannel<C extends SteppedCharge> extends Channel<C> {
  /** makes `step` the current one: its prompt, and whatever waits for its answer */
  enter(ns: string, charge: C, step: C['pending_steps'][number]): void
  /** the steps are passed and the scenario never ends: what the charge says meanwhile */
  waiting(ns: string, charge: C): void
  /** a step's call while another step is pending is 409, as the service's samples show (mobile money); 400 otherwise */
  otherStepConflicts?: boolean
}

/** What a charge lifecycle uses of the kit; a service that builds one hands it these (`Pick<Kit, LifecycleParts | ...>`). */
export type LifecycleParts = 'store' | 'clocks' | 'random' | 'scenarios' | 'events' | 'ledger' | 'kinds' | 'attempts'

/** A channel's charges from creation to their one end (see the top of this file). */
export class ChargeLifecycle<C extends ChargeBase> {
  // the kit's parts as fields of its own: one class serves every channel, and a field of the
  // lifecycle reads the same whichever service's kit it was given
  protected readonly store: Store
  protected readonly clocks: Clocks
  protected readonly random: Random
  protected readonly scenarios: Scenarios
  protected readonly events: Events
  protected readonly ledger: Ledger
  protected readonly kinds: Kinds
  readonly #attempts: AttemptEnds
  /** the channel its failed attempts name: the channel's own, or the one of its kind's name */
  readonly #attemptChannel: PaymentAttempt['channel'] | null

  constructor(
    { store, clocks, random, scenarios, events, ledger, kinds, attempts }: Pick<Kit, LifecycleParts>,
    protected readonly channel: Channel<C>,
  ) {
    this.store = store
    this.clocks = clocks
    this.random = random
    this.scenarios = scenarios
    this.events = events
    this.ledger = ledger
    this.kinds = kinds
    this.#attempts = attempts
    this.#attemptChannel = channel.attempt === undefined ? (channel.kind as PaymentAttempt['channel']) : channel.attempt
    const expired = channel.expired
    if (expired !== undefined) {
      this.clocks.on(this.#expiryTimer, (ns, p: { tx: string }) => {
        const charge = this.#ours(this.col(ns).draft(p.tx))
        if (charge?.status !== 'pending' && charge?.status !== 'processing') return
        charge.expiry_timer = null
        channel.onExpire?.(ns, charge)
        this.#expire(ns, charge, expired)
        this.save(ns, charge)
      })
    }
  }

  get #expiryTimer(): string {
    return `${this.channel.kind}.expire`
  }

  /**
   * The charge expires at `dueMs` on the namespace clock unless it ended before (docs/behaviour.md#beyond-the-seed): its timer is cancelled when it succeeds or fails. The channel says `expired`.
   */
  expireAt(ns: string, charge: C, dueMs: number): void {
    charge.expiry_timer = this.clocks.scheduleAt(ns, dueMs, this.#expiryTimer, { tx: charge.transaction_reference })
  }

  /** All charges of a namespace, of every channel (one collection, one payment reference index). */
  col(ns: string) {
    return this.store.col<C>(ns, CHARGES)
  }

  /** The channel's charge with this transaction reference (or, failing that, payment reference). */
  find(ns: string, reference: string): Frozen<C> | undefined {
    const col = this.col(ns)
    const key = this.#keyOf(col, reference)
    return this.#ours(key === undefined ? undefined : col.get(key))
  }

  /**
   * The channel's charge, still processing (docs/api.md 7.2 otherwise), as a copy to change and
   * `save`.
   */
  pending(ns: string, reference: string): C {
    const col = this.col(ns)
    const key = this.#keyOf(col, reference)
    return requireProcessing(this.#ours(key === undefined ? undefined : col.draft(key)), this.channel.ended)
  }

  /**
   * The channel's charge with this key, when it is still processing, as a copy to change and
   * `save`; undefined otherwise (a timer set for a charge that ended since).
   */
  live(ns: string, tx: string): C | undefined {
    const charge = this.#ours(this.col(ns).draft(tx))
    return charge?.status === 'processing' ? charge : undefined
  }

  /** The key of the charge a reference names: the reference itself, or the charge's whose payment reference it is. */
  #keyOf(col: Collection<C>, reference: string): string | undefined {
    return col.has(reference) ? reference : col.findBy('payment_reference', reference)?.transaction_reference
  }

  /** The charge, when it is of this channel's kind. */
  #ours<R extends { kind: string }>(charge: R | undefined): R | undefined {
    return charge?.kind === this.channel.kind ? charge : undefined
  }

  /**
   * A new charge, processing, with its first history line: the payment reference must be new; the
   * fee and VAT come from the pack settings. The channel adds its own fields
   * with Object.assign, then takes it through its steps and saves it.
   */
  create(ns: string, o: NewCharge): ChargeBase & { kind: C['kind'] } {
    this.requireNewReference(ns, o.payment_reference)
    // a pay-in is counted in to what the namespace takes in (an attempt: its checkout was)
    if (!o.parent) this.ledger.takeIn(ns, o.currency, o.amount)
    const settings = this.scenarios.forNs(ns).settings
    const { fee, vat } = computeFee(o.amount, settings.fees[this.channel.fees ?? (this.channel.kind as keyof Settings['fees'])], settings.vat_percent, decimalsOf(o.currency))
    const now = this.clocks.iso(ns)
    // spelled out, not spread: this runs on every charge and object rest/spread is slow here (the
    // callers add their fields with Object.assign: a literal spreading this costs ~20 µs)
    const charge: ChargeBase & { kind: C['kind'] } = {
      kind: this.channel.kind,
      transaction_reference: newTransactionReference(this.random, ns, this.channel.prefix),
      payment_reference: o.payment_reference,
      amount: o.amount,
      currency: o.currency,
      fee,
      vat,
      status: 'processing',
      // free text: the store masks a card number in it as the charge is saved (docs/behaviour.md#request-journal)
      description: o.description,
      customer: o.customer,
      metadata: o.metadata ?? null,
      response_message: o.response_message,
      failure_message: null,
      attempts: [],
      history: [{ at: now, step: 'created', result: o.created }],
      created_at: now,
      updated_at: now,
      completed_at: null,
    }
    if (o.parent) charge.parent = o.parent
    return charge
  }

  /** A payment reference no charge of the namespace holds yet: 409 `Duplicate payment reference` otherwise (checked by `create`, or first by a channel whose other refusals come after it). */
  requireNewReference(ns: string, reference: string): void {
    if (this.col(ns).findBy('payment_reference', reference)) throw conflict(MSG.DUPLICATE_REFERENCE, this.channel.duplicateCode)
  }

  /** A line of the charge's history (the dashboard and the journal show them). */
  note(ns: string, charge: C, step: string, result: string): void {
    charge.history.push({ at: this.clocks.iso(ns), step, result })
  }

  /** Stores the charge: once per call that changed it, after the last change; returns it as stored. */
  save(ns: string, charge: C): Frozen<C> {
    return this.col(ns).put(charge.transaction_reference, charge)
  }

  /** Ends the charge as a success, and announces it. */
  succeed(ns: string, charge: C): void {
    const now = this.clocks.iso(ns)
    charge.status = 'success'
    charge.completed_at = now
    charge.updated_at = now
    charge.response_message = this.channel.succeeded
    this.#stopExpiry(ns, charge)
    this.channel.onSuccess?.(ns, charge)
    // a pay-in of its own (not a checkout's attempt, not a pre-authorization's hold) is the merchant's money
    if (!charge.parent && (!this.channel.payin || this.channel.payin(charge))) {
      this.ledger.creditPayin(ns, charge, this.scenarios.forNs(ns).settings, now)
    }
    this.#announce(ns, charge)
  }

  /**
   * Ends the charge as failed with `message` (a docs/api.md 7.4 text, or the scenario's): its failed
   * payment attempt and a history line at `step`; then the channel cancels what it registered,
   * and the failure is announced.
   */
  fail(ns: string, charge: C, message: string, step: string): void {
    const now = this.#end(ns, charge, 'failed', message)
    charge.failure_message = message
    if (this.#attemptChannel) charge.attempts.push({ reference: charge.transaction_reference, status: 'failed', channel: this.#attemptChannel, message })
    charge.history.push({ at: now, step, result: `failed: ${message}` })
    this.#stopExpiry(ns, charge)
    this.channel.onFailure?.(ns, charge, message)
    this.#announce(ns, charge)
  }

  /**
   * What failing and expiring share: the charge brings nothing in, so what it counted in is
   * counted out (docs/behaviour.md#ledger-and-balances), and it ends now with `message`. Returns the time.
   */
  #end(ns: string, charge: C, status: 'failed' | 'expired', message: string): string {
    if (!charge.parent) this.ledger.release(ns, charge.currency, charge.amount)
    const now = this.clocks.iso(ns)
    charge.status = status
    charge.response_message = message
    charge.completed_at = now
    charge.updated_at = now
    return now
  }

  #stopExpiry(ns: string, charge: C): void {
    if (!charge.expiry_timer) return
    this.clocks.cancel(ns, charge.expiry_timer)
    charge.expiry_timer = null
  }

  /**
   * Ends the charge as expired (its time ran out on the namespace clock: docs/behaviour.md#beyond-the-seed): its
   * expired payment attempt, as the collection's sample of an expired pay-in lists one (docs/behaviour.md#card-outcomes-and-query); no
   * event announces it; a checkout attempt's checkout hears of it.
   */
  #expire(ns: string, charge: C, message: string): void {
    const now = this.#end(ns, charge, 'expired', message)
    if (this.#attemptChannel) charge.attempts.push({ reference: charge.transaction_reference, status: 'expired', channel: this.#attemptChannel, message })
    charge.history.push({ at: now, step: 'expiry', result: message })
    if (charge.parent) this.#attempts.ended(ns, charge)
  }

  /**
   * docs/behaviour.md#webhooks: charge.success / charge.failed, to the charge's `notification_url` or the
   * namespace's webhook URL; a checkout's attempt is not announced: its checkout hears of it (docs/behaviour.md#checkout).
   */
  #announce(ns: string, charge: C): void {
    if (charge.parent) {
      this.#attempts.ended(ns, charge)
      return
    }
    const channel = this.channel
    if (channel.announces && !channel.announces(charge)) return
    const type = charge.status === 'success' ? 'charge.success' : 'charge.failed'
    // announced before it is saved: masked now as the store will (docs/behaviour.md#request-journal)
    charge = this.col(ns).mask(charge)
    const data = channel.eventData ? channel.eventData(charge) : chargeEventData(charge, this.kinds)
    this.events.record(ns, type, data, { target: charge.notification_url })
  }
}

/** The lifecycle of a charge with steps: enter the next step, answer the current one, conclude. */
export class StepLifecycle<C extends SteppedCharge> extends ChargeLifecycle<C> {
  declare protected readonly channel: StepChannel<C>

  constructor(kit: Pick<Kit, LifecycleParts>, channel: StepChannel<C>) {
    super(kit, channel)
  }

  /** The processing charge whose current step is `step`; a 400 `message` (409: `otherStepConflicts`) when no such step is pending. */
  current(ns: string, reference: string, step: C['pending_steps'][number], message: string): C {
    const charge = this.pending(ns, reference)
    if (charge.pending_steps[0] !== step) throw this.channel.otherStepConflicts ? conflict(message) : badRequest(message)
    return charge
  }

  /** The OTP (or other code) of the current step sent again: a history line, nothing else changes. */
  resend(ns: string, reference: string, step: C['pending_steps'][number], notPending: string): C {
    const charge = this.current(ns, reference, step, notPending)
    this.note(ns, charge, step, MSG.NOTE_RESENT)
    this.save(ns, charge)
    return charge
  }

  /** The current step was passed (`result` in the history): on to the next step, or the end. */
  pass(ns: string, charge: C, step: C['pending_steps'][number], result: string): void {
    charge.pending_steps.shift()
    this.note(ns, charge, step, result)
    this.advance(ns, charge)
  }

  /** Enters the first pending step or, when none is left, concludes. */
  advance(ns: string, charge: C): void {
    const step = charge.pending_steps[0]
    if (step) this.channel.enter(ns, charge, step)
    else this.conclude(ns, charge)
  }

  /** The steps are behind it: the scenario's outcome. */
  conclude(ns: string, charge: C): void {
    if (charge.outcome === 'success') this.succeed(ns, charge)
    else if (charge.outcome === 'failed') this.fail(ns, charge, charge.outcome_message ?? FAILURE.TRY_AGAIN, 'outcome')
    else this.channel.waiting(ns, charge)
  }

  /** A failed charge has no step left. */
  override fail(ns: string, charge: C, message: string, step: string): void {
    charge.pending_steps = []
    super.fail(ns, charge, message, step)
  }
}

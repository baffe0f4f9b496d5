import type { Kit } from '../engine/kit.js'
import { DIGITS } from '../random.js'
import { CHARGES, type ChargeBase } from '../engine/types.js'
import { CARD_OPS, isCard, returnedOf, type CardCharge, type CardOperation, type PreauthLedger } from './types.js'
import { captureSettled, creditCapture, settleCaptureEarly, voidCapture } from './capture-ledger.js'
import { ApiError, badRequest, notFound } from '../errors.js'
import { MSG } from '../messages.js'
import { computeFee, toDecimalString, toMajor } from '../money.js'
import { copyOf, type Frozen } from '../store/frozen.js'
import { CARD_MSG } from './messages.js'
import type { CaptureInput, RefundInput, VoidInput } from './schemas.js'
import { decimalsOf } from '../scenario/lookups.js'
import { isoAt } from '../time.js'
import { cardSettings } from './settings.js'

const EXPIRE = 'preauth.expire'
const HOUR = 3_600_000
/** docs/api.md 4.1: a base amount of 0 or 0.1 is a zero auth, held and cancelled at once. */
const ZERO_AUTH_MAX = 10

/** `YYYY-MM-DD HH:MM:SS` (UTC), the format of pre_auth_expiry. */
export function formatExpiry(ms: number): string {
  return isoAt(ms).slice(0, 19).replace('T', ' ')
}

/** What the refunds area does around a card refund (docs/behaviour.md#refunds): `RefundService.refundCard` gives it. */
export interface CardRefundHooks {
  /** refuses before anything is written (a reference a refund holds, a balance too low) */
  check(ns: string, transactionReference: string, currency: string, amount: number): void
  /** the refund was written: its refund record and ledger debit */
  recorded(ns: string, op: Frozen<CardOperation>, parent: Frozen<CardCharge>, targetAmount: number): void
}

/** An operation and its parent, as stored. */
export interface Written {
  op: Frozen<CardOperation>
  parent: Frozen<CardCharge>
}


/**
 * Pre-authorization, capture, void and refund (docs/api.md 3.2, docs/behaviour.md#preauth): an exact ledger in
 * minor units. Every operation is synchronous from its checks to its writes, so operations on one
 * pre-authorization are serialized by the event loop: racing captures can never exceed the hold.
 * A refused operation throws before it changes anything.
 */
export class PreauthService {
  constructor(private readonly kit: Pick<Kit, 'store' | 'clocks' | 'random' | 'scenarios' | 'events' | 'ledger' | 'kinds'>) {
    this.kit.clocks.on(EXPIRE, (ns, payload: { tx: string }) => {
      const charge = this.#charges(ns).get(payload.tx)
      if (charge?.preauth) this.#expireIfDue(ns, charge)
    })
  }

  #charges(ns: string) {
    return this.kit.store.col<CardCharge>(ns, CHARGES)
  }

  #ops(ns: string) {
    return this.kit.store.col<CardOperation>(ns, CARD_OPS)
  }

  /** Called when a pre-authorization's steps are passed: places the hold. */
  place(ns: string, charge: CardCharge): void {
    const expires = this.kit.clocks.now(ns) + cardSettings.of(this.kit.scenarios.forNs(ns)).pre_auth_validity_hours * HOUR
    const zero = charge.amount <= ZERO_AUTH_MAX
    charge.preauth = {
      state: zero ? 'voided' : 'pre_authorized',
      authorized: zero ? 0 : charge.amount,
      captured: 0,
      refunded: 0,
      expires_at: expires,
      receipt: this.kit.random.text(ns, DIGITS, 12),
      stan: this.kit.random.text(ns, DIGITS, 6),
      zero_auth: zero,
      captures: [],
      operations: [],
    }
    charge.response_message = MSG.SUCCESS
    charge.history.push({ at: this.kit.clocks.iso(ns), step: 'hold', result: zero ? 'zero auth: held and released at once' : 'placed' })
    if (!zero) charge.preauth.expiry_timer = this.kit.clocks.scheduleAt(ns, expires, EXPIRE, { tx: charge.transaction_reference })
  }

  /** POST /charges/card/capture */
  capture(ns: string, input: CaptureInput): Written {
    const parent = copyOf<CardCharge>(this.#usable(ns, input.payment_reference))
    const ledger = parent.preauth!
    this.#newTxRef(ns, input.transaction_reference)
    this.#currency(parent, input.currency)
    const { amount } = input
    const left = ledger.authorized - ledger.captured
    if (amount > left) throw badRequest(CARD_MSG.OVER_CAPTURE, { amount_left: toMajor(left) })
    const settings = this.kit.scenarios.forNs(ns).settings
    const { fee, vat } = computeFee(amount, settings.fees.card, settings.vat_percent, decimalsOf(parent.currency))
    // docs/behaviour.md#preauth: each new capture settles every earlier one
    for (const ref of ledger.captures) {
      const earlier = this.#ops(ns).get(ref)
      if (earlier && !earlier.voided) settleCaptureEarly(this.kit.ledger, ns, earlier, this.kit.clocks.now(ns))
    }
    const op = this.#op(ns, parent, input.transaction_reference, 'capture', amount, { fee, vat, status: 'success', message: CARD_MSG.CHARGED })
    op.refunded = 0
    creditCapture(this.kit.ledger, ns, op, this.kit.kinds.settlementMs(parent, settings), this.kit.clocks.now(ns))
    ledger.captured += amount
    ledger.captures.push(op.transaction_reference)
    return this.#save(ns, parent, op)
  }

  /** POST /charges/card/void */
  void(ns: string, input: VoidInput): Written {
    const parent = copyOf<CardCharge>(this.#expireIfDue(ns, this.#preauth(ns, input.payment_reference)))
    const ledger = parent.preauth!
    const target = input.target_transaction_reference
    if (target === parent.transaction_reference) {
      if (ledger.state === 'voided') throw badRequest(CARD_MSG.VOIDED)
      if (ledger.state === 'expired') throw badRequest(CARD_MSG.EXPIRED)
      const live = ledger.captures.map((r) => this.#ops(ns).get(r)!).filter((c) => c && !c.voided)
      if (live.length > 1) throw badRequest(CARD_MSG.VOID_TOO_MANY)
      if (live.length === 1 && this.isSettled(ns, live[0])) throw badRequest(CARD_MSG.VOID_SETTLED_CAPTURE)
      if (live.length === 1) this.#voidable(parent, live[0].amount)
      this.#newTxRef(ns, input.transaction_reference)
      const amount = ledger.authorized
      for (const c of live) voidCapture(this.kit.ledger, ns, this.#voided(ns, c), this.kit.clocks.now(ns))
      ledger.state = 'voided'
      ledger.authorized = 0
      ledger.captured = 0
      ledger.refunded = 0
      if (ledger.expiry_timer) this.kit.clocks.cancel(ns, ledger.expiry_timer)
      const op = this.#op(ns, parent, input.transaction_reference, 'void_authorization', amount, { status: 'void_capture', message: CARD_MSG.AUTH_VOIDED_OK, target })
      return this.#save(ns, parent, op)
    }
    const capture = this.#ops(ns).get(target)
    if (!capture || capture.parent !== parent.transaction_reference) throw new ApiError(404, MSG.TRANSACTION_NOT_FOUND)
    if (capture.charge_operation !== 'capture') throw badRequest(CARD_MSG.VOID_NOT_A_CAPTURE)
    if (capture.voided) throw badRequest(CARD_MSG.CAPTURE_VOIDED)
    if (this.isSettled(ns, capture)) throw badRequest(CARD_MSG.CAPTURE_SETTLED)
    this.#voidable(parent, capture.amount)
    this.#newTxRef(ns, input.transaction_reference)
    voidCapture(this.kit.ledger, ns, this.#voided(ns, capture), this.kit.clocks.now(ns))
    ledger.captured -= capture.amount
    // docs/behaviour.md#preauth-expiry: an expired hold is what was captured, so a voided capture is released, not given back
    if (ledger.state === 'expired') ledger.authorized -= capture.amount
    const op = this.#op(ns, parent, input.transaction_reference, 'void_capture', capture.amount, { status: 'void_capture', message: CARD_MSG.CAPTURE_VOIDED_OK, target })
    return this.#save(ns, parent, op)
  }

  /** A void gives back `amount` of what was captured: refused when chargebacks hold it (`returnedOf`, docs/behaviour.md#chargebacks). */
  #voidable(parent: CardCharge, amount: number): void {
    if (amount > parent.preauth!.captured - returnedOf(parent)) throw badRequest(CARD_MSG.VOID_CHARGED_BACK)
  }

  /** Marks a capture voided; returns it as stored. */
  #voided(ns: string, capture: Frozen<CardOperation>): Frozen<CardOperation> {
    return this.#ops(ns).update(capture.transaction_reference, (c) => {
      c.voided = true
    })
  }

  /** POST /charges/card/refund: a settled capture, or a settled plain charge; `around` is the refunds area's part. */
  refund(ns: string, input: RefundInput, around: CardRefundHooks): Written {
    const found = this.#charges(ns).findBy('payment_reference', input.payment_reference)
    if (!found || !isCard(found)) throw notFound(MSG.TRANSACTION_NOT_FOUND)
    const parent = copyOf<CardCharge>(found)
    this.#currency(parent, input.currency)
    const { amount } = input
    const targetRef = input.target_transaction_reference
    let refundable: number
    let targetAmount: number
    let onRefund: () => void
    if (parent.preauth) {
      const capture = this.#ops(ns).get(targetRef)
      if (!capture || capture.parent !== parent.transaction_reference) {
        if (targetRef === parent.transaction_reference) throw badRequest(CARD_MSG.NOT_REFUNDABLE)
        throw notFound(MSG.TRANSACTION_NOT_FOUND)
      }
      if (capture.charge_operation !== 'capture' || capture.voided) throw badRequest(CARD_MSG.NOT_REFUNDABLE)
      if (!this.isSettled(ns, capture)) throw badRequest(CARD_MSG.NOT_SETTLED)
      // what is left of the capture, and of the whole hold once chargebacks took their part
      refundable = Math.min(capture.amount - (capture.refunded ?? 0), parent.preauth.captured - returnedOf(parent))
      targetAmount = capture.amount
      onRefund = () => {
        this.#ops(ns).update(capture.transaction_reference, (c) => {
          c.refunded = (c.refunded ?? 0) + amount
        })
        parent.preauth!.refunded += amount
      }
    } else {
      if (targetRef !== parent.transaction_reference) throw notFound(MSG.TRANSACTION_NOT_FOUND)
      if (parent.status !== 'success') throw badRequest(CARD_MSG.NOT_REFUNDABLE)
      if (!this.isChargeSettled(ns, parent)) throw badRequest(CARD_MSG.NOT_SETTLED)
      refundable = parent.amount - returnedOf(parent)
      targetAmount = parent.amount
      onRefund = () => {
        parent.refunded = (parent.refunded ?? 0) + amount
      }
    }
    if (amount > refundable) throw badRequest(CARD_MSG.OVER_REFUND, { amount_left: toMajor(refundable) })
    this.#newTxRef(ns, input.transaction_reference)
    around.check(ns, input.transaction_reference, parent.currency, amount)
    onRefund()
    const op = this.#op(ns, parent, input.transaction_reference, 'refund', amount, { status: 'success', message: CARD_MSG.REFUNDED, target: targetRef })
    if (!parent.preauth) (parent.refunds ??= []).push(op.transaction_reference)
    const written = this.#save(ns, parent, op)
    around.recorded(ns, written.op, written.parent, targetAmount)
    // the documentation's refund keys in its order, then the sandbox's own (docs/behaviour.md#webhook-payloads)
    this.kit.events.record(ns, 'refund.success', {
      amount: toMajor(amount),
      status: 'success',
      currency: parent.currency,
      reference: op.transaction_reference,
      payment_reference: parent.payment_reference,
      target_transaction_reference: targetRef,
      payment_method: 'card',
    })
    return written
  }

  /** Control: settle a capture or a successful charge now. */
  settle(ns: string, reference: string): { op?: Frozen<CardOperation>; charge?: Frozen<CardCharge> } {
    const op = this.#ops(ns).get(reference)
    if (op) {
      if (op.charge_operation !== 'capture') throw badRequest(CARD_MSG.SETTLE_NOT_A_CAPTURE)
      if (op.voided) throw badRequest(CARD_MSG.CAPTURE_VOIDED)
      settleCaptureEarly(this.kit.ledger, ns, op, this.kit.clocks.now(ns))
      return { op }
    }
    const charge = this.#charges(ns).get(reference) ?? this.#charges(ns).findBy('payment_reference', reference)
    if (!charge || !isCard(charge)) throw notFound(MSG.TRANSACTION_NOT_FOUND)
    if (charge.preauth || charge.status !== 'success') throw badRequest(CARD_MSG.SETTLE_NOT_A_CAPTURE)
    const settled = this.#charges(ns).update(charge.transaction_reference, (c) => {
      c.settled_at ??= this.kit.clocks.iso(ns)
    })
    const payin = this.#payinOf(ns, settled)
    if (payin) this.kit.ledger.settleEarly(ns, 'payin', payin.payment_reference, 'settled early', this.kit.clocks.now(ns))
    return { charge: settled }
  }

  /** A capture settles by a later capture, the control call, or its settlement time passing: its ledger entries say (docs/behaviour.md#ledger-and-balances). */
  isSettled(ns: string, capture: Frozen<CardOperation>): boolean {
    return captureSettled(this.kit.ledger, ns, capture, this.kit.clocks.now(ns))
  }

  /** A capture as the dashboard shows it: voided, settled (isSettled), or not yet. */
  captureState(ns: string, capture: Frozen<CardOperation>): 'voided' | 'settled' | 'unsettled' {
    if (capture.voided) return 'voided'
    return this.isSettled(ns, capture) ? 'settled' : 'unsettled'
  }

  /** A plain card charge settles when its credit is available (docs/behaviour.md#ledger-and-balances). */
  isChargeSettled(ns: string, charge: Frozen<CardCharge>): boolean {
    if (charge.status !== 'success') return false
    const payin = this.#payinOf(ns, charge)
    return !!payin && this.kit.ledger.settled(ns, 'payin', payin.payment_reference, this.kit.clocks.now(ns))
  }

  /** The charge that carries a card charge's credit: itself, or for a checkout's attempt its checkout. */
  #payinOf(ns: string, charge: Frozen<CardCharge>): Frozen<ChargeBase> | undefined {
    return charge.parent ? this.#charges(ns).get(charge.parent) : charge
  }

  /** docs/api.md 2.5: the pre-authorization record. `asPlaced` shows a zero auth as it was answered. */
  preauthRecord(ns: string, placed: Frozen<CardCharge>, { asPlaced = false } = {}) {
    const charge = this.#expireIfDue(ns, placed)
    const l = charge.preauth!
    const status = asPlaced ? 'pre_authorized' : l.state
    return {
      amount: toMajor(charge.amount),
      total_authorized_amount: toMajor(asPlaced ? charge.amount : l.authorized),
      total_captured_amount: toMajor(l.captured),
      total_refunded_amount: toMajor(l.refunded),
      currency: charge.currency,
      payment_reference: charge.payment_reference,
      transaction_reference: charge.transaction_reference,
      auth_model: charge.auth_model,
      response_message: charge.response_message,
      status,
      charge_operation: 'pre_authorization',
      pre_auth_expiry: formatExpiry(l.expires_at),
      metadata: this.#gatewayMeta(l),
      card: charge.card,
    }
  }

  /** docs/api.md 2.5: a capture, void or refund record, with the parent's totals now. */
  opRecord(ns: string, op: Frozen<CardOperation>, parent: Frozen<CardCharge>) {
    const l = parent.preauth
    const totals = l
      ? { authorized: l.authorized, captured: l.captured, refunded: l.refunded }
      : { authorized: parent.amount, captured: parent.amount, refunded: parent.refunded ?? 0 }
    return {
      amount: toMajor(op.amount),
      ...(op.charge_operation === 'capture' ? { amount_charged: toMajor(op.amount), fee: toMajor(op.fee), vat: toMajor(op.vat) } : {}),
      total_authorized_amount: toMajor(totals.authorized),
      total_captured_amount: toMajor(totals.captured),
      total_refunded_amount: toMajor(totals.refunded),
      currency: op.currency,
      payment_reference: op.payment_reference,
      transaction_reference: op.transaction_reference,
      ...(op.target_transaction_reference ? { target_transaction_reference: op.target_transaction_reference } : {}),
      response_message: op.response_message,
      status: op.status,
      charge_operation: op.charge_operation,
      ...(l ? { pre_auth_expiry: formatExpiry(l.expires_at) } : {}),
      metadata: l ? this.#gatewayMeta(l) : { gateway_code: '00', receipt: parent.transaction_reference.slice(-12), stan: '000000' },
      card: parent.card,
      ...(op.charge_operation === 'capture' ? { settled: this.isSettled(ns, op), voided: op.voided ?? false } : {}),
    }
  }

  /** The ledger and operations that the charge query adds for a pre-authorization or a refunded charge. */
  queryExtras(ns: string, stored: Frozen<CardCharge>): Record<string, unknown> {
    const charge = this.#expireIfDue(ns, stored)
    const ops = this.#operationsOf(ns, charge.preauth?.operations ?? charge.refunds)
    const operations = ops.map((o) => this.opRecord(ns, o, charge))
    if (!charge.preauth) {
      // `settled` on a successful charge only: the collection's failed card query shows none (docs/behaviour.md#card-outcomes-and-query)
      const settled = charge.status === 'success' ? { settled: this.isChargeSettled(ns, charge) } : {}
      return ops.length || charge.refunded ? { total_refunded_amount: toMajor(charge.refunded ?? 0), operations, ...settled } : settled
    }
    const l = charge.preauth
    // a hold costs nothing: the fees are the captures'
    const live = ops.filter((o) => o.charge_operation === 'capture' && !o.voided)
    return {
      status: charge.status === 'success' ? l.state : charge.status,
      fee: toDecimalString(live.reduce((s, o) => s + o.fee, 0)),
      vat: toDecimalString(live.reduce((s, o) => s + o.vat, 0)),
      amount_paid: toDecimalString(l.captured - l.refunded),
      charge_operation: 'pre_authorization',
      total_authorized_amount: toMajor(l.authorized),
      total_captured_amount: toMajor(l.captured),
      total_refunded_amount: toMajor(l.refunded),
      pre_auth_expiry: formatExpiry(l.expires_at),
      operations,
    }
  }

  /** The stored operations of these transaction references (none: nothing looked up). */
  #operationsOf(ns: string, refs: readonly string[] | undefined): Frozen<CardOperation>[] {
    if (!refs?.length) return []
    return refs.map((r) => this.#ops(ns).get(r)).filter((o) => o !== undefined)
  }

  #gatewayMeta(l: Frozen<PreauthLedger>) {
    return { gateway_code: '00', receipt: l.receipt, stan: l.stan }
  }

  #preauth(ns: string, paymentReference: string): Frozen<CardCharge> {
    const parent = this.#charges(ns).findBy('payment_reference', paymentReference)
    if (!parent || !isCard(parent)) throw notFound(MSG.TRANSACTION_NOT_FOUND)
    if (parent.operation !== 'pre_authorization') throw badRequest(CARD_MSG.NOT_A_PREAUTH)
    if (parent.status === 'processing') throw badRequest(CARD_MSG.NOT_COMPLETE)
    if (parent.status === 'failed' || !parent.preauth) throw badRequest(CARD_MSG.FAILED)
    return parent
  }

  /** The pre-authorization, still holding (expired now if its time has passed). */
  #usable(ns: string, paymentReference: string): Frozen<CardCharge> {
    const parent = this.#expireIfDue(ns, this.#preauth(ns, paymentReference))
    const l = parent.preauth!
    if (l.state === 'voided') throw badRequest(CARD_MSG.VOIDED)
    if (l.state === 'expired') throw badRequest(CARD_MSG.EXPIRED)
    return parent
  }

  /**
   * Expires the hold when its time has passed (no more captures, the uncaptured part released)
   * and stores that; returns the charge as stored.
   */
  #expireIfDue(ns: string, charge: Frozen<CardCharge>): Frozen<CardCharge> {
    const l = charge.preauth
    if (!l || l.state !== 'pre_authorized' || this.kit.clocks.now(ns) < l.expires_at) return charge
    return this.#charges(ns).update(charge.transaction_reference, (c) => {
      c.preauth!.state = 'expired'
      c.preauth!.authorized = c.preauth!.captured
      c.history.push({ at: this.kit.clocks.iso(ns), step: 'hold', result: 'expired' })
    })
  }

  #currency(parent: Frozen<CardCharge>, currency: string): void {
    if (currency !== parent.currency) throw badRequest(CARD_MSG.CURRENCY_MISMATCH, { currency: CARD_MSG.currencyMustBe(parent.currency) })
  }

  /** A new operation's transaction reference must be new in the namespace. */
  #newTxRef(ns: string, ref: string): void {
    if (this.#ops(ns).has(ref) || this.#charges(ns).has(ref) || this.#charges(ns).findBy('payment_reference', ref)) {
      throw badRequest(MSG.DUPLICATE_TRANSACTION_REFERENCE)
    }
  }

  #op(
    ns: string,
    parent: CardCharge,
    ref: string,
    kind: CardOperation['charge_operation'],
    amount: number,
    o: { fee?: number; vat?: number; status: CardOperation['status']; message: string; target?: string },
  ): CardOperation {
    return {
      transaction_reference: ref,
      payment_reference: parent.payment_reference,
      parent: parent.transaction_reference,
      charge_operation: kind,
      amount,
      currency: parent.currency,
      fee: o.fee ?? 0,
      vat: o.vat ?? 0,
      status: o.status,
      target_transaction_reference: o.target ?? null,
      response_message: o.message,
      created_at: this.kit.clocks.iso(ns),
    }
  }

  /** Stores a new operation and its parent, which lists it; returns both as stored. */
  #save(ns: string, parent: CardCharge, op: CardOperation): Written {
    parent.preauth?.operations.push(op.transaction_reference)
    parent.updated_at = op.created_at
    parent.history.push({ at: op.created_at, step: op.charge_operation, result: `${op.status} ${toMajor(op.amount)} (${op.transaction_reference})` })
    return { op: this.#ops(ns).put(op.transaction_reference, op), parent: this.#charges(ns).put(parent.transaction_reference, parent) }
  }

  /** The namespace's pre-authorizations (of any status), in store order. */
  list(ns: string): Frozen<CardCharge>[] {
    return [...this.#charges(ns).values()].filter((c) => isCard(c) && c.operation === 'pre_authorization')
  }

  /** A pre-authorization's captures, voids and refunds, oldest first. */
  operationsOf(ns: string, charge: Frozen<CardCharge>): Frozen<CardOperation>[] {
    return this.#operationsOf(ns, charge.preauth?.operations)
  }
}

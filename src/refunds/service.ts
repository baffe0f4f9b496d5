import type { CardCharge, CardOperation, PreauthService, RefundInput, RefundPart, Written } from '../cards/index.js'
import type { Kit } from '../engine/kit.js'
import { refundSettings } from './settings.js'
import { unitIssue } from '../engine/schemas.js'
import { isBalanceCurrency } from '../scenario/lookups.js'
import { badRequest, conflict, invalid, notFound } from '../errors.js'
import { MSG } from '../messages.js'
import { byQuery, listTime, newestFirst, orderedPage, recordsInOrder, type ListQuery } from '../http/cursor-list.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { MINOR, STRING, TIME, maybe, oneOf } from '../store/validate.js'
import { CURRENCY } from '../scenario/lookups.js'
import { formatMoney, toDecimalString, toMajor } from '../money.js'
import { REFUND_MSG } from './messages.js'
import { Payins, type Payin } from './payins.js'

/**
 * Refunds (docs/behaviour.md#refunds): one record per refund, whichever endpoint made it (the refunds
 * API, or the card refund of docs/api.md 3.2), on the merchant's ledger: a refund debits the
 * available balance when it is accepted, and a failed one is credited back.
 */

export const REFUNDS = 'refunds'
const COMPLETE = 'refund.complete'

/** the least a refund may be, minor units, by currency (docs/behaviour.md#refunds: NGN 100); other currencies: above 0 */
export const REFUND_MIN: Record<string, number> = { NGN: 10_000 }


export const REFUND_STATUSES = ['processing', 'success', 'failed'] as const
export type RefundStatus = (typeof REFUND_STATUSES)[number]

export interface Refund {
  reference: string
  payment_reference: string
  /** the card refund's target (a capture or the charge); the refunds API: null */
  target_transaction_reference: string | null
  made_by: 'refunds_api' | 'card_refund'
  amount: number
  currency: string
  /** the pay-in's collected amount, minor units */
  transaction_amount: number
  payment_method: string | null
  reason: string | null
  status: RefundStatus
  status_reason: string | null
  webhook_url: string | null
  /** the outcome picked when it was made (`completion_status`), success unless asked */
  outcome: 'success' | 'failed'
  parts?: RefundPart[]
  timer?: string | null
  created_at: string
  completed_at: string | null
}

/** the ledger source of a refund's entries, declared by the refunds area (src/refunds/area.ts) */
export const REFUND = 'refund'

export const REFUNDS_SPEC: CollectionSpec<Refund> = {
  name: REFUNDS,
  // the list's order (docs/behaviour.md#lists)
  order: { by: (r) => Date.parse(r.created_at), facts: { status: (r) => r.status, currency: (r) => r.currency, payment_reference: (r) => r.payment_reference } },
  keyOf: 'reference',
  fields: { reference: STRING, payment_reference: STRING, amount: MINOR, currency: CURRENCY, status: STRING, outcome: oneOf(['success', 'failed']), created_at: TIME, completed_at: maybe(TIME) },
  asWritten: ['reference', 'payment_reference', 'target_transaction_reference', 'parts.reference', 'webhook_url'],
}

export interface InitiateInput {
  payment_reference: string
  reference: string
  amount?: number
  reason?: string
  webhook_url?: string
  completion_status?: 'success' | 'failed'
  status_reason?: string
}

export interface RefundListQuery extends ListQuery {
  status?: RefundStatus
  payment_reference?: string
}

export class RefundService {
  readonly #payins: Payins

  constructor(
    private readonly kit: Pick<Kit, 'store' | 'clocks' | 'scenarios' | 'events' | 'ledger' | 'kinds'>,
    private readonly preauth: PreauthService,
  ) {
    this.#payins = new Payins(kit, preauth)
    this.kit.clocks.on(COMPLETE, (ns, payload: { reference: string }) => {
      const refund = this.#col(ns).get(payload.reference)
      if (refund?.status === 'processing') this.#finish(ns, refund.reference, refund.outcome, null)
    })
  }

  #col(ns: string) {
    return this.kit.store.col<Refund>(ns, REFUNDS)
  }

  /** POST /refunds/initiate: every check first, then the writes, in one synchronous turn. */
  initiate(ns: string, input: InitiateInput): Frozen<Refund> {
    if (this.#col(ns).has(input.reference)) throw conflict(REFUND_MSG.exists(input.reference))
    const p = this.#payins.find(ns, input.payment_reference)
    if (!p) throw notFound(MSG.TRANSACTION_NOT_FOUND)
    if (!p.succeeded) throw badRequest(REFUND_MSG.NOT_SUCCESSFUL)
    const currency = p.charge.currency
    if (!isBalanceCurrency(currency)) throw badRequest(REFUND_MSG.CURRENCY)
    const left = p.left
    if (left <= 0) throw conflict(REFUND_MSG.FULL_DONE)
    if (p.settledLeft === 0) throw badRequest(REFUND_MSG.NOT_SETTLED)
    if (input.amount === undefined && left < p.collected) throw badRequest(REFUND_MSG.noFull(formatMoney(currency, left)))
    const amount = input.amount ?? p.collected
    // the pay-in's currency is known only here: an XAF or XOF refund in whole francs (docs/behaviour.md#money)
    const finer = unitIssue(currency, amount)
    if (finer) throw invalid({ amount: finer })
    if (amount > p.collected) throw badRequest(REFUND_MSG.above(currency, toMajor(p.collected)))
    if (amount < (REFUND_MIN[currency] ?? 0)) throw badRequest(REFUND_MSG.below(formatMoney(currency, REFUND_MIN[currency])))
    if (amount > left) throw badRequest(REFUND_MSG.max(formatMoney(currency, left)))
    if (amount > p.settledLeft) throw badRequest(REFUND_MSG.NOT_SETTLED)
    const now = this.kit.clocks.now(ns)
    this.kit.ledger.requireAvailable(ns, currency, amount, now)
    const parts = this.#payins.take(ns, p, amount)
    const refund = this.#record(ns, p, amount, {
      reference: input.reference,
      made_by: 'refunds_api',
      target_transaction_reference: null,
      reason: input.reason ?? null,
      webhook_url: input.webhook_url ?? null,
      outcome: input.completion_status ?? 'success',
      status_reason: input.status_reason ?? null,
      status: 'processing',
      parts: parts.length ? parts : undefined,
    })
    const delay = refundSettings.of(this.kit.scenarios.forNs(ns)).refund_delay_seconds * 1000
    refund.timer = this.kit.clocks.schedule(ns, delay, COMPLETE, { reference: refund.reference })
    return this.#col(ns).put(refund.reference, refund)
  }

  /**
   * POST /charges/card/refund (docs/api.md 3.2): the card operation, which is also a refund record
   * and a ledger debit here (docs/behaviour.md#refunds).
   */
  refundCard(ns: string, input: RefundInput): Written {
    return this.preauth.refund(ns, input, {
      check: (ns, tx, currency, amount) => this.#checkCardRefund(ns, tx, currency, amount),
      recorded: (ns, op, parent, targetAmount) => this.#recordCardRefund(ns, op, parent, targetAmount),
    })
  }

  /**
   * Checks before the card refund of docs/api.md 3.2 writes anything: its transaction reference is
   * new among refunds, and the balance covers it.
   */
  #checkCardRefund(ns: string, transactionReference: string, currency: string, amount: number): void {
    if (this.#col(ns).has(transactionReference)) throw badRequest(MSG.DUPLICATE_TRANSACTION_REFERENCE)
    if (isBalanceCurrency(currency)) this.kit.ledger.requireAvailable(ns, currency, amount, this.kit.clocks.now(ns))
  }

  /** The card refund made `op` (succeeded at once): its refund record and debit. */
  #recordCardRefund(ns: string, op: Frozen<CardOperation>, parent: Frozen<CardCharge>, targetAmount: number): void {
    const refund = this.#record(
      ns,
      { charge: parent, method: 'card', collected: targetAmount },
      op.amount,
      {
        reference: op.transaction_reference,
        made_by: 'card_refund',
        target_transaction_reference: op.target_transaction_reference,
        reason: null,
        webhook_url: null,
        outcome: 'success',
        status_reason: null,
        status: 'success',
      },
    )
    refund.completed_at = refund.created_at
    this.#col(ns).put(refund.reference, refund)
  }

  /** A refund record, debited now (the caller puts it in the same turn). */
  #record(ns: string, p: Pick<Payin, 'charge' | 'method' | 'collected'>, amount: number, o: Omit<Refund, 'payment_reference' | 'amount' | 'currency' | 'transaction_amount' | 'payment_method' | 'created_at' | 'completed_at'>): Refund {
    const at = this.kit.clocks.iso(ns)
    const { currency, payment_reference } = p.charge
    this.kit.ledger.post(ns, REFUND, o.reference, { direction: 'debit', amount, currency, available_at: at, created_at: at, of: payment_reference })
    return {
      ...o,
      payment_reference: p.charge.payment_reference,
      amount,
      currency: p.charge.currency,
      transaction_amount: p.collected,
      payment_method: p.method,
      created_at: at,
      completed_at: null,
    }
  }

  /** Control: finishes a processing refund now (`outcome` success unless asked). */
  complete(ns: string, reference: string, outcome: 'success' | 'failed' | undefined, reason: string | undefined): Frozen<Refund> {
    const refund = this.get(ns, reference)
    if (refund.status !== 'processing') throw conflict(REFUND_MSG.ALREADY_COMPLETED)
    if (refund.timer) this.kit.clocks.cancel(ns, refund.timer)
    return this.#finish(ns, refund.reference, outcome ?? refund.outcome, reason ?? null)
  }

  /** Ends a processing refund; returns it as stored. */
  #finish(ns: string, reference: string, outcome: 'success' | 'failed', reason: string | null): Frozen<Refund> {
    const at = this.kit.clocks.iso(ns)
    const refund = this.#col(ns).update(reference, (r) => {
      r.status = outcome
      r.completed_at = at
      r.timer = null
      if (reason) r.status_reason = reason
      if (outcome === 'failed') r.status_reason ??= REFUND_MSG.FAILED
    })
    if (outcome === 'failed') {
      const { amount, currency } = refund
      this.kit.ledger.post(ns, REFUND, reference, { direction: 'credit', amount, currency, available_at: at, created_at: at, why: 'returned' })
      this.#payins.giveBack(ns, refund.payment_reference, refund.amount, refund.parts)
    }
    this.kit.events.record(ns, outcome === 'success' ? 'refund.success' : 'refund.failed', eventData(refund), { target: refund.webhook_url })
    return refund
  }

  /** GET /refunds/{reference} */
  get(ns: string, reference: string): Frozen<Refund> {
    const refund = this.#col(ns).get(reference)
    if (!refund) throw notFound(REFUND_MSG.NOT_FOUND)
    return refund
  }

  /** The namespace's refunds, newest first. */
  all(ns: string): Frozen<Refund>[] {
    return [...newestFirst(recordsInOrder(this.#col(ns)))]
  }

  /** GET /refunds: a page of the list (docs/behaviour.md#lists). */
  list(ns: string, q: RefundListQuery) {
    const page = orderedPage(
      recordsInOrder(this.#col(ns)),
      q,
      byQuery(q, 'status', 'currency', 'payment_reference'),
    )
    return { has_more: page.has_more, refunds: page.items.map(listItem) }
  }
}

/** The answer of POST /refunds/initiate, as the refunds page (2025-07-24) writes it: no `channel` (docs/behaviour.md#refunds). */
export function initiated(r: Frozen<Refund>) {
  return {
    refund_reference: r.reference,
    refund_date: r.created_at,
    status: r.status,
    payment_reference: r.payment_reference,
    reason: r.reason,
    amount_returned: toMajor(r.amount),
    currency: r.currency,
  }
}

/** What the detail and the list both show of a refund: amounts as strings, times as the lists write them. */
function shown(r: Frozen<Refund>) {
  return {
    reference: r.reference,
    payment_reference: r.payment_reference,
    amount: toDecimalString(r.amount),
    transaction_amount: toDecimalString(r.transaction_amount),
    status: r.status,
    currency: r.currency,
    reason: r.reason,
    created_at: listTime(r.created_at),
    completed_at: listTime(r.completed_at),
  }
}

/** GET /refunds/{reference}: `status_reason` only when there is one (no sample of the detail shows it; docs/behaviour.md#refunds) */
export function detail(r: Frozen<Refund>) {
  const d = { ...shown(r), destination: 'customer', payment_method: r.payment_method }
  return r.status_reason === null ? d : { ...d, status_reason: r.status_reason }
}

function listItem(r: Frozen<Refund>) {
  return { pointer: r.reference, ...shown(r) }
}

/** docs/behaviour.md#refunds: both sets of date fields the sources show, so either reader works. */
function eventData(r: Frozen<Refund>) {
  // the keys of the documentation's Webhooks page in its order, then the sandbox's own (docs/behaviour.md#webhook-payloads)
  return {
    amount: toMajor(r.amount),
    status: r.status,
    currency: r.currency,
    reference: r.reference,
    payment_reference: r.payment_reference,
    refund_date: r.created_at,
    completion_date: r.completed_at,
    status_reason: r.status_reason,
    payment_method: r.payment_method,
    created_at: r.created_at,
    completed_at: r.completed_at,
  }
}

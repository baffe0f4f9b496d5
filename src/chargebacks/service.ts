import { PreauthRefunds, type CardCharge, type PreauthService } from '../cards/index.js'
import { findCharge } from '../engine/charge-query.js'
import type { Kit } from '../engine/kit.js'
import { newTransactionReference } from '../engine/lifecycle.js'
import { unitIssue } from '../engine/schemas.js'
import { ApiError, badRequest, conflict, invalid, notFound } from '../errors.js'
import { MSG } from '../messages.js'
import { byQuery, listTime, newestFirst, orderedPage, recordsInOrder, type ListQuery } from '../http/cursor-list.js'
import { formatMoney, toDecimalString, toMajor } from '../money.js'
import { Payins } from '../refunds/index.js'
import type { ActiveScenarios } from '../scenario/index.js'
import { isBalanceCurrency, CURRENCY } from '../scenario/lookups.js'
import type { CardScenario } from '../scenario/schema.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { MINOR, STRING, TIME, maybe, oneOf } from '../store/validate.js'
import { isoAt } from '../time.js'
import type { EventName } from '../webhooks/events.js'
import { CHARGEBACK_MSG } from './messages.js'
import { chargebackSettings } from './settings.js'
import { CHARGEBACK_STATUSES, type AnswerInput, type ChargebackStatus, type OpenInput } from './schemas.js'

/**
 * Chargebacks (docs/behaviour.md#chargebacks): a customer's bank disputes a successful pay-in, which no
 * merchant call can do, so the control API (or a card the packs mark `chargeback: true`) opens
 * one. The amount is held from the moment it opens: what a pay-in may still return is the one
 * rule `returnedOf` (src/cards/types.ts), which refunds ask too. The merchant answers before the
 * deadline, on the namespace clock, or it is accepted; what is accepted or lost is debited from
 * the balance once, under the ledger source `chargeback`; what is won is held no more.
 */

export const CHARGEBACKS = 'chargebacks'
/** the ledger source of a chargeback's debits, declared by the area (src/chargebacks/area.ts) */
export const CHARGEBACK = 'chargeback'
const DEADLINE = 'chargeback.deadline'
const DECIDE = 'chargeback.decide'
const HOUR_MS = 3_600_000

export interface Chargeback {
  /** KPY-CHB-... (the balance history's sample's prefix, SPEC-BEYOND-3 1.5; 14 characters as every generated reference) */
  reference: string
  payment_reference: string
  /** the disputed charge's Kora reference, which the balance history's description names */
  transaction_reference: string
  /** disputed, minor units */
  amount: number
  currency: string
  /** the bank's reason */
  reason: string | null
  status: ChargebackStatus
  /** when it is accepted unless answered */
  deadline: string
  /** the merchant's answer */
  answer: 'accepted' | 'declined' | 'partial' | null
  answer_reason: string | null
  evidence: string | null
  /** what a partial answer accepted, minor units */
  accepted_amount: number | null
  /** what has left the balance, minor units: at most `amount` */
  debited: number
  /** its deadline's or its decision's timer */
  timer: string | null
  created_at: string
  updated_at: string
  resolved_at: string | null
}

export const CHARGEBACKS_SPEC: CollectionSpec<Chargeback> = {
  name: CHARGEBACKS,
  order: { by: (r) => Date.parse(r.created_at), facts: { status: (r) => r.status, currency: (r) => r.currency, payment_reference: (r) => r.payment_reference } },
  keyOf: 'reference',
  fields: {
    reference: STRING, payment_reference: STRING, transaction_reference: STRING, amount: MINOR, currency: CURRENCY, status: oneOf(CHARGEBACK_STATUSES),
    deadline: TIME, debited: MINOR, accepted_amount: maybe(MINOR), timer: maybe(STRING), created_at: TIME, updated_at: TIME, resolved_at: maybe(TIME),
  },
}

export interface ChargebackListQuery extends ListQuery {
  status?: ChargebackStatus
  payment_reference?: string
}

export class ChargebackService {
  readonly #payins: Payins
  readonly #disputedOf = new WeakMap<ActiveScenarios, readonly CardScenario[]>()

  constructor(private readonly kit: Pick<Kit, 'store' | 'clocks' | 'random' | 'scenarios' | 'events' | 'ledger' | 'kinds'>, preauth: PreauthService) {
    this.#payins = new Payins(kit, preauth)
    this.kit.clocks.on(DEADLINE, (ns, p: { reference: string }) => {
      if (this.#col(ns).get(p.reference)?.status === 'pending') this.#accept(ns, p.reference, 'auto_accepted')
    })
    this.kit.clocks.on(DECIDE, (ns, p: { reference: string }) => {
      const cb = this.#col(ns).get(p.reference)
      if (cb?.status === 'declined' || cb?.status === 'partial') this.#decide(ns, cb.reference, chargebackSettings.of(this.kit.scenarios.forNs(ns)).chargeback_decision)
    })
  }

  /** The cards the namespace's packs mark `chargeback: true`, read once per set of active packs (a card charge asks). */
  #disputed(ns: string): readonly CardScenario[] {
    const active = this.kit.scenarios.forNs(ns)
    let cards = this.#disputedOf.get(active)
    if (!cards) this.#disputedOf.set(active, (cards = [...active.cards.values()].filter((c) => c.chargeback)))
    return cards
  }

  #col(ns: string) {
    return this.kit.store.col<Chargeback>(ns, CHARGEBACKS)
  }

  /** Control: the customer's bank disputes a successful pay-in (by its payment or transaction reference). */
  open(ns: string, chargeReference: string, input: OpenInput): Frozen<Chargeback> {
    const charge = findCharge(this.kit.store, ns, chargeReference)
    const p = charge && !charge.parent ? this.#payins.find(ns, charge.payment_reference) : undefined
    if (!p) throw notFound(MSG.TRANSACTION_NOT_FOUND)
    // a pre-authorization is disputed for what was captured (docs/behaviour.md#chargebacks)
    const held = PreauthRefunds.held(p.charge)
    if (held && held.status === 'success' && !p.succeeded) throw badRequest(held.preauth!.state === 'voided' ? CHARGEBACK_MSG.PREAUTH_VOIDED : CHARGEBACK_MSG.NOT_CAPTURED)
    if (!p.succeeded) throw badRequest(CHARGEBACK_MSG.NOT_SUCCESSFUL)
    const { currency } = p.charge
    if (!isBalanceCurrency(currency)) throw badRequest(CHARGEBACK_MSG.CURRENCY)
    // the one rule of what is left to return (`returnedOf`), which refunds ask too
    if (p.left <= 0) throw conflict(CHARGEBACK_MSG.NOTHING_LEFT)
    const amount = input.amount ?? p.left
    const finer = unitIssue(currency, amount)
    if (finer) throw invalid({ amount: finer })
    if (amount > p.left) throw badRequest(CHARGEBACK_MSG.max(formatMoney(currency, p.left)))
    this.#payins.dispute(ns, p.charge.transaction_reference, amount)
    const now = this.kit.clocks.now(ns)
    const at = this.kit.clocks.iso(ns)
    const hours = input.deadline_hours ?? chargebackSettings.of(this.kit.scenarios.forNs(ns)).chargeback_deadline_hours
    const reference = newTransactionReference(this.kit.random, ns, 'CHB')
    const cb: Chargeback = {
      reference,
      payment_reference: p.charge.payment_reference,
      transaction_reference: p.charge.transaction_reference,
      amount,
      currency,
      reason: input.reason ?? null,
      status: 'pending',
      deadline: isoAt(now + Math.round(hours * HOUR_MS)),
      answer: null,
      answer_reason: null,
      evidence: null,
      accepted_amount: null,
      debited: 0,
      timer: this.kit.clocks.schedule(ns, Math.round(hours * HOUR_MS), DEADLINE, { reference }),
      created_at: at,
      updated_at: at,
      resolved_at: null,
    }
    const stored = this.#col(ns).put(reference, cb)
    this.#announce(ns, 'chargeback.pending', stored)
    return stored
  }

  /** PATCH /chargebacks/:reference: the merchant accepts, declines, or accepts part (SPEC-BEYOND-3 1.2). */
  answer(ns: string, reference: string, input: AnswerInput): Frozen<Chargeback> {
    const cb = this.get(ns, reference)
    if (cb.status !== 'pending') throw conflict(CHARGEBACK_MSG.NOT_PENDING)
    if (input.status === 'partial') {
      const finer = unitIssue(cb.currency, input.amount!)
      if (finer) throw invalid({ amount: finer })
      if (input.amount! >= cb.amount) throw badRequest(CHARGEBACK_MSG.partialBelow(formatMoney(cb.currency, cb.amount)))
    }
    if (cb.timer) this.kit.clocks.cancel(ns, cb.timer)
    const answered = this.#col(ns).update(reference, (c) => {
      c.answer = input.status
      c.answer_reason = input.reason ?? null
      c.evidence = input.evidence ?? null
      c.timer = null
    })
    if (input.status === 'accepted') return this.#accept(ns, reference, 'accepted')
    const hours = chargebackSettings.of(this.kit.scenarios.forNs(ns)).chargeback_decision_hours
    const accepted = input.status === 'partial' ? input.amount! : 0
    if (accepted) this.#debit(ns, answered, accepted)
    const stored = this.#col(ns).update(reference, (c) => {
      c.status = input.status as 'declined' | 'partial'
      c.accepted_amount = accepted || null
      c.debited += accepted
      c.updated_at = this.kit.clocks.iso(ns)
      c.timer = this.kit.clocks.schedule(ns, Math.round(hours * HOUR_MS), DECIDE, { reference })
    })
    this.#announce(ns, input.status === 'partial' ? 'chargeback.partial' : 'chargeback.declined', stored)
    return stored
  }

  /** Control: decides a declined or partly accepted chargeback now. */
  decide(ns: string, reference: string, outcome: 'won' | 'lost'): Frozen<Chargeback> {
    const cb = this.get(ns, reference)
    if (cb.status !== 'declined' && cb.status !== 'partial') throw conflict(CHARGEBACK_MSG.NOT_DECLINED)
    if (cb.timer) this.kit.clocks.cancel(ns, cb.timer)
    return this.#decide(ns, reference, outcome)
  }

  /** Accepted by the merchant or at the deadline: the whole amount is debited. */
  #accept(ns: string, reference: string, status: 'accepted' | 'auto_accepted'): Frozen<Chargeback> {
    const cb = this.#col(ns).get(reference)!
    this.#debit(ns, cb, cb.amount)
    const stored = this.#resolve(ns, reference, status, cb.amount)
    // the pages document no `chargeback.accepted` event (SPEC-BEYOND-3 1.4)
    if (status === 'auto_accepted') this.#announce(ns, 'chargeback.auto_accepted', stored)
    return stored
  }

  /** Won: what is not debited is held no more; lost: it is debited too. */
  #decide(ns: string, reference: string, outcome: 'won' | 'lost'): Frozen<Chargeback> {
    const cb = this.#col(ns).get(reference)!
    const rest = cb.amount - cb.debited
    if (outcome === 'lost') this.#debit(ns, cb, rest)
    else this.#payins.dispute(ns, cb.transaction_reference, -rest)
    const stored = this.#resolve(ns, reference, outcome, outcome === 'lost' ? cb.amount : cb.debited)
    // no `chargeback.won` event is documented (SPEC-BEYOND-3 1.4)
    if (outcome === 'lost') this.#announce(ns, 'chargeback.lost', stored)
    return stored
  }

  #resolve(ns: string, reference: string, status: ChargebackStatus, debited: number): Frozen<Chargeback> {
    const at = this.kit.clocks.iso(ns)
    return this.#col(ns).update(reference, (c) => {
      c.status = status
      c.debited = debited
      c.timer = null
      c.updated_at = at
      c.resolved_at = at
    })
  }

  /** One debit of the balance, in the same turn as the record that says so (never refused for want of balance: the bank has taken it). */
  #debit(ns: string, cb: Frozen<Chargeback>, amount: number): void {
    if (amount <= 0) return
    const at = this.kit.clocks.iso(ns)
    this.kit.ledger.post(ns, CHARGEBACK, cb.reference, { direction: 'debit', amount, currency: cb.currency, available_at: at, created_at: at, of: cb.transaction_reference })
  }

  #announce(ns: string, event: EventName, cb: Frozen<Chargeback>): void {
    this.kit.events.record(ns, event, eventData(cb))
  }

  /**
   * A card charge that succeeded (`CardService.onCharged`, before it is stored): a card the packs
   * mark `chargeback: true` is disputed in full as soon as the charge is stored, in a microtask of
   * the same turn, so before the request's write is made durable; any other costs one look.
   */
  cardCharged(ns: string, charge: CardCharge): void {
    const disputed = this.#disputed(ns)
    if (!disputed.length) return
    const { first_six, last_four } = charge.card
    if (!disputed.some((s) => s.label === charge.scenario_label && s.number.startsWith(first_six) && s.number.endsWith(last_four))) return
    const tx = charge.transaction_reference
    queueMicrotask(() => {
      try {
        this.open(ns, tx, {})
      } catch (e) {
        // a pay-in no chargeback can be opened on (a currency with no balance): left undisputed
        if (!(e instanceof ApiError)) throw e
      }
    })
  }

  /** GET /chargebacks/:reference */
  get(ns: string, reference: string): Frozen<Chargeback> {
    const cb = this.#col(ns).get(reference)
    if (!cb) throw notFound(CHARGEBACK_MSG.NOT_FOUND)
    return cb
  }

  /** The namespace's chargebacks, newest first (the dashboard). */
  all(ns: string): Frozen<Chargeback>[] {
    return [...newestFirst(recordsInOrder(this.#col(ns)))]
  }

  /** GET /chargebacks: a page of the list, newest first (docs/behaviour.md#lists). */
  list(ns: string, q: ChargebackListQuery) {
    const page = orderedPage(
      recordsInOrder(this.#col(ns)),
      q,
      byQuery(q, 'status', 'currency', 'payment_reference'),
    )
    return { has_more: page.has_more, chargebacks: page.items.map((c) => ({ pointer: c.reference, ...detail(c) })) }
  }
}

/** What the query and the list show of a chargeback: amounts as strings, times as the lists write them. */
export function detail(c: Frozen<Chargeback>) {
  return {
    reference: c.reference,
    status: c.status,
    amount: toDecimalString(c.amount),
    accepted_amount: c.accepted_amount === null ? null : toDecimalString(c.accepted_amount),
    debited_amount: toDecimalString(c.debited),
    currency: c.currency,
    reason: c.reason,
    payment_reference: c.payment_reference,
    transaction_reference: c.transaction_reference,
    answer: c.answer,
    answer_reason: c.answer_reason,
    evidence: c.evidence,
    deadline: listTime(c.deadline),
    created_at: listTime(c.created_at),
    updated_at: listTime(c.updated_at),
    resolved_at: listTime(c.resolved_at),
  }
}

/** The webhook's data: FXU's reading of the documented sample (`reference`, `payment.reference`), then the sandbox's own. */
function eventData(c: Frozen<Chargeback>) {
  return {
    reference: c.reference,
    status: c.status,
    amount: toMajor(c.amount),
    currency: c.currency,
    payment: { reference: c.payment_reference, transaction_reference: c.transaction_reference },
    payment_reference: c.payment_reference,
    reason: c.reason,
    accepted_amount: c.accepted_amount === null ? null : toMajor(c.accepted_amount),
    deadline: c.deadline,
    created_at: c.created_at,
  }
}

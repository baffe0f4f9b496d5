import type { Kit } from '../engine/kit.js'
import { DIGITS } from '../random.js'
import { badRequest, conflict, failedConflict, invalid, notFound } from '../errors.js'
import { MSG } from '../messages.js'
import { byQuery, listTime, newestFirst, orderedPage, recordsInOrder, type ListQuery } from '../http/cursor-list.js'
import { accountName } from '../lookups/index.js'
import { banksOf, decimalsOf, operatorsOf, payoutCountry } from '../scenario/lookups.js'
import { bankKey, holderName, remittanceMethods } from './bank-fields.js'
import { computeFee, toDecimalString, toMajor, toMinor } from '../money.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { MINOR, OBJECT, STRING, TIME, maybe, oneOf, shape } from '../store/validate.js'
import { BALANCE_CURRENCIES } from '../scenario/lookups.js'
import { PAYOUT_MSG } from './messages.js'
import { payoutSettings } from './settings.js'
import { isStablecoin, type Destination } from './schemas.js'
import { STABLECOINS } from '../stablecoins/index.js'

/**
 * Payouts (docs/behaviour.md#payouts): money sent from the merchant's available balance to a bank
 * account or a mobile-money wallet. Accepted, a payout debits amount, fee and VAT in the same
 * turn as the balance is checked, so racing requests cannot overdraw; it stays `processing` for
 * the pack's delay on the namespace clock, then ends as its test account says (the pack's
 * `payouts`, any other account succeeds). A failed payout gets a credit entry returning all of it.
 */

export const PAYOUTS = 'payouts'
/** a payout's currency: a balance's, or a stablecoin's */
const PAYOUT_CURRENCY = oneOf([...BALANCE_CURRENCIES, ...STABLECOINS])
const END = 'payout.end'

export type PayoutStatus = 'processing' | 'success' | 'failed'

export interface Payout {
  reference: string
  batch_reference: string | null
  type: Destination['type']
  status: PayoutStatus
  /** minor units: what the destination receives, the fee and the VAT on it */
  amount: number
  fee: number
  vat: number
  /** true: the fee and VAT are debited on top of the amount; false (a bulk payout's choice): taken out of it */
  merchant_bears_cost: boolean
  currency: string
  narration: string | null
  bank_account: { bank: string; account: string; bank_name: string; account_name: string | null } | null
  mobile_money: { operator: string; mobile_number: string } | null
  /** a stablecoin payout's wallet (absent from records written before it was served) */
  crypto?: { network: string; address: string } | null
  customer: { name: string | null; email: string }
  metadata: Record<string, unknown> | null
  notification_url: string | null
  remittance_data: Record<string, unknown> | null
  message: string
  trace_id: string | null
  created_at: string
  completed_at: string | null
  /** how it ends when its time comes: from the pack's test account */
  plan: { outcome: 'success' | 'failed' | 'processing'; message: string | null }
  timer: string | null
}

/** the ledger source of a payout's entries, declared by the payouts area (src/payouts/area.ts) */
export const PAYOUT = 'payout'

export const PAYOUTS_SPEC: CollectionSpec<Payout> = {
  name: PAYOUTS,
  keyOf: 'reference',
  // the list's order (docs/behaviour.md#lists)
  order: { by: (p) => Date.parse(p.created_at), facts: { currency: (p) => p.currency, status: (p) => p.status } },
  fields: {
    reference: STRING, status: STRING, amount: MINOR, fee: MINOR, vat: MINOR, currency: PAYOUT_CURRENCY, created_at: TIME, completed_at: maybe(TIME),
    // what its query and the lists read of the destination and the payee
    type: STRING,
    bank_account: maybe(shape({ bank: STRING, account: STRING })),
    mobile_money: maybe(shape({ operator: STRING, mobile_number: STRING })),
    crypto: maybe(shape({ network: STRING, address: STRING })),
    customer: OBJECT,
    plan: shape({ outcome: STRING }),
  },
  // an account's and a wallet's number are no card's, nor a stablecoin address
  asWritten: ['reference', 'batch_reference', 'bank_account.account', 'mobile_money.mobile_number', 'crypto.address', 'notification_url'],
}

export interface NewPayout {
  reference: string
  destination: Destination
  metadata?: Record<string, unknown>
  notification_url?: string
  remittance_data?: Record<string, unknown>
  batch_reference?: string
  merchant_bears_cost?: boolean
}


/**
 * The balance a payout in this currency is paid from (docs/behaviour.md#stablecoin-payouts): its own, but a
 * stablecoin's (USDT, USDC), which the sandbox pays from the USD balance, one for one.
 */
export const fundedIn = (currency: string): string => (isStablecoin(currency) ? 'USD' : currency)

/**
 * What a payout takes from the balance, minor units: amount, fee and VAT when the merchant bears
 * the cost; the amount alone otherwise (the fee comes out of what the destination receives).
 */
export const debitOf = (p: Pick<Payout, 'amount' | 'fee' | 'vat' | 'merchant_bears_cost'>): number => (p.merchant_bears_cost === false ? p.amount : p.amount + p.fee + p.vat)

/** a payout the available balance does not cover: 409, `data: null`, as the samples answer (docs/behaviour.md#payouts) */
const shortOfFunds = () => conflict(MSG.INSUFFICIENT_WALLET)

export class PayoutService {
  constructor(private readonly kit: Pick<Kit, 'store' | 'clocks' | 'random' | 'scenarios' | 'events' | 'ledger'>) {
    this.kit.clocks.on(END, (ns, { reference }: { reference: string }) => {
      const payout = this.#col(ns).get(reference)
      if (payout?.status !== 'processing') return
      this.#end(ns, reference, payout.plan.outcome === 'failed' ? 'failed' : 'success', payout.plan.message ?? undefined)
    })
  }

  /**
   * Checks a payout (docs/behaviour.md#payouts: destination, account, limits, balance) and, in the
   * same synchronous turn, debits it and stores it, `processing`. Throws the refusal otherwise,
   * leaving nothing behind.
   */
  create(ns: string, o: NewPayout): Frozen<Payout> {
    const payout = this.prepare(ns, o)
    // the check and the debit in one synchronous turn: no await between them
    this.kit.ledger.requireAvailable(ns, fundedIn(payout.currency), debitOf(payout), this.kit.clocks.now(ns), shortOfFunds)
    return this.accept(ns, payout)
  }

  /**
   * A payout checked (everything but the balance) and built, not stored: what `accept` stores.
   * Throws the refusal of docs/behaviour.md#payouts otherwise.
   */
  prepare(ns: string, o: NewPayout): Payout {
    if (this.#col(ns).has(o.reference)) throw conflict(PAYOUT_MSG.DUPLICATE)
    const d = o.destination
    const active = this.kit.scenarios.forNs(ns)
    const settings = active.settings
    const own = payoutSettings.of(active)
    // a stablecoin goes to a wallet of a network, no country's
    const country = d.type === 'crypto' ? (isStablecoin(d.currency) ? 'crypto' : undefined) : payoutCountry(d.type, d.currency)
    if (!country) throw badRequest(PAYOUT_MSG.CURRENCY)
    let bank_account: Payout['bank_account'] = null
    let mobile_money: Payout['mobile_money'] = null
    let crypto: Payout['crypto'] = null
    let plan: ReturnType<typeof active.payout>
    let limit = own.payout_limits[d.currency]
    // a bank the pack says is unavailable takes the payout and fails it on the clock (a documented failure reason)
    let unavailable = false
    if (d.type === 'crypto') {
      crypto = { network: d.crypto!.network, address: d.crypto!.destination_address }
    } else if (d.type === 'bank_account') {
      const { account } = d.bank_account!
      const bank = bankKey(d.currency, d.bank_account!, d.bank_account!.bank)
      plan = active.payout(bank, account)
      // a remittance-style account (USD, GBP) names its bank itself: there is no list to find it in
      const namesItsBank = remittanceMethods(d.currency) !== undefined
      const known = banksOf(country).find((b) => b.code === bank)
      if (!namesItsBank && !known && !plan) throw notFound(PAYOUT_MSG.BANK_NOT_FOUND)
      if (plan?.outcome === 'invalid') throw failedConflict(MSG.INVALID_ACCOUNT, o.reference)
      unavailable = own.payout_availability[bank] === 'unavailable'
      if (country === 'NG' && account.length !== 10) throw failedConflict(MSG.INVALID_ACCOUNT, o.reference)
      const name = country === 'NG' ? accountName(bank, account) : holderName(d.bank_account!)
      if (country === 'NG' && name === null) throw failedConflict(MSG.INVALID_ACCOUNT, o.reference)
      bank_account = { bank, account, bank_name: known?.name ?? d.bank_account!.bank_name ?? bank, account_name: name }
    } else {
      const { operator, mobile_number } = d.mobile_money!
      const number = mobile_number.replace(/^\+/, '')
      const op = operatorsOf(country).find((x) => x.slug === operator || x.code === operator)
      if (!op) throw notFound(PAYOUT_MSG.OPERATOR_NOT_FOUND)
      plan = active.payout(op.slug, number)
      if (plan?.outcome === 'invalid') throw failedConflict(MSG.INVALID_ACCOUNT, o.reference)
      mobile_money = { operator: op.slug, mobile_number: number }
      limit = own.payout_limits[op.slug] ?? { min: op.min, max: op.max }
    }
    // the amount's checks come after the destination's (docs/behaviour.md#payouts's order)
    const { amount } = d
    const multiple = own.payout_multiples[d.currency]
    if (multiple && amount % toMinor(multiple) !== 0) throw invalid({ 'destination.amount': PAYOUT_MSG.multipleOf(multiple, d.currency) })
    if (limit && (amount < toMinor(limit.min) || amount > toMinor(limit.max))) throw failedConflict(PAYOUT_MSG.outOfRange(toMinor(limit.min), toMinor(limit.max), d.currency), o.reference)
    const { fee, vat } = computeFee(amount, d.type === 'crypto' ? settings.fees.stablecoin_payout : settings.fees.payout, settings.vat_percent, decimalsOf(d.currency))
    const failure = unavailable ? PAYOUT_MSG.BANK_UNAVAILABLE : plan?.outcome === 'failed' ? (plan.message ?? PAYOUT_MSG.FAILED) : null
    const outcome = failure ? 'failed' : plan?.outcome === 'processing' ? 'processing' : 'success'
    return {
      reference: o.reference,
      batch_reference: o.batch_reference ?? null,
      type: d.type,
      status: 'processing',
      amount,
      fee,
      vat,
      merchant_bears_cost: o.merchant_bears_cost ?? true,
      currency: d.currency,
      narration: d.narration ?? null,
      bank_account,
      mobile_money,
      crypto,
      customer: { name: d.customer.name ?? null, email: d.customer.email },
      metadata: o.metadata ?? null,
      notification_url: o.notification_url ?? null,
      remittance_data: o.remittance_data ?? null,
      message: PAYOUT_MSG.PROCESSING,
      trace_id: null,
      created_at: this.kit.clocks.iso(ns),
      completed_at: null,
      plan: { outcome, message: failure },
      timer: null,
    }
  }

  /**
   * Debits a prepared payout and stores it, processing, with the timer that ends it. The caller
   * has checked the balance in the same synchronous turn. Returns it as stored.
   */
  accept(ns: string, payout: Payout): Frozen<Payout> {
    const delay = payoutSettings.of(this.kit.scenarios.forNs(ns)).payout_delay_seconds
    if (payout.plan.outcome !== 'processing') payout.timer = this.kit.clocks.schedule(ns, delay * 1000, END, { reference: payout.reference })
    const stored = this.#col(ns).put(payout.reference, payout)
    this.#post(ns, stored, 'debit', stored.created_at)
    return stored
  }

  /**
   * `payouts/availability`: the banks of the currency's country, each with what the pack's
   * `payout_availability` says of it (`available` when it says nothing).
   */
  availability(ns: string, currency: string) {
    const statuses = payoutSettings.of(this.kit.scenarios.forNs(ns)).payout_availability
    const country = payoutCountry('bank_account', currency)
    return (country ? banksOf(country) : []).map((b) => ({ name: b.name, slug: b.slug, code: b.code, country: b.country, status: statuses[b.code] ?? 'available' }))
  }

  /** The payout with this reference, or 404 `Transaction not found`. */
  get(ns: string, reference: string): Frozen<Payout> {
    const payout = this.#col(ns).get(reference)
    if (!payout) throw notFound(MSG.TRANSACTION_NOT_FOUND)
    return payout
  }

  find(ns: string, reference: string): Frozen<Payout> | undefined {
    return this.#col(ns).get(reference)
  }

  /** Control: ends a processing payout now, as asked or as its account says (success when it stays processing). */
  complete(ns: string, reference: string, outcome?: 'success' | 'failed', reason?: string): Frozen<Payout> {
    const payout = this.get(ns, reference)
    if (payout.status !== 'processing') throw conflict(PAYOUT_MSG.COMPLETED)
    const how = outcome ?? (payout.plan.outcome === 'failed' ? 'failed' : 'success')
    if (payout.timer) this.kit.clocks.cancel(ns, payout.timer)
    return this.#end(ns, reference, how, reason ?? payout.plan.message ?? undefined)
  }

  /** Every payout of the namespace, newest first. */
  all(ns: string): Frozen<Payout>[] {
    return [...newestFirst(recordsInOrder(this.#col(ns)))]
  }

  /** GET /payouts: one page of the list (docs/behaviour.md#lists, docs/behaviour.md#payouts). */
  list(ns: string, q: ListQuery & { status?: PayoutStatus }) {
    const page = orderedPage(recordsInOrder(this.#col(ns)), q, byQuery(q, 'currency', 'status'))
    return { has_more: page.has_more, payouts: page.items.map(listItem) }
  }

  /** Ends a processing payout (its timer fired or was cancelled); returns it as stored. */
  #end(ns: string, reference: string, outcome: 'success' | 'failed', reason?: string): Frozen<Payout> {
    const at = this.kit.clocks.iso(ns)
    const payout = this.#col(ns).update(reference, (p) => {
      p.timer = null
      p.status = outcome
      p.completed_at = at
      if (outcome === 'success') {
        p.trace_id = this.kit.random.text(ns, DIGITS, 20)
        p.message = PAYOUT_MSG.SUCCESS
      } else {
        p.message = reason ?? PAYOUT_MSG.FAILED
      }
    })
    if (outcome === 'failed') this.#post(ns, payout, 'credit', at)
    this.kit.events.record(ns, outcome === 'success' ? 'transfer.success' : 'transfer.failed', webhookData(payout), { target: payout.notification_url })
    return payout
  }

  #col(ns: string) {
    return this.kit.store.col<Payout>(ns, PAYOUTS)
  }

  /** A payout's debit when it is accepted, or the credit returning it when it fails, available at once. */
  #post(ns: string, payout: Frozen<Payout>, direction: 'credit' | 'debit', at: string): void {
    const entry = { direction, amount: debitOf(payout), currency: fundedIn(payout.currency), available_at: at, created_at: at }
    this.kit.ledger.post(ns, PAYOUT, payout.reference, direction === 'credit' ? { ...entry, why: 'returned' } : entry)
  }
}

/** What a payout cost the merchant beside its amount, the fee and the VAT on it: the answers' `fee`. */
export const feeOf = (p: Frozen<Payout>): number => p.fee + p.vat

/**
 * The answer to a payout just accepted, amounts as strings (docs/behaviour.md#payouts): a payout's is
 * the live test environment's recorded answer (`fee` without its VAT, `message`, no `narration`, no
 * `metadata`); a remittance's and a stablecoin payout's are the collection's samples (`narration`,
 * `customer.phone`, no `message`), the newest sources for those.
 */
export function createdData(p: Payout) {
  const amount = toDecimalString(p.amount)
  const fee = toDecimalString(p.remittance_data ? feeOf(p) : p.fee)
  // literals, not `{ ...head, more }`: node 20 defines each field after a spread one by one (15.2 K instructions an answer against 2.1 K, bench/README.md)
  if (p.remittance_data || p.type === 'crypto') return { amount, fee, currency: p.currency, status: p.status, reference: p.reference, narration: p.narration, customer: { name: p.customer.name, email: p.customer.email, phone: null } }
  return { amount, fee, currency: p.currency, status: p.status, reference: p.reference, message: p.message, customer: { name: p.customer.name, email: p.customer.email } }
}

/**
 * GET /transactions/{reference}, as the live test environment answered it (2026-10-07): `amount`
 * a string, `fee` a number, `batch_reference` null for a single payout, `completion_date` once it
 * ended, `trace_id` once it succeeded; a remittance's `remittance_data` as it was taken.
 */
export function queryData(p: Payout) {
  return {
    reference: p.reference,
    batch_reference: p.batch_reference,
    status: p.status,
    amount: toDecimalString(p.amount),
    fee: toMajor(feeOf(p)),
    currency: p.currency,
    narration: p.narration,
    channel: 'api',
    completion_date: p.completed_at,
    ...(p.trace_id ? { trace_id: p.trace_id } : {}),
    message: p.message,
    customer: { email: p.customer.email, name: p.customer.name, phone: null },
    metadata: p.metadata,
    ...(p.remittance_data ? { remittance_data: p.remittance_data } : {}),
    ...(p.crypto ? { crypto: { network: p.crypto.network, destination_address: p.crypto.address } } : {}),
  }
}

/** A list item, as the collection's list sample (2023-09-07) writes it: amounts as strings, `payment_destination` the destination's type. */
function listItem(p: Payout) {
  return {
    pointer: p.reference,
    reference: p.reference,
    status: p.status,
    amount: toDecimalString(p.amount),
    fee: toDecimalString(feeOf(p)),
    currency: p.currency,
    narration: p.narration,
    trace_id: p.trace_id,
    message: p.message,
    payment_destination: p.type,
    customer_name: p.customer.name,
    customer_email: p.customer.email,
    date_created: listTime(p.created_at),
    date_completed: listTime(p.completed_at),
  }
}

/**
 * transfer.success / transfer.failed (docs/behaviour.md#payouts): the documentation's keys in its
 * order (docs/behaviour.md#webhook-payloads), `batch_reference` on a bulk item, then the sandbox's own: `reason` on a failure.
 */
export function webhookData(p: Payout): Record<string, unknown> {
  return {
    fee: toMajor(feeOf(p)),
    amount: toMajor(p.amount),
    status: p.status,
    currency: p.currency,
    reference: p.reference,
    ...(p.batch_reference ? { batch_reference: p.batch_reference } : {}),
    narration: p.narration,
    ...(p.status === 'failed' ? { reason: p.message } : { trace_id: p.trace_id }),
  }
}

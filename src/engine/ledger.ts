import { type ApiError, badRequest } from '../errors.js'
import { MSG } from '../messages.js'
import { INTAKE_LIMIT, formatMoney, toMinor } from '../money.js'
import { PackError, type Pack, type Scenarios } from '../scenario/index.js'
import { BALANCE_CURRENCIES, CURRENCY, isBalanceCurrency } from '../scenario/lookups.js'
import type { Settings } from '../scenario/schema.js'
import type { Collection, CollectionSpec } from '../store/collection.js'
import type { Store } from '../store/store.js'
import { MINOR, STRING, TIME, maybe, oneOf } from '../store/validate.js'
import type { OrderedItems } from '../http/cursor-list.js'
import type { AnyArea, EntryFacts, LedgerSource } from '../http/area.js'
import type { Kinds } from './kinds.js'
import { ENTRY_PLACE, LedgerHistory, type HistoryEntry, type HistoryRow } from './ledger-history.js'
import { balanceIssues } from './ledger-check.js'
import { CHARGES, type ChargeBase } from './types.js'
import { isoAt } from '../time.js'

/**
 * The merchant's ledger (docs/behaviour.md#ledger-and-balances): append-only entries from which every balance is
 * derived, never a balance edited in place.
 *
 * Every entry is a record of one collection, `ledger`, written by `post()` in the same synchronous
 * turn as the record it belongs to (a charge that succeeded, a capture, a refund, a payout, a
 * funding), so the two are made durable by the same write; nothing edits or deletes an entry but a
 * reset. What made an entry is its key, `<source>:<source_reference>:<n>`, `n` counting the
 * entries of that record before it, so a record's entries are read by key (`of`), never by a
 * scan; the record holds the facts only (a card charge's credit: five fields), its description is
 * written when the history reads it (measured with `node bench/count.mjs --scenario card`: 1,013 K
 * instructions per card charge, against 1,044 K with every field stored and 1,000 K when the
 * credit was a field of the charge). Balances, the history, and whether a record's money has
 * settled (`settled`: the one rule, which the refund checks ask) all read these entries.
 *
 * Every namespace also opens with the pack's `opening_balance`, available, in each balance
 * currency: an entry of no record, dated the start of the namespace clock.
 */

export const LEDGER = 'ledger'

/** the currencies a namespace holds a balance in from the start: fixtures/lookups.json's `currencies` (docs/behaviour.md#ledger-and-balances) */
export { BALANCE_CURRENCIES, isBalanceCurrency }

/**
 * What made an entry: the kind of record, whose reference is in the entry's key. The ledger's own
 * are `payin` (a charge that succeeded) and `funding`; each other is declared by the area that
 * posts it (`Area.ledger`: a capture, a refund, a payout, a conversion), and `post` refuses a name
 * no one declared.
 */
export type Source = string

/** a charge that succeeded: its credit, and what moved it later */
const PAYIN = 'payin'
const FUNDING = 'funding'

/** The ledger's own sources: a pay-in's entries are the lifecycle's, a funding is written by `fund`. */
const OWN_SOURCES: Record<string, LedgerSource> = {
  [PAYIN]: { describe: (ref, p) => MSG.paymentEntry(ref, p.why) },
  [FUNDING]: { describe: () => MSG.FUNDING_ENTRY, intake: true },
}

/** An entry as stored: what a record adds to (credit) or takes from (debit) the merchant's balance. */
export interface Posting extends HistoryEntry, EntryFacts {
  /** minor units, net of fee and VAT */
  amount: number
  /** when it moves from the pending to the available balance */
  available_at: string
  /** when it was written (a pay-in's entries: when it succeeded) */
  created_at: string
}

/** An entry as the balances and the history read it: the posting, what made it, its description. */
export interface Entry extends Posting {
  /** a declared source (`payin`, `capture`, `refund`, `payout`, `funding`, `conversion` ...), or `opening` for an opening balance */
  source: Source
  /** the reference of that record */
  source_reference: string
  description: string
}

export const LEDGER_SPEC: CollectionSpec<Posting> = {
  name: LEDGER,
  // none kept live: an entry is read again only by a refund's or a settlement's checks, and a live
  // one cost a card charge its freezing and a place among the live records; its texts are small,
  // so a block holds more of them (a deflate call's set-up is paid once per block: bench/README.md)
  hot: 0,
  block: 512,
  // the history's order: by when an entry became available, then when it was written, with what
  // its rows sum kept beside each place, so building them reads no cold entry (ledger-history.ts)
  order: { ...ENTRY_PLACE, facts: { currency: (p) => p.currency, direction: (p) => p.direction, amount: (p) => p.amount } },
  fields: { direction: oneOf(['credit', 'debit']), amount: MINOR, currency: CURRENCY, available_at: TIME, created_at: TIME, why: maybe(STRING), of: maybe(STRING) },
  asWritten: ['of'],
}

/** The key of a record's `n`th entry: the last `:` of a key is always the one before `n`. */
export const entryKey = (source: Source, reference: string, n: number): string => `${source}:${reference}:${n}`

const ENTRY_KEY = /^([^:]+):.+:(?:0|[1-9]\d*)$/

/**
 * The ledger as the store opens it (src/deps.ts, `collectionsOf`): LEDGER_SPEC, and an entry's key
 * naming a source the ledger or one of these areas declares, handed to the store as data, so a data
 * file or a snapshot holding an entry no source describes is refused (docs/behaviour.md#persistence, docs/behaviour.md#snapshots).
 */
export function ledgerSpec(areas: readonly AnyArea[]): CollectionSpec<Posting> {
  const names = [...sourcesOf(areas).keys()]
  const declared = (key: unknown) => typeof key === 'string' && names.includes(ENTRY_KEY.exec(key)?.[1] ?? '')
  return { ...LEDGER_SPEC, key: [declared, `<source>:<reference>:<n>, its source one of ${names.join(', ')}`] }
}

/**
 * The sources of a list of areas and the ledger's own, by name: how the history describes each
 * one's entries (docs/behaviour.md#ledger-and-balances) and whether its credits are intake. A name declared twice
 * is refused.
 */
function sourcesOf(areas: readonly AnyArea[]): Map<string, LedgerSource> {
  const sources = new Map(Object.entries(OWN_SOURCES))
  for (const area of areas) {
    for (const [name, source] of Object.entries(area.ledger ?? {})) {
      // `opening` names the history's opening balances, and a key's first `:` ends its source
      if (sources.has(name) || name === OPENING_SOURCE || name.includes(':')) throw new Error(`area ${area.key}: ledger source "${name}" is declared twice, reserved or has a ':'`)
      sources.set(name, source)
    }
  }
  return sources
}

/** the source of an opening balance's entry, reserved: dated 1970-01-01, before anything (docs/behaviour.md#ledger-and-balances); the dashboard says "opening" instead */
export const OPENING_SOURCE = 'opening'

export type Balances = Record<string, { pending: number; available: number }>

/**
 * The sums of a namespace's entries, kept as entries are posted so that reading a balance does
 * not read every entry: built by one pass the first time they are read, then added to. They are
 * dropped when a reset or a failed write changes the records under them (`Store.registerState`).
 */
interface Totals {
  available: Record<string, number>
  /** entries not available yet when last read: they move to `available` as the clock passes them */
  pending: { currency: string; amount: number; at: number }[]
}

const signed = (e: Posting): number => (e.direction === 'credit' ? e.amount : -e.amount)

export class Ledger {
  readonly #totals = new Map<string, Totals>()
  readonly #history: LedgerHistory
  /** what each namespace has taken in, by currency (`takeIn`): derived from its records when first asked */
  readonly #intake = new Map<string, Map<string, number>>()
  /** every source entries may be posted under, the ledger's own and the areas' */
  readonly #sources: Map<string, LedgerSource>
  /** the key prefixes (`<source>:`) of the sources whose credits are intake */
  readonly #intakePrefixes: string[]

  constructor(
    private readonly store: Store,
    private readonly scenarios: Scenarios,
    /** what each kind of charge decides, its settlement among them */
    private readonly kinds: Kinds,
    /** the areas served, whose ledger sources it reads (`Area.ledger`) */
    areas: readonly AnyArea[],
  ) {
    this.#sources = sourcesOf(areas)
    this.#intakePrefixes = [...this.#sources].filter(([, s]) => s.intake).map(([name]) => `${name}:`)
    const drop = (ns: string) => {
      this.#totals.delete(ns)
      this.#intake.delete(ns)
    }
    store.registerState({ reset: drop, restored: drop })
    this.#history = new LedgerHistory(store, (ns) => this.#col(ns), BALANCE_CURRENCIES)
  }

  #col(ns: string): Collection<Posting> {
    return this.store.col<Posting>(ns, LEDGER)
  }

  /**
   * Writes an entry, never to be changed, under a declared source (an undeclared one is a fault of
   * the code, thrown). The caller saves the record it belongs to in the same synchronous turn, so
   * both are in the same write of the data file.
   */
  post(ns: string, source: Source, reference: string, entry: Posting): void {
    if (!this.#sources.has(source)) throw new Error(`ledger: no area declares the source "${source}"`)
    this.#write(ns, source, reference, entry)
  }

  /** `post` under a source known to be declared (the ledger's own: a pay-in's credit asks no map) */
  #write(ns: string, source: Source, reference: string, entry: Posting): void {
    const col = this.#col(ns)
    let n = 0
    let key = entryKey(source, reference, 0)
    while (col.has(key)) key = entryKey(source, reference, ++n)
    col.put(key, entry)
    this.#history.posted(ns, entry)
    const t = this.#totals.get(ns)
    if (t) t.pending.push({ currency: entry.currency, amount: signed(entry), at: Date.parse(entry.available_at) })
  }

  /** The entries of one record, in the order they were written. */
  of(ns: string, source: Source, reference: string): Posting[] {
    const col = this.#col(ns)
    const out: Posting[] = []
    for (let e = col.get(entryKey(source, reference, 0)); e; e = col.get(entryKey(source, reference, out.length))) out.push(e)
    return out
  }

  /**
   * Whether a record's money has settled at `nowMs`: its entries available by then add up to more
   * than nothing (its credit is available and was not taken back). The one rule: the balances
   * count the same entries as available, and the refund checks ask this.
   */
  settled(ns: string, source: Source, reference: string, nowMs: number): boolean {
    let sum = 0
    for (const e of this.of(ns, source, reference)) if (Date.parse(e.available_at) <= nowMs) sum += signed(e)
    return sum > 0
  }

  /**
   * Posts the credit of a pay-in that succeeded now, at `now` (the caller saves the charge): what
   * the customer paid less fee and VAT, whoever bore them (`Kinds.money`). A transfer kept whole
   * that is smaller than its fee and VAT (docs/behaviour.md#bank-transfer's `accept_all`) is a debit.
   */
  creditPayin(ns: string, charge: ChargeBase, settings: Settings, now: string): void {
    const { credit } = this.kinds.money(ns, charge)
    const delay = this.kinds.settlementMs(charge, settings)
    const available_at = delay === 0 ? now : isoAt(Date.parse(now) + delay)
    const direction = credit < 0 ? 'debit' : 'credit'
    // in the currency it settles in (a converted checkout's), rounded down there
    const settled = this.kinds.settlementOf(charge, Math.abs(credit))
    this.#write(ns, PAYIN, charge.payment_reference, { direction, amount: settled.amount, currency: settled.currency, available_at, created_at: now })
  }

  /**
   * A record's pending credit settled now, before its time (a pay-in or a capture: the control
   * call, a later capture): a debit due when the credit was takes it back, and the same amount is
   * credited, available now. Nothing when the record has no credit, its credit is already
   * available, or it has other entries (settled or voided already). `why` says so in the history;
   * a pay-in's two are dated as written with its credit (the history lists them so among entries
   * due at the same time, docs/behaviour.md#ledger-and-balances), a capture's now.
   */
  settleEarly(ns: string, source: Source, reference: string, why: string, nowMs: number): void {
    const entries = this.of(ns, source, reference)
    const credit = entries[0]
    if (entries.length !== 1 || credit.direction !== 'credit' || Date.parse(credit.available_at) <= nowMs) return
    const at = isoAt(nowMs)
    const created_at = source === PAYIN ? credit.created_at : at
    this.post(ns, source, reference, { ...credit, direction: 'debit', created_at, why })
    this.post(ns, source, reference, { ...credit, available_at: at, created_at, why })
  }

  /**
   * A record's pending credit cancelled (a capture voided while unsettled): a debit due when the
   * credit was, so it never becomes available. Nothing when it has no credit alone.
   */
  cancel(ns: string, source: Source, reference: string, why: string, nowMs: number): void {
    const entries = this.of(ns, source, reference)
    if (entries.length !== 1 || entries[0].direction !== 'credit') return
    this.post(ns, source, reference, { ...entries[0], direction: 'debit', created_at: isoAt(nowMs), why })
  }

  /**
   * Counts `amount` in to what the namespace has taken in (a funding, a new pay-in), or refuses it
   * with 400 when that, with the opening balance, would pass `INTAKE_LIMIT` (docs/behaviour.md#ledger-and-balances): nothing is counted then. What goes out frees no room: every balance stays exact
   * whatever order money comes in, goes out and comes back in, and however many pay-ins are open.
   */
  takeIn(ns: string, currency: string, amount: number): void {
    if (!this.tryTakeIn(ns, currency, amount)) throw badRequest(MSG.intakeLimit(formatMoney(currency, INTAKE_LIMIT)))
  }

  /** `takeIn` where a refusal is not an answer (a transfer kept whole): whether it was counted in. */
  tryTakeIn(ns: string, currency: string, amount: number): boolean {
    const intake = this.#intakeOf(ns)
    const held = intake.get(currency) ?? 0
    const opening = isBalanceCurrency(currency) ? this.#openingMinor(ns) : 0
    if (opening + held + amount > INTAKE_LIMIT) return false
    intake.set(currency, held + amount)
    return true
  }

  /** A pay-in that failed or expired brings nothing: what it counted in is counted out (call before its status changes). */
  release(ns: string, currency: string, amount: number): void {
    const intake = this.#intakeOf(ns)
    intake.set(currency, (intake.get(currency) ?? 0) - amount)
  }

  /** Adds a funding, available at once: an entry of no other record (refused past the intake limit). */
  fund(ns: string, id: string, currency: string, amount: number, nowMs: number): void {
    this.takeIn(ns, currency, amount)
    const at = isoAt(nowMs)
    this.#write(ns, FUNDING, id, { direction: 'credit', amount, currency, available_at: at, created_at: at })
  }

  /**
   * What is wrong with the balances a snapshot's entries add up to, from the opening balance of the
   * packs it holds (docs/behaviour.md#snapshots: ledger-check.ts), before it is restored; its records
   * have passed their own checks. A snapshot whose packs do not merge is named by them.
   */
  snapshotIssues(records: Record<string, Record<string, unknown>>): Record<string, string> {
    let opening: number
    try {
      opening = toMinor(this.scenarios.forRecords(Object.values(records.packs ?? {}) as { seq: number; pack: Pack }[]).settings.opening_balance)
    } catch (e) {
      if (e instanceof PackError) return { 'records.packs': e.issues.join('; ') }
      throw e
    }
    const overdrawing = [...this.#sources].filter(([, s]) => s.overdraws).map(([name]) => `${name}:`)
    return balanceIssues((records[LEDGER] ?? {}) as Record<string, Posting>, opening, (key) => overdrawing.some((p) => key.startsWith(p)))
  }

  /** What the namespace opened with, available, in minor units, by balance currency. */
  opening(ns: string): Record<string, number> {
    const amount = this.#openingMinor(ns)
    return Object.fromEntries(BALANCE_CURRENCIES.map((c) => [c, amount]))
  }

  /** the pack's `opening_balance`, in minor units: what each balance currency opens with */
  #openingMinor(ns: string): number {
    return toMinor(this.scenarios.forNs(ns).settings.opening_balance)
  }

  /** The balances at `nowMs` (the opening balance included), by currency, in minor units. */
  balances(ns: string, nowMs: number): Balances {
    const t = this.#settled(ns, nowMs)
    const out: Balances = {}
    for (const [currency, amount] of Object.entries(this.opening(ns))) out[currency] = { pending: 0, available: amount }
    for (const [currency, available] of Object.entries(t.available)) (out[currency] ??= { pending: 0, available: 0 }).available += available
    for (const p of t.pending) (out[p.currency] ??= { pending: 0, available: 0 }).pending += p.amount
    return out
  }

  /** The available balance of one currency at `nowMs`, in minor units. */
  available(ns: string, currency: string, nowMs: number): number {
    // what balances() gives for one currency, without building every currency's (a payout's check)
    const t = this.#settled(ns, nowMs)
    const opening = isBalanceCurrency(currency) ? this.#openingMinor(ns) : 0
    return opening + (t.available[currency] ?? 0)
  }

  /**
   * Refuses when the available balance of `currency` at `nowMs` is short of `amount` (minor
   * units): the check before every debit the merchant asks for (a payout, a bulk payout, a refund,
   * a conversion). The refusal is the caller's when it has its own (a payout's 409, a batch's
   * 400 with a code: docs/behaviour.md#payouts), else 400 `Insufficient funds in disbursement wallet`.
   */
  requireAvailable(ns: string, currency: string, amount: number, nowMs: number, refusal: () => ApiError = () => badRequest(MSG.INSUFFICIENT_WALLET)): void {
    if (this.available(ns, currency, nowMs) < amount) throw refusal()
  }

  /** The sums, with the entries due by `nowMs` moved from pending to available. */
  #settled(ns: string, nowMs: number): Totals {
    const t = this.#sums(ns)
    if (t.pending.length === 0) return t
    const still: Totals['pending'] = []
    for (const p of t.pending) {
      if (p.at <= nowMs) t.available[p.currency] = (t.available[p.currency] ?? 0) + p.amount
      else still.push(p)
    }
    t.pending = still
    return t
  }

  /**
   * The balance history at `nowMs`: every entry available by then, the opening balances first, in
   * the order they became available (ties: as written), each with its currency's balance before
   * and after it (ledger-history.ts).
   */
  history(ns: string, nowMs: number): OrderedItems<HistoryRow> {
    return this.#history.rows(ns, this.#openingMinor(ns), nowMs)
  }

  /** The entry a history row stands for, described (docs/behaviour.md#ledger-and-balances). */
  entryOf(ns: string, row: HistoryRow): Entry {
    const source = row.key.slice(0, row.key.indexOf(':'))
    if (source === OPENING_SOURCE) {
      const start = isoAt(0)
      return { direction: 'credit', amount: row.amount, currency: row.currency, available_at: start, created_at: start, source, source_reference: OPENING_SOURCE, description: MSG.OPENING_ENTRY }
    }
    const reference = row.key.slice(source.length + 1, row.key.lastIndexOf(':'))
    const p = this.#col(ns).get(row.key)!
    return { ...p, source, source_reference: reference, description: this.#sources.get(source)!.describe(reference, p) }
  }

  /**
   * What the namespace has taken in, read once from its records: the credits of the sources that
   * are intake (its fundings, what conversions brought into each currency), and each pay-in that
   * has not failed or expired (not a checkout's attempt: its checkout counts) at its amount, or at
   * its credit when that is more (a transfer kept whole).
   */
  #intakeOf(ns: string): Map<string, number> {
    let intake = this.#intake.get(ns)
    if (intake) return intake
    const sums = new Map<string, number>()
    const add = (currency: string, amount: number) => void sums.set(currency, (sums.get(currency) ?? 0) + amount)
    const col = this.#col(ns)
    for (const key of col.keys()) {
      if (!this.#intakePrefixes.some((prefix) => key.startsWith(prefix))) continue
      const e = col.get(key)!
      if (e.direction === 'credit') add(e.currency, e.amount)
    }
    for (const c of this.store.col<ChargeBase>(ns, CHARGES).values()) {
      if (c.parent || c.status === 'failed' || c.status === 'expired') continue
      add(c.currency, c.status === 'success' ? Math.max(c.amount, this.kinds.money(ns, c).credit) : c.amount)
    }
    this.#intake.set(ns, (intake = sums))
    return intake
  }

  #sums(ns: string): Totals {
    let t = this.#totals.get(ns)
    if (t) return t
    t = { available: {}, pending: [] }
    for (const e of this.#col(ns).values()) t.pending.push({ currency: e.currency, amount: signed(e), at: Date.parse(e.available_at) })
    this.#totals.set(ns, t)
    return t
  }
}

import { BALANCE_CURRENCIES, type BalanceCurrency, type Entry, type Ledger } from '../charges/ledger.js'
import { newTransactionReference } from '../charges/lifecycle.js'
import type { Clocks } from '../clock.js'
import { listPage, listTime, type ListQuery } from '../http/cursor-list.js'
import { toDecimalString, toMajor } from '../money.js'

/**
 * The merchant's balances (docs/behaviour.md 13.4), derived from the ledger: what the namespace
 * opened with (the pack's `opening_balance`, available, in each balance currency) plus every
 * entry, pending until its time, available after.
 */

export { BALANCE_CURRENCIES, type BalanceCurrency }

export interface Balance {
  pending_balance: number
  available_balance: number
  issuing_balance?: number
}

/** An item of the balance history (docs/behaviour.md 13.4): amounts as strings in major units. */
export interface HistoryItem {
  pointer: string
  amount: string
  currency: string
  balance_before: string
  balance_after: string
  date_created: string | null
  /** the same as `date_created`: one SDK reads `date` */
  date: string | null
  description: string
  direction: Entry['direction']
  source: string
  source_reference: string
}

export type HistoryQuery = ListQuery & { direction?: Entry['direction'] }

export class BalanceService {
  constructor(
    private readonly clocks: Clocks,
    private readonly ledger: Ledger,
  ) {}

  /** GET /balances: by upper-case currency, major units (USD with its issuing balance, always 0 here). */
  balances(ns: string): Record<string, Balance> {
    const out: Record<string, Balance> = {}
    for (const [currency, held] of Object.entries(this.ledger.balances(ns, this.clocks.now(ns)))) {
      out[currency] = { pending_balance: toMajor(held.pending), available_balance: toMajor(held.available) }
      if (currency === 'USD') out[currency].issuing_balance = 0
    }
    return out
  }

  /** Control: adds `amount` (minor units) to the available balance, as an entry of its own. */
  fund(ns: string, currency: BalanceCurrency, amount: number): Record<string, Balance> {
    this.ledger.fund(ns, newTransactionReference('FUND'), currency, amount, this.clocks.now(ns))
    return this.balances(ns)
  }

  /**
   * GET /balances/history: every entry of the available balances, each with the balance of its
   * currency before and after it (in the order the entries became available), newest first.
   */
  history(ns: string, q: HistoryQuery): { has_more: boolean; history: HistoryItem[] } {
    const rows = historyRows(this.ledger.entries(ns, this.clocks.now(ns)))
    const wanted = rows.filter(({ item }) => (!q.currency || item.currency === q.currency) && (!q.direction || item.direction === q.direction)).reverse()
    const page = listPage(wanted, q, { pointerOf: (r) => r.item.pointer, dateOf: (r) => r.at })
    return { has_more: page.has_more, history: page.items.map((r) => r.item) }
  }
}

/**
 * The history's items, oldest first, with the running balance of each currency. A pointer is
 * `<source>:<source_reference>:<n>` (`opening:<currency>:0` for the opening balance), `n` counting
 * the entries of that record before it: a record's later entry (a failed payout's credit) is
 * available after its first, so an item keeps its pointer as entries are added.
 */
function historyRows(entries: Entry[]): { item: HistoryItem; at: number }[] {
  const running = new Map<string, number>()
  const seen = new Map<string, number>()
  return entries.map((e) => {
    const before = running.get(e.currency) ?? 0
    const after = before + (e.direction === 'credit' ? e.amount : -e.amount)
    running.set(e.currency, after)
    const key = `${e.source}:${e.source === 'opening' ? e.currency : e.source_reference}`
    const n = seen.get(key) ?? 0
    seen.set(key, n + 1)
    const date = listTime(e.available_at)
    return {
      at: Date.parse(e.available_at),
      item: {
        pointer: `${key}:${n}`,
        amount: toDecimalString(e.amount),
        currency: e.currency,
        balance_before: toDecimalString(before),
        balance_after: toDecimalString(after),
        date_created: date,
        date,
        description: e.description,
        direction: e.direction,
        source: e.source,
        source_reference: e.source_reference,
      },
    }
  })
}

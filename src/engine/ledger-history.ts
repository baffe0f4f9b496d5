import type { OrderedItems } from '../http/cursor-list.js'
import type { Collection } from '../store/collection.js'
import type { OrderKey } from '../store/order.js'
import type { Store } from '../store/store.js'

/**
 * The balance history's rows (docs/behaviour.md#ledger-and-balances), kept per namespace as entries become
 * available, so a page of the history costs its size and not the namespace's (docs/behaviour.md#lists).
 *
 * The ledger collection keeps its entries in the history's order (`ENTRY_PLACE`, its
 * `CollectionSpec.order`): by when they become available, then when they were written, then in
 * the order written. The rows are the opening balances, then that order's entries up to the
 * namespace clock, each with its currency's balance before and after it. They are extended as the
 * clock passes entries, and dropped (built again on the next read) when what lies under them
 * changes: an entry posted before the last row (a pay-in settled early, dated as its credit), a
 * pack whose opening balance differs, a reset or a failed write's restore, a clock that reads
 * earlier than the rows reach.
 */

/** What the history reads of a ledger entry (the ledger's `Posting` has these, and more). */
export interface HistoryEntry {
  direction: 'credit' | 'debit'
  /** minor units */
  amount: number
  currency: string
  available_at: string
  created_at: string
}

/** The history's order of an entry: when it becomes available, then when it was written (ms). */
export const ENTRY_PLACE = {
  by: (p: HistoryEntry): number => Date.parse(p.available_at),
  then: (p: HistoryEntry): number => Date.parse(p.created_at),
}
const placeOf = (p: HistoryEntry): OrderKey => [ENTRY_PLACE.by(p), ENTRY_PLACE.then(p)]

/** A row of the history: an entry available by then, with its currency's balance before and after it (minor units). */
export interface HistoryRow {
  /** the entry's ledger key; `opening:<currency>` for an opening balance */
  key: string
  /** `<source>:<source_reference>:<n>` (`opening:<currency>:0`), `n` counting that record's rows before it */
  pointer: string
  currency: string
  direction: HistoryEntry['direction']
  amount: number
  /** when it became available (ms) */
  at: number
  before: number
  after: number
}

interface View {
  rows: HistoryRow[]
  /** how many of the first rows are opening balances */
  openings: number
  /** the opening balance (minor units) the rows were built from */
  opening: number
  /** the clock the rows were last extended to */
  upTo: number
  /** the order key of the newest entry among the rows */
  last?: OrderKey
  running: Map<string, number>
  seen: Map<string, number>
  positions: Map<string, number>
}

const before = (a: OrderKey, b: OrderKey): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])

export class LedgerHistory {
  readonly #views = new Map<string, View>()

  constructor(
    store: Store,
    private readonly col: (ns: string) => Collection<HistoryEntry>,
    /** the balance currencies, each opening with the pack's opening balance */
    private readonly currencies: readonly string[],
  ) {
    const drop = (ns: string) => void this.#views.delete(ns)
    store.registerState({ reset: drop, restored: drop })
  }

  /** An entry was posted: rows already past its place are no longer the history. */
  posted(ns: string, entry: HistoryEntry): void {
    const last = this.#views.get(ns)?.last
    if (last && before(placeOf(entry), last)) this.#views.delete(ns)
  }

  /** The rows at `nowMs`, oldest first. */
  rows(ns: string, opening: number, nowMs: number): OrderedItems<HistoryRow> {
    let view = this.#views.get(ns)
    if (!view || view.opening !== opening || nowMs < view.upTo) {
      view = this.#open(opening)
      this.#views.set(ns, view)
    }
    this.#extend(ns, view, nowMs)
    const rows = view.rows
    const positions = view.positions
    return { size: rows.length, dateAt: (i) => rows[i].at, factsAt: (i) => rows[i], itemAt: (i) => rows[i], positionOf: (p) => positions.get(p) }
  }

  #open(opening: number): View {
    const view: View = { rows: [], openings: 0, opening, upTo: -Infinity, running: new Map(), seen: new Map(), positions: new Map() }
    if (opening > 0) {
      for (const currency of this.currencies) this.#add(view, { key: `opening:${currency}`, group: `opening:${currency}`, currency, direction: 'credit', amount: opening, at: 0 })
    }
    view.openings = view.rows.length
    return view
  }

  #extend(ns: string, view: View, nowMs: number): void {
    const order = this.col(ns).ordered!
    for (let j = view.rows.length - view.openings; j < order.size && order.dateAt(j) <= nowMs; j++) {
      const key = order.keyAt(j)
      // the facts the ledger's order keeps of each entry (LEDGER_SPEC): no entry is read; a page
      // reads its rows' entries to describe them
      const p = order.factsAt(j) as Pick<HistoryEntry, 'currency' | 'direction' | 'amount'>
      this.#add(view, { key, group: key.slice(0, key.lastIndexOf(':')), currency: p.currency, direction: p.direction, amount: p.amount, at: order.dateAt(j) })
      view.last = order.orderKeyAt(j)
    }
    view.upTo = nowMs
  }

  #add(view: View, e: { key: string; group: string; currency: string; direction: HistoryEntry['direction']; amount: number; at: number }): void {
    const was = view.running.get(e.currency) ?? 0
    const after = was + (e.direction === 'credit' ? e.amount : -e.amount)
    view.running.set(e.currency, after)
    const n = view.seen.get(e.group) ?? 0
    view.seen.set(e.group, n + 1)
    const pointer = `${e.group}:${n}`
    view.positions.set(pointer, view.rows.length)
    view.rows.push({ key: e.key, pointer, currency: e.currency, direction: e.direction, amount: e.amount, at: e.at, before: was, after })
  }
}

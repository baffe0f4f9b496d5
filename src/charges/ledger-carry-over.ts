import type { Snapshot, Upgrade } from '../store/persistence.js'
import { LEDGER, entryKey, type Entry } from './ledger.js'

/**
 * A data file of format 1 carried over to format 2 (docs/behaviour.md 0.4, 13.4). Format 1 kept
 * the ledger's entries on the records that made them: a pay-in's credit on its charge (`ledger`,
 * and `settled_early` when settled early), a capture's, a refund's and a payout's on their own
 * records (`ledger`, a list), a funding as a record of the `ledger` collection. Each namespace's
 * entries are read off those records as format 1 read them, into the one ledger collection, and
 * the old fields are dropped. They are put in the order format 1 listed them (when they became
 * available, then when they were written, then by source), so the history reads as it did.
 *
 * The collection names and record shapes below are format 1's, fixed: they are what old files hold.
 */

type Rec = Record<string, any>
interface OldEntry {
  direction: Entry['direction']
  amount: number
  available_at: string
  /** a capture's and a refund's: when it was written, and why */
  written_at?: string
  why?: string
}

const list = (v: unknown): OldEntry[] => (Array.isArray(v) ? v : [])
const CAPTURE: Record<string, string> = { capture: 'Capture', settled: 'Capture settled', voided: 'Capture voided' }

/** A record's entries as format 1 read them, in the order they were written. */
type Reader = (r: Rec) => Entry[]
const entry = (e: OldEntry, rest: Omit<Entry, 'direction' | 'amount' | 'available_at'>): Entry => ({ direction: e.direction, amount: e.amount, available_at: e.available_at, ...rest })

/** Format 1's collections whose records carried entries, in the order format 1 read them. */
const SOURCES: [collection: string, read: Reader][] = [
  [
    'charges',
    (c) =>
      (c.ledger ? [c.ledger, ...list(c.settled_early)] : []).map((e: OldEntry, i: number) =>
        entry(e, { currency: c.currency, source: 'payin', source_reference: c.payment_reference, description: `Payment ${c.payment_reference}${i ? ' settled early' : ''}`, created_at: c.completed_at ?? e.available_at }),
      ),
  ],
  [LEDGER, (f) => [entry(f as OldEntry, { currency: f.currency, source: 'funding', source_reference: f.id, description: 'Balance funded', created_at: f.created_at })]],
  [
    'card_ops',
    (op) =>
      list(op.ledger).map((e) =>
        entry(e, { currency: op.currency, source: 'capture', source_reference: op.transaction_reference, description: `${CAPTURE[e.why ?? ''] ?? 'Capture'} ${op.transaction_reference} of ${op.payment_reference}`, created_at: e.written_at ?? e.available_at }),
      ),
  ],
  [
    'refunds',
    (r) =>
      list(r.ledger).map((e) =>
        entry(e, { currency: r.currency, source: 'refund', source_reference: r.reference, description: e.why === 'returned' ? `Refund ${r.reference} failed: returned` : `Refund ${r.reference} of ${r.payment_reference}`, created_at: e.written_at ?? e.available_at }),
      ),
  ],
  [
    'payouts',
    (p) =>
      list(p.ledger).map((e) =>
        entry(e, { currency: p.currency, source: 'payout', source_reference: p.reference, description: e.direction === 'debit' ? `Payout ${p.reference}` : `Payout ${p.reference} failed: returned`, created_at: e.available_at }),
      ),
  ],
]

/** the fields format 1 kept entries in, dropped from every record of these collections */
const DROPPED: Record<string, string[]> = { charges: ['ledger', 'settled_early'], card_ops: ['ledger', 'settled'], refunds: ['ledger'], payouts: ['ledger'] }

export const LEDGER_CARRY_OVER: Upgrade = {
  to: 2,
  apply(state: Snapshot): void {
    for (const cols of Object.values(state)) carryOver(cols)
  },
}

/** the records of a collection (validate.ts has checked they are objects) */
const records = (cols: Snapshot[string], name: string) => Object.values(cols[name] ?? {}) as Rec[]

function carryOver(cols: Snapshot[string]): void {
  const found: { e: Entry; key: string; at: number; written: number }[] = []
  for (const [collection, read] of SOURCES) {
    for (const record of records(cols, collection)) {
      read(record).forEach((e, n) => found.push({ e, key: entryKey(e.source, e.source_reference, n), at: Date.parse(e.available_at), written: Date.parse(e.created_at) }))
    }
  }
  for (const [collection, fields] of Object.entries(DROPPED)) {
    for (const record of records(cols, collection)) for (const f of fields) delete record[f]
  }
  // format 1's order: a stable sort keeps the order of the sources and records for ties
  found.sort((a, b) => a.at - b.at || a.written - b.written)
  delete cols[LEDGER]
  if (found.length) cols[LEDGER] = Object.fromEntries(found.map(({ key, e }) => [key, e]))
}

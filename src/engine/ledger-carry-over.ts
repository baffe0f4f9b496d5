import type { Snapshot, CarryOver } from '../store/persistence.js'
import { LEDGER, entryKey, type Posting, type Source } from './ledger.js'

/**
 * A data file of format 1 carried over to format 2 (docs/behaviour.md#persistence, docs/behaviour.md#ledger-and-balances). Format 1 kept
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
  direction: Posting['direction']
  amount: number
  available_at: string
  /** a capture's and a refund's: when it was written, and why */
  written_at?: string
  why?: string
}

const list = (v: unknown): OldEntry[] => (Array.isArray(v) ? v : [])

/** A record's entries as format 1 read them, in the order they were written, and what made them. */
type Reader = (r: Rec) => { source: Source; reference: string; entries: Posting[] }
const posting = (e: OldEntry, currency: string, created_at: string, extra: Pick<Posting, 'why' | 'of'> = {}): Posting => ({
  direction: e.direction,
  amount: e.amount,
  currency,
  available_at: e.available_at,
  created_at,
  ...extra,
})

/** Format 1's collections whose records carried entries, in the order format 1 read them. */
const SOURCES: [collection: string, read: Reader][] = [
  [
    'charges',
    (c) => ({
      source: 'payin',
      reference: c.payment_reference,
      entries: (c.ledger ? [c.ledger, ...list(c.settled_early)] : []).map((e: OldEntry, i: number) => posting(e, c.currency, c.completed_at ?? e.available_at, i ? { why: 'settled early' } : {})),
    }),
  ],
  [LEDGER, (f) => ({ source: 'funding', reference: f.id, entries: [posting(f as OldEntry, f.currency, f.created_at)] })],
  [
    'card_ops',
    (op) => ({
      source: 'capture',
      reference: op.transaction_reference,
      entries: list(op.ledger).map((e) => posting(e, op.currency, e.written_at ?? e.available_at, { of: op.payment_reference, ...(e.why === 'settled' || e.why === 'voided' ? { why: e.why } : {}) })),
    }),
  ],
  [
    'refunds',
    (r) => ({
      source: 'refund',
      reference: r.reference,
      entries: list(r.ledger).map((e) => posting(e, r.currency, e.written_at ?? e.available_at, e.why === 'returned' ? { why: 'returned' } : { of: r.payment_reference })),
    }),
  ],
  [
    'payouts',
    (p) => ({
      source: 'payout',
      reference: p.reference,
      entries: list(p.ledger).map((e) => posting(e, p.currency, e.available_at, e.direction === 'credit' ? { why: 'returned' } : {})),
    }),
  ],
]

/** the fields format 1 kept entries in, dropped from every record of these collections */
const DROPPED: Record<string, string[]> = { charges: ['ledger', 'settled_early'], card_ops: ['ledger', 'settled'], refunds: ['ledger'], payouts: ['ledger'] }

export const LEDGER_CARRY_OVER: CarryOver = {
  to: 2,
  apply(state: Snapshot): void {
    for (const cols of Object.values(state)) carryOver(cols)
  },
}

/** the records of a collection (src/store/validate.ts has checked they are objects) */
const records = (cols: Snapshot[string], name: string) => Object.values(cols[name] ?? {}) as Rec[]

function carryOver(cols: Snapshot[string]): void {
  const found: { e: Posting; key: string; at: number; written: number }[] = []
  for (const [collection, read] of SOURCES) {
    for (const record of records(cols, collection)) {
      const { source, reference, entries } = read(record)
      entries.forEach((e, n) => found.push({ e, key: entryKey(source, reference, n), at: Date.parse(e.available_at), written: Date.parse(e.created_at) }))
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

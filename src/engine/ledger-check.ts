import { MSG } from '../messages.js'
import { INTAKE_LIMIT, formatMoney } from '../money.js'
import { ENTRY_PLACE, type HistoryEntry } from './ledger-history.js'

/**
 * The balances a namespace's ledger entries add up to, checked as a whole (docs/behaviour.md#snapshots):
 * read in the history's order (ENTRY_PLACE, then as written) from each currency's opening balance,
 * no balance goes below nothing or past the most a namespace takes in (INTAKE_LIMIT). A namespace
 * the sandbox ran cannot: every debit the merchant asks for is checked against the available
 * balance, a credit taken back is taken back after it, and what comes in is held under the limit.
 * The one exception is a source that overdraws (`LedgerSource.overdraws`: a chargeback, taken
 * whatever the balance): a balance may be below nothing by at most what such entries took.
 * Each entry has passed its own checks (LEDGER_SPEC: direction, minor units, currency, times).
 * Returns the first entry of each currency that takes its balance out, by its path in a snapshot.
 */
export function balanceIssues(entries: Record<string, HistoryEntry>, opening: number, overdraws: (key: string) => boolean = () => false): Record<string, string> {
  const placed = Object.entries(entries).map(([key, e], seq) => ({ key, e, by: ENTRY_PLACE.by(e), then: ENTRY_PLACE.then(e), seq }))
  placed.sort((a, b) => a.by - b.by || a.then - b.then || a.seq - b.seq)
  const running = new Map<string, number>()
  // how far below nothing each currency may be: what overdrawing debits took so far
  const floor = new Map<string, number>()
  const issues: Record<string, string> = {}
  const out = new Set<string>()
  for (const { key, e } of placed) {
    if (out.has(e.currency)) continue
    const balance = (running.get(e.currency) ?? opening) + (e.direction === 'credit' ? e.amount : -e.amount)
    running.set(e.currency, balance)
    if (e.direction === 'debit' && overdraws(key)) floor.set(e.currency, (floor.get(e.currency) ?? 0) - e.amount)
    const problem = balance < (floor.get(e.currency) ?? 0) ? MSG.belowNothing(formatMoney(e.currency, balance)) : balance > INTAKE_LIMIT ? MSG.pastIntake(formatMoney(e.currency, balance), formatMoney(e.currency, INTAKE_LIMIT)) : null
    if (!problem) continue
    issues[`records.ledger.${key}.amount`] = problem
    out.add(e.currency)
  }
  return issues
}

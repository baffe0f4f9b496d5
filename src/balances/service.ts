import { addEntry, ledgerBalances } from '../charges/ledger.js'
import { newTransactionReference } from '../charges/lifecycle.js'
import type { Clocks } from '../clock.js'
import { toMajor } from '../money.js'
import type { Scenarios } from '../scenario/index.js'
import type { Store } from '../store/store.js'

/**
 * The merchant's balances (docs/behaviour.md 13.4), derived from the ledger: what the namespace
 * opened with (the pack's `opening_balance`, available, in each balance currency) plus every
 * entry, pending until its time, available after.
 */

/** the currencies a namespace holds a balance in from the start */
export const BALANCE_CURRENCIES = ['NGN', 'KES', 'GHS', 'USD'] as const
export type BalanceCurrency = (typeof BALANCE_CURRENCIES)[number]

export interface Balance {
  pending_balance: number
  available_balance: number
  issuing_balance?: number
}

export class BalanceService {
  constructor(
    private readonly store: Store,
    private readonly clocks: Clocks,
    private readonly scenarios: Scenarios,
  ) {}

  /** GET /balances: by upper-case currency, major units (USD with its issuing balance, always 0 here). */
  balances(ns: string): Record<string, Balance> {
    const opening = Math.round(this.scenarios.forNs(ns).settings.opening_balance * 100)
    const ledger = ledgerBalances(this.store, ns, this.clocks.now(ns))
    const out: Record<string, Balance> = {}
    for (const currency of [...BALANCE_CURRENCIES, ...Object.keys(ledger).filter((c) => !(BALANCE_CURRENCIES as readonly string[]).includes(c))]) {
      const held = ledger[currency] ?? { pending: 0, available: 0 }
      const opened = (BALANCE_CURRENCIES as readonly string[]).includes(currency) ? opening : 0
      out[currency] = { pending_balance: toMajor(held.pending), available_balance: toMajor(opened + held.available) }
      if (currency === 'USD') out[currency].issuing_balance = 0
    }
    return out
  }

  /** Control: adds `amount` (minor units) to the available balance, as an entry of its own. */
  fund(ns: string, currency: BalanceCurrency, amount: number): Record<string, Balance> {
    addEntry(this.store, ns, newTransactionReference('FUND'), currency, amount, this.clocks.now(ns))
    return this.balances(ns)
  }
}

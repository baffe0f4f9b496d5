import { BALANCE_CURRENCIES, type BalanceCurrency, type Ledger } from '../charges/ledger.js'
import { newTransactionReference } from '../charges/lifecycle.js'
import type { Clocks } from '../clock.js'
import { toMajor } from '../money.js'

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
}

import { isBalanceCurrency } from './lookups.js'

/**
 * What a pack's `conversion_rates` serve (docs/behaviour.md#conversions): `BASE/QUOTE: r` means one
 * BASE buys r QUOTE. Converting BASE to QUOTE multiplies by r; QUOTE to BASE divides by it, unless
 * the table also rates `QUOTE/BASE`, which then serves that way by itself (a buying and a selling
 * rate). Only pairs of balance currencies are served. The table must not let a round of
 * conversions end with more than it started (`gainingRound`), so that, with each converted amount
 * rounded down (src/conversions/rates.ts), no sequence of conversions makes money.
 */

/** how many decimals a conversion rate may have: every rate is a whole number of millionths */
export const RATE_DECIMALS = 6

const SCALE = 10n ** BigInt(RATE_DECIMALS)

/** A rate in millionths, exactly (the pack schema holds a rate to RATE_DECIMALS decimals). */
export const micros = (rate: number): bigint => BigInt(Math.round(rate * Number(SCALE)))

export interface Rate {
  /** the pack's rate, as the quote answers it */
  rate: number
  /** whether converting this way multiplies by the rate (BASE to QUOTE) */
  multiply: boolean
}

/** The rate for converting `from` into `to` under the pack's `conversion_rates`, or null when not served. */
export function rateFor(rates: Record<string, number>, from: string, to: string): Rate | null {
  if (from === to || !isBalanceCurrency(from) || !isBalanceCurrency(to)) return null
  const direct = rates[`${from}/${to}`]
  if (direct !== undefined) return { rate: direct, multiply: true }
  const inverse = rates[`${to}/${from}`]
  if (inverse !== undefined) return { rate: inverse, multiply: false }
  return null
}

/** What one unit of the from-currency buys of the to-currency, as an exact fraction [num, den]. */
export function factorOf({ rate, multiply }: Rate): [bigint, bigint] {
  return multiply ? [micros(rate), SCALE] : [SCALE, micros(rate)]
}

/**
 * A round of conversions, as the currencies it passes (`[USD, KES, NGN, USD]`), that ends with
 * more than it started at the table's own rates, before any rounding; null when there is none.
 * Exact (fractions of big integers): the best a path can buy between every two served currencies,
 * widened one currency at a time (Floyd-Warshall), stopping at the first round that gains. There
 * are ten balance currencies at most, so this costs nothing that matters, once per pack.
 */
export function gainingRound(rates: Record<string, number>): string[] | null {
  const nodes = [...new Set(Object.keys(rates).flatMap((pair) => pair.split('/')))].filter(isBalanceCurrency).sort()
  const n = nodes.length
  // best[i][j]: the most one unit of i buys of j along path[i][j]; null when no path yet
  const best: ([bigint, bigint] | null)[][] = nodes.map((from, i) => nodes.map((to, j) => {
    if (i === j) return [1n, 1n]
    const rate = rateFor(rates, from, to)
    return rate ? factorOf(rate) : null
  }))
  const path: string[][][] = nodes.map((from, i) => nodes.map((to, j) => (i === j ? [from] : [from, to])))
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < n; i++) {
      const ik = best[i][k]
      if (!ik) continue
      for (let j = 0; j < n; j++) {
        const kj = best[k][j]
        if (!kj) continue
        const via: [bigint, bigint] = [ik[0] * kj[0], ik[1] * kj[1]]
        const now = best[i][j]
        if (now && via[0] * now[1] <= now[0] * via[1]) continue
        best[i][j] = via
        path[i][j] = [...path[i][k], ...path[k][j].slice(1)]
        // back where it started with more than one unit: a round that makes money
        if (i === j) return path[i][j]
      }
    }
  }
  return null
}

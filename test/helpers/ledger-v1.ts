import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
// @ts-expect-error: plain JavaScript shared with make.mjs, which runs with the old build
import { readMoney } from '../fixtures/ledger-v1/probes.mjs'

/**
 * The format-1 data file of test/fixtures/ledger-v1 (docs/behaviour.md 0.4, 13.4): what the build
 * that wrote it answered, and what this build reads of the same money, as that build would have.
 */

export const answers = JSON.parse(readFileSync(new URL('../fixtures/ledger-v1/answers.json', import.meta.url), 'utf8'))

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>

/** the currencies that build opened a balance in (NGN, KES, GHS, USD) */
const THEN = Object.keys(answers.before.balances)

/**
 * What this build reads, as that build would have: the currencies opened since (XAF, XOF, TZS,
 * EGP, ZAR, GBP: docs/behaviour.md 13.4) left out, once checked to hold their opening balance and
 * its one history row alone.
 */
export async function readAsThen(call: Call) {
  const money = await readMoney(call)
  const opening = answers.before.history.history.find((h: { source: string }) => h.source === 'opening')
  for (const [currency, balance] of Object.entries(money.balances)) {
    if (THEN.includes(currency)) continue
    expect(balance, currency).toEqual({ pending_balance: 0, available_balance: 5_000_000 })
    const rows = money.history.history.filter((h: { currency: string }) => h.currency === currency)
    expect(rows, currency).toEqual([{ ...opening, pointer: `opening:${currency}:0`, currency }])
  }
  return {
    ...money,
    balances: Object.fromEntries(Object.entries(money.balances).filter(([c]) => THEN.includes(c))),
    history: { ...money.history, history: money.history.history.filter((h: { currency: string }) => THEN.includes(h.currency)) },
  }
}


import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
// @ts-expect-error: plain JavaScript shared with make.mjs, which runs with the old build
import { PROBES, readMoney } from '../fixtures/ledger-v1/probes.mjs'

/**
 * The format-1 data file of test/fixtures/ledger-v1 (docs/behaviour.md#persistence, docs/behaviour.md#ledger-and-balances): what the build
 * that wrote it answered, and what this build reads of the same money, as that build would have.
 */

export const answers = JSON.parse(readFileSync(new URL('../fixtures/ledger-v1/answers.json', import.meta.url), 'utf8'))

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>

/** the currencies that build opened a balance in (NGN, KES, GHS, USD) */
const THEN = Object.keys(answers.before.balances)

/**
 * What this build reads, as that build would have: the currencies opened since (XAF, XOF, TZS,
 * EGP, ZAR, GBP: docs/behaviour.md#ledger-and-balances) left out, once checked to hold their opening balance and
 * its one history row alone; each history row's `date_created` beside `date`, the payouts' amounts as numbers.
 */
export async function readAsThen(call: Call) {
  const read = await readMoney(call)
  // that build wrote each history row's time twice, date_created beside date; this one writes date (docs/behaviour.md#ledger-and-balances)
  const money = { ...read, history: { ...read.history, history: read.history.history.map((h: { date: string }) => ({ ...h, date_created: h.date })) } }
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
    // the payouts list writes amounts as strings since (the collection's list sample, docs/behaviour.md#payouts); that build wrote numbers
    payouts: money.payouts.map((p: { amount: string; fee: string }) => ({ ...p, amount: Number(p.amount), fee: Number(p.fee) })),
  }
}


/**
 * What that build answered the probes, as this one answers them: a payout the balance does not
 * cover is refused with 409 since, as the service's samples show, and a payout taken says the live
 * test environment's `Transfer initiated successfully.` (docs/behaviour.md#payouts): the same
 * refusals and debits, nothing else recorded.
 */
export const probesNow = answers.probes.map((a: { status: number; message: string }, i: number) =>
  PROBES[i][2]?.reference === 'p-payout-over' ? { ...a, status: 409 } : a.message === 'transfer initiated successfully' ? { ...a, message: 'Transfer initiated successfully.' } : a)

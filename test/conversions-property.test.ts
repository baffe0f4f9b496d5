import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gainingRound } from '../src/scenario/rates.js'
import { makeSandbox, ref, type TestSandbox, fieldMessages } from './helpers/sandbox.js'

/**
 * Conversions never make money (docs/behaviour.md#conversions). Rate tables are drawn at random: the
 * default's USD star, more currencies hung from it (XAF and XOF, whole francs, among them) one
 * way at any rate, and pairs rated both ways at or under what the rest sets (a spread), sometimes
 * pushed up. The pack schema takes a table exactly when no round of conversions gains at its
 * rates, as found here by listing every round (not the sandbox's own search). Under a table it
 * takes, random sequences of conversions, round trips and payouts (which may fail and come back,
 * be completed twice, or wait for the clock) run through the HTTP API, and after each step:
 * - the balances' worth at the table's prices (a price per currency under which no served rate
 *   buys more than it costs) is at most what it was at the start: nothing was made;
 * - no balance is above its start while none is below it;
 * - a round trip A -> B -> A leaves B as it was and A at most where it was.
 */

const M = '/merchant/api/v1'
const C = `${M}/conversions`
const MICRO = 1_000_000n
const DEFAULT_RATES: Record<string, number> = { 'USD/NGN': 1440, 'USD/KES': 129, 'USD/GHS': 15.5 }
const HUNG = ['XAF', 'XOF', 'ZAR', 'EGP', 'TZS', 'GBP']

/** an exact positive fraction [numerator, denominator] */
type Frac = [bigint, bigint]
const mul = (a: Frac, b: Frac): Frac => [a[0] * b[0], a[1] * b[1]]
const gt = (a: Frac, b: Frac) => a[0] * b[1] > b[0] * a[1]
const microsOf = (rate: number) => BigInt(Math.round(rate * 1e6))
const rateOf = (micros: bigint) => Number(micros) / 1e6

/** what one unit of `from` buys of `to` under the table, as the docs say it serves (independently of the sandbox's code) */
function served(table: Record<string, number>, from: string, to: string): Frac | null {
  if (table[`${from}/${to}`] !== undefined) return [microsOf(table[`${from}/${to}`]), MICRO]
  if (table[`${to}/${from}`] !== undefined) return [MICRO, microsOf(table[`${to}/${from}`])]
  return null
}

const currenciesOf = (table: Record<string, number>) => [...new Set(Object.keys(table).flatMap((p) => p.split('/')))].sort()

/** Whether some round of conversions gains at the table's rates: every simple round listed, from its smallest currency. */
function gains(table: Record<string, number>): boolean {
  const nodes = currenciesOf(table)
  const walk = (start: number, at: number, worth: Frac, seen: Set<number>): boolean => {
    for (let next = start; next < nodes.length; next++) {
      const step = served(table, nodes[at], nodes[next])
      if (!step) continue
      const now = mul(worth, step)
      if (next === start) {
        if (gt(now, [1n, 1n])) return true
      } else if (!seen.has(next) && walk(start, next, now, new Set(seen).add(next))) return true
    }
    return false
  }
  return nodes.some((_, s) => walk(s, s, [1n, 1n], new Set([s])))
}

interface Drawn {
  /** what the pack adds to the default's rates */
  pack: Record<string, number>
  /** each currency's worth in USD under the table (only when nothing was pushed up) */
  price: Record<string, Frac>
  pushed: boolean
}

/** A rate table: currencies hung from the star one way, pairs rated both ways at or under their price ratio less a spread, maybe one pushed up. */
const tables = (push: boolean): fc.Arbitrary<Drawn> =>
  fc
    .record({
      hung: fc.subarray(HUNG, { maxLength: 4 }).chain((cs) =>
        fc.tuple(...cs.map((c) => fc.record({ c: fc.constant(c), to: fc.nat(), flip: fc.boolean(), micros: fc.oneof(fc.integer({ min: 1_000, max: 2_000_000_000 }), fc.integer({ min: 1, max: 1_000_000_000_000 })) }))),
      ),
      both: fc.array(fc.record({ a: fc.nat(), b: fc.nat(), spread: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50_000 })), back: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50_000 })) }), { maxLength: 4 }),
      bump: push ? fc.option(fc.record({ pick: fc.nat(), micros: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 1_000_000 })) }), { nil: undefined }) : fc.constant(undefined),
    })
    .map(({ hung, both, bump }) => {
      const pack: Record<string, number> = {}
      const price: Record<string, Frac> = { USD: [1n, 1n], NGN: [1n, 1440n], KES: [1n, 129n], GHS: [10n, 155n] }
      for (const { c, to, flip, micros } of hung) {
        const from = Object.keys(price)[to % Object.keys(price).length]
        const m = BigInt(micros)
        // `from/c: r`: one `from` buys r of c, so c is worth from's / r; `c/from: r`: r times from's
        if (flip) [pack[`${c}/${from}`], price[c]] = [rateOf(m), mul(price[from], [m, MICRO])]
        else [pack[`${from}/${c}`], price[c]] = [rateOf(m), mul(price[from], [MICRO, m])]
      }
      const held = Object.keys(price)
      const twoWay: string[] = []
      for (const { a, b, spread, back } of both) {
        const [x, y] = [held[a % held.length], held[b % held.length]]
        if (x === y || served({ ...DEFAULT_RATES, ...pack }, x, y)) continue
        // at most the price ratio, less a spread of parts per million, in whole millionths
        const under = (p: string, q: string, off: number) => (price[p][0] * price[q][1] * MICRO * (MICRO - BigInt(off))) / (price[p][1] * price[q][0] * MICRO)
        const [there, again] = [under(x, y, spread), under(y, x, back)]
        if (there < 1n || again < 1n || there > 1_000_000_000_000n || again > 1_000_000_000_000n) continue
        pack[`${x}/${y}`] = rateOf(there)
        pack[`${y}/${x}`] = rateOf(again)
        twoWay.push(`${x}/${y}`, `${y}/${x}`)
      }
      if (bump && twoWay.length) {
        const pair = twoWay[bump.pick % twoWay.length]
        const m = microsOf(pack[pair]) + BigInt(bump.micros)
        if (m <= 1_000_000_000_000n) pack[pair] = rateOf(m)
      }
      return { pack, price, pushed: bump !== undefined }
    })

let sb: TestSandbox
beforeAll(async () => {
  sb = await makeSandbox({ frozen: true })
})
afterAll(() => sb.close())

const minor = (major: number) => Math.round(major * 100)

async function balances(): Promise<Record<string, number>> {
  const data = (await sb.call('GET', `${M}/balances`)).body.data
  return Object.fromEntries(Object.entries(data).map(([c, b]: [string, any]) => [c, minor(b.available_balance) + minor(b.pending_balance)]))
}

/** the balances' worth in USD minor units under the prices, exactly */
function worth(held: Record<string, number>, price: Record<string, Frac>): Frac {
  let sum: Frac = [0n, 1n]
  for (const [c, p] of Object.entries(price)) sum = [sum[0] * p[1] + BigInt(held[c]) * p[0] * sum[1], sum[1] * p[1]]
  return sum
}

async function call(method: string, path: string, body?: unknown) {
  const res = await sb.call(method, path, body)
  expect(res.status, `${method} ${path} ${JSON.stringify(body)} ${JSON.stringify(res.body)}`).toBeLessThan(500)
  return res
}

/** Quotes and converts; the minor units received, or null when refused. */
async function convert(from: string, to: string, amountMinor: number): Promise<number | null> {
  const q = await call('POST', `${C}/rates`, { from_currency: from, to_currency: to, amount: amountMinor / 100 })
  if (q.status !== 200) return null
  const res = await call('POST', `${C}/`, { rate_reference: q.body.data.reference, amount: q.body.data.from_amount, from_currency: from, to_currency: to })
  return res.status === 200 ? minor(Number(res.body.data.converted_amount)) : null
}

const whole = (c: string, amount: number) => (c === 'XAF' || c === 'XOF' ? Math.floor(amount / 100) * 100 : amount)

type Step =
  | { op: 'convert' | 'round trip'; pair: number; there: boolean; small: number; share: number }
  | { op: 'payout'; amount: number; to: number }
  | { op: 'complete'; pick: number; outcome: 'success' | 'failed' }
  | { op: 'clock'; seconds: number }

const steps: fc.Arbitrary<Step[]> = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constantFrom('convert' as const, 'round trip' as const), pair: fc.nat(), there: fc.boolean(), small: fc.integer({ min: 1, max: 200_000 }), share: fc.integer({ min: 0, max: 1_000_000 }) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('payout' as const), amount: fc.integer({ min: 100_000, max: 100_000_000 }), to: fc.nat(2) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('complete' as const), pick: fc.nat(), outcome: fc.constantFrom('success' as const, 'failed' as const) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('clock' as const), seconds: fc.integer({ min: 1, max: 7_200 }) }) },
  ),
  { minLength: 1, maxLength: 25 },
)

const PAYEES = [['033', '0000000000'], ['035', '0000000000'], ['033', '1111111111']]
const seen = { conversions: 0, roundTrips: 0, refusedTables: 0, payoutsBack: 0 }

describe('conversions never make money (docs/behaviour.md#conversions)', () => {
  it('the pack schema takes a rate table exactly when no round of conversions gains at its rates', async () => {
    await fc.assert(
      fc.asyncProperty(tables(true), async ({ pack }) => {
        await call('DELETE', '/_sandbox/scenarios')
        const table = { ...DEFAULT_RATES, ...pack }
        const res = await call('POST', '/_sandbox/scenarios', { settings: { conversion_rates: pack } })
        // the pack is checked alone, then merged with the default's rates
        const round = gainingRound(pack) ?? gainingRound(table)
        expect(round !== null, JSON.stringify(table)).toBe(gains(pack) || gains(table))
        expect(res.status, JSON.stringify(table)).toBe(round ? 422 : 200)
        if (round) {
          seen.refusedTables++
          expect(res.body.data).toEqual(fieldMessages({ 'settings.conversion_rates': `must not let a round of conversions end with more than it started: ${round.join(' -> ')}` }))
          // the round named does gain
          const gaining = (t: Record<string, number>) => gt(round.slice(1).reduce<Frac>((w, c, i) => mul(w, served(t, round[i], c) ?? [0n, 1n]), [1n, 1n]), [1n, 1n])
          expect(gaining(pack) || gaining(table)).toBe(true)
        }
      }),
      { numRuns: Number(process.env.CONVERSION_RUNS ?? 300), seed: Number(process.env.CONVERSION_SEED ?? 47) },
    )
    expect(seen.refusedTables).toBeGreaterThan(0)
  })

  it('no sequence of conversions, round trips and payouts makes money', async () => {
    await fc.assert(
      fc.asyncProperty(tables(false), steps, async ({ pack, price }, todo) => {
        await call('POST', '/_sandbox/reset')
        expect((await call('POST', '/_sandbox/scenarios', { settings: { conversion_rates: pack } })).status).toBe(200)
        const table = { ...DEFAULT_RATES, ...pack }
        // every served pair, each way
        const pairs = currenciesOf(table).flatMap((a) => currenciesOf(table).filter((b) => b !== a && served(table, a, b)).map((b) => [a, b]))
        const start = await balances()
        const startWorth = worth(start, price)
        const payouts: string[] = []
        for (const step of todo) {
          if (step.op === 'convert' || step.op === 'round trip') {
            const [a, b] = pairs[step.pair % pairs.length]
            const [from, to] = step.there ? [a, b] : [b, a]
            const before = await balances()
            const amount = whole(from, Math.min(before[from], step.share ? Math.floor((before[from] * step.share) / 1_000_000) : step.small))
            if (amount < 1) continue
            const got = await convert(from, to, amount)
            if (got !== null) seen.conversions++
            if (step.op === 'round trip' && got !== null) {
              const middle = await balances()
              const back = await convert(to, from, whole(to, got))
              const after = await balances()
              if (back !== null) seen.roundTrips++
              // what came into `to` went back (or not: then it stays), and `from` gained nothing
              expect(after[from], `${from} -> ${to} -> ${from}`).toBeLessThanOrEqual(before[from])
              expect(after[to]).toBe(back === null ? middle[to] : middle[to] - whole(to, got))
            }
          } else if (step.op === 'payout') {
            const [bank, account] = PAYEES[step.to]
            const reference = ref('po')
            const res = await call('POST', `${M}/transactions/disburse`, { reference, destination: { type: 'bank_account', amount: step.amount / 100, currency: 'NGN', bank_account: { bank, account }, customer: { email: 'a@b.co' } } })
            if (res.status === 200) payouts.push(reference)
          } else if (step.op === 'complete') {
            // a payout completed again (or after its timer) must be refused, not paid back twice
            if (payouts.length) {
              const res = await call('POST', `/_sandbox/payouts/${payouts[step.pick % payouts.length]}/complete`, { outcome: step.outcome })
              if (res.status === 200 && step.outcome === 'failed') seen.payoutsBack++
            }
          } else {
            await call('POST', '/_sandbox/clock/advance', { seconds: step.seconds })
          }
          const now = await balances()
          expect(gt(worth(now, price), startWorth), `worth grew after ${JSON.stringify(step)}: ${JSON.stringify(now)}`).toBe(false)
          const up = Object.keys(start).filter((c) => now[c] > start[c])
          const down = Object.keys(start).filter((c) => now[c] < start[c])
          expect(up.length > 0 && down.length === 0, `${up.join(', ')} above the start, nothing below`).toBe(false)
        }
      }),
      { numRuns: Number(process.env.CONVERSION_RUNS ?? 60), seed: Number(process.env.CONVERSION_SEED ?? 47) },
    )
    expect(seen.conversions).toBeGreaterThan(50)
    expect(seen.roundTrips).toBeGreaterThan(10)
  })
})

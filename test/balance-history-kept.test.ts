import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BALANCE_CURRENCIES } from '../src/engine/ledger.js'
import { SECRET, cardPayload, sandboxPerTest, type TestSandbox } from './helpers/sandbox.js'

/**
 * The balance history's rows are kept between calls and extended as the clock passes entries
 * (src/engine/ledger-history.ts, docs/behaviour.md#ledger-and-balances): whatever happens between two reads
 * (pay-ins, fundings, a pay-in settled early, the clock moved, the opening balance changed, a
 * reset), the history read page by page is what reading every entry afresh gives: the entries
 * available now, in the order they became available (then written, then as written), each with its
 * currency's running balance.
 */

const sandbox = sandboxPerTest()

interface Row {
  pointer: string
  amount: string
  currency: string
  balance_before: string
  balance_after: string
  direction: string
  source_reference: string
}

/** Every item of the history, newest first, read a page at a time. */
async function readAll(sb: TestSandbox): Promise<Row[]> {
  const out: Row[] = []
  let after: string | undefined
  for (;;) {
    const res = await sb.call('GET', `/merchant/api/v1/balances/history?limit=7${after ? `&starting_after=${encodeURIComponent(after)}` : ''}`)
    expect(res.status).toBe(200)
    out.push(...res.body.data.history)
    if (!res.body.data.has_more) return out
    after = out[out.length - 1].pointer
  }
}

/** The history as reading every entry afresh gives it (amounts, currencies, running balances). */
function afresh(sb: TestSandbox): Pick<Row, 'amount' | 'currency' | 'balance_after' | 'direction'>[] {
  const now = sb.deps.clocks.now(SECRET)
  const opening = Math.round(sb.deps.scenarios.forNs(SECRET).settings.opening_balance * 100)
  const entries = [...sb.deps.store.col<{ direction: string; amount: number; currency: string; available_at: string; created_at: string }>(SECRET, 'ledger').values()]
    .map((e, i) => ({ e, i, at: Date.parse(e.available_at), made: Date.parse(e.created_at) }))
    .filter((x) => x.at <= now)
    .sort((a, b) => a.at - b.at || a.made - b.made || a.i - b.i)
    .map((x) => x.e)
  const running = new Map<string, number>()
  const rows = [...(opening > 0 ? BALANCE_CURRENCIES.map((currency) => ({ direction: 'credit', amount: opening, currency })) : []), ...entries].map((e) => {
    const after = (running.get(e.currency) ?? 0) + (e.direction === 'credit' ? e.amount : -e.amount)
    running.set(e.currency, after)
    return { amount: (e.amount / 100).toFixed(2), currency: e.currency, balance_after: (after / 100).toFixed(2), direction: e.direction }
  })
  return rows.reverse()
}

const step = fc.oneof(
  fc.record({ charge: fc.integer({ min: 100, max: 5000 }) }),
  fc.record({ fund: fc.integer({ min: 1, max: 100_000 }) }),
  fc.record({ advanceHours: fc.integer({ min: 0, max: 30 }) }),
  fc.record({ settleEarly: fc.nat() }),
  fc.record({ opening: fc.constantFrom(0, 1000, 5_000_000) }),
  fc.constant({ read: true as const }),
  fc.constant({ reset: true as const }),
)

describe('the balance history kept between calls (docs/behaviour.md#ledger-and-balances)', () => {
  it('reads as the entries read afresh, whatever happened between two reads (property)', async () => {
    const sb = await sandbox()
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        // a frozen clock: entries of the same millisecond, told apart by when they were written
        const fresh = async () => {
          expect((await sb.call('POST', '/_sandbox/reset')).status).toBe(200)
          expect((await sb.call('POST', '/_sandbox/clock/freeze', { frozen: true })).status).toBe(200)
        }
        await fresh()
        const charged: string[] = []
        for (const s of steps) {
          if ('charge' in s) {
            const res = await sb.charge(cardPayload('4084127883172787', { amount: s.charge }))
            charged.push(res.body.data.transaction_reference)
          } else if ('fund' in s) await sb.call('POST', '/_sandbox/balances/fund', { currency: 'NGN', amount: s.fund })
          else if ('advanceHours' in s) await sb.call('POST', '/_sandbox/clock/advance', { seconds: s.advanceHours * 3600 })
          else if ('settleEarly' in s) {
            if (charged.length) await sb.call('POST', `/_sandbox/captures/${charged[s.settleEarly % charged.length]}/settle`)
          } else if ('opening' in s) await sb.call('POST', '/_sandbox/scenarios', { settings: { opening_balance: s.opening } })
          else if ('reset' in s) {
            await fresh()
            charged.length = 0
          } else await readAll(sb)
        }
        const read = await readAll(sb)
        expect(read.map(({ amount, currency, balance_after, direction }) => ({ amount, currency, balance_after, direction }))).toEqual(afresh(sb))
        // every pointer is its own
        expect(new Set(read.map((r) => r.pointer)).size).toBe(read.length)
      }),
      {
        numRuns: 60,
        // a pay-in settled early after a later funding was read: its credit lands before the newest row
        examples: [[[{ charge: 1000 }, { advanceHours: 1 }, { fund: 10 }, { read: true }, { settleEarly: 0 }]]],
      },
    )
  }, 120_000)
})

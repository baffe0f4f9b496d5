import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SECRET, cardPayload, ref, type TestSandbox } from './helpers/sandbox.js'
import { assertOverSandboxes } from './helpers/property.js'

/**
 * Refunds keep the ledger exact (docs/behaviour.md#ledger-and-balances, docs/behaviour.md#refunds): whatever sequence of pay-ins,
 * clock moves, refunds of both endpoints, outcomes and control calls runs, every balance is its
 * entries' sum, the available balance never goes below zero (a namespace that opens with little),
 * and no pay-in is ever refunded above what it collected, failed refunds counting as nothing.
 */

type Op =
  | { kind: 'payin'; card: boolean; amount: number }
  | { kind: 'advance'; seconds: number }
  | { kind: 'refund'; payin: number; amount: number | null; fail: boolean }
  | { kind: 'card_refund'; payin: number; amount: number }
  | { kind: 'complete'; refund: number; fail: boolean }

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('payin' as const), card: fc.boolean(), amount: fc.integer({ min: 100, max: 5000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.constantFrom(30, 60, 120, 86_400) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('refund' as const), payin: fc.nat(), amount: fc.option(fc.integer({ min: 50, max: 3000 }), { nil: null }), fail: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('card_refund' as const), payin: fc.nat(), amount: fc.integer({ min: 1, max: 3000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('complete' as const), refund: fc.nat(), fail: fc.boolean() }) },
)

/** refunds accepted and failed over all runs: the property must have exercised them */
const seen = { accepted: 0, failed: 0 }

async function run(sb: TestSandbox, ops: Op[]): Promise<void> {
  const payins: { reference: string; tx: string; amount: number; card: boolean }[] = []
  const refunds: string[] = []
  for (const o of ops) {
    if (o.kind === 'payin') {
      if (o.card) {
        const p = cardPayload('4084127883172787', { amount: o.amount })
        const res = await sb.charge(p)
        payins.push({ reference: p.reference as string, tx: res.body.data.transaction_reference, amount: o.amount * 100, card: true })
      } else {
        const reference = ref('bt')
        const res = await sb.call('POST', '/merchant/api/v1/charges/bank-transfer', { reference, amount: o.amount, currency: 'NGN', merchant_bears_cost: true, customer: { email: 'a@b.co' } })
        payins.push({ reference, tx: res.body.data.transaction_reference, amount: o.amount * 100, card: false })
      }
    } else if (o.kind === 'advance') {
      await sb.call('POST', '/_sandbox/clock/advance', { seconds: o.seconds })
    } else if (o.kind === 'refund' && payins.length) {
      const p = payins[o.payin % payins.length]
      const reference = ref('rf')
      const res = await sb.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: p.reference, reference, ...(o.amount === null ? {} : { amount: o.amount }), ...(o.fail ? { completion_status: 'failed' } : {}) })
      expect(res.status, JSON.stringify(res.body)).not.toBe(500)
      if (res.status === 200) {
        refunds.push(reference)
        seen.accepted++
        if (o.fail) seen.failed++
      }
    } else if (o.kind === 'card_refund') {
      const cards = payins.filter((p) => p.card)
      if (!cards.length) continue
      const p = cards[o.payin % cards.length]
      const tx = ref('crf')
      const res = await sb.call('POST', '/merchant/api/v1/charges/card/refund', { amount: o.amount, currency: 'NGN', payment_reference: p.reference, transaction_reference: tx, target_transaction_reference: p.tx })
      expect(res.status).not.toBe(500)
      if (res.status === 200) refunds.push(tx)
    } else if (o.kind === 'complete' && refunds.length) {
      const res = await sb.call('POST', `/_sandbox/refunds/${refunds[o.refund % refunds.length]}/complete`, { outcome: o.fail ? 'failed' : 'success' })
      expect([200, 409]).toContain(res.status)
      if (res.status === 200 && o.fail) seen.failed++
    }
    await check(sb, payins)
  }
}

async function check(sb: TestSandbox, payins: { reference: string; amount: number }[]): Promise<void> {
  const now = sb.deps.clocks.now(SECRET)
  const balances = sb.deps.ledger.balances(SECRET, now)
  const rows = sb.deps.ledger.history(SECRET, now)
  const entries = Array.from({ length: rows.size }, (_, i) => sb.deps.ledger.entryOf(SECRET, rows.itemAt(i))).filter((e) => e.currency === 'NGN')
  const sum = entries.reduce((s, e) => s + (e.direction === 'credit' ? e.amount : -e.amount), 0)
  expect(balances.NGN.available).toBe(sum)
  expect(balances.NGN.available).toBeGreaterThanOrEqual(0)
  const all = sb.deps.refunds.all(SECRET)
  for (const p of payins) {
    const refunded = all.filter((r) => r.payment_reference === p.reference && r.status !== 'failed').reduce((s, r) => s + r.amount, 0)
    expect(refunded).toBeLessThanOrEqual(p.amount)
    const charge = sb.deps.store.col<{ refunded?: number }>(SECRET, 'charges').findBy('payment_reference', p.reference)
    expect(charge?.refunded ?? 0).toBe(refunded)
  }
}

describe('refunds on the ledger: a property', () => {
  it('balances are their entries, never below zero, and no pay-in is refunded above what it collected', async () => {
    await assertOverSandboxes(
      op,
      async (sb, ops) => {
        await sb.call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 3000 } })
        await run(sb, ops)
      },
      { numRuns: 40, seed: 28 },
    )
    expect(seen.accepted).toBeGreaterThan(20)
    expect(seen.failed).toBeGreaterThan(5)
  }, 120_000)
})

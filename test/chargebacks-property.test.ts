import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, ref, type TestSandbox } from './helpers/sandbox.js'
import { assertOverSandboxes } from './helpers/property.js'

/**
 * A chargeback and its refunds never together return more than was paid (docs/behaviour.md#chargebacks):
 * over any order of pay-ins, clock moves, refunds of both endpoints and their outcomes, chargebacks
 * opened, answered and decided, every balance is its entries' sum, each chargeback's debits are
 * exactly what it says it debited (at most its amount), and what a pay-in returned (refunds not
 * failed, chargebacks' holds and debits) never exceeds what it collected, as its charge counts it.
 * Pre-authorizations too: what they collected is what their live captures took, which captures and
 * voids change as they go.
 */

type Op =
  | { kind: 'payin'; amount: number }
  | { kind: 'preauth'; amount: number }
  | { kind: 'capture'; payin: number; amount: number }
  | { kind: 'void'; payin: number; capture: number | null }
  | { kind: 'advance'; seconds: number }
  | { kind: 'refund'; payin: number; amount: number | null; fail: boolean }
  | { kind: 'card_refund'; payin: number; amount: number }
  | { kind: 'open'; payin: number; amount: number | null }
  | { kind: 'answer'; cb: number; status: 'accepted' | 'declined' | 'partial'; amount: number }
  | { kind: 'decide'; cb: number; outcome: 'won' | 'lost' }

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('payin' as const), amount: fc.integer({ min: 100, max: 5000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('preauth' as const), amount: fc.integer({ min: 100, max: 5000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('capture' as const), payin: fc.nat(), amount: fc.integer({ min: 1, max: 3000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('void' as const), payin: fc.nat(), capture: fc.option(fc.nat(), { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.constantFrom(60, 3600, 86_400, 200_000) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('refund' as const), payin: fc.nat(), amount: fc.option(fc.integer({ min: 100, max: 3000 }), { nil: null }), fail: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('card_refund' as const), payin: fc.nat(), amount: fc.integer({ min: 1, max: 3000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('open' as const), payin: fc.nat(), amount: fc.option(fc.integer({ min: 1, max: 3000 }), { nil: null }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('answer' as const), cb: fc.nat(), status: fc.constantFrom('accepted' as const, 'declined' as const, 'partial' as const), amount: fc.integer({ min: 1, max: 2000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('decide' as const), cb: fc.nat(), outcome: fc.constantFrom('won' as const, 'lost' as const) }) },
)

const seen = { opened: 0, debited: 0, refunds: 0, heldOpened: 0 }

interface Paid {
  reference: string
  tx: string
  /** a plain pay-in's amount, minor units (a pre-authorization's is what its live captures took) */
  amount: number
  /** a pre-authorization's captures, oldest first */
  captures?: string[]
}
const M = '/merchant/api/v1/charges/card'

async function run(sb: TestSandbox, ops: Op[]): Promise<void> {
  const payins: Paid[] = []
  const holds = () => payins.filter((p) => p.captures)
  const chargebacks: string[] = []
  for (const o of ops) {
    let res: { status: number; body: any } | undefined
    if (o.kind === 'payin') {
      const p = cardPayload('4084127883172787', { amount: o.amount })
      res = await sb.charge(p)
      payins.push({ reference: p.reference as string, tx: res.body.data.transaction_reference, amount: o.amount * 100 })
    } else if (o.kind === 'preauth') {
      res = await sb.call('POST', `${M}/pre-authorize`, { charge_data: encryptChargeData(cardPayload('4084127883172787', { amount: o.amount }), ENC_KEY) })
      payins.push({ reference: res.body.data.payment_reference, tx: res.body.data.transaction_reference, amount: 0, captures: [] })
    } else if (o.kind === 'capture' || o.kind === 'void') {
      const h = holds()[o.payin % Math.max(1, holds().length)]
      if (!h) continue
      if (o.kind === 'capture') {
        const tx = ref('cap')
        res = await sb.call('POST', `${M}/capture`, { amount: o.amount, currency: 'NGN', payment_reference: h.reference, transaction_reference: tx })
        if (res.status === 200) h.captures!.push(tx)
      } else {
        const target = o.capture === null || !h.captures!.length ? h.tx : h.captures![o.capture % h.captures!.length]
        res = await sb.call('POST', `${M}/void`, { payment_reference: h.reference, transaction_reference: ref('void'), target_transaction_reference: target })
      }
    } else if (o.kind === 'advance') {
      res = await sb.call('POST', '/_sandbox/clock/advance', { seconds: o.seconds })
    } else if (!payins.length) {
      continue
    } else if (o.kind === 'refund') {
      const p = payins[o.payin % payins.length]
      res = await sb.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: p.reference, reference: ref('rf'), ...(o.amount === null ? {} : { amount: o.amount }), ...(o.fail ? { completion_status: 'failed' } : {}) })
      if (res.status === 200) seen.refunds++
    } else if (o.kind === 'card_refund') {
      const p = payins[o.payin % payins.length]
      const target = p.captures?.length ? p.captures[o.amount % p.captures.length] : p.tx
      res = await sb.call('POST', `${M}/refund`, { amount: o.amount, currency: 'NGN', payment_reference: p.reference, transaction_reference: ref('crf'), target_transaction_reference: target })
      if (res.status === 200) seen.refunds++
    } else if (o.kind === 'open') {
      const p = payins[o.payin % payins.length]
      res = await sb.call('POST', `/_sandbox/charges/${p.reference}/chargeback`, o.amount === null ? undefined : { amount: o.amount })
      if (res.status === 200) {
        chargebacks.push(res.body.data.reference)
        seen.opened++
        if (p.captures) seen.heldOpened++
      }
    } else if (o.kind === 'answer' && chargebacks.length) {
      const body = o.status === 'accepted' ? { status: o.status } : { status: o.status, evidence: 'e', reason: 'r', ...(o.status === 'partial' ? { amount: o.amount } : {}) }
      res = await sb.call('PATCH', `/api/v1/chargebacks/${chargebacks[o.cb % chargebacks.length]}`, body)
    } else if (o.kind === 'decide' && chargebacks.length) {
      res = await sb.call('POST', `/_sandbox/chargebacks/${chargebacks[o.cb % chargebacks.length]}/decide`, { outcome: o.outcome })
    }
    if (res) expect(res.status, JSON.stringify(res.body)).toBeLessThan(500)
    check(sb, payins)
  }
}

function check(sb: TestSandbox, payins: Paid[]): void {
  const now = sb.deps.clocks.now(SECRET)
  const balances = sb.deps.ledger.balances(SECRET, now)
  const rows = sb.deps.ledger.history(SECRET, now)
  const entries = Array.from({ length: rows.size }, (_, i) => sb.deps.ledger.entryOf(SECRET, rows.itemAt(i))).filter((e) => e.currency === 'NGN')
  expect(balances.NGN.available).toBe(entries.reduce((s, e) => s + (e.direction === 'credit' ? e.amount : -e.amount), 0))
  const refunds = sb.deps.refunds.all(SECRET)
  const cbs = [...sb.deps.store.col<any>(SECRET, 'chargebacks').values()]
  for (const cb of cbs) {
    const debits = sb.deps.ledger.of(SECRET, 'chargeback', cb.reference).reduce((s, e) => s + e.amount, 0)
    expect(debits).toBe(cb.debited)
    expect(cb.debited).toBeLessThanOrEqual(cb.amount)
    if (cb.debited) seen.debited++
  }
  for (const p of payins) {
    const refunded = refunds.filter((r) => r.payment_reference === p.reference && r.status !== 'failed').reduce((s, r) => s + r.amount, 0)
    // a chargeback holds its amount until won, then only what it debited
    const held = cbs.filter((c) => c.payment_reference === p.reference).reduce((s, c) => s + (c.status === 'won' ? c.debited : c.amount), 0)
    const charge = sb.deps.store.col<{ refunded?: number; charged_back?: number; preauth?: { captured: number; refunded: number } }>(SECRET, 'charges').findBy('payment_reference', p.reference)
    if (p.captures) {
      // what the live captures took, as the capture records say
      const ops = sb.deps.store.col<{ amount: number; voided?: boolean }>(SECRET, 'card_ops')
      const captured = p.captures.map((c) => ops.get(c)!).filter((c) => !c.voided).reduce((s, c) => s + c.amount, 0)
      expect(charge?.preauth?.captured ?? 0).toBe(captured)
      expect(refunded + held).toBeLessThanOrEqual(captured)
      expect(charge?.preauth?.refunded ?? 0).toBe(refunded)
    } else {
      expect(refunded + held).toBeLessThanOrEqual(p.amount)
      expect(charge?.refunded ?? 0).toBe(refunded)
    }
    expect(charge?.charged_back ?? 0).toBe(held)
  }
}

describe('chargebacks and refunds on one ledger: a property', () => {
  it('balances are their entries, each chargeback debits what it says once, and no pay-in returns more than it collected', async () => {
    await assertOverSandboxes(op, run, { numRuns: 40, seed: 49 })
    expect(seen.opened).toBeGreaterThan(20)
    expect(seen.debited).toBeGreaterThan(20)
    expect(seen.refunds).toBeGreaterThan(10)
    expect(seen.heldOpened).toBeGreaterThan(3)
  }, 120_000)
})

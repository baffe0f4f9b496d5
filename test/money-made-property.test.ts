import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { LEDGER, type Posting } from '../src/engine/ledger.js'
import { CHARGES } from '../src/engine/types.js'
import { PAYOUTS, fundedIn } from '../src/payouts/service.js'
import { SECRET, cardPayload, makeSandbox, ref, type TestSandbox } from './helpers/sandbox.js'

/**
 * No sequence of calls makes money (docs/behaviour.md#ledger-and-balances, docs/behaviour.md#conversions): random pay-ins (cards, bank
 * transfers paid short, exact or over, pay with bank decided on its page or by the control call),
 * refunds (whole, partial, failing), payouts (succeeding, failing, waiting; to banks and to stablecoin
 * wallets, paid from the USD balance), each completed again
 * and again, conversions between NGN and USD and clock moves, through the API. After each call:
 * - a refund's entries and a payout's net to at most nothing (a failure gives back what was taken, once);
 * - a charge is credited at most once, and only once it succeeded;
 * - what a pay-in's refunds returned is at most what the customer paid, and only of a success;
 * - valued at the rate (USD at 1,440 NGN), every entry but pay-ins' and fundings' nets to at most nothing.
 */

const M = '/merchant/api/v1'
const NS = SECRET
let sb: TestSandbox
beforeAll(async () => {
  sb = await makeSandbox({ frozen: true })
})
afterAll(() => sb.close())

interface Run { payins: string[]; txs: string[]; refunds: string[]; payouts: string[]; transfers: string[] }

const refund = fc.record({ op: fc.constant('refund' as const), pick: fc.nat(), amount: fc.option(fc.integer({ min: 1, max: 60_000 }), { nil: undefined }), completion_status: fc.constantFrom(undefined, 'success', 'failed') })
const completeRefund = fc.record({ op: fc.constant('complete refund' as const), pick: fc.nat(), outcome: fc.constantFrom('success', 'failed') })
const ops = fc.oneof(
  fc.record({ op: fc.constant('card' as const), amount: fc.integer({ min: 100, max: 50_000 }) }),
  fc.record({ op: fc.constant('pay with bank' as const), amount: fc.integer({ min: 200, max: 50_000 }), bears: fc.boolean() }),
  fc.record({ op: fc.constant('bank transfer' as const), amount: fc.integer({ min: 100, max: 50_000 }), bears: fc.boolean() }),
  fc.record({ op: fc.constant('transfer in' as const), pick: fc.nat(), delta: fc.integer({ min: -5_000, max: 5_000 }) }),
  fc.record({ op: fc.constant('complete charge' as const), pick: fc.nat(), outcome: fc.constantFrom('success', 'failed') }),
  fc.record({ op: fc.constant('bank page' as const), pick: fc.nat(), decision: fc.constantFrom('approve', 'decline') }),
  refund, refund,
  completeRefund, completeRefund,
  fc.record({ op: fc.constant('payout' as const), amount: fc.integer({ min: 1_000, max: 200_000 }), to: fc.nat(2) }),
  fc.record({ op: fc.constant('stablecoin payout' as const), amount: fc.integer({ min: 1, max: 2_000_000 }), coin: fc.constantFrom('USDT', 'USDC') }),
  fc.record({ op: fc.constant('complete payout' as const), pick: fc.nat(), outcome: fc.constantFrom('success', 'failed') }),
  fc.record({ op: fc.constant('convert' as const), there: fc.boolean(), amount: fc.integer({ min: 1, max: 10_000_000 }) }),
  fc.record({ op: fc.constant('clock' as const), seconds: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 3_600, max: 2 * 86_400 })) }),
)
type Step = typeof ops extends fc.Arbitrary<infer T> ? T : never

/** SPEC-BEYOND 5.8's test accounts (docs/behaviour.md#payouts): a success, a failure, one that waits for the control call */
const PAYEES = [['033', '0000000000'], ['035', '0000000000'], ['033', '1111111111']]

const seen: Record<string, number> = {}
async function call(method: string, path: string, body?: unknown, opts?: Parameters<TestSandbox['call']>[3]) {
  const res = await sb.call(method, path, body, opts)
  expect(res.status, `${method} ${path} ${JSON.stringify(body)} ${JSON.stringify(res.body)}`).toBeLessThan(500)
  return res
}
const ok = (what: string, res: { status: number }) => {
  if (res.status === 200) seen[what] = (seen[what] ?? 0) + 1
  return res.status === 200
}

async function step(r: Run, s: Step) {
  const pick = <T>(list: T[], n: number) => list[n % list.length]
  switch (s.op) {
    case 'card': {
      const payload = cardPayload('4084127883172787', { amount: s.amount })
      expect((await sb.charge(payload)).status).toBeLessThan(500)
      r.payins.push(payload.reference as string)
      return
    }
    case 'pay with bank': {
      const reference = ref('pwb')
      const res = await call('POST', `${M}/charge/pay-with-bank`, { reference, amount: s.amount, currency: 'NGN', bank_code: '100004', merchant_bears_cost: s.bears, customer: { name: 'Ada', email: 'a@b.co' } })
      if (res.status === 200) r.payins.push(reference), r.txs.push(res.body.data.transaction_reference ?? reference)
      return
    }
    case 'bank transfer': {
      const reference = ref('bt')
      const res = await call('POST', `${M}/charges/bank-transfer`, { reference, amount: s.amount, currency: 'NGN', merchant_bears_cost: s.bears, customer: { email: 'a@b.co' } })
      if (res.status === 200) r.payins.push(reference), r.transfers.push(res.body.data.bank_account.account_number), r.txs.push(res.body.data.transaction_reference ?? reference)
      return
    }
    case 'transfer in': {
      if (!r.transfers.length) return
      const account_number = pick(r.transfers, s.pick)
      const expected = sb.deps.bankTransfer.byAccount(NS, account_number)?.amount_expected ?? 10_000
      await call('POST', `${M}/virtual-bank-account/sandbox/credit`, { account_number, amount: Math.max(100, expected + s.delta) / 100, currency: 'NGN' })
      return
    }
    case 'complete charge':
      if (r.txs.length) ok('charge completed', await call('POST', `/_sandbox/charges/${pick(r.txs, s.pick)}/complete`, { outcome: s.outcome }))
      return
    case 'bank page': {
      const tx = r.txs.length ? pick(r.txs, s.pick) : ''
      if (tx?.startsWith('KPY-PB')) ok('bank page decided', await call('POST', `/_sandbox/pay-with-bank/${tx}`, undefined, { raw: `decision=${s.decision}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, key: null }))
      return
    }
    case 'refund': {
      if (!r.payins.length) return
      const reference = ref('rf')
      if (ok('refund', await call('POST', `${M}/refunds/initiate`, { payment_reference: pick(r.payins, s.pick), reference, amount: s.amount, completion_status: s.completion_status }))) r.refunds.push(reference)
      return
    }
    case 'complete refund':
      if (r.refunds.length) ok(`refund completed ${s.outcome}`, await call('POST', `/_sandbox/refunds/${pick(r.refunds, s.pick)}/complete`, { outcome: s.outcome }))
      return
    case 'payout': {
      const [bank, account] = PAYEES[s.to]
      const reference = ref('po')
      if (ok('payout', await call('POST', `${M}/transactions/disburse`, { reference, destination: { type: 'bank_account', amount: s.amount, currency: 'NGN', bank_account: { bank, account }, customer: { email: 'a@b.co' } } }))) r.payouts.push(reference)
      return
    }
    case 'stablecoin payout': {
      // paid from the USD balance (docs/behaviour.md#stablecoin-payouts): a large one is refused as short of funds
      const reference = ref('sc')
      if (ok('stablecoin payout', await call('POST', `${M}/transactions/disburse`, { reference, destination: { type: 'crypto', amount: s.amount, currency: s.coin, crypto: { network: 'ETH', destination_address: '0x6f730bd13c38966b44f3c6a06955085b1485e39c' }, customer: { email: 'a@b.co' } } }))) r.payouts.push(reference)
      return
    }
    case 'complete payout':
      if (r.payouts.length) ok(`payout completed ${s.outcome}`, await call('POST', `/_sandbox/payouts/${pick(r.payouts, s.pick)}/complete`, { outcome: s.outcome }))
      return
    case 'convert': {
      const [from, to] = s.there ? ['NGN', 'USD'] : ['USD', 'NGN']
      const quote = await call('POST', `${M}/conversions/rates`, { from_currency: from, to_currency: to, amount: s.amount / 100 })
      if (quote.status === 200) ok('conversion', await call('POST', `${M}/conversions/`, { rate_reference: quote.body.data.reference, amount: quote.body.data.from_amount, from_currency: from, to_currency: to }))
      return
    }
    case 'clock':
      await call('POST', '/_sandbox/clock/advance', { seconds: s.seconds })
  }
}

function check(trace: string) {
  // an entry's key: <source>:<source_reference>:<n>
  const entries = [...sb.deps.store.col<Posting & { of?: string }>(NS, LEDGER).entries()].map(([key, e]) => ({ ...e, source: key.slice(0, key.indexOf(':')), ref: key.slice(key.indexOf(':') + 1, key.lastIndexOf(':')) }))
  const net = new Map<string, number>()
  const refundOf = new Map<string, string>()
  let made = 0
  for (const e of entries) {
    const signed = e.direction === 'credit' ? e.amount : -e.amount
    net.set(`${e.source}:${e.ref}`, (net.get(`${e.source}:${e.ref}`) ?? 0) + signed)
    if (e.source === 'refund' && e.of) refundOf.set(e.ref, e.of)
    // in NGN at the pack's 1,440 per USD; nothing here moves another currency
    if (e.source !== 'payin' && e.source !== 'funding') made += signed * (e.currency === 'USD' ? 1440 : 1)
  }
  expect(made, `worth made outside pay-ins: ${trace}`).toBeLessThanOrEqual(0)
  const refunded = new Map<string, number>()
  for (const [key, v] of net) {
    const [source, reference] = key.split(':')
    if (source === 'refund' || source === 'payout') expect(v, `${key} nets above nothing: ${trace}`).toBeLessThanOrEqual(0)
    if (source === 'refund') refunded.set(refundOf.get(reference)!, (refunded.get(refundOf.get(reference)!) ?? 0) - v)
  }
  // a payout is debited amount, fee and VAT once, from its balance (a stablecoin's: USD), and a failed one gets it all back once
  for (const p of sb.deps.store.col<any>(NS, PAYOUTS).values()) {
    const mine = entries.filter((e) => e.source === 'payout' && e.ref === p.reference)
    expect(mine.map((e) => e.currency), `${p.reference} (${p.currency}) paid from: ${trace}`).toEqual(mine.map(() => fundedIn(p.currency)))
    expect(net.get(`payout:${p.reference}`), `${p.reference} (${p.status}) net: ${trace}`).toBe(p.status === 'failed' ? 0 : -(p.amount + p.fee + p.vat))
  }
  for (const c of sb.deps.store.col<any>(NS, CHARGES).values()) {
    const credits = entries.filter((e) => e.source === 'payin' && e.ref === c.payment_reference)
    expect(credits.length, `${c.payment_reference} (${c.status}) credited: ${trace}`).toBe(c.status === 'success' && !c.parent ? 1 : 0)
    const back = refunded.get(c.payment_reference) ?? 0
    if (back > 0) expect(c.status, `${c.payment_reference} refunded: ${trace}`).toBe('success')
    const paid = Math.max(c.amount_accepted ?? 0, c.amount_expected ?? 0, c.amount + (c.merchant_bears_cost ? 0 : c.fee + c.vat))
    expect(back, `${c.payment_reference} refunded past what was paid: ${trace}`).toBeLessThanOrEqual(paid)
  }
}

it('no sequence of pay-ins, refunds, payouts, their completions and conversions makes money', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(ops, { minLength: 20, maxLength: 60 }), async (steps) => {
      await call('POST', '/_sandbox/reset')
      const r: Run = { payins: [], txs: [], refunds: [], payouts: [], transfers: [] }
      for (const [i, s] of steps.entries()) {
        await step(r, s)
        check(JSON.stringify(steps.slice(0, i + 1)))
      }
    }),
    { numRuns: Number(process.env.MONEY_RUNS ?? 60), seed: Number(process.env.MONEY_SEED ?? 9) },
  )
  for (const what of ['refund', 'refund completed failed', 'payout', 'stablecoin payout', 'payout completed failed', 'conversion', 'bank page decided', 'charge completed']) expect(seen[what], what).toBeGreaterThan(0)
})

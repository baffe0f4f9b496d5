import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, makeSandbox, ref, type TestSandbox } from './helpers/sandbox.js'

/**
 * docs/behaviour.md#speed: a charge query is answered again from the text kept for it while no record
 * changed (the store's version) and the namespace clock reads the same millisecond. Whatever a
 * namespace goes through (charges of every kind and their steps, control calls, refunds, pack
 * changes, clock moves), every answer the query gives, kept or computed, is the one computed
 * afresh at that moment. The clock is frozen, so it moves only when advanced: most queries fall on
 * a millisecond and a version they were asked at before, and are answered from the kept text.
 */

const M = '/merchant/api/v1'
const NS = SECRET

interface Run {
  sb: TestSandbox
  /** payment references of every charge made */
  refs: string[]
  /** transaction references of charges that may still be waiting */
  open: string[]
  /** payment references of pre-authorizations */
  holds: string[]
}

/** how many queries came on a version and a millisecond already asked about (answered from the kept text) */
let hits = 0

const CARDS = ['4084127883172787', '4084080000100001', '5188513618552975', '5442056106072595', '4562543755474674', '4084080001800005']
const major = (min: number, max: number) => fc.integer({ min: min * 100, max: max * 100 }).map((n) => n / 100)

async function call(r: Run, method: string, path: string, body?: unknown) {
  const res = await r.sb.call(method, path, body)
  expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBeLessThan(500)
  return res
}

const pick = <T,>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined)

type Op = fc.Arbitrary<(r: Run) => Promise<unknown>>

const OPS: Op[] = [
  fc.record({ card: fc.constantFrom(...CARDS), amount: major(100, 50_000) }).map(({ card, amount }) => async (r: Run) => {
    const payload = cardPayload(card, { amount })
    const res = await r.sb.charge(payload)
    r.refs.push(payload.reference as string)
    if (res.body.data?.status === 'processing') r.open.push(res.body.data.transaction_reference)
  }),
  fc.record({ n: fc.nat(), answer: fc.constantFrom({ pin: '1234' }, { otp: '123456' }, { pin: '0000' }) }).map(({ n, answer }) => async (r: Run) => {
    const tx = pick(r.open, n)
    if (tx) await call(r, 'POST', `${M}/charges/card/authorize`, { transaction_reference: tx, authorization: answer })
  }),
  fc.record({ n: fc.nat(), outcome: fc.constantFrom('success', 'failed') }).map(({ n, outcome }) => async (r: Run) => {
    const tx = pick(r.open, n)
    if (tx) await call(r, 'POST', `/_sandbox/charges/${tx}/complete`, { outcome })
  }),
  major(100, 50_000).map((amount) => async (r: Run) => {
    const payload = cardPayload('4084127883172787', { amount })
    await call(r, 'POST', `${M}/charges/card/pre-authorize`, { charge_data: encryptChargeData(payload, ENC_KEY) })
    r.refs.push(payload.reference as string)
    r.holds.push(payload.reference as string)
  }),
  fc.record({ n: fc.nat(), amount: major(1, 30_000), then: fc.constantFrom('none', 'void', 'settle') }).map(({ n, amount, then }) => async (r: Run) => {
    const payment_reference = pick(r.holds, n)
    if (!payment_reference) return
    const transaction_reference = ref('cap')
    const res = await call(r, 'POST', `${M}/charges/card/capture`, { payment_reference, transaction_reference, amount, currency: 'NGN' })
    if (res.status !== 200 || then === 'none') return
    if (then === 'void') await call(r, 'POST', `${M}/charges/card/void`, { payment_reference, transaction_reference })
    else await call(r, 'POST', `/_sandbox/captures/${transaction_reference}/settle`)
  }),
  fc.record({ amount: major(10, 5_000), number: fc.constantFrom('254700000000', '254734611986', '233240000000') }).map(({ amount, number }) => async (r: Run) => {
    const reference = ref('mm')
    const currency = number.startsWith('254') ? 'KES' : 'GHS'
    const res = await call(r, 'POST', `${M}/charges/mobile-money`, { reference, amount, currency, customer: { email: 'b@example.com' }, mobile_money: { number } })
    r.refs.push(reference)
    if (res.body.data?.status === 'processing') r.open.push(res.body.data.transaction_reference)
  }),
  fc.record({ amount: major(100, 100_000), auto: fc.boolean() }).map(({ amount, auto }) => async (r: Run) => {
    const reference = ref('bt')
    await call(r, 'POST', `${M}/charges/bank-transfer`, { reference, amount, currency: 'NGN', auto_complete: auto, customer: { email: 'a@b.co' } })
    r.refs.push(reference)
  }),
  fc.record({ amount: major(100, 20_000), pay: fc.constantFrom('card', 'mobile_money', 'cancel', 'none') }).map(({ amount, pay }) => async (r: Run) => {
    const reference = ref('co')
    const currency = pay === 'mobile_money' ? 'KES' : 'NGN'
    await call(r, 'POST', `${M}/charges/initialize`, { reference, amount, currency, customer: { email: 'a@b.co', name: 'Ada' }, redirect_url: 'https://merchant.example/back' })
    r.refs.push(reference)
    if (pay === 'cancel') await call(r, 'POST', `/_sandbox/checkouts/${reference}/cancel`)
    else if (pay !== 'none') await call(r, 'POST', `/_sandbox/checkouts/${reference}/pay`, { channel: pay })
  }),
  fc.record({ n: fc.nat(), amount: fc.option(major(1, 30_000), { nil: undefined }) }).map(({ n, amount }) => async (r: Run) => {
    const payment_reference = pick(r.refs, n)
    if (payment_reference) await call(r, 'POST', `${M}/refunds/initiate`, { payment_reference, reference: ref('rf'), amount })
  }),
  fc.constantFrom(0, 1, 24, 48).map((hours) => async (r: Run) => {
    await call(r, 'POST', '/_sandbox/scenarios', { settings: { settlement_delay_hours: hours } })
  }),
  // from a millisecond (the kept answers' key) to past the settlement delay and a checkout's expiry
  fc.oneof(fc.constantFrom(0.001, 1, 2, 60), fc.integer({ min: 100, max: 300 }), fc.integer({ min: 3_600, max: 2 * 86_400 })).map((seconds) => async (r: Run) => {
    await call(r, 'POST', '/_sandbox/clock/advance', { seconds })
  }),
  // a call refused whole changes nothing: the answers kept before it stand
  fc.constant(async (r: Run) => {
    await call(r, 'POST', `${M}/charges/card/authorize`, { transaction_reference: 'KPY-CA-NONE', authorization: { pin: '1234' } })
  }),
]

/** Every charge queried over HTTP, each answer compared with the one computed afresh now. */
async function queryAll(r: Run, asked: Map<string, string>): Promise<void> {
  const { store, clocks, chargeQuery } = r.sb.deps
  for (const reference of r.refs) {
    const moment = `${store.version}@${clocks.now(NS)}`
    if (asked.get(reference) === moment) hits++
    const res = await r.sb.call('GET', `${M}/charges/${reference}`)
    expect(store.version, 'a charge query wrote nothing here').toBe(Number(moment.split('@')[0]))
    asked.set(reference, moment)
    expect(res.body, reference).toEqual(JSON.parse(chargeQuery.computed(NS, reference)))
  }
}

describe('the charge query answered again from the kept answer', () => {
  let sb: TestSandbox
  beforeAll(async () => {
    sb = await makeSandbox({ frozen: true })
  })
  afterAll(() => sb.close())

  it('is always the answer computed afresh at that moment, over random operations of every kind', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(...OPS), { minLength: 5, maxLength: 25 }), async (ops) => {
        await sb.call('POST', '/_sandbox/reset')
        await sb.call('POST', '/_sandbox/clock/freeze', { frozen: true })
        const r: Run = { sb, refs: [], open: [], holds: [] }
        const asked = new Map<string, string>()
        for (const op of ops) {
          await op(r)
          await queryAll(r, asked)
          // asked again with nothing between: the kept text
          await queryAll(r, asked)
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40), seed: 34 },
    )
    // the kept answers were really used
    expect(hits).toBeGreaterThan(500)
  })
})

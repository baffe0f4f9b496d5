import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { verifyWebhookSignature } from '../src/webhooks/signature.js'
import { SECRET, cardPayload, eventWhen, makeSandbox, ref, type TestSandbox, invalidBody } from './helpers/sandbox.js'
import { ownPerTest } from './helpers/after-each.js'

/**
 * Mobile money end to end through HTTP (docs/api.md 2.6-2.8, 3.3, 4.2, 7.2, 8; docs/behaviour.md#http, docs/behaviour.md#mobile-money, docs/behaviour.md#webhooks, docs/behaviour.md#control-api):
 * every wallet of the default pack through its steps, the STK prompt answered by authorize-stk,
 * by the control call and by the clock; fees and merchant_bears_cost; OTP attempts; webhooks to a
 * real receiver; every refusal, each leaving the namespace unchanged. No sleeps: the namespace
 * clock is advanced, receivers and events are awaited as promises.
 */

const MM = '/merchant/api/v1/charges/mobile-money'
const AUTHORIZE = `${MM}/authorize`
const AUTHORIZE_STK = `${MM}/sandbox/authorize-stk`
const RESEND_OTP = `${MM}/resend-otp`
const RESEND_STK = `${MM}/resend-stk`
const query = (reference: string) => `/merchant/api/v1/charges/${encodeURIComponent(reference)}`
const eventsOf = (reference: string) => `/_sandbox/events?reference=${encodeURIComponent(reference)}`
const completePath = (tx: string) => `/_sandbox/charges/${encodeURIComponent(tx)}/complete`

type WalletStep = 'OTP' | 'STK_PROMPT'
interface ScenarioWallet {
  number: string
  currency: 'KES' | 'GHS'
  otp?: string
  pin?: string
  steps: WalletStep[]
  outcome: 'success' | 'failed' | 'processing'
  message?: string
  label: string
  found?: boolean
  name?: string
}

const CUSTOMER = { name: 'Wanjiku Buyer', email: 'buyer@example.com' }
/** fees of the default pack on 100.00: 1.5 % = 1.50, VAT 7.5 % of it = 0.1125 -> 0.11 */
const FEE = 1.5
const VAT = 0.11
const EXPECTED = 101.61
/**
 * The same in a currency with no minor unit (XAF, XOF: docs/behaviour.md#money), each rounded to
 * whole francs: fee 1.50 -> 2, VAT 7.5 % of 2 = 0.15 -> 0, expected 102.
 */
const cost = (currency: string) => (currency === 'XAF' || currency === 'XOF' ? { fee: 2, vat: 0, expected: 102 } : { fee: FEE, vat: VAT, expected: EXPECTED })

function mmPayload(number: string, currency: string, overrides: Record<string, unknown> = {}) {
  return {
    reference: ref('mm-order'),
    amount: 100,
    currency,
    customer: { ...CUSTOMER },
    mobile_money: { number },
    description: 'Order 42: two bags of coffee',
    ...overrides,
  } as Record<string, any>
}

// The pack's wallets are read through the API at collection time, so the tables below are exactly
// what GET /_sandbox/scenarios serves.
const catalog = await makeSandbox()
afterAll(() => catalog.close())
const scenariosRes = await catalog.call('GET', '/_sandbox/scenarios')
const WALLETS: ScenarioWallet[] = scenariosRes.body?.data?.wallets ?? []
/** the wallets whose last step is the STK prompt (the others: the operator's page, or no such wallet, tested apart) */
const PROMPT_WALLETS = WALLETS.filter((w) => w.steps.at(-1) === 'STK_PROMPT')
const SETTINGS_FILE = parseYaml(readFileSync(new URL('../scenarios/default.yaml', import.meta.url), 'utf8')) as {
  wallets: { number: string }[]
}

// Every test gets a sandbox of its own: clocks, timers, events and webhook URLs never mix.
const { sandbox, receiver } = ownPerTest({ frozen: true })

/** Each step call (path, body) is refused with 409 Transaction has already been completed, changing nothing. */
async function refusedAsCompleted(sb: TestSandbox, tx: string, reference: string, calls: [string, unknown][]) {
  const before = await snapshot(sb, tx, reference)
  for (const [path, body] of calls) {
    const res = await sb.call('POST', path, body)
    expect(res.status, path).toBe(409)
    expect(res.body).toEqual({ status: false, message: 'Transaction has already been completed', data: null })
  }
  expect(await snapshot(sb, tx, reference)).toEqual(before)
}

async function advance(sb: TestSandbox, seconds: number) {
  const res = await sb.call('POST', '/_sandbox/clock/advance', { seconds })
  expect(res.status).toBe(200)
  return res
}

async function eventsFor(sb: TestSandbox, reference: string): Promise<any[]> {
  const res = await sb.call('GET', eventsOf(reference))
  expect(res.status).toBe(200)
  return res.body.data
}

/** Pending timers of the kinds a wallet payment makes (other seeded fixtures have their own). */
async function paymentTimers(sb: TestSandbox): Promise<any[]> {
  const res = await sb.call('GET', '/_sandbox/clock')
  expect(res.status).toBe(200)
  return res.body.data.pending_timers.filter((t: any) => /^(mm|webhook)\./.test(t.kind))
}

/** Everything a refusal must leave alone: both queries, the events and the pending timers. */
async function snapshot(sb: TestSandbox, tx: string, reference: string) {
  const [byTx, byRef, events, timers] = await Promise.all([
    sb.call('GET', query(tx)),
    sb.call('GET', query(reference)),
    sb.call('GET', eventsOf(reference)),
    paymentTimers(sb),
  ])
  return {
    byTx: { status: byTx.status, body: byTx.body },
    byRef: { status: byRef.status, body: byRef.body },
    events: events.body.data,
    timers,
  }
}

/** A refused create leaves no charge, no event and no timer behind. */
async function expectNothingCreated(sb: TestSandbox, reference: unknown) {
  if (typeof reference === 'string' && reference.trim() !== '') {
    const q = await sb.call('GET', query(reference))
    expect(q.status).toBe(404)
    expect(q.body).toEqual({ status: false, message: 'Charge not found', data: null })
  }
  expect((await sb.call('GET', '/_sandbox/events')).body.data).toEqual([])
  expect(await paymentTimers(sb)).toEqual([])
}

function expectAuthRequired(res: { status: number; body: any }) {
  expect(res.status).toBe(200)
  expect(res.body.status).toBe(true)
  expect(res.body.code).toBe('AA001')
  expect(res.body.message).toBe('Authorization required')
}

/** The create answer of docs/api.md 2.7 / 4.2. */
function expectCreated(res: { status: number; body: any }, p: Record<string, any>, wallet: { number: string; currency: string; steps: WalletStep[] }) {
  expectAuthRequired(res)
  const d = res.body.data
  expect(d).toMatchObject({
    currency: wallet.currency,
    fee: cost(wallet.currency).fee,
    vat: cost(wallet.currency).vat,
    auth_model: wallet.steps[0],
    payment_reference: p.reference,
    status: 'processing',
    narration: p.description,
    customer: CUSTOMER,
  })
  expect(Number(d.amount)).toBe(100)
  expect(Number(d.amount_expected)).toBe(cost(wallet.currency).expected)
  expect(typeof d.transaction_reference).toBe('string')
  expect(d.transaction_reference.length).toBeGreaterThan(0)
  expect(d.transaction_reference).not.toBe(p.reference)
  expect(typeof d.message).toBe('string')
  expect(d.message.length).toBeGreaterThan(0)
  expect(d.mobile_money.number.replace(/^\+/, '')).toBe(wallet.number.replace(/^\+/, ''))
  expect(d).not.toHaveProperty('attempts_left')
}

/** Creates the charge and passes the OTP step where there is one: the STK prompt is then pending. */
async function toStkPrompt(sb: TestSandbox, wallet: ScenarioWallet, overrides: Record<string, unknown> = {}) {
  const p = mmPayload(wallet.number, wallet.currency, overrides)
  const res = await sb.call('POST', MM, p)
  expectCreated(res, p, wallet)
  const tx: string = res.body.data.transaction_reference
  let last = res
  for (const step of wallet.steps) {
    expect(last.body.data.auth_model).toBe(step)
    if (step === 'STK_PROMPT') break
    last = await sb.call('POST', AUTHORIZE, { reference: tx, token: wallet.otp ?? '123456' })
    expectAuthRequired(last)
    expect(last.body.data).toMatchObject({ auth_model: 'STK_PROMPT', status: 'processing', transaction_reference: tx, payment_reference: p.reference })
    expect(last.body.data).not.toHaveProperty('attempts_left')
  }
  expect(wallet.steps[wallet.steps.length - 1]).toBe('STK_PROMPT')
  return { p, tx }
}

/** The charge query, by the transaction reference and by the payment reference (docs/api.md 2.8). */
async function expectQuery(
  sb: TestSandbox,
  p: Record<string, any>,
  tx: string,
  status: 'success' | 'failed' | 'processing',
  opts: { message?: string; amountPaid?: string } = {},
) {
  const byTx = await sb.call('GET', query(tx))
  const byRef = await sb.call('GET', query(p.reference))
  expect(byTx.status).toBe(200)
  expect(byTx.body.status).toBe(true)
  expect(byTx.body.message).toBe('Charge retrieved successfully')
  expect(byRef.status).toBe(200)
  expect(byRef.body).toEqual(byTx.body)
  const d = byTx.body.data
  expect(d).toMatchObject({
    reference: p.reference,
    status,
    amount: '100.00',
    currency: p.currency,
    description: p.description,
    customer: CUSTOMER,
  })
  expect(d.mobile_money.number.replace(/^\+/, '')).toBe(String(p.mobile_money.number).replace(/^\+/, ''))
  const paid = status === 'success' ? (opts.amountPaid ?? cost(p.currency).expected.toFixed(2)) : '0.00'
  expect(String(d.amount_paid)).toBe(paid)
  if (status === 'failed') {
    expect(d.payment_attempts).toEqual([{ reference: tx, status: 'failed', channel: 'mobile_money', message: opts.message }])
  } else {
    expect(d.payment_attempts ?? []).toEqual([])
  }
  return d
}

/** The one event a finished charge records (docs/behaviour.md#webhooks), or none while processing. */
async function expectEvents(sb: TestSandbox, p: Record<string, any>, tx: string, status: 'success' | 'failed' | 'processing') {
  const events = await eventsFor(sb, p.reference)
  if (status === 'processing') {
    expect(events).toEqual([])
    return
  }
  expect(events).toHaveLength(1)
  expect(events[0].event).toBe(`charge.${status}`)
  expect(events[0].data).toEqual({
    reference: p.reference,
    payment_reference: p.reference,
    transaction_reference: tx,
    amount: 100,
    fee: cost(p.currency).fee,
    currency: p.currency,
    status,
    payment_method: 'mobile_money',
    metadata: p.metadata ?? null,
  })
  expect((await eventsFor(sb, tx)).map((e) => e.id)).toEqual([events[0].id])
}

const byNumber = (n: string) => {
  const w = WALLETS.find((x) => x.number === n)
  if (!w) throw new Error(`wallet ${n} is not in the pack`)
  return w
}
const KES_OK = () => byNumber('254700000000')
const KES_FAIL = () => byNumber('254734611986')
const GHS_OK = () => byNumber('233240000000')
const GHS_FAIL = () => byNumber('233274611986')

/** the wallet currencies' country codes (fixtures/lookups.json) */
const DIAL: Record<string, string> = { KES: '254', GHS: '233', XAF: '237', XOF: '225', TZS: '255', EGP: '20' }

describe('the default scenario pack', () => {
  it('serves every wallet of scenarios/default.yaml through GET /_sandbox/scenarios', () => {
    expect(scenariosRes.status).toBe(200)
    expect(WALLETS.map((w) => w.number).sort()).toEqual(SETTINGS_FILE.wallets.map((w) => w.number).sort())
    // docs/behaviour.md#mobile-money's table
    expect(byNumber('254700000000')).toMatchObject({ currency: 'KES', steps: ['STK_PROMPT'], outcome: 'success', pin: '1234' })
    expect(byNumber('254734611986')).toMatchObject({ currency: 'KES', steps: ['STK_PROMPT'], outcome: 'failed', message: expect.any(String) })
    expect(byNumber('233240000000')).toMatchObject({ currency: 'GHS', steps: ['OTP', 'STK_PROMPT'], outcome: 'success', otp: '123456', pin: '1234' })
    expect(byNumber('233274611986')).toMatchObject({ currency: 'GHS', steps: ['OTP', 'STK_PROMPT'], outcome: 'failed', message: expect.any(String) })
    // plus at least one wallet that never completes
    expect(WALLETS.filter((w) => w.outcome === 'processing').length).toBeGreaterThanOrEqual(1)
    for (const w of WALLETS) {
      expect(w.number.startsWith(DIAL[w.currency])).toBe(true)
      // the STK prompt or the operator's page last; a wallet no operator knows has no step
      if (w.found === false) expect(w.steps).toEqual([])
      else expect(['STK_PROMPT', 'REDIRECT']).toContain(w.steps[w.steps.length - 1])
      if (w.outcome === 'failed') expect(w.message).toEqual(expect.any(String))
    }
  })
})

type Answer = 'authorize-stk with the PIN' | 'the control complete call' | 'the clock (no answer)'

describe.each<Answer>(['authorize-stk with the PIN', 'the control complete call', 'the clock (no answer)'])(
  'every wallet, the STK prompt answered by %s',
  (answer) => {
    it.each(PROMPT_WALLETS)('drives $number ($label) to its outcome', async (wallet) => {
      const sb = await sandbox()
      const { p, tx } = await toStkPrompt(sb, wallet)
      // while the prompt is out: processing, nothing recorded
      await expectQuery(sb, p, tx, 'processing')
      await expectEvents(sb, p, tx, 'processing')

      let expected: 'success' | 'failed' | 'processing' = wallet.outcome
      let message = wallet.message
      if (answer === 'authorize-stk with the PIN') {
        const res = await sb.call('POST', AUTHORIZE_STK, { reference: tx, pin: wallet.pin ?? '1234' })
        expect(res.status).toBe(200)
        expect(res.body.status).toBe(true)
        expect(res.body.data).toMatchObject({ transaction_reference: tx, payment_reference: p.reference, status: wallet.outcome })
        if (wallet.outcome === 'failed') {
          expect(res.body.message).toBe(wallet.message)
          expect(res.body.data.message).toBe(wallet.message)
        }
        if (wallet.outcome !== 'processing') expect(res.body.code).toBeUndefined()
      } else if (answer === 'the control complete call') {
        // a wallet that never answers is ended by the control call; the others take their own outcome
        const outcome = wallet.outcome === 'failed' ? 'failed' : 'success'
        expected = outcome
        const res = await sb.call('POST', completePath(tx), { outcome })
        expect(res.status).toBe(200)
        expect(res.body.status).toBe(true)
        expect(res.body.data).toMatchObject({ reference: p.reference, transaction_reference: tx, status: outcome })
        if (outcome === 'failed') expect(res.body.data.message).toBe(wallet.message)
        if (wallet.outcome === 'processing') message = undefined
      } else {
        // not yet after 1 s of the 2 s delay
        await advance(sb, 1)
        await expectQuery(sb, p, tx, 'processing')
        await advance(sb, 1)
      }

      await expectQuery(sb, p, tx, expected, { message })
      await expectEvents(sb, p, tx, expected)
      // nothing more happens, however far the clock goes: the never-completing wallets stay processing
      await advance(sb, 3600)
      await expectQuery(sb, p, tx, expected, { message })
      await expectEvents(sb, p, tx, expected)
      expect(await paymentTimers(sb)).toEqual([])
    })
  },
)

describe('the control complete call', () => {
  it('fails a charge with the message given, whatever the wallet', async () => {
    const sb = await sandbox()
    const { p, tx } = await toStkPrompt(sb, KES_OK())
    const res = await sb.call('POST', completePath(tx), { outcome: 'failed', message: 'Customer cancelled the prompt' })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ transaction_reference: tx, status: 'failed', message: 'Customer cancelled the prompt' })
    await expectQuery(sb, p, tx, 'failed', { message: 'Customer cancelled the prompt' })
    await expectEvents(sb, p, tx, 'failed')
    await advance(sb, 60)
    await expectQuery(sb, p, tx, 'failed', { message: 'Customer cancelled the prompt' })
  })

  it('finds the charge by its payment reference too, and refuses an unknown or finished one', async () => {
    const sb = await sandbox()
    const { p, tx } = await toStkPrompt(sb, KES_OK())
    const res = await sb.call('POST', completePath(p.reference), { outcome: 'success' })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ transaction_reference: tx, status: 'success' })
    const before = await snapshot(sb, tx, p.reference)
    const again = await sb.call('POST', completePath(tx), { outcome: 'failed' })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ status: false, message: 'Transaction has already been completed', data: null })
    expect(await snapshot(sb, tx, p.reference)).toEqual(before)
    const unknown = await sb.call('POST', completePath('MO-no-such-transaction'), { outcome: 'success' })
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toBe('Transaction not found')
  })
})

describe('wallets outside the pack and number formats', () => {
  it('takes the KES success path for any other KES wallet (STK prompt, then success)', async () => {
    const sb = await sandbox()
    const wallet = { number: '254799999999', currency: 'KES' as const, steps: ['STK_PROMPT' as const] }
    const p = mmPayload(wallet.number, 'KES')
    const res = await sb.call('POST', MM, p)
    expectCreated(res, p, wallet)
    const tx = res.body.data.transaction_reference
    await advance(sb, 2)
    await expectQuery(sb, p, tx, 'success')
    await expectEvents(sb, p, tx, 'success')
  })

  it('takes the GHS success path for any other GHS wallet (OTP, STK prompt, then success)', async () => {
    const sb = await sandbox()
    const wallet = { number: '233555555555', currency: 'GHS' as const, steps: ['OTP' as const, 'STK_PROMPT' as const] }
    const p = mmPayload(wallet.number, 'GHS')
    const res = await sb.call('POST', MM, p)
    expectCreated(res, p, wallet)
    const tx = res.body.data.transaction_reference
    const otp = await sb.call('POST', AUTHORIZE, { reference: tx, token: '123456' })
    expectAuthRequired(otp)
    expect(otp.body.data.auth_model).toBe('STK_PROMPT')
    const stk = await sb.call('POST', AUTHORIZE_STK, { reference: tx, pin: '1234' })
    expect(stk.body.data.status).toBe('success')
    await expectQuery(sb, p, tx, 'success')
  })

  it('accepts the wallet number with a leading plus and finds the listed wallet', async () => {
    const sb = await sandbox()
    const wallet = KES_FAIL()
    const p = mmPayload(`+${wallet.number}`, 'KES')
    const res = await sb.call('POST', MM, p)
    expectCreated(res, p, wallet)
    const tx = res.body.data.transaction_reference
    await advance(sb, 2)
    await expectQuery(sb, p, tx, 'failed', { message: wallet.message })
  })

  it('keeps a charge in its namespace: another key does not find it', async () => {
    const sb = await sandbox()
    const { p, tx } = await toStkPrompt(sb, KES_OK())
    for (const r of [tx, p.reference]) {
      const other = await sb.call('GET', query(r), undefined, { key: 'sk_test_mm_other' })
      expect(other.status).toBe(404)
      expect(other.body.message).toBe('Charge not found')
      const auth = await sb.call('POST', AUTHORIZE_STK, { reference: r, pin: '1234' }, { key: 'sk_test_mm_other' })
      expect(auth.status).toBe(404)
      expect(auth.body.message).toBe('Transaction not found')
    }
    await expectQuery(sb, p, tx, 'processing')
  })
})

describe('fees and merchant_bears_cost', () => {
  it('defaults to the customer bearing the cost: amount_expected = amount + fee + vat', async () => {
    const sb = await sandbox()
    const p = mmPayload(KES_OK().number, 'KES')
    const res = await sb.call('POST', MM, p)
    expect(res.body.data).toMatchObject({ fee: 1.5, vat: 0.11 })
    expect(Number(res.body.data.amount)).toBe(100)
    expect(Number(res.body.data.amount_expected)).toBe(101.61)
    const tx = res.body.data.transaction_reference
    await sb.call('POST', AUTHORIZE_STK, { reference: tx, pin: '1234' })
    const d = await expectQuery(sb, p, tx, 'success', { amountPaid: '101.61' })
    // the query writes fee as a number and no VAT (docs/behaviour.md#card-outcomes-and-query)
    expect(d).toMatchObject({ fee: 1.5 })
    expect(d).not.toHaveProperty('vat')
  })

  it('merchant_bears_cost: false is the same as the default', async () => {
    const sb = await sandbox()
    const res = await sb.call('POST', MM, mmPayload(KES_OK().number, 'KES', { merchant_bears_cost: false }))
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ fee: 1.5, vat: 0.11 })
    expect(Number(res.body.data.amount_expected)).toBe(101.61)
  })

  it('merchant_bears_cost: true -> amount_expected = amount, the fee is still reported', async () => {
    const sb = await sandbox()
    const p = mmPayload(KES_OK().number, 'KES', { merchant_bears_cost: true })
    const res = await sb.call('POST', MM, p)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ fee: 1.5, vat: 0.11 })
    expect(Number(res.body.data.amount)).toBe(100)
    expect(Number(res.body.data.amount_expected)).toBe(100)
    const tx = res.body.data.transaction_reference
    await sb.call('POST', AUTHORIZE_STK, { reference: tx, pin: '1234' })
    await expectQuery(sb, p, tx, 'success', { amountPaid: '100.00' })
  })

  it.each([
    // amount, currency, fee, vat, expected (customer bears), rounding half up at each step
    [250.5, 'GHS', 3.76, 0.28, 254.54],
    [1234.56, 'KES', 18.52, 1.39, 1254.47],
    [30, 'KES', 0.45, 0.03, 30.48],
    [0.01, 'GHS', 0, 0, 0.01],
    // no minor unit: the fee and the VAT to whole francs (docs/behaviour.md#money)
    [1000, 'XAF', 15, 1, 1016],
    [2150, 'XOF', 32, 2, 2184],
    [100, 'XAF', 2, 0, 102],
  ] as const)('computes %s %s: fee %s, vat %s, amount_expected %s', async (amount, currency, fee, vat, expected) => {
    const sb = await sandbox()
    const number = { KES: '254799999999', GHS: '233555555555', XAF: '237699999999', XOF: '2250799999999' }[currency]
    const res = await sb.call('POST', MM, mmPayload(number, currency, { amount }))
    expect(res.status).toBe(200)
    expect(res.body.data.fee).toBe(fee)
    expect(res.body.data.vat).toBe(vat)
    expect(Number(res.body.data.amount)).toBe(amount)
    expect(Number(res.body.data.amount_expected)).toBe(expected)
    const bears = await sb.call('POST', MM, mmPayload(number, currency, { amount, merchant_bears_cost: true }))
    expect(Number(bears.body.data.amount_expected)).toBe(amount)
  })
})

describe('the amounts of each answer', () => {
  // docs/api.md 2.7 allows a number or a decimal string: each answer gives what the service's samples give (docs/behaviour.md#mobile-money-charge)
  it("gives numbers in the charge's answer and decimal strings in the authorize and authorize-stk answers, and in the wrong OTP's", async () => {
    const sb = await sandbox()
    const p = mmPayload(GHS_OK().number, 'GHS')
    const created = await sb.call('POST', MM, p)
    expect(created.body.data).toMatchObject({ amount: 100, amount_expected: EXPECTED, fee: FEE, vat: VAT })
    const tx = created.body.data.transaction_reference
    const wrong = await sb.call('POST', AUTHORIZE, { reference: tx, token: '000000' })
    expect(wrong.status).toBe(409)
    expect(wrong.body.data).toMatchObject({ amount: '100.00', amount_expected: '101.61', fee: FEE, vat: VAT, auth_model: 'OTP', attempts_left: 2 })
    const otp = await sb.call('POST', AUTHORIZE, { reference: tx, token: '123456' })
    expect(otp.body.data).toMatchObject({ amount: '100.00', amount_expected: '101.61', fee: FEE, vat: VAT, auth_model: 'STK_PROMPT' })
    const stk = await sb.call('POST', AUTHORIZE_STK, { reference: tx, pin: '1234' })
    expect(stk.body.data).toMatchObject({ amount: '100.00', amount_expected: '101.61', fee: FEE, vat: VAT, status: 'success' })
    // the default keeps docs/api.md 2.7's narration and customer, and 2.1's code beside Authorization required
    expect(otp.body).toMatchObject({ code: 'AA001', data: { narration: p.description, customer: CUSTOMER } })
    expect(stk.body.data).toMatchObject({ narration: p.description, customer: CUSTOMER })
  })
})

describe('OTP', () => {
  it('counts wrong OTPs down 2, 1, 0 with 409 and the charge saying The OTP you provided is invalid, then fails the charge', async () => {
    const sb = await sandbox()
    const wallet = GHS_OK()
    const p = mmPayload(wallet.number, 'GHS')
    const created = await sb.call('POST', MM, p)
    expectCreated(created, p, wallet)
    const tx = created.body.data.transaction_reference
    for (const left of [2, 1, 0]) {
      const res = await sb.call('POST', AUTHORIZE, { reference: tx, token: '000000' })
      // SPEC.md 4.2 and the service's sample: Authorization required, the charge saying why (docs/behaviour.md#mobile-money-otp)
      expect(res.status).toBe(409)
      expect(res.body.status).toBe(true)
      expect(res.body.message).toBe(left === 0 ? 'Otp attempts exceeded' : 'Authorization required')
      expect(res.body.data).toMatchObject({
        auth_model: 'OTP',
        message: left === 0 ? 'Otp attempts exceeded' : 'The OTP you provided is invalid',
        attempts_left: left,
        transaction_reference: tx,
        payment_reference: p.reference,
        status: left === 0 ? 'failed' : 'processing',
      })
      if (left > 0) {
        await expectQuery(sb, p, tx, 'processing')
        await expectEvents(sb, p, tx, 'processing')
      }
    }
    await expectQuery(sb, p, tx, 'failed', { message: 'Otp attempts exceeded' })
    const events = await eventsFor(sb, p.reference)
    expect(events.map((e) => e.event)).toEqual(['charge.failed'])
    expect(events[0].data).toMatchObject({ reference: p.reference, payment_reference: p.reference, transaction_reference: tx, status: 'failed', payment_method: 'mobile_money' })
    // the right OTP comes too late, and no prompt follows
    const late = await sb.call('POST', AUTHORIZE, { reference: tx, token: '123456' })
    expect(late.status).toBe(409)
    expect(late.body).toEqual({ status: false, message: 'Transaction has already been completed', data: null })
    await advance(sb, 3600)
    await expectQuery(sb, p, tx, 'failed', { message: 'Otp attempts exceeded' })
    expect(await eventsFor(sb, p.reference)).toHaveLength(1)
  })

  it('still accepts the right OTP after two wrong ones, then the prompt and the outcome follow', async () => {
    const sb = await sandbox()
    const wallet = GHS_FAIL()
    const p = mmPayload(wallet.number, 'GHS')
    const tx = (await sb.call('POST', MM, p)).body.data.transaction_reference
    for (const left of [2, 1]) {
      const res = await sb.call('POST', AUTHORIZE, { reference: tx, token: '654321' })
      expect(res.status).toBe(409)
      expect(res.body.data.attempts_left).toBe(left)
    }
    const ok = await sb.call('POST', AUTHORIZE, { reference: tx, token: '123456' })
    expectAuthRequired(ok)
    expect(ok.body.data).toMatchObject({ auth_model: 'STK_PROMPT', status: 'processing' })
    expect(ok.body.data).not.toHaveProperty('attempts_left')
    await advance(sb, 2)
    await expectQuery(sb, p, tx, 'failed', { message: wallet.message })
    await expectEvents(sb, p, tx, 'failed')
  })

  it('refuses a malformed token as Invalid request data without costing an attempt', async () => {
    const sb = await sandbox()
    const p = mmPayload(GHS_OK().number, 'GHS')
    const tx = (await sb.call('POST', MM, p)).body.data.transaction_reference
    const before = await snapshot(sb, tx, p.reference)
    for (const token of ['abc', '', '12', 123456, null]) {
      const res = await sb.call('POST', AUTHORIZE, { reference: tx, token })
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject(invalidBody({ token: expect.any(String) }))
    }
    expect(await snapshot(sb, tx, p.reference)).toEqual(before)
    const wrong = await sb.call('POST', AUTHORIZE, { reference: tx, token: '000000' })
    expect(wrong.body.data.attempts_left).toBe(2)
  })

  it('does not move the OTP step by the clock: it waits for the OTP', async () => {
    const sb = await sandbox()
    const p = mmPayload(GHS_OK().number, 'GHS')
    const tx = (await sb.call('POST', MM, p)).body.data.transaction_reference
    await advance(sb, 3600)
    await expectQuery(sb, p, tx, 'processing')
    const ok = await sb.call('POST', AUTHORIZE, { reference: tx, token: '123456' })
    expect(ok.body.data.auth_model).toBe('STK_PROMPT')
  })

  it('resends the OTP at the OTP step, changing nothing else', async () => {
    const sb = await sandbox()
    const p = mmPayload(GHS_OK().number, 'GHS')
    const tx = (await sb.call('POST', MM, p)).body.data.transaction_reference
    const before = await snapshot(sb, tx, p.reference)
    const res = await sb.call('POST', RESEND_OTP, { transaction_reference: tx })
    // the service's sample: its text, data null
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: true, message: 'Kindly enter the OTP sent to your phone or email', data: null })
    expect(await snapshot(sb, tx, p.reference)).toEqual(before)
    expect((await sb.call('POST', AUTHORIZE, { reference: tx, token: '123456' })).body.data.auth_model).toBe('STK_PROMPT')
  })
})

describe('webhooks', () => {
  it('delivers charge.success to notification_url, signed, and not to the namespace webhook URL', async () => {
    const sb = await sandbox()
    const notify = await receiver()
    const nsHook = await receiver()
    expect((await sb.call('PUT', '/_sandbox/webhook-url', { url: nsHook.url })).status).toBe(200)
    const metadata = { 'order-id': 'A-42', gift: true }
    const { p, tx } = await toStkPrompt(sb, KES_OK(), { notification_url: notify.url, metadata })
    const stk = await sb.call('POST', AUTHORIZE_STK, { reference: tx, pin: '1234' })
    expect(stk.body.data.status).toBe('success')
    await notify.waitFor(1)
    const ev = await eventWhen(sb, p.reference, (e) => e.status === 'delivered')
    expect(ev.target).toBe(notify.url)
    const got = notify.received[0]
    expect(got.body).toEqual({
      event: 'charge.success',
      data: {
        payment_method: 'mobile_money',
        reference: p.reference,
        payment_reference: p.reference,
        transaction_reference: tx,
        amount: 100,
        fee: FEE,
        currency: 'KES',
        status: 'success',
        metadata,
      },
    })
    const sig = got.headers['x-korapay-signature'] as string
    expect(sig).toMatch(/^[0-9a-f]{64}$/)
    expect(verifyWebhookSignature(got.raw, sig, 'sk_test_sandbox')).toBe(true)
    expect(verifyWebhookSignature(got.body.data, sig, 'sk_test_sandbox')).toBe(true)
    expect(verifyWebhookSignature(got.raw, sig, 'sk_test_other')).toBe(false)
    // the event was delivered to its one target: the namespace URL got nothing
    expect(notify.received).toHaveLength(1)
    expect(nsHook.received).toHaveLength(0)
  })

  it('delivers charge.failed to notification_url when the prompt times out on a failing wallet', async () => {
    const sb = await sandbox()
    const notify = await receiver()
    const nsHook = await receiver()
    await sb.call('PUT', '/_sandbox/webhook-url', { url: nsHook.url })
    const wallet = GHS_FAIL()
    const { p, tx } = await toStkPrompt(sb, wallet, { notification_url: notify.url })
    await advance(sb, 2)
    await notify.waitFor(1)
    await eventWhen(sb, p.reference, (e) => e.status === 'delivered')
    expect(notify.received[0].body).toMatchObject({
      event: 'charge.failed',
      data: { payment_method: 'mobile_money', reference: p.reference, payment_reference: p.reference, transaction_reference: tx, amount: 100, currency: 'GHS', status: 'failed' },
    })
    expect(verifyWebhookSignature(notify.received[0].raw, notify.received[0].headers['x-korapay-signature'] as string, SECRET)).toBe(true)
    expect(nsHook.received).toHaveLength(0)
  })

  it('delivers to the namespace webhook URL when no notification_url is given', async () => {
    const sb = await sandbox()
    const nsHook = await receiver()
    await sb.call('PUT', '/_sandbox/webhook-url', { url: nsHook.url })
    const { p, tx } = await toStkPrompt(sb, KES_OK())
    await sb.call('POST', completePath(tx), { outcome: 'success' })
    await nsHook.waitFor(1)
    // the events API long-polls until the delivery is recorded
    const polled = await sb.call('GET', `${eventsOf(p.reference)}&status=delivered&wait=10000`)
    expect(polled.status).toBe(200)
    expect(polled.body.data).toHaveLength(1)
    const ev = polled.body.data[0]
    expect(ev).toMatchObject({ event: 'charge.success', target: nsHook.url, status: 'delivered' })
    expect(ev.attempts).toHaveLength(1)
    expect(ev.attempts[0].status_code).toBe(200)
    const got = nsHook.received[0]
    expect(got.body).toMatchObject({
      event: 'charge.success',
      data: { payment_method: 'mobile_money', reference: p.reference, payment_reference: p.reference, transaction_reference: tx, amount: 100, currency: 'KES', status: 'success' },
    })
    expect(verifyWebhookSignature(got.raw, got.headers['x-korapay-signature'] as string, 'sk_test_sandbox')).toBe(true)
  })
})

describe('create refusals, each creating nothing', () => {
  const KES = KES_OK().number
  const cases: [string, (p: Record<string, any>) => unknown, string][] = [
    ['currency NGN', (p) => ({ ...p, currency: 'NGN' }), 'currency'],
    ['currency USD', (p) => ({ ...p, currency: 'USD' }), 'currency'],
    ['currency in lower case', (p) => ({ ...p, currency: 'kes' }), 'currency'],
    ['no currency', ({ currency: _c, ...p }) => p, 'currency'],
    ['a wallet number with letters', (p) => ({ ...p, mobile_money: { number: '25470000000a' } }), 'mobile_money.number'],
    ['a wallet number with spaces', (p) => ({ ...p, mobile_money: { number: '254 700 000 000' } }), 'mobile_money.number'],
    ['a wallet number far too short', (p) => ({ ...p, mobile_money: { number: '2547000' } }), 'mobile_money.number'],
    ['an empty wallet number', (p) => ({ ...p, mobile_money: { number: '' } }), 'mobile_money.number'],
    ['a numeric wallet number', (p) => ({ ...p, mobile_money: { number: 254700000000 } }), 'mobile_money.number'],
    ['no mobile_money', ({ mobile_money: _m, ...p }) => p, 'mobile_money'],
    ['a reference of 7 characters', (p) => ({ ...p, reference: 'abc1234' }), 'reference'],
    ['a reference of 7 characters padded with spaces', (p) => ({ ...p, reference: '  abc1234  ' }), 'reference'],
    ['no reference', ({ reference: _r, ...p }) => p, 'reference'],
    ['a numeric reference', (p) => ({ ...p, reference: 123456789 }), 'reference'],
    ['no customer.email', (p) => ({ ...p, customer: { name: 'No Mail' } }), 'customer.email'],
    ['a customer.email that is not an e-mail', (p) => ({ ...p, customer: { ...CUSTOMER, email: 'not-an-email' } }), 'customer.email'],
    ['no customer', ({ customer: _c, ...p }) => p, 'customer'],
    ['empty metadata', (p) => ({ ...p, metadata: {} }), 'metadata'],
    ['metadata with 6 keys', (p) => ({ ...p, metadata: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 } }), 'metadata'],
    ['a metadata key of 21 characters', (p) => ({ ...p, metadata: { ['k'.repeat(21)]: 1 } }), 'metadata'],
    ['a metadata key with a space', (p) => ({ ...p, metadata: { 'order id': 1 } }), 'metadata'],
    ['a metadata key with an underscore', (p) => ({ ...p, metadata: { order_id: 1 } }), 'metadata'],
    ['metadata that is an array', (p) => ({ ...p, metadata: ['a'] }), 'metadata'],
    ['amount 0', (p) => ({ ...p, amount: 0 }), 'amount'],
    ['a negative amount', (p) => ({ ...p, amount: -5 }), 'amount'],
    ['an amount with 3 decimals', (p) => ({ ...p, amount: 100.005 }), 'amount'],
    ['an amount as a string', (p) => ({ ...p, amount: '100' }), 'amount'],
    ['no amount', ({ amount: _a, ...p }) => p, 'amount'],
    ['a notification_url that is ftp', (p) => ({ ...p, notification_url: 'ftp://example.com/hook' }), 'notification_url'],
    ['a notification_url that is not a URL', (p) => ({ ...p, notification_url: 'not a url' }), 'notification_url'],
    ['a javascript: notification_url', (p) => ({ ...p, notification_url: 'javascript:alert(1)' }), 'notification_url'],
    ['a redirect_url that is not http(s)', (p) => ({ ...p, redirect_url: 'file:///etc/passwd' }), 'redirect_url'],
    ['merchant_bears_cost as a string', (p) => ({ ...p, merchant_bears_cost: 'true' }), 'merchant_bears_cost'],
    ['a description of 256 characters', (p) => ({ ...p, description: 'd'.repeat(256) }), 'description'],
  ]

  // a number of the right form but not of the currency's country code and length: the service's own 422 (docs/behaviour.md#mobile-money-charge)
  it.each([
    ['a KES wallet without 254 (local format)', 'KES', '0700000000'],
    ['a KES wallet with the GHS country code', 'KES', '233555555555'],
    ['a GHS wallet with the KES country code', 'GHS', '254799999999'],
    ['a wallet number one digit short', 'KES', '25470000000'],
    ['a wallet number one digit long', 'KES', '2547000000000'],
    ['a KES wallet with its +', 'KES', '+233555555555'],
  ])('refuses %s as 422 Invalid phone number', async (_label, currency, number) => {
    const sb = await sandbox()
    const body = mmPayload(KES, currency, { mobile_money: { number } })
    const res = await sb.call('POST', MM, body)
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ status: false, message: `Invalid phone number: ${number}`, data: null })
    await expectNothingCreated(sb, body.reference)
  })

  it.each(cases)('refuses %s as Invalid request data', async (_label, mutate, field) => {
    const sb = await sandbox()
    const body = mutate(mmPayload(KES, 'KES')) as Record<string, any>
    const res = await sb.call('POST', MM, body)
    expect(res.status).toBe(422)
    expect(res.body.status).toBe(false)
    expect(res.body.message).toBe('Invalid request data')
    expect(res.body.code).toBeUndefined()
    expect(res.body.data).toHaveProperty([field])
    expect(res.body.data[field].message.startsWith(`${field} `)).toBe(true)
    await expectNothingCreated(sb, body.reference)
  })

  it('accepts the boundary values next to those refusals', async () => {
    const sb = await sandbox()
    const ok = [
      mmPayload(KES, 'KES', { reference: 'abcd1234' }),
      mmPayload(KES, 'KES', { amount: 100.05 }),
      mmPayload(KES, 'KES', { metadata: { a: 1, b: 2, c: 3, d: 4, 'order-id-12345678901': 5 } }),
      mmPayload(KES, 'KES', { notification_url: 'https://example.com/hook', redirect_url: 'http://localhost/done' }),
      mmPayload(KES, 'KES', { customer: { email: 'only@example.com' } }),
    ]
    for (const p of ok) {
      const res = await sb.call('POST', MM, p)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.data.status).toBe('processing')
    }
  })

  it.each([
    ['malformed JSON', '{"reference": "mm-order-1'],
    ['a JSON array', '[]'],
    ['a JSON string', '"hello"'],
    ['an empty body', ''],
  ])('refuses %s as Invalid request data', async (_label, raw) => {
    const sb = await sandbox()
    const res = await sb.call('POST', MM, undefined, { raw })
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject(invalidBody({ body: expect.any(String) }))
    await expectNothingCreated(sb, 'mm-order-1')
  })

  it('refuses a duplicate reference with Duplicate payment reference and keeps the first charge', async () => {
    const sb = await sandbox()
    const p = mmPayload(KES, 'KES')
    const first = await sb.call('POST', MM, p)
    expect(first.status).toBe(200)
    const tx = first.body.data.transaction_reference
    const before = await snapshot(sb, tx, p.reference)
    for (const again of [p, { ...p, currency: 'GHS', mobile_money: { number: GHS_OK().number } }, { ...p, amount: 5 }]) {
      const res = await sb.call('POST', MM, again)
      expect(res.status).toBe(409)
      expect(res.body).toEqual({ status: false, message: 'Duplicate payment reference', data: null })
    }
    expect(await snapshot(sb, tx, p.reference)).toEqual(before)
    // the merchant's reference still finds the first charge, the one its transaction reference finds
    expect([before.byTx.status, before.byRef.body]).toEqual([200, before.byTx.body])
  })

  it('refuses a reference already used by a card charge', async () => {
    const sb = await sandbox()
    const card = cardPayload('4084127883172787')
    expect((await sb.charge(card)).body.data.status).toBe('success')
    const before = await sb.call('GET', query(card.reference))
    const res = await sb.call('POST', MM, mmPayload(KES, 'KES', { reference: card.reference }))
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ status: false, message: 'Duplicate payment reference', data: null })
    expect(await sb.call('GET', query(card.reference))).toEqual(before)
    expect(await paymentTimers(sb)).toEqual([])
  })

  it.each([
    ['233240000000', 'KES'],
    ['233274611986', 'KES'],
    ['254700000000', 'GHS'],
    ['254734611986', 'GHS'],
  ])('refuses the listed wallet %s used with %s as Invalid phone number', async (number, currency) => {
    const sb = await sandbox()
    expect(byNumber(number).currency).not.toBe(currency)
    const p = mmPayload(number, currency)
    const res = await sb.call('POST', MM, p)
    // the service's sample: a GHS number sent with KES
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ status: false, message: `Invalid phone number: ${number}`, data: null })
    await expectNothingCreated(sb, p.reference)
  })
})

describe('authorize refusals, each changing nothing', () => {
  it('answers 404 Transaction not found for an unknown reference on every step call', async () => {
    const sb = await sandbox()
    const calls: [string, unknown][] = [
      [AUTHORIZE, { reference: 'MO-no-such-transaction', token: '123456' }],
      [AUTHORIZE_STK, { reference: 'MO-no-such-transaction', pin: '1234' }],
      [RESEND_OTP, { transaction_reference: 'MO-no-such-transaction' }],
      [RESEND_STK, { transaction_reference: 'MO-no-such-transaction' }],
    ]
    for (const [path, body] of calls) {
      const res = await sb.call('POST', path, body)
      expect(res.status, path).toBe(404)
      expect(res.body).toEqual({ status: false, message: 'Transaction not found', data: null })
    }
    await expectNothingCreated(sb, 'MO-no-such-transaction')
  })

  it('refuses every step call on a successful charge with 409 Transaction has already been completed (the service\'s samples)', async () => {
    const sb = await sandbox()
    const { p, tx } = await toStkPrompt(sb, GHS_OK())
    expect((await sb.call('POST', AUTHORIZE_STK, { reference: tx, pin: '1234' })).body.data.status).toBe('success')
    await refusedAsCompleted(sb, tx, p.reference, [
      [AUTHORIZE, { reference: tx, token: '123456' }],
      [AUTHORIZE, { reference: tx, token: '000000' }],
      [AUTHORIZE_STK, { reference: tx, pin: '1234' }],
      [AUTHORIZE_STK, { reference: tx, pin: '9999' }],
      [RESEND_OTP, { transaction_reference: tx }],
      [RESEND_STK, { transaction_reference: tx }],
    ])
  })

  it('refuses every step call on a failed charge with 409 Transaction has already been completed', async () => {
    const sb = await sandbox()
    const { p, tx } = await toStkPrompt(sb, GHS_FAIL())
    await advance(sb, 2)
    await expectQuery(sb, p, tx, 'failed', { message: GHS_FAIL().message })
    await refusedAsCompleted(sb, tx, p.reference, [
      [AUTHORIZE, { reference: tx, token: '123456' }],
      [AUTHORIZE_STK, { reference: tx, pin: '1234' }],
      [RESEND_OTP, { transaction_reference: tx }],
      [RESEND_STK, { transaction_reference: tx }],
    ])
  })

  it('refuses authorize at the STK stage with 409 OTP is not required for this transaction', async () => {
    const sb = await sandbox()
    for (const wallet of [KES_OK(), GHS_OK()]) {
      const { p, tx } = await toStkPrompt(sb, wallet)
      const before = await snapshot(sb, tx, p.reference)
      for (const token of ['123456', '000000']) {
        const res = await sb.call('POST', AUTHORIZE, { reference: tx, token })
        expect(res.status).toBe(409)
        expect(res.body).toEqual({ status: false, message: 'OTP is not required for this transaction', data: null })
      }
      expect(await snapshot(sb, tx, p.reference)).toEqual(before)
    }
  })

  it('refuses authorize-stk while the OTP step is pending, and the OTP still passes afterwards', async () => {
    const sb = await sandbox()
    const p = mmPayload(GHS_OK().number, 'GHS')
    const tx = (await sb.call('POST', MM, p)).body.data.transaction_reference
    const before = await snapshot(sb, tx, p.reference)
    for (const pin of ['1234', '9999']) {
      const res = await sb.call('POST', AUTHORIZE_STK, { reference: tx, pin })
      expect(res.status).toBe(409)
      expect(res.body).toEqual({ status: false, message: 'STK is not required for this transaction', data: null })
    }
    expect(await snapshot(sb, tx, p.reference)).toEqual(before)
    const ok = await sb.call('POST', AUTHORIZE, { reference: tx, token: '123456' })
    expect(ok.body.data.auth_model).toBe('STK_PROMPT')
  })

  it('refuses a malformed PIN as Invalid request data, changing nothing', async () => {
    const sb = await sandbox()
    const { p, tx } = await toStkPrompt(sb, KES_OK())
    const before = await snapshot(sb, tx, p.reference)
    for (const pin of ['abcd', '12', '', 1234]) {
      const res = await sb.call('POST', AUTHORIZE_STK, { reference: tx, pin })
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject(invalidBody({ pin: expect.any(String) }))
    }
    for (const body of [{ pin: '1234' }, { reference: '', pin: '1234' }]) {
      const res = await sb.call('POST', AUTHORIZE_STK, body)
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject(invalidBody({ reference: expect.any(String) }))
    }
    expect(await snapshot(sb, tx, p.reference)).toEqual(before)
  })

  it('fails the charge with The PIN entered is incorrect on a wrong PIN at the prompt', async () => {
    const sb = await sandbox()
    for (const wallet of [KES_OK(), GHS_OK()]) {
      const { p, tx } = await toStkPrompt(sb, wallet)
      const res = await sb.call('POST', AUTHORIZE_STK, { reference: tx, pin: '9999' })
      expect(res.status).toBe(200)
      expect(res.body.message).toBe('The PIN entered is incorrect')
      expect(res.body.data).toMatchObject({ status: 'failed', transaction_reference: tx, message: 'The PIN entered is incorrect' })
      await expectQuery(sb, p, tx, 'failed', { message: 'The PIN entered is incorrect' })
      const events = await eventsFor(sb, p.reference)
      expect(events.map((e) => e.event)).toEqual(['charge.failed'])
      // the prompt's own timer is gone: the wallet's success never follows
      await advance(sb, 10)
      await expectQuery(sb, p, tx, 'failed', { message: 'The PIN entered is incorrect' })
      expect(await eventsFor(sb, p.reference)).toHaveLength(1)
    }
  })
})

describe('resend-otp and resend-stk', () => {
  it('refuses resend-otp at the STK stage with 409, changing nothing', async () => {
    const sb = await sandbox()
    for (const wallet of [KES_OK(), GHS_OK()]) {
      const { p, tx } = await toStkPrompt(sb, wallet)
      const before = await snapshot(sb, tx, p.reference)
      const res = await sb.call('POST', RESEND_OTP, { transaction_reference: tx })
      expect(res.status).toBe(409)
      expect(res.body.status).toBe(false)
      expect(typeof res.body.message).toBe('string')
      expect(res.body.message).not.toBe('Invalid request data')
      expect(await snapshot(sb, tx, p.reference)).toEqual(before)
    }
  })

  it('refuses resend-stk at the OTP stage with 409, changing nothing', async () => {
    const sb = await sandbox()
    const p = mmPayload(GHS_OK().number, 'GHS')
    const tx = (await sb.call('POST', MM, p)).body.data.transaction_reference
    const before = await snapshot(sb, tx, p.reference)
    const res = await sb.call('POST', RESEND_STK, { transaction_reference: tx })
    expect(res.status).toBe(409)
    expect(res.body.status).toBe(false)
    expect(res.body.message).not.toBe('Invalid request data')
    expect(await snapshot(sb, tx, p.reference)).toEqual(before)
    // no prompt was pushed: the clock does not complete it
    await advance(sb, 10)
    await expectQuery(sb, p, tx, 'processing')
  })

  it('refuses a resend without transaction_reference as Invalid request data', async () => {
    const sb = await sandbox()
    for (const path of [RESEND_OTP, RESEND_STK]) {
      const res = await sb.call('POST', path, {})
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject(invalidBody({ transaction_reference: expect.any(String) }))
    }
  })

  it('restarts the prompt delay on resend-stk', async () => {
    const sb = await sandbox()
    const { p, tx } = await toStkPrompt(sb, KES_OK())
    await advance(sb, 1.5)
    await expectQuery(sb, p, tx, 'processing')
    const res = await sb.call('POST', RESEND_STK, { transaction_reference: tx })
    expect(res.status).toBe(200)
    expect(res.body.status).toBe(true)
    expect(res.body).toEqual({ status: true, message: 'Kindly authorize transaction with the new STK sent to your phone', data: null })
    // 3 s after the first prompt, 1.5 s after the resent one: still waiting
    await advance(sb, 1.5)
    await expectQuery(sb, p, tx, 'processing')
    await expectEvents(sb, p, tx, 'processing')
    await advance(sb, 0.5)
    await expectQuery(sb, p, tx, 'success')
    await expectEvents(sb, p, tx, 'success')
    // exactly one prompt timer was ever live: one event, however far the clock goes
    await advance(sb, 60)
    expect(await eventsFor(sb, p.reference)).toHaveLength(1)
  })

  it('lets the PIN answer a resent prompt', async () => {
    const sb = await sandbox()
    const { p, tx } = await toStkPrompt(sb, GHS_OK())
    expect((await sb.call('POST', RESEND_STK, { transaction_reference: tx })).status).toBe(200)
    const res = await sb.call('POST', AUTHORIZE_STK, { reference: tx, pin: '1234' })
    expect(res.body.data.status).toBe('success')
    await expectQuery(sb, p, tx, 'success')
  })
})

import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { CARD_MSG } from '../src/cards/messages.js'
import { MSG } from '../src/messages.js'
import { ENC_KEY, cardPayload, makeSandbox, ref, type TestSandbox, fieldMessages } from './helpers/sandbox.js'
import { NO_AUTH_CARD, PIN_CARD, INSUFFICIENT_FUNDS_CARD, INSUFFICIENT_FUNDS } from './helpers/cards.js'

/**
 * The pre-authorization / capture / void / refund ledger end to end through HTTP
 * (docs/api.md 2.5, 3.2, 4.1, 8; docs/behaviour.md#http and docs/behaviour.md#preauth): every transition, every refusal with its
 * status and message (and that a refusal changes nothing: same charge query, no new event),
 * a model-based property test over random command sequences, and racing captures.
 *
 * Every test works in its own namespace (its own `sk_test_` key), so clock advances never leak.
 */

const BASE = '/merchant/api/v1/charges'
const CHARGE = `${BASE}/card`
const PREAUTH = `${CHARGE}/pre-authorize`
const AUTHORIZE = `${CHARGE}/authorize`
const CAPTURE = `${CHARGE}/capture`
const VOID = `${CHARGE}/void`
const REFUND = `${CHARGE}/refund`

const HOUR_MS = 3_600_000
const VALIDITY_HOURS = 168
const SETTLEMENT_HOURS = 24

const INVALID = 'Invalid request data'
const NOT_FOUND = 'Transaction not found'
const EXPIRY_FORMAT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

const sb = await makeSandbox()
afterAll(() => sb.close())

let keyCounter = 0
const newKey = () => `sk_test_preauth_${Date.now().toString(36)}_${++keyCounter}`

/** `YYYY-MM-DD HH:MM:SS` in UTC, as docs/api.md 2.5 formats pre_auth_expiry. */
const fmt = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')
const parseExpiry = (s: string) => Date.parse(`${s.replace(' ', 'T')}Z`)
const minor = (major: number) => Math.round(major * 100)

type Res = { status: number; body: any; headers?: Headers }

/** The calls of one namespace. */
function client(box: TestSandbox = sb, key: string = newKey()) {
  const call = (method: string, path: string, body?: unknown): Promise<Res> => box.call(method, path, body, { key })
  return {
    key,
    call,
    preauthorize: (payload: unknown) => call('POST', PREAUTH, { charge_data: encryptChargeData(payload, ENC_KEY) }),
    charge: (payload: unknown) => call('POST', CHARGE, { charge_data: encryptChargeData(payload, ENC_KEY) }),
    authorize: (transaction_reference: string, authorization: unknown) => call('POST', AUTHORIZE, { transaction_reference, authorization }),
    capture: (body: Record<string, unknown>) => call('POST', CAPTURE, body),
    void: (body: Record<string, unknown>) => call('POST', VOID, body),
    refund: (body: Record<string, unknown>) => call('POST', REFUND, body),
    query: (reference: string) => call('GET', `${BASE}/${encodeURIComponent(reference)}`),
    settle: (reference: string) => call('POST', `/_sandbox/captures/${encodeURIComponent(reference)}/settle`),
    advanceHours: async (hours: number) => {
      const res = await call('POST', '/_sandbox/clock/advance', { seconds: hours * 3600 })
      expect(res.status).toBe(200)
      return res
    },
    clockMs: async (): Promise<number> => {
      const res = await call('GET', '/_sandbox/clock')
      expect(res.status).toBe(200)
      return res.body.data.now_ms
    },
    events: async (event?: string): Promise<any[]> => {
      const res = await call('GET', `/_sandbox/events${event ? `?event=${encodeURIComponent(event)}` : ''}`)
      expect(res.status).toBe(200)
      return res.body.data
    },
  }
}
type Client = ReturnType<typeof client>

interface Hold {
  pref: string
  tx: string
  data: any
}

/** A successful pre-authorization of `amount` on the no-auth card. */
async function hold(c: Client, amount: number | string = 1000, overrides: Record<string, unknown> = {}): Promise<Hold> {
  const res = await c.preauthorize(cardPayload(NO_AUTH_CARD, { amount, ...overrides }))
  expect(res.status).toBe(200)
  expect(res.body.status).toBe(true)
  expect(res.body.data.status).toBe('pre_authorized')
  return { pref: res.body.data.payment_reference, tx: res.body.data.transaction_reference, data: res.body.data }
}

const captureBody = (h: Hold, amount: number | string, transaction_reference = ref('cap')) => ({
  amount,
  currency: 'NGN',
  payment_reference: h.pref,
  transaction_reference,
})
const voidBody = (h: Hold, target: string, transaction_reference = ref('void')) => ({
  payment_reference: h.pref,
  transaction_reference,
  target_transaction_reference: target,
})
const refundBody = (h: { pref: string }, target: string, amount: number | string, transaction_reference = ref('rfd')) => ({
  amount,
  currency: 'NGN',
  payment_reference: h.pref,
  transaction_reference,
  target_transaction_reference: target,
})

/** A successful capture; returns its record. */
async function capture(c: Client, h: Hold, amount: number | string, tx?: string): Promise<any> {
  const res = await c.capture(captureBody(h, amount, tx))
  expect(res.body.message).toBe(CARD_MSG.CHARGED)
  expect(res.status).toBe(200)
  expect(res.body.data.status).toBe('success')
  return res.body.data
}

async function queryData(c: Client, reference: string): Promise<any> {
  const res = await c.query(reference)
  expect(res.status).toBe(200)
  expect(res.body.status).toBe(true)
  return res.body.data
}

/**
 * Runs a call that must be refused with `status` and `message`, and checks it changed nothing:
 * the charge query of every reference in `refs` and the namespace's events are identical after.
 */
async function expectRefused(c: Client, refs: string[], act: () => Promise<Res>, status: number, message: string): Promise<Res> {
  const before = { queries: await Promise.all(refs.map((r) => c.query(r))), events: await c.events() }
  const res = await act()
  expect({ status: res.status, message: res.body.message, ok: res.body.status }).toEqual({ status, message, ok: false })
  // docs/behaviour.md#http: errors are the JSON envelope too
  expect(Object.keys(res.body).sort()).toEqual(status === 422 ? ['data', 'error', 'message', 'status'] : ['data', 'message', 'status'])
  if (res.headers) expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  const after = { queries: await Promise.all(refs.map((r) => c.query(r))), events: await c.events() }
  expect(after).toEqual(before)
  return res
}

// ---------------------------------------------------------------------------------------------
describe('pre-authorize (docs/api.md 2.5, 3.2; docs/behaviour.md#preauth)', () => {
  it('holds the amount on a no-auth card: the 2.5 record with expiry = now + 7 days and gateway metadata', async () => {
    const c = client()
    const t0 = await c.clockMs()
    const payload = cardPayload(NO_AUTH_CARD, { amount: 1000, dynamic_descriptor: 'SHOP2024' })
    const res = await c.preauthorize(payload)
    const t1 = await c.clockMs()
    expect(res.status).toBe(200)
    expect(res.body.status).toBe(true)
    expect(res.body.message).toBe('success')
    const d = res.body.data
    expect(d).toMatchObject({
      amount: 1000,
      total_authorized_amount: 1000,
      total_captured_amount: 0,
      total_refunded_amount: 0,
      currency: 'NGN',
      payment_reference: payload.reference,
      auth_model: 'NO_AUTH',
      status: 'pre_authorized',
      charge_operation: 'pre_authorization',
      card: { card_type: 'visa', first_six: '408412', last_four: '2787', expiry: '09/30' },
    })
    expect(typeof d.transaction_reference).toBe('string')
    expect(d.transaction_reference).not.toBe(payload.reference)
    expect(typeof d.response_message).toBe('string')
    // pre_auth_expiry: YYYY-MM-DD HH:MM:SS, 168 h after the namespace's now
    expect(d.pre_auth_expiry).toMatch(EXPIRY_FORMAT)
    const expiry = parseExpiry(d.pre_auth_expiry)
    expect(expiry).toBeGreaterThanOrEqual(Math.floor((t0 + VALIDITY_HOURS * HOUR_MS) / 1000) * 1000)
    expect(expiry).toBeLessThanOrEqual(t1 + VALIDITY_HOURS * HOUR_MS)
    expect(d.pre_auth_expiry >= fmt(t0 + VALIDITY_HOURS * HOUR_MS)).toBe(true)
    expect(d.pre_auth_expiry <= fmt(t1 + VALIDITY_HOURS * HOUR_MS)).toBe(true)
    // metadata {gateway_code: "00", receipt, stan}
    expect(Object.keys(d.metadata).sort()).toEqual(['gateway_code', 'receipt', 'stan'])
    expect(d.metadata.gateway_code).toBe('00')
    expect(d.metadata.receipt).toMatch(/^\S+$/)
    expect(d.metadata.stan).toMatch(/^\d+$/)

    // the charge query shows the hold
    const q = await queryData(c, payload.reference)
    expect(q).toMatchObject({
      reference: payload.reference,
      status: 'pre_authorized',
      charge_operation: 'pre_authorization',
      amount: '1000.00',
      currency: 'NGN',
      total_authorized_amount: 1000,
      total_captured_amount: 0,
      total_refunded_amount: 0,
      pre_auth_expiry: d.pre_auth_expiry,
      operations: [],
      card: d.card,
    })
    // a hold costs nothing and pays nothing yet
    expect(q.amount_paid).toBe('0.00')
    expect(q.fee).toBe(0)
    // the query by transaction reference finds the same record
    expect(await queryData(c, d.transaction_reference)).toEqual(q)
  })

  it('a PIN card answers processing with required_fields [pin]; authorize with the PIN answers the pre_authorized record', async () => {
    const c = client()
    const payload = cardPayload(PIN_CARD, { amount: 500 })
    const res = await c.preauthorize(payload)
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Charge in progress')
    expect(res.body.data).toMatchObject({ status: 'processing', auth_model: 'PIN', authorization: { required_fields: ['pin'] } })
    const tx = res.body.data.transaction_reference
    expect((await queryData(c, payload.reference)).status).toBe('processing')

    const t0 = await c.clockMs()
    const auth = await c.authorize(tx, { pin: '1234' })
    const t1 = await c.clockMs()
    expect(auth.status).toBe(200)
    expect(auth.body.status).toBe(true)
    expect(auth.body.message).toBe('success')
    expect(auth.body.data).toMatchObject({
      amount: 500,
      total_authorized_amount: 500,
      total_captured_amount: 0,
      total_refunded_amount: 0,
      payment_reference: payload.reference,
      transaction_reference: tx,
      status: 'pre_authorized',
      charge_operation: 'pre_authorization',
      metadata: { gateway_code: '00' },
      card: { card_type: 'mastercard', first_six: '518851', last_four: '2975', expiry: '09/30' },
    })
    expect(auth.body.data.authorization).toBeUndefined()
    // the hold (and its 7 days) starts when the steps are done
    const expiry = parseExpiry(auth.body.data.pre_auth_expiry)
    expect(expiry).toBeGreaterThanOrEqual(Math.floor((t0 + VALIDITY_HOURS * HOUR_MS) / 1000) * 1000)
    expect(expiry).toBeLessThanOrEqual(t1 + VALIDITY_HOURS * HOUR_MS)

    const q = await queryData(c, payload.reference)
    expect(q).toMatchObject({ status: 'pre_authorized', total_authorized_amount: 500 })
    // and it can now be captured
    const cap = await capture(c, { pref: payload.reference, tx, data: auth.body.data }, 500)
    expect(cap.total_captured_amount).toBe(500)
  })

  it('a PIN sent up front consumes the PIN step: pre_authorized at once', async () => {
    const c = client()
    const res = await c.preauthorize(cardPayload(PIN_CARD, { amount: 250 }, { pin: '1234' }))
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('success')
    expect(res.body.data).toMatchObject({ status: 'pre_authorized', total_authorized_amount: 250, charge_operation: 'pre_authorization' })
  })

  it('a failing card answers failed and holds nothing: no capture possible', async () => {
    const c = client()
    const payload = cardPayload(INSUFFICIENT_FUNDS_CARD, { amount: 1000 }, { cvv: '408' })
    const res = await c.preauthorize(payload)
    expect(res.status).toBe(200)
    expect(res.body.status).toBe(true)
    expect(res.body.message).toBe(INSUFFICIENT_FUNDS)
    expect(res.body.data).toMatchObject({ status: 'failed', response_message: INSUFFICIENT_FUNDS, payment_reference: payload.reference })
    expect(res.body.data.total_authorized_amount).toBeUndefined()
    const q = await queryData(c, payload.reference)
    expect(q.status).toBe('failed')
    expect(q.payment_attempts).toEqual([expect.objectContaining({ status: 'failed', channel: 'card', message: INSUFFICIENT_FUNDS })])
    const h = { pref: payload.reference, tx: res.body.data.transaction_reference, data: res.body.data }
    await expectRefused(c, [h.pref], () => c.capture(captureBody(h, 100)), 400, CARD_MSG.FAILED)
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, h.tx)), 400, CARD_MSG.FAILED)
  })

  for (const amount of [0, 0.1]) {
    it(`zero auth (amount ${amount}): answered pre_authorized, released at once (query voided), capture refused`, async () => {
      const c = client()
      const h = await hold(c, amount)
      expect(h.data).toMatchObject({ amount, total_authorized_amount: amount, total_captured_amount: 0, status: 'pre_authorized', charge_operation: 'pre_authorization' })
      const q = await queryData(c, h.pref)
      expect(q).toMatchObject({ status: 'voided', total_authorized_amount: 0, total_captured_amount: 0, total_refunded_amount: 0, operations: [] })
      await expectRefused(c, [h.pref], () => c.capture(captureBody(h, 0.1)), 400, CARD_MSG.VOIDED)
      await expectRefused(c, [h.pref], () => c.void(voidBody(h, h.tx)), 400, CARD_MSG.VOIDED)
      // nothing comes back to life with the clock
      await c.advanceHours(VALIDITY_HOURS + 1)
      expect((await queryData(c, h.pref)).status).toBe('voided')
    })
  }
})

// ---------------------------------------------------------------------------------------------
describe('capture (docs/api.md 3.2, 4.1, 8; docs/behaviour.md#preauth)', () => {
  it('partial captures 400 then 600 of 1000, with fees and totals; the hold is then fully captured', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const tx1 = ref('cap')
    const c1 = await capture(c, h, 400, tx1)
    expect(c1).toEqual({
      amount: 400,
      amount_charged: 400,
      fee: 5.6,
      vat: 0.42,
      total_authorized_amount: 1000,
      total_captured_amount: 400,
      total_refunded_amount: 0,
      currency: 'NGN',
      payment_reference: h.pref,
      transaction_reference: tx1,
      response_message: CARD_MSG.CHARGED,
      status: 'success',
      charge_operation: 'capture',
      pre_auth_expiry: h.data.pre_auth_expiry,
      metadata: h.data.metadata,
      card: h.data.card,
      settled: false,
      voided: false,
    })
    const tx2 = ref('cap')
    const c2 = await capture(c, h, 600, tx2)
    expect(c2).toMatchObject({ amount: 600, fee: 8.4, vat: 0.63, total_authorized_amount: 1000, total_captured_amount: 1000, total_refunded_amount: 0 })

    const q = await queryData(c, h.pref)
    expect(q).toMatchObject({ status: 'pre_authorized', total_authorized_amount: 1000, total_captured_amount: 1000, total_refunded_amount: 0, amount_paid: '1000.00', fee: 14 })
    // the captures' VAT is in their records, not in the query (docs/behaviour.md#card-outcomes-and-query)
    expect(q).not.toHaveProperty('vat')
    expect(q.operations.map((o: any) => [o.transaction_reference, o.charge_operation, o.amount, o.settled, o.voided])).toEqual([
      [tx1, 'capture', 400, true, false],
      [tx2, 'capture', 600, false, false],
    ])
    // nothing is left: even 0.01 is an over-capture
    const over = await expectRefused(c, [h.pref], () => c.capture(captureBody(h, 0.01)), 400, CARD_MSG.OVER_CAPTURE)
    expect(over.body.data).toEqual({ amount_left: 0 })
  })

  it('takes the amount as a numeric string ("250.50")', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const d = await capture(c, h, '250.50')
    expect(d).toMatchObject({ amount: 250.5, amount_charged: 250.5, total_captured_amount: 250.5, total_authorized_amount: 1000 })
    const q = await queryData(c, h.pref)
    expect(q.total_captured_amount).toBe(250.5)
    expect(q.operations[0].amount).toBe(250.5)
    // the exact rest can be captured, to the kobo
    const rest = await capture(c, h, 749.5)
    expect(rest.total_captured_amount).toBe(1000)
  })

  it('each new capture settles the earlier one: the earlier can no longer be voided, but can be refunded', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const a = await capture(c, h, 100)
    const b = await capture(c, h, 200)
    const q = await queryData(c, h.pref)
    expect(q.operations.map((o: any) => o.settled)).toEqual([true, false])
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, a.transaction_reference)), 400, CARD_MSG.CAPTURE_SETTLED)
    // the latest one is still unsettled: it can be voided, and the earlier one refunded
    const v = await c.void(voidBody(h, b.transaction_reference))
    expect(v.status).toBe(200)
    expect(v.body.data.total_captured_amount).toBe(100)
    const r = await c.refund(refundBody(h, a.transaction_reference, 100))
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({ total_refunded_amount: 100, total_captured_amount: 100 })
  })
})

// ---------------------------------------------------------------------------------------------
describe('void (docs/api.md 3.2, 8; docs/behaviour.md#preauth)', () => {
  it('void of an unsettled capture gives back its amount; the other totals stay', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const cap = await capture(c, h, 300)
    const vtx = ref('void')
    const res = await c.void(voidBody(h, cap.transaction_reference, vtx))
    expect(res.status).toBe(200)
    expect(res.body.status).toBe(true)
    expect(res.body.message).toBe(CARD_MSG.CAPTURE_VOIDED_OK)
    expect(res.body.data).toMatchObject({
      amount: 300,
      total_authorized_amount: 1000,
      total_captured_amount: 0,
      total_refunded_amount: 0,
      currency: 'NGN',
      payment_reference: h.pref,
      transaction_reference: vtx,
      target_transaction_reference: cap.transaction_reference,
      status: 'void_capture',
      charge_operation: 'void_capture',
      pre_auth_expiry: h.data.pre_auth_expiry,
      metadata: h.data.metadata,
      card: h.data.card,
    })
    const q = await queryData(c, h.pref)
    expect(q).toMatchObject({ status: 'pre_authorized', total_authorized_amount: 1000, total_captured_amount: 0, amount_paid: '0.00', fee: 0 })
    expect(q.operations.map((o: any) => [o.transaction_reference, o.charge_operation, o.voided ?? null])).toEqual([
      [cap.transaction_reference, 'capture', true],
      [vtx, 'void_capture', null],
    ])
    // the amount is available again
    expect((await capture(c, h, 1000)).total_captured_amount).toBe(1000)
    // a voided capture cannot be voided again, nor refunded, nor settled
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, cap.transaction_reference)), 400, CARD_MSG.CAPTURE_VOIDED)
    await expectRefused(c, [h.pref], () => c.settle(cap.transaction_reference), 400, CARD_MSG.CAPTURE_VOIDED)
  })

  it('void of the authorization with no capture: totals to 0, void_capture / void_authorization; query voided', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const vtx = ref('void')
    const res = await c.void(voidBody(h, h.tx, vtx))
    expect(res.status).toBe(200)
    expect(res.body.message).toBe(CARD_MSG.AUTH_VOIDED_OK)
    expect(res.body.data).toMatchObject({
      amount: 1000,
      total_authorized_amount: 0,
      total_captured_amount: 0,
      total_refunded_amount: 0,
      payment_reference: h.pref,
      transaction_reference: vtx,
      target_transaction_reference: h.tx,
      status: 'void_capture',
      charge_operation: 'void_authorization',
    })
    const q = await queryData(c, h.pref)
    expect(q).toMatchObject({ status: 'voided', total_authorized_amount: 0, total_captured_amount: 0, total_refunded_amount: 0 })
    expect(q.operations.map((o: any) => o.charge_operation)).toEqual(['void_authorization'])
    await expectRefused(c, [h.pref], () => c.capture(captureBody(h, 1)), 400, CARD_MSG.VOIDED)
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, h.tx)), 400, CARD_MSG.VOIDED)
    // a voided hold does not expire later
    await c.advanceHours(VALIDITY_HOURS)
    expect((await queryData(c, h.pref)).status).toBe('voided')
  })

  it('void of the authorization with exactly one unsettled capture voids both: totals back to 0', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const cap = await capture(c, h, 400)
    const res = await c.void(voidBody(h, h.tx))
    expect(res.status).toBe(200)
    expect(res.body.message).toBe(CARD_MSG.AUTH_VOIDED_OK)
    expect(res.body.data).toMatchObject({ total_authorized_amount: 0, total_captured_amount: 0, total_refunded_amount: 0, status: 'void_capture', charge_operation: 'void_authorization', target_transaction_reference: h.tx })
    const q = await queryData(c, h.pref)
    expect(q).toMatchObject({ status: 'voided', total_authorized_amount: 0, total_captured_amount: 0, amount_paid: '0.00' })
    expect(q.operations.find((o: any) => o.transaction_reference === cap.transaction_reference)).toMatchObject({ voided: true, settled: false })
    // the voided capture never settles and cannot be refunded
    await c.advanceHours(SETTLEMENT_HOURS + 1)
    await expectRefused(c, [h.pref], () => c.refund(refundBody(h, cap.transaction_reference, 1)), 400, CARD_MSG.NOT_REFUNDABLE)
  })
})

// ---------------------------------------------------------------------------------------------
describe('refund (docs/api.md 3.2, 8; docs/behaviour.md#preauth, docs/behaviour.md#webhooks)', () => {
  it('refunds a capture settled by the clock (24 h), partially then fully, and records refund.success', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const cap = await capture(c, h, 500)
    await expectRefused(c, [h.pref], () => c.refund(refundBody(h, cap.transaction_reference, 100)), 400, CARD_MSG.NOT_SETTLED)
    await c.advanceHours(SETTLEMENT_HOURS)
    expect((await queryData(c, h.pref)).operations[0]).toMatchObject({ transaction_reference: cap.transaction_reference, settled: true })

    const rtx = ref('rfd')
    const r1 = await c.refund(refundBody(h, cap.transaction_reference, 200, rtx))
    expect(r1.status).toBe(200)
    expect(r1.body.status).toBe(true)
    expect(r1.body.message).toBe(CARD_MSG.REFUNDED)
    expect(r1.body.data).toMatchObject({
      amount: 200,
      total_authorized_amount: 1000,
      total_captured_amount: 500,
      total_refunded_amount: 200,
      currency: 'NGN',
      payment_reference: h.pref,
      transaction_reference: rtx,
      target_transaction_reference: cap.transaction_reference,
      status: 'success',
      charge_operation: 'refund',
      metadata: h.data.metadata,
      card: h.data.card,
    })
    const events = await c.events('refund.success')
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      event: 'refund.success',
      data: { reference: rtx, payment_reference: h.pref, target_transaction_reference: cap.transaction_reference, amount: 200, currency: 'NGN', status: 'success', payment_method: 'card' },
    })

    // the event is found by the payment reference and by the refund's own reference
    for (const r of [h.pref, rtx]) {
      const byRef = await c.call('GET', `/_sandbox/events?reference=${encodeURIComponent(r)}&event=refund.success`)
      expect(byRef.body.data.map((e: any) => e.id)).toEqual([events[0].id])
    }

    // the rest, as a string: a full refund
    const r2 = await c.refund(refundBody(h, cap.transaction_reference, '300.00'))
    expect(r2.status).toBe(200)
    expect(r2.body.data).toMatchObject({ amount: 300, total_refunded_amount: 500, total_captured_amount: 500 })
    expect(await c.events('refund.success')).toHaveLength(2)
    const q = await queryData(c, h.pref)
    expect(q).toMatchObject({ total_captured_amount: 500, total_refunded_amount: 500, amount_paid: '0.00' })
    expect(q.operations.map((o: any) => o.charge_operation)).toEqual(['capture', 'refund', 'refund'])
    // nothing is left to refund
    const over = await expectRefused(c, [h.pref], () => c.refund(refundBody(h, cap.transaction_reference, 0.01)), 400, CARD_MSG.OVER_REFUND)
    expect(over.body.data).toEqual({ amount_left: 0 })
  })

  it('refunds a capture settled by POST /_sandbox/captures/{ref}/settle', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const cap = await capture(c, h, 750)
    const s = await c.settle(cap.transaction_reference)
    expect(s.status).toBe(200)
    expect(s.body).toMatchObject({ status: true, message: 'Transaction settled', data: { transaction_reference: cap.transaction_reference, charge_operation: 'capture', settled: true } })
    expect((await queryData(c, h.pref)).operations[0].settled).toBe(true)
    // settled: no void any more, of the capture or of the authorization
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, cap.transaction_reference)), 400, CARD_MSG.CAPTURE_SETTLED)
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, h.tx)), 400, CARD_MSG.VOID_SETTLED_CAPTURE)
    const r = await c.refund(refundBody(h, cap.transaction_reference, 750))
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({ amount: 750, total_refunded_amount: 750, charge_operation: 'refund', status: 'success' })
    expect(await c.events('refund.success')).toHaveLength(1)
  })

  it('refunds a plain successful card charge once it is settled (clock or control call)', async () => {
    const c = client()
    const payload = cardPayload(NO_AUTH_CARD, { amount: 1000 })
    const ch = await c.charge(payload)
    expect(ch.status).toBe(200)
    expect(ch.body.data.status).toBe('success')
    const plain = { pref: payload.reference }
    const tx = ch.body.data.transaction_reference
    expect((await queryData(c, payload.reference)).settled).toBe(false)
    // not yet settled
    await expectRefused(c, [payload.reference], () => c.refund(refundBody(plain, tx, 100)), 400, CARD_MSG.NOT_SETTLED)
    // capture and void are for pre-authorizations only
    await expectRefused(c, [payload.reference], () => c.capture(captureBody({ pref: payload.reference } as Hold, 100)), 400, CARD_MSG.NOT_A_PREAUTH)
    await expectRefused(c, [payload.reference], () => c.void(voidBody({ pref: payload.reference } as Hold, tx)), 400, CARD_MSG.NOT_A_PREAUTH)

    await c.advanceHours(SETTLEMENT_HOURS)
    expect((await queryData(c, payload.reference)).settled).toBe(true)
    const rtx = ref('rfd')
    const r = await c.refund(refundBody(plain, tx, 400, rtx))
    expect(r.status).toBe(200)
    expect(r.body.message).toBe(CARD_MSG.REFUNDED)
    expect(r.body.data).toMatchObject({ amount: 400, total_refunded_amount: 400, payment_reference: payload.reference, transaction_reference: rtx, target_transaction_reference: tx, status: 'success', charge_operation: 'refund' })
    const q = await queryData(c, payload.reference)
    expect(q).toMatchObject({ status: 'success', total_refunded_amount: 400 })
    expect(q.operations.map((o: any) => [o.transaction_reference, o.charge_operation, o.amount])).toEqual([[rtx, 'refund', 400]])
    const ev = await c.events('refund.success')
    expect(ev).toHaveLength(1)
    expect(ev[0].data).toMatchObject({ reference: rtx, payment_reference: payload.reference, amount: 400, status: 'success' })
    // over-refund: 400 + 700 > 1000
    await expectRefused(c, [payload.reference], () => c.refund(refundBody(plain, tx, 700)), 400, CARD_MSG.OVER_REFUND)
    const full = await c.refund(refundBody(plain, tx, 600))
    expect(full.status).toBe(200)
    expect(full.body.data.total_refunded_amount).toBe(1000)

    // the control call settles another charge at once
    const p2 = cardPayload(NO_AUTH_CARD, { amount: 80 })
    const ch2 = await c.charge(p2)
    const s = await c.settle(p2.reference)
    expect(s.status).toBe(200)
    expect(s.body.data).toMatchObject({ transaction_reference: ch2.body.data.transaction_reference, payment_reference: p2.reference, settled: true })
    const r2 = await c.refund(refundBody({ pref: p2.reference }, ch2.body.data.transaction_reference, 80))
    expect(r2.status).toBe(200)
    expect(r2.body.data.total_refunded_amount).toBe(80)
  })

  it('a failed plain charge cannot be refunded or settled', async () => {
    const c = client()
    const payload = cardPayload(INSUFFICIENT_FUNDS_CARD, {}, { cvv: '408' })
    const ch = await c.charge(payload)
    expect(ch.body.data.status).toBe('failed')
    await c.advanceHours(SETTLEMENT_HOURS)
    await expectRefused(c, [payload.reference], () => c.refund(refundBody({ pref: payload.reference }, ch.body.data.transaction_reference, 1)), 400, CARD_MSG.NOT_REFUNDABLE)
    const s = await c.settle(payload.reference)
    expect(s.status).toBe(400)
  })
})

// ---------------------------------------------------------------------------------------------
describe('expiry by the clock (docs/behaviour.md#preauth)', () => {
  it('after 168 h: query expired, hold released to the captured part, captures refused, the captured amount still refundable', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const cap = await capture(c, h, 300)
    await c.advanceHours(VALIDITY_HOURS)
    const q = await queryData(c, h.pref)
    expect(q).toMatchObject({ status: 'expired', total_authorized_amount: 300, total_captured_amount: 300, total_refunded_amount: 0, pre_auth_expiry: h.data.pre_auth_expiry })
    await expectRefused(c, [h.pref], () => c.capture(captureBody(h, 100)), 400, CARD_MSG.EXPIRED)
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, h.tx)), 400, CARD_MSG.EXPIRED)
    // the capture settled long ago (24 h): it can be refunded, and its void is refused
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, cap.transaction_reference)), 400, CARD_MSG.CAPTURE_SETTLED)
    const r = await c.refund(refundBody(h, cap.transaction_reference, 300))
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({ total_refunded_amount: 300, total_captured_amount: 300 })
    expect((await queryData(c, h.pref))).toMatchObject({ status: 'expired', total_refunded_amount: 300, amount_paid: '0.00' })
  })

  it('a capture voided after expiry is released: the authorized total stays what is captured', async () => {
    const c = client()
    const h = await hold(c, 1000)
    await c.advanceHours(VALIDITY_HOURS - 12)
    await capture(c, h, 300)
    const second = await capture(c, h, 200)
    await c.advanceHours(12)
    expect(await queryData(c, h.pref)).toMatchObject({ status: 'expired', total_authorized_amount: 500, total_captured_amount: 500 })
    // the later capture settled the first; the last one is still unsettled and can be voided
    const v = await c.void(voidBody(h, second.transaction_reference))
    expect(v.status, JSON.stringify(v.body)).toBe(200)
    expect(v.body.data).toMatchObject({ total_authorized_amount: 300, total_captured_amount: 300 })
    expect(await queryData(c, h.pref)).toMatchObject({ status: 'expired', total_authorized_amount: 300, total_captured_amount: 300, amount_paid: '300.00' })
    // nothing came back to capture
    await expectRefused(c, [h.pref], () => c.capture(captureBody(h, 100)), 400, CARD_MSG.EXPIRED)
  })

  it('an uncaptured hold expires to 0 authorized; one second before 168 h it is still live', async () => {
    const c = client()
    const h = await hold(c, 1000)
    await c.call('POST', '/_sandbox/clock/advance', { seconds: VALIDITY_HOURS * 3600 - 60 })
    expect((await queryData(c, h.pref)).status).toBe('pre_authorized')
    await c.advanceHours(1 / 60)
    expect(await queryData(c, h.pref)).toMatchObject({ status: 'expired', total_authorized_amount: 0, total_captured_amount: 0 })
    await expectRefused(c, [h.pref], () => c.capture(captureBody(h, 1)), 400, CARD_MSG.EXPIRED)
  })

  it('validity and settlement delay follow the namespace\'s settings (a pack added at run time)', async () => {
    const c = client()
    const pack = await c.call('POST', '/_sandbox/scenarios', { name: 'short-holds', settings: { pre_auth_validity_hours: 2, settlement_delay_hours: 1 } })
    expect(pack.status).toBe(200)
    const t0 = await c.clockMs()
    const h = await hold(c, 1000)
    const expiry = parseExpiry(h.data.pre_auth_expiry)
    expect(expiry).toBeGreaterThanOrEqual(Math.floor((t0 + 2 * HOUR_MS) / 1000) * 1000)
    expect(expiry).toBeLessThan(t0 + 2 * HOUR_MS + 60_000)
    const cap = await capture(c, h, 100)
    await c.advanceHours(1)
    const q = await queryData(c, h.pref)
    expect(q).toMatchObject({ status: 'pre_authorized' })
    expect(q.operations[0]).toMatchObject({ transaction_reference: cap.transaction_reference, settled: true })
    await c.advanceHours(1)
    expect(await queryData(c, h.pref)).toMatchObject({ status: 'expired', total_authorized_amount: 100, total_captured_amount: 100 })
    // other namespaces keep the 7 days
    const other = client()
    const h2 = await hold(other, 1000)
    expect(parseExpiry(h2.data.pre_auth_expiry) - expiry).toBeGreaterThan((VALIDITY_HOURS - 3) * HOUR_MS)
  })

  it('an expiry stated in advance matches the moment the query turns expired', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const expiry = parseExpiry(h.data.pre_auth_expiry)
    // to the second before the stated expiry: still live
    await c.call('POST', '/_sandbox/clock/advance', { to: expiry - 1000 })
    expect((await queryData(c, h.pref)).status).toBe('pre_authorized')
    await c.call('POST', '/_sandbox/clock/advance', { to: expiry + 1000 })
    expect((await queryData(c, h.pref)).status).toBe('expired')
  })
})

// ---------------------------------------------------------------------------------------------
describe('refusals change nothing (docs/behaviour.md#http, docs/behaviour.md#preauth)', () => {
  it('unknown payment_reference: 404 Transaction not found on capture, void and refund', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const ghost = { ...h, pref: ref('ghost') }
    await expectRefused(c, [h.pref], () => c.capture(captureBody(ghost, 10)), 404, NOT_FOUND)
    await expectRefused(c, [h.pref], () => c.void(voidBody(ghost, h.tx)), 404, NOT_FOUND)
    await expectRefused(c, [h.pref], () => c.refund(refundBody(ghost, h.tx, 10)), 404, NOT_FOUND)
    // another namespace's pre-authorization is unknown here too
    const other = client()
    await expectRefused(other, [], () => other.capture(captureBody(h, 10)), 404, NOT_FOUND)
    expect((await queryData(c, h.pref)).total_captured_amount).toBe(0)
  })

  it('unknown target: 404 on void and refund, also for a capture of another pre-authorization', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const h2 = await hold(c, 1000)
    const cap2 = await capture(c, h2, 100)
    await c.settle(cap2.transaction_reference)
    const refs = [h.pref, h2.pref]
    await expectRefused(c, refs, () => c.void(voidBody(h, ref('nope'))), 404, NOT_FOUND)
    await expectRefused(c, refs, () => c.refund(refundBody(h, ref('nope'), 10)), 404, NOT_FOUND)
    await expectRefused(c, refs, () => c.void(voidBody(h, cap2.transaction_reference)), 404, NOT_FOUND)
    await expectRefused(c, refs, () => c.refund(refundBody(h, cap2.transaction_reference, 10)), 404, NOT_FOUND)
    // the pre-authorization itself is not refundable
    await expectRefused(c, refs, () => c.refund(refundBody(h, h.tx, 10)), 400, CARD_MSG.NOT_REFUNDABLE)
    // settle of an unknown reference
    await expectRefused(c, refs, () => c.settle(ref('nope')), 404, NOT_FOUND)
  })

  it('over-capture: 400 with the amount left; the refused reference stays free', async () => {
    const c = client()
    const h = await hold(c, 1000)
    await capture(c, h, 999.99)
    const tx = ref('cap')
    const res = await expectRefused(c, [h.pref], () => c.capture(captureBody(h, 0.02, tx)), 400, CARD_MSG.OVER_CAPTURE)
    expect(res.body.data).toEqual({ amount_left: 0.01 })
    const ok = await capture(c, h, 0.01, tx)
    expect(ok.total_captured_amount).toBe(1000)
    // a capture larger than the whole hold, on a fresh one
    const h2 = await hold(c, 1000)
    const big = await expectRefused(c, [h2.pref], () => c.capture(captureBody(h2, '1000.01')), 400, CARD_MSG.OVER_CAPTURE)
    expect(big.body.data).toEqual({ amount_left: 1000 })
  })

  it('capture after void and after expiry', async () => {
    const c = client()
    const voided = await hold(c, 1000)
    expect((await c.void(voidBody(voided, voided.tx))).status).toBe(200)
    await expectRefused(c, [voided.pref], () => c.capture(captureBody(voided, 10)), 400, CARD_MSG.VOIDED)
    const expiring = await hold(c, 1000)
    await c.advanceHours(VALIDITY_HOURS + 1)
    await expectRefused(c, [expiring.pref, voided.pref], () => c.capture(captureBody(expiring, 10)), 400, CARD_MSG.EXPIRED)
  })

  it('void of a settled capture (by the clock, by a later capture, by the control call)', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const byClock = await capture(c, h, 100)
    await c.advanceHours(SETTLEMENT_HOURS)
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, byClock.transaction_reference)), 400, CARD_MSG.CAPTURE_SETTLED)
    const a = await capture(c, h, 100)
    await capture(c, h, 100)
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, a.transaction_reference)), 400, CARD_MSG.CAPTURE_SETTLED)
    const h2 = await hold(c, 1000)
    const b = await capture(c, h2, 100)
    await c.settle(b.transaction_reference)
    await expectRefused(c, [h2.pref], () => c.void(voidBody(h2, b.transaction_reference)), 400, CARD_MSG.CAPTURE_SETTLED)
  })

  it('void of the authorization with two captures after it, or when its one capture is settled', async () => {
    const c = client()
    const h = await hold(c, 1000)
    await capture(c, h, 100)
    const second = await capture(c, h, 100)
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, h.tx)), 400, CARD_MSG.VOID_TOO_MANY)
    // voiding the latest capture leaves one capture, but it is settled (by the later capture)
    expect((await c.void(voidBody(h, second.transaction_reference))).status).toBe(200)
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, h.tx)), 400, CARD_MSG.VOID_SETTLED_CAPTURE)

    const h2 = await hold(c, 1000)
    await capture(c, h2, 100)
    await c.advanceHours(SETTLEMENT_HOURS)
    await expectRefused(c, [h2.pref], () => c.void(voidBody(h2, h2.tx)), 400, CARD_MSG.VOID_SETTLED_CAPTURE)
  })

  it('refund of an unsettled capture, and over-refund across several refunds', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const cap = await capture(c, h, 500)
    await expectRefused(c, [h.pref], () => c.refund(refundBody(h, cap.transaction_reference, 1)), 400, CARD_MSG.NOT_SETTLED)
    await c.settle(cap.transaction_reference)
    expect((await c.refund(refundBody(h, cap.transaction_reference, 300))).status).toBe(200)
    const over = await expectRefused(c, [h.pref], () => c.refund(refundBody(h, cap.transaction_reference, 300)), 400, CARD_MSG.OVER_REFUND)
    expect(over.body.data).toEqual({ amount_left: 200 })
    // a refund bigger than the capture, on its own
    await expectRefused(c, [h.pref], () => c.refund(refundBody(h, cap.transaction_reference, 500.01)), 400, CARD_MSG.OVER_REFUND)
    expect((await c.refund(refundBody(h, cap.transaction_reference, 200))).status).toBe(200)
  })

  it('reused transaction_reference: capture, void and refund; and the pre-authorization\'s own references', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const a = await capture(c, h, 100)
    const refs = [h.pref]
    // a capture reusing an earlier capture's reference
    await expectRefused(c, refs, () => c.capture(captureBody(h, 10, a.transaction_reference)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    // the pre-authorization's payment reference and transaction reference
    await expectRefused(c, refs, () => c.capture(captureBody(h, 10, h.pref)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    await expectRefused(c, refs, () => c.capture(captureBody(h, 10, h.tx)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    const b = await capture(c, h, 100)
    // a void reusing a capture's reference, or the payment reference
    await expectRefused(c, refs, () => c.void(voidBody(h, b.transaction_reference, a.transaction_reference)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    await expectRefused(c, refs, () => c.void(voidBody(h, b.transaction_reference, h.pref)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    const v = await c.void(voidBody(h, b.transaction_reference))
    expect(v.status).toBe(200)
    // a refund reusing the void's, a capture's, or the payment reference
    const vtx = v.body.data.transaction_reference
    await expectRefused(c, refs, () => c.refund(refundBody(h, a.transaction_reference, 10, vtx)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    await expectRefused(c, refs, () => c.refund(refundBody(h, a.transaction_reference, 10, a.transaction_reference)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    await expectRefused(c, refs, () => c.refund(refundBody(h, a.transaction_reference, 10, h.pref)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    const r = await c.refund(refundBody(h, a.transaction_reference, 10))
    expect(r.status).toBe(200)
    await expectRefused(c, refs, () => c.refund(refundBody(h, a.transaction_reference, 10, r.body.data.transaction_reference)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    await expectRefused(c, refs, () => c.capture(captureBody(h, 10, r.body.data.transaction_reference)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    // the references are unique in the namespace: another pre-authorization cannot reuse them either
    const h2 = await hold(c, 1000)
    await expectRefused(c, [h.pref, h2.pref], () => c.capture(captureBody(h2, 10, a.transaction_reference)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    await expectRefused(c, [h.pref, h2.pref], () => c.capture(captureBody(h2, 10, h.pref)), 400, MSG.DUPLICATE_TRANSACTION_REFERENCE)
    // a reused payment reference for a new pre-authorization
    await expectRefused(c, [h.pref], () => c.preauthorize(cardPayload(NO_AUTH_CARD, { reference: h.pref })), 409, 'Duplicate payment reference')
  })

  it('currency mismatch (KES) on capture and refund', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const res = await expectRefused(c, [h.pref], () => c.capture({ ...captureBody(h, 10), currency: 'KES' }), 400, CARD_MSG.CURRENCY_MISMATCH)
    expect(res.body.data).toEqual({ currency: 'must be NGN' })
    const cap = await capture(c, h, 100)
    await c.settle(cap.transaction_reference)
    await expectRefused(c, [h.pref], () => c.refund({ ...refundBody(h, cap.transaction_reference, 10), currency: 'KES' }), 400, CARD_MSG.CURRENCY_MISMATCH)
  })

  const badAmounts: [string, unknown][] = [
    ['3 decimals (number)', 10.123],
    ['3 decimals (string)', '10.123'],
    ['zero', 0],
    ['zero string', '0.00'],
    ['negative', -5],
    ['negative string', '-5'],
    ['non-numeric string', 'abc'],
    ['empty string', ''],
    ['exponent string', '1e3'],
    ['boolean', true],
    ['null', null],
    ['object', { value: 10 }],
  ]
  for (const [label, amount] of badAmounts) {
    it(`amount ${label}: 400 Invalid request data keyed amount, on capture and refund`, async () => {
      const c = client()
      const h = await hold(c, 1000)
      const cap = await capture(c, h, 100)
      await c.settle(cap.transaction_reference)
      const r1 = await expectRefused(c, [h.pref], () => c.capture(captureBody(h, amount as any)), 422, INVALID)
      expect(Object.keys(r1.body.data)).toEqual(['amount'])
      const r2 = await expectRefused(c, [h.pref], () => c.refund(refundBody(h, cap.transaction_reference, amount as any)), 422, INVALID)
      expect(Object.keys(r2.body.data)).toEqual(['amount'])
    })
  }

  it('missing fields: 400 Invalid request data keyed by each missing field', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const cap = await capture(c, h, 100)
    await c.settle(cap.transaction_reference)
    const cases: [(b: Record<string, unknown>) => Promise<Res>, Record<string, unknown>][] = [
      [c.capture, captureBody(h, 10)],
      [c.void, voidBody(h, cap.transaction_reference)],
      [c.refund, refundBody(h, cap.transaction_reference, 10)],
    ]
    for (const [send, body] of cases) {
      for (const field of Object.keys(body)) {
        const { [field]: _gone, ...rest } = body
        const res = await expectRefused(c, [h.pref], () => send(rest), 422, INVALID)
        expect(res.body.data).toEqual(fieldMessages({ [field]: 'is required' }))
        // an empty or blank reference is missing too; a wrong type is named
        if (field !== 'amount' && field !== 'currency') {
          const blank = await expectRefused(c, [h.pref], () => send({ ...body, [field]: '   ' }), 422, INVALID)
          expect(Object.keys(blank.body.data)).toEqual([field])
          const num = await expectRefused(c, [h.pref], () => send({ ...body, [field]: 12345678 }), 422, INVALID)
          expect(Object.keys(num.body.data)).toEqual([field])
        }
      }
      // everything missing: one entry per field
      const none = await expectRefused(c, [h.pref], () => send({}), 422, INVALID)
      expect(Object.keys(none.body.data).sort()).toEqual(Object.keys(body).sort())
    }
    // malformed JSON
    const raw = await sb.call('POST', CAPTURE, undefined, { key: c.key, raw: '{"amount": 10,' })
    expect(raw.status).toBe(422)
    expect(raw.body).toMatchObject({ status: false, message: INVALID })
    expect((await queryData(c, h.pref)).total_captured_amount).toBe(100)
  })

  it('capture, void and refund while the pre-authorization\'s PIN step is pending', async () => {
    const c = client()
    const payload = cardPayload(PIN_CARD, { amount: 1000 })
    const res = await c.preauthorize(payload)
    expect(res.body.data.status).toBe('processing')
    const h = { pref: payload.reference, tx: res.body.data.transaction_reference, data: res.body.data }
    await expectRefused(c, [h.pref], () => c.capture(captureBody(h, 100)), 400, CARD_MSG.NOT_COMPLETE)
    await expectRefused(c, [h.pref], () => c.void(voidBody(h, h.tx)), 400, CARD_MSG.NOT_COMPLETE)
    const r = await c.refund(refundBody(h, h.tx, 100))
    expect(r.status).toBe(400)
    // the PIN step is still there to finish
    const auth = await c.authorize(h.tx, { pin: '1234' })
    expect(auth.body.data.status).toBe('pre_authorized')
  })

  it('dynamic_descriptor over 10 characters or lowercase: Invalid request data, nothing held', async () => {
    const c = client()
    for (const descriptor of ['ABCDEFGHIJK', 'shop1', 'SHOP-1', '']) {
      const payload = cardPayload(NO_AUTH_CARD, { amount: 1000, dynamic_descriptor: descriptor })
      const before = await c.events()
      const res = await c.preauthorize(payload)
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject({ status: false, message: INVALID })
      expect(Object.keys(res.body.data)).toEqual(['dynamic_descriptor'])
      expect((await c.query(payload.reference)).status).toBe(404)
      expect(await c.events()).toEqual(before)
    }
    // exactly 10 upper-case letters and digits are fine
    const ok = await hold(c, 1000, { dynamic_descriptor: 'ABCDE12345' })
    expect(ok.data.status).toBe('pre_authorized')
  })
})

// ---------------------------------------------------------------------------------------------
describe('property: random command sequences keep the ledger consistent with a model', () => {
  type Cmd =
    | { kind: 'capture'; minor: number; asString: boolean }
    | { kind: 'voidCapture'; pick: number }
    | { kind: 'voidAuth' }
    | { kind: 'refund'; pick: number; minor: number; asString: boolean }
    | { kind: 'settle'; pick: number }
    | { kind: 'advance'; hours: number }

  // VALIDITY_HOURS - SETTLEMENT_HOURS / 2: a capture made then is still unsettled when the hold expires
  const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('capture' as const), minor: fc.integer({ min: 1, max: 60_000 }), asString: fc.boolean() }), weight: 5 },
    { arbitrary: fc.record({ kind: fc.constant('voidCapture' as const), pick: fc.nat() }), weight: 2 },
    { arbitrary: fc.constant({ kind: 'voidAuth' as const }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), minor: fc.integer({ min: 1, max: 40_000 }), asString: fc.boolean() }), weight: 4 },
    { arbitrary: fc.record({ kind: fc.constant('settle' as const), pick: fc.nat() }), weight: 2 },
    { arbitrary: fc.record({ kind: fc.constant('advance' as const), hours: fc.oneof(fc.integer({ min: 0, max: 72 }), fc.constantFrom(SETTLEMENT_HOURS, VALIDITY_HOURS, VALIDITY_HOURS - SETTLEMENT_HOURS / 2)) }), weight: 3 },
  )

  interface MCapture {
    ref: string
    minor: number
    at: number
    settled: boolean
    voided: boolean
    refunded: number
  }
  interface Model {
    state: 'pre_authorized' | 'voided' | 'expired'
    authorized: number
    captured: number
    refunded: number
    hours: number
    captures: MCapture[]
  }
  type Expect = { ok: true; message: string } | { ok: false; status: number; message: string }

  const settledIn = (m: Model, c: MCapture) => !c.voided && (c.settled || m.hours - c.at >= SETTLEMENT_HOURS)
  const money = (minorUnits: number, asString: boolean) => (asString ? (minorUnits / 100).toFixed(2) : minorUnits / 100)
  const refuse = (status: number, message: string): Expect => ({ ok: false, status, message })

  /** Applies a command to the model; returns what the API must answer. */
  function step(m: Model, cmd: Cmd, newRef: string): Expect {
    const pickCapture = (pick: number) => (m.captures.length ? m.captures[pick % m.captures.length] : undefined)
    switch (cmd.kind) {
      case 'capture': {
        if (m.state === 'voided') return refuse(400, CARD_MSG.VOIDED)
        if (m.state === 'expired') return refuse(400, CARD_MSG.EXPIRED)
        if (cmd.minor > m.authorized - m.captured) return refuse(400, CARD_MSG.OVER_CAPTURE)
        for (const c of m.captures) if (!c.voided) c.settled = true
        m.captures.push({ ref: newRef, minor: cmd.minor, at: m.hours, settled: false, voided: false, refunded: 0 })
        m.captured += cmd.minor
        return { ok: true, message: CARD_MSG.CHARGED }
      }
      case 'voidCapture': {
        const c = pickCapture(cmd.pick)
        if (!c) return refuse(404, NOT_FOUND)
        if (c.voided) return refuse(400, CARD_MSG.CAPTURE_VOIDED)
        if (settledIn(m, c)) return refuse(400, CARD_MSG.CAPTURE_SETTLED)
        c.voided = true
        m.captured -= c.minor
        // docs/behaviour.md#preauth-expiry: once expired, the hold is what was captured: a voided capture is released
        if (m.state === 'expired') m.authorized -= c.minor
        return { ok: true, message: CARD_MSG.CAPTURE_VOIDED_OK }
      }
      case 'voidAuth': {
        if (m.state === 'voided') return refuse(400, CARD_MSG.VOIDED)
        if (m.state === 'expired') return refuse(400, CARD_MSG.EXPIRED)
        const live = m.captures.filter((c) => !c.voided)
        if (live.length > 1) return refuse(400, CARD_MSG.VOID_TOO_MANY)
        if (live.length === 1 && settledIn(m, live[0])) return refuse(400, CARD_MSG.VOID_SETTLED_CAPTURE)
        for (const c of live) c.voided = true
        m.state = 'voided'
        m.authorized = m.captured = m.refunded = 0
        return { ok: true, message: CARD_MSG.AUTH_VOIDED_OK }
      }
      case 'refund': {
        const c = pickCapture(cmd.pick)
        if (!c) return refuse(404, NOT_FOUND)
        if (c.voided) return refuse(400, CARD_MSG.NOT_REFUNDABLE)
        if (!settledIn(m, c)) return refuse(400, CARD_MSG.NOT_SETTLED)
        if (cmd.minor > c.minor - c.refunded) return refuse(400, CARD_MSG.OVER_REFUND)
        c.refunded += cmd.minor
        m.refunded += cmd.minor
        return { ok: true, message: CARD_MSG.REFUNDED }
      }
      case 'settle': {
        const c = pickCapture(cmd.pick)
        if (!c) return refuse(404, NOT_FOUND)
        if (c.voided) return refuse(400, CARD_MSG.CAPTURE_VOIDED)
        c.settled = true
        return { ok: true, message: 'Transaction settled' }
      }
      case 'advance': {
        m.hours += cmd.hours
        if (m.state === 'pre_authorized' && m.hours >= VALIDITY_HOURS) {
          m.state = 'expired'
          m.authorized = m.captured
        }
        return { ok: true, message: 'Clock advanced' }
      }
    }
  }

  function send(c: Client, h: Hold, m: Model, cmd: Cmd, newRef: string): Promise<Res> {
    const target = (pick: number) => (m.captures.length ? m.captures[pick % m.captures.length].ref : `missing-${newRef}`)
    switch (cmd.kind) {
      case 'capture':
        return c.capture(captureBody(h, money(cmd.minor, cmd.asString), newRef))
      case 'voidCapture':
        return c.void(voidBody(h, target(cmd.pick), newRef))
      case 'voidAuth':
        return c.void(voidBody(h, h.tx, newRef))
      case 'refund':
        return c.refund(refundBody(h, target(cmd.pick), money(cmd.minor, cmd.asString), newRef))
      case 'settle':
        return c.settle(target(cmd.pick))
      case 'advance':
        return c.call('POST', '/_sandbox/clock/advance', { seconds: cmd.hours * 3600 })
    }
  }

  function checkInvariants(q: any, m: Model) {
    const authorized = minor(q.total_authorized_amount)
    const captured = minor(q.total_captured_amount)
    const refunded = minor(q.total_refunded_amount)
    const captures = (q.operations as any[]).filter((o) => o.charge_operation === 'capture')
    // 0 <= captured <= authorized
    expect(captured).toBeGreaterThanOrEqual(0)
    expect(captured).toBeLessThanOrEqual(authorized)
    // expired: the hold is exactly what is captured and not voided; voided: nothing held
    if (q.status === 'expired') expect(authorized).toBe(captured)
    if (q.status === 'voided') expect([authorized, captured, refunded]).toEqual([0, 0, 0])
    // 0 <= refunded <= settled live captures
    const settledLive = captures.filter((o) => o.settled && !o.voided).reduce((s, o) => s + minor(o.amount), 0)
    expect(refunded).toBeGreaterThanOrEqual(0)
    expect(refunded).toBeLessThanOrEqual(settledLive)
    // captured = the non-voided captures
    expect(captured).toBe(captures.filter((o) => !o.voided).reduce((s, o) => s + minor(o.amount), 0))
    // refunded = the refunds in operations
    expect(refunded).toBe(m.state === 'voided' ? 0 : (q.operations as any[]).filter((o) => o.charge_operation === 'refund').reduce((s, o) => s + minor(o.amount), 0))
    // amount_paid = captured - refunded
    expect(q.amount_paid).toBe(((captured - refunded) / 100).toFixed(2))
    // and the model agrees
    expect({ status: q.status, authorized, captured, refunded }).toEqual({ status: m.state, authorized: m.authorized, captured: m.captured, refunded: m.refunded })
    expect(captures.map((o) => [o.transaction_reference, minor(o.amount), o.voided, o.settled])).toEqual(
      m.captures.map((c) => [c.ref, c.minor, c.voided, settledIn(m, c)]),
    )
  }

  it('holds every invariant after every command (fast-check, seed 42, 100 runs)', async () => {
    const box = await makeSandbox({ maxNamespaces: 100_000 })
    try {
      let run = 0
      await fc.assert(
        fc.asyncProperty(fc.array(cmdArb, { minLength: 1, maxLength: 40, size: 'max' }), async (cmds) => {
          const c = client(box)
          const h = await hold(c, 1000)
          const m: Model = { state: 'pre_authorized', authorized: 100_000, captured: 0, refunded: 0, hours: 0, captures: [] }
          let before = await queryData(c, h.pref)
          checkInvariants(before, m)
          let events = (await c.events('refund.success')).length
          run++
          for (const [i, cmd] of cmds.entries()) {
            const newRef = `prop-${run}-${i}-${cmd.kind}`
            const expected = step(m, cmd, newRef)
            const res = await send(c, h, m, cmd, newRef)
            const after = await queryData(c, h.pref)
            const eventsAfter = (await c.events('refund.success')).length
            if (expected.ok) {
              expect({ status: res.status, message: res.body.message }).toEqual({ status: 200, message: expected.message })
            } else {
              expect({ status: res.status, message: res.body.message }).toEqual({ status: expected.status, message: expected.message })
              // a refused command leaves the record and the events as they were
              expect(after).toEqual(before)
              expect(eventsAfter).toBe(events)
            }
            expect(eventsAfter).toBe(events + (expected.ok && cmd.kind === 'refund' ? 1 : 0))
            checkInvariants(after, m)
            before = after
            events = eventsAfter
          }
        }),
        { seed: 42, numRuns: 100 },
      )
    } finally {
      await box.close()
    }
  }, 120_000)
})

// ---------------------------------------------------------------------------------------------
describe('concurrency', () => {
  it('10 parallel refunds of 100 on a settled capture of 500: exactly 5 succeed, 5 are over-refunds', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const cap = await capture(c, h, 500)
    await c.settle(cap.transaction_reference)
    const results = await Promise.all(Array.from({ length: 10 }, () => c.refund(refundBody(h, cap.transaction_reference, 100))))
    expect(results.filter((r) => r.status === 200)).toHaveLength(5)
    const refused = results.filter((r) => r.status !== 200)
    expect(refused.map((r) => [r.status, r.body.message])).toEqual(Array(5).fill([400, CARD_MSG.OVER_REFUND]))
    expect(await queryData(c, h.pref)).toMatchObject({ total_captured_amount: 500, total_refunded_amount: 500, amount_paid: '0.00' })
    expect(await c.events('refund.success')).toHaveLength(5)
  })

  it('a void of the authorization racing captures: the totals stay consistent whatever the order', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const results = await Promise.all([
      c.capture(captureBody(h, 100)),
      c.void(voidBody(h, h.tx)),
      c.capture(captureBody(h, 100)),
      c.capture(captureBody(h, 100)),
    ])
    const q = await queryData(c, h.pref)
    const captures = q.operations.filter((o: any) => o.charge_operation === 'capture')
    const live = captures.filter((o: any) => !o.voided)
    expect(minor(q.total_captured_amount)).toBe(live.reduce((s: number, o: any) => s + minor(o.amount), 0))
    expect(q.total_captured_amount).toBeLessThanOrEqual(q.total_authorized_amount)
    if (results[1].status === 200) {
      expect(q).toMatchObject({ status: 'voided', total_authorized_amount: 0, total_captured_amount: 0 })
      // whatever came after the void was refused as voided
      for (const r of results.filter((r) => r.status !== 200)) expect([CARD_MSG.VOIDED, CARD_MSG.VOID_TOO_MANY]).toContain(r.body.message)
    } else {
      expect(results[1].body.message).toBe(CARD_MSG.VOID_TOO_MANY)
      expect(q.status).toBe('pre_authorized')
    }
  })

  it('20 parallel captures of 100 on a 1,000 hold: exactly 10 succeed, 10 are over-captures, 1,000 captured', async () => {
    const c = client()
    const h = await hold(c, 1000)
    const refs = Array.from({ length: 20 }, (_, i) => `race-${i}-${ref('cap')}`)
    const results = await Promise.all(
      refs.map((tx) =>
        sb.app.request(CAPTURE, {
          method: 'POST',
          headers: { authorization: `Bearer ${c.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(captureBody(h, 100, tx)),
        }),
      ),
    )
    const bodies = await Promise.all(results.map(async (r) => ({ status: r.status, body: (await r.json()) as any })))
    const ok = bodies.filter((b) => b.status === 200)
    const refused = bodies.filter((b) => b.status !== 200)
    expect(ok).toHaveLength(10)
    expect(refused).toHaveLength(10)
    for (const b of ok) expect(b.body).toMatchObject({ status: true, message: CARD_MSG.CHARGED, data: { amount: 100, status: 'success' } })
    for (const b of refused) expect({ status: b.status, message: b.body.message }).toEqual({ status: 400, message: CARD_MSG.OVER_CAPTURE })
    // every success saw a different running total
    expect(ok.map((b) => b.body.data.total_captured_amount).sort((a, b) => a - b)).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000])
    const q = await queryData(c, h.pref)
    expect(q.total_captured_amount).toBe(1000)
    expect(q.total_authorized_amount).toBe(1000)
    const caps = q.operations.filter((o: any) => o.charge_operation === 'capture')
    expect(caps).toHaveLength(10)
    expect(new Set(caps.map((o: any) => o.transaction_reference))).toEqual(new Set(ok.map((b) => b.body.data.transaction_reference)))
    // only the latest is unsettled
    expect(caps.filter((o: any) => !o.settled)).toHaveLength(1)
    expect(caps[caps.length - 1].settled).toBe(false)
  })
})

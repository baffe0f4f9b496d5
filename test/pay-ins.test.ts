import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ENC_KEY, cardPayload, makeSandbox, ref, sandboxPerTest, tempFile, type TestSandbox, invalidBody, fieldMessages, readAfterRestart } from './helpers/sandbox.js'
import { NO_AUTH_CARD, PIN_CARD } from './helpers/cards.js'

const sandbox = sandboxPerTest()
const M = '/merchant/api/v1'
const PAYINS = `${M}/pay-ins`

const list = async (sb: TestSandbox, query = '') => {
  const res = await sb.call('GET', `${PAYINS}${query}`)
  expect(res.status).toBe(200)
  expect(res.body.message).toBe('Transactions retrieved successfully')
  return res.body.data as { has_more: boolean; payins: any[] }
}

const okCall = async (sb: TestSandbox, method: string, path: string, body?: unknown) => {
  const res = await sb.call(method, path, body)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

describe('GET /pay-ins (docs/behaviour.md#pay-ins-list)', () => {
  it('an empty namespace lists nothing', async () => {
    const sb = await sandbox()
    expect(await list(sb)).toEqual({ has_more: false, payins: [] })
  })

  it('lists every kind of pay-in, newest first, a checkout once (not its attempts), with the fields of the charge query', async () => {
    const sb = await sandbox({ frozen: true })
    // the fixture authorization is active now (it ends before 2030)
    const debit = { amount: 100, narration: 'monthly', currency: 'NGN', reference: ref('debit') }
    await okCall(sb, 'POST', `${M}/direct-debit/authorizations/AUTH-SANDBOX-ACTIVE/debits`, debit)
    await okCall(sb, 'POST', '/_sandbox/clock/advance', { to: '2030-01-01T00:00:00Z' })
    const step = () => okCall(sb, 'POST', '/_sandbox/clock/advance', { seconds: 1 })
    const card = cardPayload(NO_AUTH_CARD, { amount: 1000, description: 'Order 1' })
    await sb.charge(card)
    await step()
    const failed = cardPayload('4084080000100001', { amount: 200 })
    await sb.charge(failed)
    await step()
    const pin = cardPayload(PIN_CARD, { amount: 300 })
    await sb.charge(pin)
    await step()
    const pre = cardPayload(NO_AUTH_CARD, { amount: 500 })
    expect((await sb.call('POST', `${M}/charges/card/pre-authorize`, { charge_data: encryptChargeData(pre, ENC_KEY) })).status).toBe(200)
    await step()
    const mm = { reference: ref('mm'), amount: 100, currency: 'KES', customer: { email: 'b@example.com', name: 'W' }, mobile_money: { number: '254700000000' } }
    await okCall(sb, 'POST', `${M}/charges/mobile-money`, mm)
    await step()
    const bt = { reference: ref('bt'), amount: 1500, currency: 'NGN', customer: { email: 'a@b.co' }, auto_complete: false }
    await okCall(sb, 'POST', `${M}/charges/bank-transfer`, bt)
    await step()
    const co = { reference: ref('co'), amount: 700, currency: 'NGN', customer: { email: 'a@b.co', name: 'Ada' }, redirect_url: 'https://merchant.example/back' }
    await okCall(sb, 'POST', `${M}/charges/initialize`, co)
    await okCall(sb, 'POST', `/_sandbox/checkouts/${co.reference}/pay`, { channel: 'card' })
    await step()
    const vba = await okCall(sb, 'POST', `${M}/virtual-bank-account`, { account_name: 'Ada Obi', account_reference: ref('vba'), permanent: true, bank_code: '000', customer: { name: 'Ada Obi', email: 'ada@example.com' }, kyc: { bvn: '22222222222', nin: '11111111111' } })
    await okCall(sb, 'POST', `${M}/virtual-bank-account/sandbox/credit`, { account_number: vba.account_number, amount: 1000, currency: 'NGN' })

    const { has_more, payins } = await list(sb, '?limit=100')
    expect(has_more).toBe(false)
    // one per pay-in: the checkout's card attempt is not listed
    expect(payins.map((p) => [p.reference, p.payment_method])).toEqual([
      [expect.any(String), 'bank_transfer'],
      [co.reference, 'card'],
      [bt.reference, 'bank_transfer'],
      [mm.reference, 'mobile_money'],
      [pre.reference, 'card'],
      [pin.reference, 'card'],
      [failed.reference, 'card'],
      [card.reference, 'card'],
      [debit.reference, 'direct_debit'],
    ])
    expect(payins[7]).toEqual({
      pointer: expect.stringMatching(/^KPY-/),
      reference: card.reference,
      status: 'success',
      amount: '1000.00',
      amount_paid: '1000.00',
      amount_expected: '1000.00',
      fee: '14.00',
      currency: 'NGN',
      description: 'Order 1',
      payment_method: 'card',
      message: 'Card charged successfully',
      date_created: '2030-01-01 00:00:00',
      date_completed: '2030-01-01 00:00:00',
      payment_sources: { amount_paid: '1000.00', narration: 'Order 1', payment_source_type: 'card', message: 'Card charged successfully', status: 'success' },
    })
    // each item is what the charge query says of it, its fee (a string here, a number there) null while it is open (the collection's sample)
    for (const p of payins) {
      const q = await okCall(sb, 'GET', `${M}/charges/${p.pointer}`)
      expect({ status: p.status, amount: p.amount, amount_paid: p.amount_paid, fee: p.fee, currency: p.currency }).toEqual({
        status: q.status, amount: q.amount, amount_paid: q.amount_paid, fee: p.date_completed === null ? null : q.fee.toFixed(2), currency: q.currency,
      })
    }
    expect(payins[6]).toMatchObject({ status: 'failed', amount_paid: '0.00', message: 'Transaction has been flagged as fraudulent' })
    expect(payins[5]).toMatchObject({ status: 'processing', amount_paid: '0.00', fee: null, date_completed: null })
    expect(payins[4]).toMatchObject({ status: 'pre_authorized', amount: '500.00' })
    expect(payins[3]).toMatchObject({ currency: 'KES', amount: '100.00', amount_expected: '101.61' })
    expect(payins[2]).toMatchObject({ status: 'processing', amount: '1500.00', amount_paid: '0.00', amount_expected: '1522.50' })
    expect(payins[1]).toMatchObject({ status: 'success', amount: '700.00', amount_paid: '700.00' })
    expect(payins[0]).toMatchObject({ pointer: expect.stringMatching(/^KPY-PAY-/), status: 'success', amount_paid: '1000.00' })
  })

  it('filters by status and currency', async () => {
    const sb = await sandbox({ frozen: true })
    await sb.charge(cardPayload(NO_AUTH_CARD))
    await sb.charge(cardPayload(PIN_CARD))
    await okCall(sb, 'POST', `${M}/charges/mobile-money`, { reference: ref('mm'), amount: 100, currency: 'KES', customer: { email: 'b@example.com' }, mobile_money: { number: '254700000000' } })
    expect((await list(sb, '?status=success')).payins.map((p) => p.status)).toEqual(['success'])
    expect((await list(sb, '?status=processing')).payins).toHaveLength(2)
    expect((await list(sb, '?status=processing&currency=KES')).payins.map((p) => p.currency)).toEqual(['KES'])
    expect((await list(sb, '?status=expired')).payins).toEqual([])
    const bad = await sb.call('GET', `${PAYINS}?status=done&currency=ngn`)
    expect(bad.status).toBe(422)
    expect(bad.body.message).toBe('Invalid request data')
    expect(bad.body.data).toEqual(fieldMessages({ status: expect.stringMatching(/^status must be one of "pending", "processing", "success"/), currency: 'must be a currency code such as NGN' }))
  })

  it('pages by pointer: first page, starting_after, ending_before and its misspelling; a bad pointer is refused', async () => {
    const sb = await sandbox({ frozen: true })
    const refs: string[] = []
    for (let i = 0; i < 5; i++) {
      const p = cardPayload(NO_AUTH_CARD, { amount: 100 + i })
      refs.unshift(p.reference)
      await sb.charge(p)
    }
    const all = (await list(sb)).payins
    // the same millisecond on a frozen clock: the last made first
    expect(all.map((p) => p.reference)).toEqual(refs)
    expect(await list(sb, '?limit=2')).toEqual({ has_more: true, payins: all.slice(0, 2) })
    expect(await list(sb, `?limit=2&starting_after=${all[1].pointer}`)).toEqual({ has_more: true, payins: all.slice(2, 4) })
    expect(await list(sb, `?limit=2&starting_after=${all[3].pointer}`)).toEqual({ has_more: false, payins: all.slice(4) })
    expect(await list(sb, `?limit=2&ending_before=${all[4].pointer}`)).toEqual({ has_more: true, payins: all.slice(2, 4) })
    expect(await list(sb, `?starting_before=${all[2].pointer}`)).toEqual({ has_more: false, payins: all.slice(0, 2) })
    const bad = await sb.call('GET', `${PAYINS}?starting_after=${all[0].reference}`)
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual(invalidBody({ starting_after: 'is not the pointer of an item of this list' }))
    // a pointer filtered out by the currency is not an item of that list
    expect((await sb.call('GET', `${PAYINS}?currency=KES&ending_before=${all[0].pointer}`)).body.data).toEqual(fieldMessages({ ending_before: 'is not the pointer of an item of this list' }))
  })

  it('filters by the date of creation on the namespace clock', async () => {
    const sb = await sandbox({ frozen: true })
    await okCall(sb, 'POST', '/_sandbox/clock/advance', { to: '2030-01-01T12:00:00Z' })
    const a = cardPayload(NO_AUTH_CARD)
    await sb.charge(a)
    await okCall(sb, 'POST', '/_sandbox/clock/advance', { to: '2030-01-02T12:00:00Z' })
    const b = cardPayload(NO_AUTH_CARD)
    await sb.charge(b)
    const refs = async (q: string) => (await list(sb, q)).payins.map((p) => p.reference)
    expect(await refs('?date_from=2030-01-02')).toEqual([b.reference])
    expect(await refs('?date_to=2030-01-01')).toEqual([a.reference])
    expect(await refs('?date_from=2030-01-01-12-00-00&date_to=2030-01-02-11-59-59')).toEqual([a.reference])
    expect((await sb.call('GET', `${PAYINS}?date_from=2030-01-02&date_to=2030-01-01`)).body.data).toEqual(fieldMessages({ date_to: 'must not be before date_from' }))
  })

  it('takes the secret key only, and is per namespace', async () => {
    const sb = await sandbox()
    await sb.charge(cardPayload(NO_AUTH_CARD))
    expect((await sb.call('GET', PAYINS, undefined, { key: null })).status).toBe(401)
    expect((await sb.call('GET', PAYINS, undefined, { key: 'pk_test_sandbox' })).status).toBe(401)
    expect((await sb.call('GET', PAYINS, undefined, { key: 'sk_test_other' })).body.data).toEqual({ has_more: false, payins: [] })
  })

  it('is the same after a restart with --data', async () => {
    const file = tempFile()
    const first = await makeSandbox({ data: file, frozen: true })
    for (let i = 0; i < 3; i++) await first.charge(cardPayload(i === 1 ? PIN_CARD : NO_AUTH_CARD))
    await okCall(first, 'POST', `${M}/charges/bank-transfer`, { reference: ref('bt'), amount: 1500, currency: 'NGN', customer: { email: 'a@b.co' } })
    const kept = await list(first, '?limit=100')
    expect(await readAfterRestart(first, file, (second) => list(second, '?limit=100'))).toEqual(kept)
  })
})

import { describe, expect, it } from 'vitest'
import { SECRET, makeSandbox, ref, sandboxPerTest, tempFile, type TestSandbox, invalidBody, fieldMessages } from './helpers/sandbox.js'

const SECRET_NS = SECRET

const sandbox = sandboxPerTest()
const INIT = '/merchant/api/v1/charges/initialize'

function init(sb: TestSandbox, overrides: Record<string, unknown> = {}) {
  return sb.call('POST', INIT, { reference: ref('co'), amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada' }, ...overrides })
}
const query = (sb: TestSandbox, reference: string) => sb.call('GET', `/merchant/api/v1/charges/${reference}`)
const pay = (sb: TestSandbox, reference: string, body: Record<string, unknown>) => sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, body)

describe('POST /charges/initialize', () => {
  it('answers the merchant reference and a checkout_url on the sandbox origin', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    const res = await init(sb, { reference, redirect_url: 'https://shop.example/return', notification_url: 'https://shop.example/hook', metadata: { order: '42' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: true, message: 'Charge created successfully', data: { reference, checkout_url: expect.stringMatching(/^http:\/\/localhost\/checkout\/KPY-PI-[0-9A-Z]{14}\/pay$/) } })
    const q = await query(sb, reference)
    expect(q.status).toBe(200)
    expect(q.body.data).toMatchObject({ reference, status: 'pending', amount: '1500.00', amount_paid: '0.00', currency: 'NGN', payment_attempts: [] })
    // no payment_method or metadata: no sample of the query shows them (docs/behaviour.md#card-outcomes-and-query)
    for (const field of ['payment_method', 'metadata']) expect(q.body.data).not.toHaveProperty(field)
  })

  it('takes a reference of any length from 1 character, unique (CONTRACT 14: the 8-character minimum is the card and mobile-money charges\')', async () => {
    const sb = await sandbox()
    // a 7-character reference, as a public client's initialize sends it
    for (const reference of ['ord-123', 'x']) {
      const res = await init(sb, { reference })
      expect([res.status, res.body.data?.reference], reference).toEqual([200, reference])
      expect((await query(sb, reference)).body.data.reference).toBe(reference)
      expect((await init(sb, { reference })).body.message).toBe('Duplicate payment reference')
    }
    // every channel of it is paid as usual: its attempts have references of their own
    expect((await pay(sb, 'x', { channel: 'card' })).body.data.status).toBe('success')
    for (const reference of ['', '   ']) expect((await init(sb, { reference })).body.data).toEqual(fieldMessages({ reference: 'is required' }))
    expect((await init(sb, { reference: 'r'.repeat(101) })).body.data).toEqual(fieldMessages({ reference: 'must be at most 100 characters' }))
  })

  it('refuses a duplicate reference, with nothing changed', async () => {
    const sb = await sandbox()
    const reference = ref('co')
    expect((await init(sb, { reference })).status).toBe(200)
    const again = await init(sb, { reference, amount: 99 })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ status: false, message: 'Duplicate payment reference', data: null })
    expect((await query(sb, reference)).body.data.amount).toBe('1500.00')
  })

  it('names every bad field, and refuses an unknown one by name', async () => {
    const sb = await sandbox()
    const res = await sb.call('POST', INIT, { reference: '  ', amount: -1, currency: 'EUR', customer: {}, callback_url: 'https://x.example', metadata: {} })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('Invalid request data')
    expect(res.body.data).toMatchObject(fieldMessages({
      reference: 'is required',
      amount: 'must be greater than 0',
      currency: expect.stringContaining('must be one of'),
      'customer.email': 'is required',
      metadata: 'must not be an empty object',
    }))
  })

  it('drops the channels the currency does not take, as Kora\'s WooCommerce plugin sends them (CONTRACT 14)', async () => {
    const sb = await sandbox()
    // the plugin sends card and bank_transfer, default card, whatever the store's currency
    const woo = { channels: ['card', 'bank_transfer'], default_channel: 'card' }
    const offered: Record<string, { offered: string[]; not: string[] }> = {
      // none left: every channel KES and GHS take
      KES: { offered: ['mobile_money'], not: ['card', 'bank_transfer'] },
      GHS: { offered: ['mobile_money'], not: ['card', 'bank_transfer'] },
      // card is kept, bank_transfer dropped
      USD: { offered: ['card'], not: ['bank_transfer'] },
    }
    for (const [currency, { offered: yes, not }] of Object.entries(offered)) {
      const reference = ref('co')
      const res = await init(sb, { reference, currency, amount: 20, ...woo })
      expect(res.status, currency).toBe(200)
      for (const channel of not) expect((await pay(sb, reference, { channel })).body.message, `${currency} ${channel}`).toBe('This payment channel is not offered for this checkout')
      expect((await pay(sb, reference, { channel: yes[0] })).body.data.status, currency).toBe('success')
    }
    // a currency the sandbox does not serve at all is still refused; default_channel must still be one of channels
    expect((await init(sb, { currency: 'EUR', ...woo })).body.data).toEqual({ currency: { message: expect.stringContaining('must be one of') } })
    expect((await init(sb, { channels: ['card'], default_channel: 'bank_transfer' })).body.data).toEqual(fieldMessages({ default_channel: 'must be one of channels' }))
  })
})

describe('POST /_sandbox/checkouts/:reference/pay', () => {
  it('pays by card: the checkout succeeds, its attempt listed, one charge.success with the merchant reference', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    await init(sb, { reference, metadata: { order: '7' } })
    const paid = await pay(sb, reference, { channel: 'card' })
    expect(paid.status).toBe(200)
    expect(paid.body.data).toMatchObject({ reference, status: 'success', payment_method: 'card' })
    const q = (await query(sb, reference)).body.data
    expect(q).toMatchObject({ status: 'success', amount_paid: '1500.00', fee: 21 })
    expect(q.payment_attempts).toEqual([{ reference: expect.stringMatching(/^KPY-CA-/), status: 'success', channel: 'card', message: 'Card charged successfully' }])
    const events = (await sb.call('GET', `/_sandbox/events?reference=${reference}`)).body.data
    expect(events.map((e: any) => e.event)).toEqual(['charge.success'])
    expect(events[0].data).toEqual({ reference, payment_reference: reference, transaction_reference: expect.stringMatching(/^KPY-PI-/), amount: 1500, fee: 21, currency: 'NGN', status: 'success', payment_method: 'card', metadata: { order: '7' } })
  })

  it('a failed card attempt leaves the checkout open; a second attempt pays it', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    await init(sb, { reference })
    const failed = await pay(sb, reference, { channel: 'card', outcome: 'failed' })
    expect(failed.body.data).toMatchObject({ status: 'processing', payment_attempts: [{ status: 'failed', message: 'Card could not be charged due to insufficient funds' }] })
    const ok = await pay(sb, reference, { channel: 'card', card: { number: '5442056106072595', cvv: '123', expiry_month: '09', expiry_year: '30' } })
    expect(ok.body.data.status).toBe('success')
    expect(ok.body.data.payment_attempts.map((a: any) => a.status)).toEqual(['failed', 'success'])
    const events = (await sb.call('GET', `/_sandbox/events?reference=${reference}`)).body.data
    expect(events.map((e: any) => e.event)).toEqual(['charge.success'])
  })

  it('pays by mobile money in KES and by bank transfer in NGN', async () => {
    const sb = await sandbox({ frozen: true })
    const kes = ref('co')
    await init(sb, { reference: kes, currency: 'KES' })
    expect((await pay(sb, kes, { channel: 'mobile_money' })).body.data).toMatchObject({ status: 'success', payment_method: 'mobile_money' })
    const ngn = ref('co')
    await init(sb, { reference: ngn })
    expect((await pay(sb, ngn, { channel: 'bank_transfer' })).body.data).toMatchObject({ status: 'success', payment_method: 'bank_transfer' })
    const under = ref('co')
    await init(sb, { reference: under })
    expect((await pay(sb, under, { channel: 'bank_transfer', amount: 100 })).body.data).toMatchObject({ status: 'processing' })
  })

  it('cancel fails the checkout and announces charge.failed; an unpaid checkout expires after 24 h', async () => {
    const sb = await sandbox({ frozen: true })
    const a = ref('co')
    await init(sb, { reference: a })
    const cancelled = await sb.call('POST', `/_sandbox/checkouts/${a}/cancel`)
    expect(cancelled.body.data).toMatchObject({ status: 'failed', message: 'Payment cancelled by the customer' })
    expect((await sb.call('GET', `/_sandbox/events?reference=${a}`)).body.data.map((e: any) => e.event)).toEqual(['charge.failed'])
    const b = ref('co')
    await init(sb, { reference: b })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
    expect((await query(sb, b)).body.data.status).toBe('expired')
    expect((await pay(sb, b, { channel: 'card' })).status).toBe(409)
  })
})

describe('initialize: every refusal names its field and stores nothing', () => {
  const bad: [string, Record<string, unknown>, Record<string, string>][] = [
    ['narration too long', { narration: 'x'.repeat(256) }, { narration: 'must be at most 255 characters' }],
    ['empty channels', { channels: [] }, { channels: 'must hold at least one channel' }],
    ['an unknown channel', { channels: ['crypto'] }, { 'channels.0': expect.stringContaining('must be one of') as unknown as string }],
    ['a redirect_url that is no URL', { redirect_url: 'shop/return' }, { redirect_url: 'must be an http(s) URL' }],
    ['a notification_url that is no URL', { notification_url: 'ftp://x.example/h' }, { notification_url: 'must be an http(s) URL' }],
    ['merchant_bears_cost as a string', { merchant_bears_cost: 'yes' }, { merchant_bears_cost: 'must be a boolean' }],
    ['a payment_currency the rates do not convert into', { payment_currency: 'XAF' }, { payment_currency: 'must be a currency the checkout takes that the rates convert NGN into' }],
    ['a settlement_currency the rates do not convert into', { settlement_currency: 'GBP' }, { settlement_currency: 'must be a balance currency the rates convert NGN into' }],
    ['a flat split share finer than the unit', { split_configuration: { split_type: 'flat', split_accounts: [{ value: 10.5, split_account_reference: 'A' }] }, currency: 'XAF' }, { 'split_configuration.split_accounts.0.value': 'must be a whole number for XAF' }],
    ['an amount with 3 decimals', { amount: 10.123 }, { amount: 'must have at most 2 decimal places' }],
    ['an amount as a string that is no number', { amount: '1,000' }, { amount: 'must be a numeric string' }],
    ['an amount as a boolean', { amount: true }, { amount: 'must be a number or a numeric string' }],
    ['a bad e-mail', { customer: { email: 'nope' } }, { 'customer.email': 'must be a valid e-mail address' }],
    ['metadata with 6 keys', { metadata: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 } }, { metadata: 'must have at most 5 keys' }],
  ]
  for (const [name, overrides, fields] of bad) {
    it(name, async () => {
      const sb = await sandbox()
      const reference = ref('co')
      const res = await init(sb, { reference, ...overrides })
      expect(res.status).toBe(422)
      expect(res.body).toEqual(invalidBody(fields))
      expect((await query(sb, reference)).status).toBe(404)
    })
  }

  it('takes the secret key only: none, unknown and live keys are refused', async () => {
    const sb = await sandbox()
    const body = { reference: ref('co'), amount: 100, currency: 'NGN', customer: { email: 'a@b.co' } }
    expect((await sb.call('POST', INIT, body, { key: null })).status).toBe(401)
    expect((await sb.call('POST', INIT, body, { key: 'sk_live_abc' })).status).toBe(401)
  })
})

describe('checkout channels and outcomes', () => {
  it('GHS mobile money goes through its OTP and prompt; a failing wallet leaves the checkout open', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    await init(sb, { reference, currency: 'GHS', notification_url: 'http://127.0.0.1:9/hook' })
    const failed = await pay(sb, reference, { channel: 'mobile_money', outcome: 'failed' })
    expect(failed.body.data).toMatchObject({ status: 'processing', payment_attempts: [{ channel: 'mobile_money', status: 'failed', message: 'Insufficient funds in wallet' }] })
    const paid = await pay(sb, reference, { channel: 'mobile_money', mobile_money: { number: '+233240000000' } })
    expect(paid.body.data).toMatchObject({ status: 'success', payment_method: 'mobile_money' })
    const events = (await sb.call('GET', `/_sandbox/events?reference=${reference}`)).body.data
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ event: 'charge.success', target: 'http://127.0.0.1:9/hook', data: { payment_method: 'mobile_money', currency: 'GHS' } })
    const attempt = paid.body.data.payment_attempts[1].reference
    expect((await query(sb, attempt)).body.data).toMatchObject({ status: 'success', mobile_money: { number: expect.any(String) } })
  })

  it('a wallet number of another country is refused and starts no attempt', async () => {
    const sb = await sandbox()
    const reference = ref('co')
    await init(sb, { reference, currency: 'KES' })
    const res = await pay(sb, reference, { channel: 'mobile_money', mobile_money: { number: '233240000000' } })
    expect(res.status).toBe(422)
    expect(res.body.data).toEqual(fieldMessages({ 'mobile_money.number': 'must start with country code 254 for KES' }))
    expect((await query(sb, reference)).body.data).toMatchObject({ status: 'pending', payment_attempts: [] })
  })

  it('a channel the checkout does not offer is refused: by currency, and by the channels asked', async () => {
    const sb = await sandbox()
    const kes = ref('co')
    await init(sb, { reference: kes, currency: 'KES' })
    const card = await pay(sb, kes, { channel: 'card' })
    expect(card.status).toBe(400)
    expect(card.body.message).toBe('This payment channel is not offered for this checkout')
    const only = ref('co')
    await init(sb, { reference: only, channels: ['bank_transfer'] })
    expect((await pay(sb, only, { channel: 'card' })).body.message).toBe('This payment channel is not offered for this checkout')
    expect((await pay(sb, only, { channel: 'bank_transfer' })).body.data.status).toBe('success')
  })

  it('a USD checkout is paid by card, its fee the card rule', async () => {
    const sb = await sandbox()
    const reference = ref('co')
    await init(sb, { reference, currency: 'USD', amount: 20 })
    expect((await pay(sb, reference, { channel: 'card' })).body.data.status).toBe('success')
    expect((await query(sb, reference)).body.data).toMatchObject({ currency: 'USD', amount_paid: '20.00', fee: 0.28, payment_attempts: [{ channel: 'card', status: 'success' }] })
  })

  it('bank transfer: more is accepted with the excess returned; less is returned whole and waits', async () => {
    const sb = await sandbox({ frozen: true })
    const over = ref('co')
    await init(sb, { reference: over, amount: 1000 })
    expect((await pay(sb, over, { channel: 'bank_transfer', amount: 1200 })).body.data.status).toBe('success')
    const attempt = (await query(sb, over)).body.data.payment_attempts[0].reference
    expect((await query(sb, attempt)).body.data).toMatchObject({
      amount_paid: '1200.00',
      amount_accepted: '1000.00',
      bank_transfer: { payment_event: 'overpayment', payer_bank_account: { account_name: 'SANDBOX ACCOUNT', account_number: '0000000000', bank_name: 'KORA SANDBOX' }, reversal: { status: 'success', amount: '200.00', destination: 'customer', currency: 'NGN' } },
    })
    const under = ref('co')
    await init(sb, { reference: under, amount: 1000, merchant_bears_cost: false })
    const short = await pay(sb, under, { channel: 'bank_transfer', amount: 500 })
    expect(short.body.data.status).toBe('processing')
    const child = (await query(sb, short.body.data.payment_attempts[0].reference)).body.data
    // the customer pays the fee: 1.5 % of 1,000
    expect(child).toMatchObject({ status: 'processing', amount_paid: '500.00', amount_accepted: '0.00', bank_transfer: { payment_event: 'underpayment', reversal: { amount: '500.00' } } })
    // the same account takes the correct transfer
    const again = await pay(sb, under, { channel: 'bank_transfer' })
    expect(again.body.data).toMatchObject({ status: 'success', payment_method: 'bank_transfer' })
    // the correct transfer, the one the account asks for, is 1,015: the customer paid the fee
    expect((await query(sb, short.body.data.payment_attempts[0].reference)).body.data.amount_paid).toBe('1015.00')
    expect(again.body.data.payment_attempts).toHaveLength(1)
  })

  /** A frozen sandbox's checkout, paid by a bank transfer the customer has started (its account open). */
  async function awaitingTransfer() {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    await init(sb, { reference })
    const c = sb.deps.checkout.get(SECRET_NS, reference)
    const child = sb.deps.checkout.start(SECRET_NS, c.transaction_reference, 'bank_transfer', undefined, { returnUrl: 'http://localhost/checkout/x/pay', merchant: 'Shop' })
    return { sb, reference, child }
  }

  it('a transfer nobody reports arrives by itself 120 s later on the clock', async () => {
    const { sb, reference, child } = await awaitingTransfer()
    expect(child.bank_account).toMatchObject({ account_number: expect.stringMatching(/^\d{10}$/), bank_name: 'wema', bank_code: '035', account_name: 'Shop' })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 119 })
    expect((await query(sb, reference)).body.data.status).toBe('processing')
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 1 })
    expect((await query(sb, reference)).body.data).toMatchObject({ status: 'success', payment_attempts: [{ channel: 'bank_transfer', status: 'success' }] })
    // the transfer that paid it is not one left waiting
    expect(sb.deps.checkout.get(SECRET_NS, reference).history.map((h) => h.result)).toEqual(['checkout initialized', `bank transfer attempt ${child.transaction_reference}: processing`, `${child.transaction_reference} succeeded`])
  })

  it('a checkout cancelled while its transfer is awaited stops the transfer arriving by itself; its account still takes one', async () => {
    const { sb, reference, child } = await awaitingTransfer()
    expect((await sb.call('POST', `/_sandbox/checkouts/${reference}/cancel`)).body.data).toMatchObject({ status: 'failed' })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 600 })
    expect(sb.deps.bankTransfer.find(SECRET_NS, child.transaction_reference)).toMatchObject({ status: 'processing', auto_timer: null })
    expect(sb.deps.checkout.get(SECRET_NS, reference).history.map((h) => h.result)).toContain(`${child.transaction_reference}: no transfer arrives by itself now that the checkout ended`)
    // a transfer sent later is taken, listed, and changes nothing of the ended checkout
    expect(sb.deps.bankTransfer.creditAccount(SECRET_NS, child.bank_account.account_number).status).toBe('success')
    expect((await query(sb, reference)).body.data).toMatchObject({ status: 'failed', payment_attempts: [{ reference: child.transaction_reference, status: 'success' }] })
  })

  it('a temporary account without auto-completion expires after 30 min and then refuses a transfer', async () => {
    const sb = await sandbox({ frozen: true })
    const t = sb.deps.bankTransfer.create(SECRET_NS, { reference: ref('bt'), amount: 100, currency: 'NGN', customer: { email: 'a@b.co' }, account_name: 'Shop', auto_complete: false })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 29 * 60 })
    expect(sb.deps.bankTransfer.find(SECRET_NS, t.transaction_reference)!.status).toBe('processing')
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 60 })
    expect(sb.deps.bankTransfer.find(SECRET_NS, t.transaction_reference)!.status).toBe('expired')
    expect(() => sb.deps.bankTransfer.creditAccount(SECRET_NS, t.bank_account.account_number)).toThrow('Account has expired')
    expect((await sb.call('GET', `/_sandbox/events?reference=${t.payment_reference}`)).body.data).toEqual([])
  })

  it('the complete control call finishes the attempt under way (a 3DS card)', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    await init(sb, { reference })
    const none = await sb.call('POST', `/_sandbox/charges/${reference}/complete`, { outcome: 'success' })
    expect(none.status).toBe(400)
    expect(none.body.message).toBe('No payment attempt is in progress')
    const c = sb.deps.checkout.get(SECRET_NS, reference)
    const card = sb.deps.checkout.start(SECRET_NS, c.transaction_reference, 'card', { number: '4562543755474674', cvv: '123', expiry_month: '09', expiry_year: '30' }, { returnUrl: 'http://localhost/checkout/x/pay', merchant: 'Shop' })
    expect(card.pending_steps).toEqual(['3DS'])
    expect(card.redirect_url).toBe('http://localhost/checkout/x/pay')
    const done = await sb.call('POST', `/_sandbox/charges/${reference}/complete`, { outcome: 'success' })
    expect(done.status).toBe(200)
    expect((await query(sb, reference)).body.data).toMatchObject({ status: 'success', payment_attempts: [{ reference: card.transaction_reference, status: 'success' }] })
    expect((await sb.call('POST', `/_sandbox/checkouts/${reference}/cancel`)).status).toBe(409)
  })

  it('an attempt ending after its checkout ended is listed and changes nothing else', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    await init(sb, { reference })
    const c = sb.deps.checkout.get(SECRET_NS, reference)
    const transfer = sb.deps.checkout.start(SECRET_NS, c.transaction_reference, 'bank_transfer', undefined, { returnUrl: 'http://localhost/checkout/x/pay', merchant: 'Shop' })
    await sb.call('POST', `/_sandbox/checkouts/${reference}/cancel`)
    // the checkout ended: nothing arrives by itself any more
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 120 })
    expect(sb.deps.bankTransfer.find(SECRET_NS, transfer.transaction_reference)!.status).toBe('processing')
    // a transfer the customer still makes is taken by the account
    sb.deps.bankTransfer.creditAccount(SECRET_NS, transfer.bank_account.account_number)
    const q = (await query(sb, reference)).body.data
    expect(q).toMatchObject({ status: 'failed', payment_attempts: [{ reference: transfer.transaction_reference, status: 'success' }] })
    expect((await sb.call('GET', `/_sandbox/events?reference=${reference}`)).body.data.map((e: any) => e.event)).toEqual(['charge.failed'])
  })

  it('a checkout and its timers survive a restart with --data', async () => {
    const file = tempFile()
    const first = await makeSandbox({ data: file, frozen: true })
    const reference = ref('co')
    await init(first, { reference })
    await first.close()
    const second = await makeSandbox({ data: file })
    try {
      expect((await query(second, reference)).body.data.status).toBe('pending')
      await second.call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
      expect((await query(second, reference)).body.data.status).toBe('expired')
    } finally {
      await second.close()
    }
  })
})

describe('a transfer attempt left waiting when its checkout is paid otherwise', () => {
  it('does not arrive by itself, and its account expires 30 min after it was issued', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    await init(sb, { reference })
    const c = sb.deps.checkout.get(SECRET_NS, reference)
    const transfer = sb.deps.checkout.start(SECRET_NS, c.transaction_reference, 'bank_transfer', undefined, { returnUrl: 'http://localhost/checkout/x/pay', merchant: 'Shop' })
    expect((await pay(sb, reference, { channel: 'card' })).body.data.status).toBe('success')
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 120 })
    expect(sb.deps.bankTransfer.find(SECRET_NS, transfer.transaction_reference)!.status).toBe('processing')
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 28 * 60 })
    const q = (await query(sb, reference)).body.data
    expect(q.status).toBe('success')
    expect(q.payment_attempts.map((a: any) => [a.channel, a.status])).toEqual([['bank_transfer', 'expired'], ['card', 'success']])
    expect((await sb.call('GET', `/_sandbox/events?reference=${reference}`)).body.data.map((e: any) => e.event)).toEqual(['charge.success'])
  })
})

describe('what public clients send to charges/initialize (CONTRACT 14)', () => {
  it('takes the amount as a numeric string ("1000.0", as Dart, Elixir and Java clients send it) and null URLs as absent', async () => {
    const sb = await sandbox()
    const reference = ref('co')
    const res = await init(sb, { reference, amount: '1000.0', notification_url: null, redirect_url: null })
    expect(res.status).toBe(200)
    expect((await query(sb, reference)).body.data).toMatchObject({ amount: '1000.00', status: 'pending' })
  })
})

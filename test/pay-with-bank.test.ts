import { describe, expect, it } from 'vitest'
import { SECRET, makeSandbox, ref, sandboxPerTest, tempFile, type TestSandbox, fieldMessages } from './helpers/sandbox.js'

/**
 * Pay with bank over app.request() (docs/behaviour.md#pay-with-bank): both spellings, the bank list, the
 * answer's two redirect fields, the bank page's approve and decline, the control call, the packs'
 * test banks, events, the charge query, the pay-ins list, balances and refunds, and every refusal
 * field by field.
 */

const sandbox = sandboxPerTest()
const SINGULAR = '/merchant/api/v1/charge/pay-with-bank'
const PLURAL = '/merchant/api/v1/charges/pay-with-bank'
const BANKS = '/merchant/api/v1/charge/pay-with-bank/banks'

/** the body of the npm SDK's `chargeViaDirectBankDebit` (SPEC's GA-TS): OPay, NGN */
function body(overrides: Record<string, unknown> = {}) {
  return { reference: ref('pwb'), amount: 1000, currency: 'NGN', bank_code: '100004', customer: { name: 'Ada Obi', email: 'ada@example.com' }, ...overrides }
}
const create = (sb: TestSandbox, overrides: Record<string, unknown> = {}, path = SINGULAR) => sb.call('POST', path, body(overrides))
const query = async (sb: TestSandbox, reference: string) => (await sb.call('GET', `/merchant/api/v1/charges/${reference}`)).body.data
const events = async (sb: TestSandbox, reference: string) => (await sb.call('GET', `/_sandbox/events?reference=${reference}`)).body.data
/** the customer's choice, as the bank page's form posts it */
const decide = (sb: TestSandbox, redirectUrl: string, decision: string) =>
  sb.app.request(new URL(redirectUrl).pathname, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `decision=${decision}` })

describe('POST /charge/pay-with-bank (docs/behaviour.md#pay-with-bank)', () => {
  it('answers a processing charge with the bank page at both redirect fields, on either spelling', async () => {
    const sb = await sandbox()
    for (const path of [SINGULAR, PLURAL]) {
      const reference = ref('pwb')
      const res = await create(sb, { reference, narration: 'Order 7' }, path)
      expect(res.status).toBe(200)
      const tx = res.body.data.transaction_reference
      expect(tx).toMatch(/^KPY-PB-[A-Z0-9]{14}$/)
      const redirect = `http://localhost/_sandbox/pay-with-bank/${tx}`
      expect(res.body).toEqual({
        status: true,
        message: 'Pay With Bank initiated successfully',
        data: {
          currency: 'NGN',
          amount: 1000,
          // the pack's pay_with_bank fee: 1.5 % of 1,000 and 7.5 % VAT on it
          fee: 15,
          vat: 1.13,
          transaction_reference: tx,
          payment_reference: reference,
          status: 'processing',
          merchant_bears_cost: false,
          customer: { name: 'Ada Obi', email: 'ada@example.com' },
          narration: 'Order 7',
          authorization: { redirect_url: redirect },
          bank_account: { bank_name: 'OPay' },
          message: 'Redirect the customer to authorization.redirect_url to approve the payment at their bank',
        },
      })
      expect(await query(sb, reference)).toMatchObject({ reference, status: 'processing', amount_paid: '0.00' })
    }
  })

  it('takes what public clients send: a numeric string amount, null optional fields, ZAR', async () => {
    const sb = await sandbox()
    const res = await create(sb, { amount: '1000.0', redirect_url: null, notification_url: null, narration: null, metadata: null, merchant_bears_cost: null })
    expect(res.status).toBe(200)
    // no narration: the merchant's, as the collection's ZAR sample shows (Payment on Microsoft Inc)
    expect(res.body.data).toMatchObject({ amount: 1000, merchant_bears_cost: false, narration: 'Payment on Sandbox Merchant' })
    const zar = await create(sb, { currency: 'ZAR', bank_code: '250655', amount: 14.5 })
    expect(zar.status).toBe(200)
    expect(zar.body.data).toMatchObject({ currency: 'ZAR', amount: 14.5, bank_account: { bank_name: 'FNB' } })
  })

  it('refuses field by field, leaving nothing behind', async () => {
    const sb = await sandbox()
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ reference: 'short' }, { reference: 'must be at least 8 characters' }],
      [{ amount: 199.99 }, { amount: 'must be at least NGN 200.00' }],
      [{ amount: 0.5, currency: 'ZAR', bank_code: '250655' }, { amount: 'must be at least ZAR 1.00' }],
      [{ amount: 'ten' }, { amount: 'must be a numeric string' }],
      [{ currency: 'USD' }, { currency: expect.any(String) }],
      [{ bank_code: '058' }, { bank_code: 'must be the code of a bank of GET /merchant/api/v1/charge/pay-with-bank/banks?currency=NGN' }],
      [{ bank_code: '250655' }, { bank_code: 'must be the code of a bank of GET /merchant/api/v1/charge/pay-with-bank/banks?currency=NGN' }],
      [{ customer: { email: 'ada@example.com' } }, { 'customer.name': 'is required' }],
      [{ customer: { name: 'Ada' } }, { 'customer.email': 'is required' }],
      [{ redirect_url: 'ftp://x' }, { redirect_url: 'must be an http(s) URL' }],
      [{ metadata: { 'a b': 1 } }, { metadata: 'keys may only hold A-Z, a-z, 0-9 and -' }],
    ]
    for (const [overrides, data] of cases) {
      const res = await create(sb, overrides)
      expect(res.status, JSON.stringify(overrides)).toBe(422)
      expect(res.body).toEqual({ status: false, error: 'validation_error', message: 'Invalid request data', data: expect.objectContaining(fieldMessages(data)) })
    }
    const reference = ref('pwb')
    expect((await create(sb, { reference })).status).toBe(200)
    const again = await create(sb, { reference })
    expect([again.status, again.body]).toEqual([409, { status: false, code: 'AA021', message: 'Duplicate payment reference', data: null }])
    expect((await sb.call('GET', '/merchant/api/v1/pay-ins')).body.data.payins).toHaveLength(1)
  })
})

describe('GET /charge/pay-with-bank/banks', () => {
  it("lists the packs' banks of the currency, NGN without one", async () => {
    const sb = await sandbox()
    const ngn = await sb.call('GET', BANKS)
    expect(ngn.status).toBe(200)
    expect(ngn.body.message).toBe('Pay with Bank supported banks retrieved successfully')
    expect(ngn.body.data.map((b: { code: string }) => b.code)).toEqual(['100004', '100033', '000001', '000002'])
    // the collection's item: {code, name, slug, country}
    expect(ngn.body.data[1]).toEqual({ code: '100033', name: 'PalmPay', slug: 'palmpay-ng', country: 'NG' })
    expect((await sb.call('GET', `${BANKS}?currency=NGN`)).body.data).toEqual(ngn.body.data)
    const zarBanks = (await sb.call('GET', `${BANKS}?currency=ZAR`)).body.data
    expect(zarBanks[1]).toEqual({ code: '430000', name: 'African Bank', slug: 'african-bank-za', country: 'ZA' })
    const zar = zarBanks.map((b: { code: string }) => b.code)
    expect(zar).toEqual(['632005', '430000', '462005', '250655', '580105', '198765', '051001', '678910', '000003'])
    expect((await sb.call('GET', `${BANKS}?currency=KES`)).status).toBe(422)
    expect((await sb.call('GET', BANKS, undefined, { key: null })).status).toBe(401)
  })
})

describe('the bank page and what follows', () => {
  it('approved: success, charge.success with pay_with_bank, back to redirect_url; credited, listed and refundable', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('pwb')
    const before = (await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN
    const res = await create(sb, { reference, redirect_url: 'https://shop.example/return', notification_url: 'http://127.0.0.1:9/hook' })
    const redirect = res.body.data.authorization.redirect_url
    const page = await sb.app.request(new URL(redirect).pathname)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Approve your payment')
    expect(html).toContain('NGN 1,000.00')
    const done = await decide(sb, redirect, 'approve')
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe(`https://shop.example/return?reference=${reference}`)
    expect(await query(sb, reference)).toMatchObject({ status: 'success', amount_paid: '1016.13' })
    const ev = await events(sb, reference)
    expect(ev).toHaveLength(1)
    expect(ev[0]).toMatchObject({ event: 'charge.success', target: 'http://127.0.0.1:9/hook', data: { reference, amount: 1000, fee: 15, status: 'success', payment_method: 'pay_with_bank' } })
    const listed = (await sb.call('GET', '/merchant/api/v1/pay-ins')).body.data.payins
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ reference, status: 'success' })
    // credited after the pack's settlement delay: 1,000 less the fee and VAT the merchant pays out of it
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
    const after = (await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN
    expect(after.available_balance - before.available_balance).toBeCloseTo(1000, 2)
    const refund = await sb.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: reference, reference: ref('rf'), amount: 500 })
    expect(refund.status).toBe(200)
    // the page now shows the outcome, and a second decision is refused
    expect(await (await sb.app.request(new URL(redirect).pathname)).text()).toContain('This transaction is complete')
    expect((await decide(sb, redirect, 'decline')).status).toBe(409)
  })

  it('declined: failed with the text, charge.failed; the page shows it when there is no redirect_url', async () => {
    const sb = await sandbox()
    const reference = ref('pwb')
    const redirect = (await create(sb, { reference })).body.data.authorization.redirect_url
    const done = await decide(sb, redirect, 'decline')
    expect(done.status).toBe(200)
    expect(await done.text()).toContain('Payment was declined by the customer at the bank')
    expect(await query(sb, reference)).toMatchObject({ status: 'failed', payment_attempts: [{ channel: 'pay_with_bank', status: 'failed', message: 'Payment was declined by the customer at the bank' }] })
    expect((await events(sb, reference))[0]).toMatchObject({ event: 'charge.failed', data: { status: 'failed', payment_method: 'pay_with_bank' } })
  })

  it("ends on approval as the pack's test bank says: fails with its message, or waits for the bank", async () => {
    const sb = await sandbox()
    const failing = ref('pwb')
    await decide(sb, (await create(sb, { reference: failing, bank_code: '000001' })).body.data.authorization.redirect_url, 'approve')
    expect(await query(sb, failing)).toMatchObject({ status: 'failed' })
    expect((await events(sb, failing))[0]).toMatchObject({ event: 'charge.failed' })
    expect((await query(sb, failing)).payment_attempts[0].message).toBe('Insufficient funds')
    const silent = ref('pwb')
    const redirect = (await create(sb, { reference: silent, bank_code: '000002' })).body.data.authorization.redirect_url
    expect((await decide(sb, redirect, 'approve')).status).toBe(200)
    expect(await query(sb, silent)).toMatchObject({ status: 'processing' })
    expect((await decide(sb, redirect, 'approve')).status).toBe(400)
    expect(await events(sb, silent)).toHaveLength(0)
    const done = await sb.call('POST', `/_sandbox/charges/${silent}/complete`, { outcome: 'success' })
    expect(done.body.data).toMatchObject({ reference: silent, status: 'success' })
    expect((await events(sb, silent))[0]).toMatchObject({ event: 'charge.success' })
  })

  it('ZAR: approved at FNB it succeeds; credited to the ZAR balance every namespace opens with, and refundable once settled (docs/behaviour.md#pay-with-bank)', async () => {
    const sb = await sandbox()
    const reference = ref('pwb')
    const before = (await sb.call('GET', '/merchant/api/v1/balances')).body.data
    const redirect = (await create(sb, { reference, currency: 'ZAR', bank_code: '250655', amount: 145 })).body.data.authorization.redirect_url
    expect((await decide(sb, redirect, 'approve')).status).toBe(200)
    expect(await query(sb, reference)).toMatchObject({ status: 'success', currency: 'ZAR' })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
    const after = await sb.call('GET', '/merchant/api/v1/balances')
    expect(after.status).toBe(200)
    // ZAR is a currency every namespace opens with (payouts are served in it, 13.7)
    expect(before.ZAR).toEqual({ pending_balance: 0, available_balance: 5_000_000 })
    expect(after.body.data.ZAR).toEqual({ pending_balance: 0, available_balance: 5_000_145 })
    const refund = await sb.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: reference, reference: ref('rf') })
    expect(refund.body).toMatchObject({ status: true, data: { status: 'processing', currency: 'ZAR', amount_returned: 145 } })
    expect((await sb.call('GET', '/merchant/api/v1/balances')).body.data.ZAR).toEqual({ pending_balance: 0, available_balance: 5_000_000 })
  })

  it("a namespace's pack changes what a bank does, adds a bank, and is refused with the same bank twice", async () => {
    const sb = await sandbox()
    const pack = {
      banks: [
        { bank_code: '100004', currency: 'NGN', name: 'OPay', outcome: 'failed', message: 'Daily limit reached', label: 'OPay now fails' },
        { bank_code: '999999', currency: 'NGN', name: 'My Test Bank', outcome: 'success', label: 'mine' },
      ],
    }
    expect((await sb.call('POST', '/_sandbox/scenarios', pack)).status).toBe(200)
    expect((await sb.call('GET', BANKS)).body.data.map((b: { code: string }) => b.code)).toContain('999999')
    const reference = ref('pwb')
    await decide(sb, (await create(sb, { reference })).body.data.authorization.redirect_url, 'approve')
    expect((await query(sb, reference)).payment_attempts[0].message).toBe('Daily limit reached')
    const twice = await sb.call('POST', '/_sandbox/scenarios', { banks: [pack.banks[1], pack.banks[1]] })
    expect(twice.status).toBe(422)
    expect(JSON.stringify(twice.body)).toContain('banks.1.bank_code')
  })

  it('a control call ends it without a browser, with the message given', async () => {
    const sb = await sandbox()
    const reference = ref('pwb')
    await create(sb, { reference, merchant_bears_cost: true })
    const done = await sb.call('POST', `/_sandbox/charges/${reference}/complete`, { outcome: 'failed', message: 'Bank unavailable' })
    expect(done.status).toBe(200)
    expect(done.body.data).toMatchObject({ status: 'failed', message: 'Bank unavailable' })
    expect((await sb.call('POST', `/_sandbox/charges/${reference}/complete`, { outcome: 'success' })).status).toBe(409)
  })

  it("the dashboard lists it with its bank, what it waits for, and the control call's buttons", async () => {
    const sb = await sandbox()
    const reference = ref('pwb')
    await create(sb, { reference, bank_code: '000001' })
    const html = String((await sb.call('GET', `/_sandbox/ui/fragment?ns=${SECRET}`, undefined, { key: null })).body)
    const row = html.split(`data-ref="${reference}"`)[1].split('</tr>')[0]
    expect(row).toContain('data-kind="pay_with_bank"')
    expect(row).toContain('pay with bank')
    expect(row).toContain('Sandbox Bank (insufficient funds) (000001)')
    expect(row).toContain('waiting for the customer at the bank')
    expect(row).toContain(`Complete ${reference} as success`)
  })

  it("the dashboard's kind filter offers it by its name in words and narrows the charges to it", async () => {
    const sb = await sandbox()
    const reference = ref('pwb')
    await create(sb, { reference })
    const page = String((await sb.call('GET', `/_sandbox/ui?ns=${SECRET}&kind=pay_with_bank`, undefined, { key: null })).body)
    expect(page).toMatch(/<option value="pay_with_bank" selected="">pay with bank<\/option>/)
    const only = (kind: string) => sb.call('GET', `/_sandbox/ui/fragment?ns=${SECRET}&kind=${kind}`, undefined, { key: null })
    expect(String((await only('pay_with_bank')).body)).toContain(`data-ref="${reference}"`)
    expect(String((await only('card')).body)).not.toContain(`data-ref="${reference}"`)
  })

  it('with --data, a charge made before a restart is approved at its page after it', async () => {
    const file = tempFile()
    const first = await makeSandbox({ data: file })
    const reference = ref('pwb')
    const redirect = (await create(first, { reference })).body.data.authorization.redirect_url
    await first.close()
    const second = await makeSandbox({ data: file })
    try {
      expect((await query(second, reference)).status).toBe('processing')
      expect((await decide(second, redirect, 'approve')).status).toBe(200)
      expect(await query(second, reference)).toMatchObject({ status: 'success', reference })
    } finally {
      await second.close()
    }
  })

  it('a page of an unknown transaction answers 404 in HTML', async () => {
    const sb = await sandbox()
    const res = await sb.app.request('/_sandbox/pay-with-bank/KPY-PB-NOPE')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('text/html')
  })
})

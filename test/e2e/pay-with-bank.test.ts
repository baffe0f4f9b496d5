import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { SECRET, ref } from '../helpers/sandbox.js'
import { SHOTS, browserPerFile } from './chromium.js'
import { cliWithReceiver } from './caller.js'
import { killedAfterEach } from './process.js'

/**
 * Pay with bank against the real CLI (docs/behaviour.md#pay-with-bank): the bodies public clients send, on
 * both spellings; the bank list; the events at a real receiver, signed; and a person at the
 * sandbox bank's page in Debian's chromium (playwright-core) who approves, or declines, with the
 * charge query and the webhook showing what they chose.
 */

const undo = killedAfterEach()
const SINGULAR = '/merchant/api/v1/charge/pay-with-bank'
const PLURAL = '/merchant/api/v1/charges/pay-with-bank'

const newPage = browserPerFile({ width: 390, height: 844 })

const start = () => cliWithReceiver(undo)

/** The merchant's own check: hex HMAC-SHA256 of JSON.stringify(data), keyed with the secret key. */
const signed = (data: unknown) => createHmac('sha256', SECRET).update(JSON.stringify(data)).digest('hex')

describe('pay with bank against the real CLI', () => {
  it("answers the bodies public clients send on both spellings, lists each currency's banks, and announces the ends at a real receiver, signed", async () => {
    const { call, rx } = await start()
    // the NGN banks, as AEV and STX ask for them
    const banks = await call('GET', `${SINGULAR}/banks?currency=NGN`)
    expect(banks.status).toBe(200)
    expect(banks.body.data.slice(0, 2)).toEqual([{ code: '100004', name: 'OPay', slug: 'opay-ng', country: 'NG' }, { code: '100033', name: 'PalmPay', slug: 'palmpay-ng', country: 'NG' }])
    expect((await call('GET', `${SINGULAR}/banks?currency=ZAR`)).body.data.map((b: { code: string }) => b.code)).toContain('250655')

    // STX's KorapayService: the merchant bears the cost, a notification_url, a narration
    const stx = ref('stx-deposit')
    const first = await call('POST', SINGULAR, { amount: 5000, currency: 'NGN', reference: stx, bank_code: '100004', customer: { name: 'Ada Obi', email: 'ada@example.com' }, merchant_bears_cost: true, notification_url: rx.url, narration: 'StableX NGN Deposit' })
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ status: 'processing', payment_reference: stx, merchant_bears_cost: true, narration: 'StableX NGN Deposit', bank_account: { bank_name: 'OPay' } })
    // the fields the two SDKs (GA-TS, REBAT) read, as the samples give them: no reference or auth_data (a third-party reading's)
    expect(first.body.data).not.toHaveProperty('auth_data')
    expect(first.body.data).not.toHaveProperty('reference')
    expect(new URL(first.body.data.authorization.redirect_url).pathname).toBe(`/_sandbox/pay-with-bank/${first.body.data.transaction_reference}`)

    // REBAT's payWithBank on the plural path: narration and notification_url always sent
    const rebat = ref('rebat')
    const second = await call('POST', PLURAL, { reference: rebat, amount: '1500.00', currency: 'NGN', bank_code: '100033', customer: { name: 'Ada Obi', email: 'ada@example.com' }, narration: 'Order 12', notification_url: rx.url, merchant_bears_cost: false, redirect_url: null })
    expect(second.status).toBe(200)
    expect(second.body.data).toMatchObject({ amount: 1500, fee: 22.5, vat: 1.69, bank_account: { bank_name: 'PalmPay' } })

    // GUNG's Instant EFT body (ZAR, FNB), in major units
    const zar = await call('POST', SINGULAR, { reference: ref('gung'), amount: 145, currency: 'ZAR', bank_code: '250655', customer: { email: 'buyer@example.co.za', name: 'Thandi' }, merchant_bears_cost: false, notification_url: rx.url })
    expect(zar.status).toBe(200)
    expect(zar.body.data.authorization.redirect_url).toMatch(/\/_sandbox\/pay-with-bank\/KPY-PB-/)

    // the control call ends the first as success, the second as failed
    expect((await call('POST', `/_sandbox/charges/${stx}/complete`, { outcome: 'success' })).body.data.status).toBe('success')
    expect((await call('POST', `/_sandbox/charges/${rebat}/complete`, { outcome: 'failed', message: 'Insufficient funds' })).body.data.status).toBe('failed')
    await rx.waitFor(2)
    const byRef = Object.fromEntries(rx.received.map((r) => [r.body.data.reference, r]))
    expect(byRef[stx].body).toMatchObject({ event: 'charge.success', data: { reference: stx, amount: 5000, status: 'success', payment_method: 'pay_with_bank', currency: 'NGN' } })
    expect(byRef[rebat].body).toMatchObject({ event: 'charge.failed', data: { reference: rebat, status: 'failed', payment_method: 'pay_with_bank' } })
    for (const r of rx.received) expect(r.headers['x-korapay-signature']).toBe(signed(r.body.data))
    // the handler queries the charge by data.reference, and the pay-ins list has all three
    expect((await call('GET', `/merchant/api/v1/charges/${stx}`)).body.data).toMatchObject({ status: 'success', amount_paid: '5000.00' })
    expect((await call('GET', '/merchant/api/v1/pay-ins')).body.data.payins).toHaveLength(3)
  })
})

describe("a person at the sandbox bank's page, in chromium", () => {
  it('approves: back at redirect_url with ?reference=, the charge succeeded, charge.success at the receiver', async () => {
    const { cli, call, rx } = await start()
    const reference = ref('pwb-browser')
    const back = rx.url.replace(/\/[^/]*$/, '/shop/return')
    const res = await call('POST', SINGULAR, { reference, amount: 2500, currency: 'NGN', bank_code: '100004', customer: { name: 'Ada Obi', email: 'ada@example.com' }, redirect_url: back, notification_url: rx.url })
    const page = await newPage()
    await page.goto(res.body.data.authorization.redirect_url)
    expect(new URL(page.url()).origin).toBe(cli.url)
    await page.getByRole('heading', { name: 'Approve your payment' }).waitFor()
    const summary = await page.locator('dl').innerText()
    expect(summary).toContain('NGN 2,500.00')
    expect(summary).toContain('OPay')
    expect(summary).toContain(reference)
    await page.screenshot({ path: `${SHOTS}/pay-with-bank.png`, fullPage: true })
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL((u) => u.pathname === '/shop/return')
    expect(new URL(page.url()).searchParams.get('reference')).toBe(reference)
    expect((await call('GET', `/merchant/api/v1/charges/${reference}`)).body.data).toMatchObject({ status: 'success' })
    // the receiver also counts the browser's own visit to /shop/return: wait for the event's delivery itself
    const delivered = await call('GET', `/_sandbox/events?reference=${reference}&status=delivered&wait=10000`)
    expect(delivered.body.data).toHaveLength(1)
    const hook = rx.received.find((r) => r.body?.data?.reference === reference)!
    expect(hook.body).toMatchObject({ event: 'charge.success', data: { reference, amount: 2500, status: 'success', payment_method: 'pay_with_bank' } })
  })

  it('declines: the page says so, the charge failed, charge.failed at the receiver; the page then shows the outcome only', async () => {
    const { call, rx } = await start()
    const reference = ref('pwb-browser')
    const res = await call('POST', PLURAL, { reference, amount: 300, currency: 'NGN', bank_code: '100033', customer: { name: 'Ada Obi', email: 'ada@example.com' }, notification_url: rx.url })
    const page = await newPage()
    await page.goto(res.body.data.authorization.redirect_url)
    await page.getByRole('button', { name: 'Decline' }).click()
    await page.getByRole('status').waitFor()
    expect(await page.getByRole('status').innerText()).toContain('Payment was declined by the customer at the bank')
    const q = (await call('GET', `/merchant/api/v1/charges/${reference}`)).body.data
    expect(q).toMatchObject({ status: 'failed' })
    expect(q.payment_attempts.at(-1).channel).toBe('pay_with_bank')
    expect(q.payment_attempts.at(-1).message).toBe('Payment was declined by the customer at the bank')
    await rx.waitFor(1)
    expect(rx.received[0].body).toMatchObject({ event: 'charge.failed', data: { reference, status: 'failed', payment_method: 'pay_with_bank' } })
    await page.goto(res.body.data.authorization.redirect_url)
    await page.getByRole('status').waitFor()
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0)
  })

  it('pays a checkout: picks pay with bank and a bank on the checkout page, approves at the bank, and lands on redirect_url; the checkout is paid by pay_with_bank', async () => {
    const { call, rx } = await start()
    const reference = ref('co-pwb')
    const back = rx.url.replace(/\/[^/]*$/, '/shop/done')
    const init = await call('POST', '/merchant/api/v1/charges/initialize', { reference, amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada' }, redirect_url: back, notification_url: rx.url })
    const page = await newPage()
    await page.goto(init.body.data.checkout_url)
    await page.getByRole('link', { name: 'Pay with bank' }).click()
    await page.getByLabel('Bank', { exact: true }).selectOption({ label: 'PalmPay' })
    await page.getByRole('button', { name: 'Continue to your bank' }).click()
    await page.getByRole('link', { name: 'Go to PalmPay' }).click()
    await page.getByRole('heading', { name: 'Approve your payment' }).waitFor()
    expect(await page.locator('dl').innerText()).toContain('NGN 1,500.00')
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL((u) => u.pathname === '/shop/done')
    expect(new URL(page.url()).searchParams.get('reference')).toBe(reference)
    expect((await call('GET', `/merchant/api/v1/charges/${reference}`)).body.data).toMatchObject({ status: 'success' })
    expect((await call('GET', `/merchant/api/v1/charges/${reference}`)).body.data.payment_attempts.at(-1)).toMatchObject({ channel: 'pay_with_bank', status: 'success' })
    // the receiver also counts the browser's own visit to /shop/done: wait for the event's delivery itself
    expect((await call('GET', `/_sandbox/events?reference=${reference}&status=delivered&wait=10000`)).body.data).toHaveLength(1)
    expect(rx.received.find((r) => r.body?.data?.reference === reference)!.body).toMatchObject({ event: 'charge.success', data: { reference, status: 'success', payment_method: 'pay_with_bank' } })
  })
})

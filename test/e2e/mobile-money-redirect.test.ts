import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { SECRET, ref } from '../helpers/sandbox.js'
import { cliWithReceiver } from './caller.js'
import { killedAfterEach } from './process.js'

/**
 * The REDIRECT model of mobile money against the real CLI (docs/behaviour.md#mobile-money-operator-page): the charge
 * answers `auth_model: REDIRECT` and the operator's page at `authorization.redirect_url`, which
 * the sandbox serves; the customer's form post there approves (back at the merchant's
 * redirect_url with `?reference=`) or declines, and the charge query and the signed webhook at a
 * real receiver say what they chose. The wallet resolve of the same pack, through the same process.
 */

const undo = killedAfterEach()
const MM = '/merchant/api/v1/charges/mobile-money'

const start = () => cliWithReceiver(undo)

const signed = (data: unknown) => createHmac('sha256', SECRET).update(JSON.stringify(data)).digest('hex')

/** The customer's browser posting the page's form: no key, the choice as a form field. */
const choose = (url: string, decision: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ decision }), redirect: 'manual' })

describe("mobile money's REDIRECT model through the CLI", () => {
  it("sends the customer to the sandbox's operator page; approved, back at redirect_url, the charge succeeded and charge.success arrived signed", async () => {
    const { cli, call, rx } = await start()
    const reference = ref('mm-redirect')
    const back = 'https://shop.example.com/return'
    const res = await call('POST', MM, { reference, amount: 500, currency: 'KES', customer: { name: 'Wanjiku', email: 'w@example.com' }, mobile_money: { number: '254700000001' }, redirect_url: back, notification_url: rx.url })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: true, code: 'AA001', message: 'Authorization required', data: { auth_model: 'REDIRECT', status: 'processing' } })
    const tx = res.body.data.transaction_reference
    const url = new URL(res.body.data.authorization.redirect_url)
    expect(url.origin).toBe(cli.url)
    expect(url.pathname).toBe(`/_sandbox/mobile-money/${tx}`)

    // no PIN prompt and no OTP are pending: the other steps' calls are refused, changing nothing
    const stk = await call('POST', `${MM}/sandbox/authorize-stk`, { reference: tx, pin: '1234' })
    expect([stk.status, stk.body.message]).toEqual([409, 'STK is not required for this transaction'])
    const otp = await call('POST', `${MM}/authorize`, { reference: tx, token: '123456' })
    expect([otp.status, otp.body.message]).toEqual([409, 'OTP is not required for this transaction'])

    const page = await fetch(url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    const html = await page.text()
    expect(html).toContain('Approve your payment')
    expect(html).toContain('+254700000001')
    expect(html).toContain(reference)

    const approved = await choose(url.href, 'approve')
    expect(approved.status).toBe(302)
    const to = new URL(approved.headers.get('location')!)
    expect(`${to.origin}${to.pathname}`).toBe(back)
    expect(to.searchParams.get('reference')).toBe(reference)

    const q = await call('GET', `/merchant/api/v1/charges/${reference}`)
    expect(q.body.data).toMatchObject({ status: 'success', mobile_money: { number: expect.any(String) } })
    await rx.waitFor(1)
    const hook = rx.received[0]
    expect(hook.body).toMatchObject({ event: 'charge.success', data: { reference, status: 'success', payment_method: 'mobile_money', currency: 'KES' } })
    expect(hook.headers['x-korapay-signature']).toBe(signed(hook.body.data))
    // the page then shows the outcome only, and a second choice is refused in HTML
    expect(await (await fetch(url)).text()).toContain('This transaction is complete')
    const again = await choose(url.href, 'decline')
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('Transaction has already been completed')
  })

  it('after the OTP, the page; declined, the charge failed with its reason and charge.failed arrived', async () => {
    const { call, rx } = await start()
    const reference = ref('mm-redirect')
    const res = await call('POST', MM, { reference, amount: 70, currency: 'GHS', customer: { email: 'k@example.com' }, mobile_money: { number: '233240000001' }, notification_url: rx.url })
    expect(res.body.data.auth_model).toBe('OTP')
    expect(res.body.data).not.toHaveProperty('authorization')
    const tx = res.body.data.transaction_reference
    const otp = await call('POST', `${MM}/authorize`, { reference: tx, token: '123456' })
    expect(otp.status).toBe(200)
    expect(otp.body.data.auth_model).toBe('REDIRECT')
    const url = otp.body.data.authorization.redirect_url

    const declined = await choose(url, 'decline')
    expect(declined.status).toBe(200)
    expect(await declined.text()).toContain("Payment was declined by the customer on the operator&#39;s page")
    const q = await call('GET', `/merchant/api/v1/charges/${tx}`)
    expect(q.body.data).toMatchObject({ status: 'failed', payment_attempts: [{ message: "Payment was declined by the customer on the operator's page" }] })
    await rx.waitFor(1)
    expect(rx.received[0].body).toMatchObject({ event: 'charge.failed', data: { reference, status: 'failed', payment_method: 'mobile_money' } })
    // a form without a choice, and a reference no charge has, are refused in HTML
    expect((await choose(url, 'maybe')).status).toBe(400)
    expect((await fetch(url.replace(tx, 'KPY-MO-NOSUCHTHING000'))).status).toBe(404)
  })

  it("resolves the pack's wallets: a name, a derived name for any other, 503 AA024 Invalid account. for one no operator knows", async () => {
    const { call } = await start()
    const RESOLVE = '/merchant/api/v1/misc/mobile-money/resolve'
    const found = await call('POST', RESOLVE, { mobileMoneyCode: '0004', phoneNumber: '233240000000', currency: 'GHS' })
    expect(found.status).toBe(200)
    expect(found.body).toEqual({ status: true, message: 'Request completed', data: { mobile_money_operator: 'MTN Mobile Money', mobile_money_code: '0004', phone_number: '233240000000', account_name: 'KWAME MENSAH' } })
    const other = await call('POST', RESOLVE, { mobileMoneyCode: 'safaricom-ke', phoneNumber: '254712345678', currency: 'KES' })
    expect(other.status).toBe(200)
    expect(other.body.data.account_name).toMatch(/^[A-Z]+ [A-Z]+$/)
    expect((await call('POST', RESOLVE, { mobileMoneyCode: 'safaricom-ke', phoneNumber: '254712345678', currency: 'KES' })).body).toEqual(other.body)
    const missing = await call('POST', RESOLVE, { mobileMoneyCode: '0004', phoneNumber: '233548668725', currency: 'GHS' })
    expect(missing.status).toBe(503)
    expect(missing.body).toEqual({ status: false, code: 'AA024', message: 'Invalid account.', data: null })
    const bad = await call('POST', RESOLVE, { phoneNumber: '233548668725', currency: 'GHS' })
    expect(bad.status).toBe(422)
    expect(bad.body).toMatchObject({ status: false, error: 'validation_error', message: 'Invalid request data', data: { mobileMoneyCode: { message: 'mobileMoneyCode is required' } } })
  })
})

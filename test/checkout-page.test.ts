import { describe, expect, it } from 'vitest'
import { FAILURE } from '../src/messages.js'
import { pageId } from '../src/namespaces.js'
import { ref, sandboxPerTest, SECRET, type TestSandbox } from './helpers/sandbox.js'

/** The hosted checkout page over HTTP (docs/behaviour.md#checkout-page); the browser tests are in test/e2e/checkout-browser.test.ts. */

const sandbox = sandboxPerTest()
const INIT = '/merchant/api/v1/charges/initialize'
const SHOP = 'https://shop.example/return?order=42'

async function open(sb: TestSandbox, overrides: Record<string, unknown> = {}) {
  const reference = ref('co')
  const res = await sb.call('POST', INIT, { reference, amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada' }, redirect_url: SHOP, ...overrides })
  expect(res.status).toBe(200)
  const answered = new URL(res.body.data.checkout_url).pathname
  expect(answered).toMatch(/^\/checkout\/KPY-PI-[A-Z0-9]+\/pay$/)
  // the page's own links and redirects name its namespace (docs/behaviour.md#urls-handed-out)
  return { reference, path: answered.replace('/checkout/', `/checkout/${pageId(SECRET)}/`) }
}

interface Page {
  status: number
  location: string | null
  type: string | null
  html: string
}

async function get(sb: TestSandbox, path: string): Promise<Page> {
  const res = await sb.app.request(path)
  return { status: res.status, location: res.headers.get('location'), type: res.headers.get('content-type'), html: await res.text() }
}

async function post(sb: TestSandbox, path: string, fields: Record<string, string>): Promise<Page> {
  const res = await sb.app.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })
  return { status: res.status, location: res.headers.get('location'), type: res.headers.get('content-type'), html: await res.text() }
}

/** The action the page's (first) form posts: what it asks for now. */
const asks = (html: string) => /name="action" value="(\w+)"/.exec(html)?.[1]
/** Text without tags, for what a person reads. */
const text = (html: string) => html.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
const landed = (reference: string) => `https://shop.example/return?order=42&reference=${reference}`
const query = async (sb: TestSandbox, reference: string) => (await sb.call('GET', `/merchant/api/v1/charges/${reference}`)).body.data

/** Approves on a decision page (3DS or the bank's), which comes back to the checkout, which goes on to redirect_url. */
async function approveAndLand(sb: TestSandbox, link: string, path: string, reference: string) {
  const approved = await post(sb, link, { decision: 'approve' })
  expect(approved.status).toBe(302)
  const back = new URL(approved.location!)
  expect(back.pathname).toBe(path)
  const end = await get(sb, back.pathname + back.search)
  expect([end.status, end.location]).toEqual([302, landed(reference)])
}

/** Posts an action and follows the page's own redirect; returns the page it lands on (or the final redirect). */
async function step(sb: TestSandbox, path: string, fields: Record<string, string>): Promise<Page> {
  const res = await post(sb, path, fields)
  if (res.status === 303 && res.location === path) return get(sb, path)
  return res
}

const CARD = { expiry: '09/30', cvv: '123' }
const ANSWERS: Record<string, Record<string, string>> = {
  pin: { pin: '1234' },
  otp: { otp: '123456' },
  avs: { address: '1 Sandbox Road', city: 'Lekki', state: 'Lagos', zip_code: '100001', country: 'NG' },
  phone: { phone: '+2348000000000' },
}

/** Pays by card on the page, answering every step asked with the test values; the steps asked, in order. */
async function payByCard(sb: TestSandbox, path: string, number: string, cvv = '123') {
  const seen: string[] = []
  let page = await step(sb, path, { action: 'card', card_number: number, expiry: '09/30', cvv })
  while (page.status === 200 && ['pin', 'otp', 'avs', 'phone'].includes(asks(page.html) ?? '')) {
    const a = asks(page.html)!
    seen.push(a)
    page = await step(sb, path, { action: a, ...ANSWERS[a] })
  }
  return { page, seen }
}

describe('GET /checkout/:tx/pay', () => {
  it('shows the merchant, amount and currency, the channels offered, and labelled card fields', async () => {
    const sb = await sandbox()
    const { path, reference } = await open(sb, { narration: 'Two tickets' })
    const page = await get(sb, path)
    expect(page.status).toBe(200)
    expect(page.type).toContain('text/html')
    // no script, nothing from elsewhere: a plain page
    expect(page.html).not.toContain('<script')
    expect(page.html).not.toMatch(/(src|href)="(https?:)?\/\//)
    const t = text(page.html)
    expect(t).toContain('Sandbox Merchant')
    expect(t).toContain('NGN 1,500.00')
    expect(t).toContain(reference)
    expect(t).toContain('Two tickets')
    // NGN: card, bank transfer and pay with bank (mobile money takes KES and GHS)
    expect([...page.html.matchAll(/<a href="[^"]*\?channel=(\w+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[1], m[2]])).toEqual([
      ['card', 'Card'],
      ['bank_transfer', 'Bank transfer'],
      ['pay_with_bank', 'Pay with bank'],
    ])
    for (const [id, label] of [
      ['card_number', 'Card number'],
      ['expiry', 'Expiry'],
      ['cvv', 'CVV'],
    ]) expect(page.html).toContain(`<label for="f-${id}">${label}</label><input id="f-${id}" name="${id}"`)
    expect(page.html).toMatch(/<button class="primary" type="submit">Pay<\/button>/)
    expect(page.html).toMatch(/<button class="secondary" type="submit">Cancel<\/button>/)
  })

  it('preselects default_channel, follows ?channel=, and locks the page to a single channel', async () => {
    const sb = await sandbox()
    const { path } = await open(sb, { default_channel: 'bank_transfer' })
    expect(await get(sb, path).then((p) => asks(p.html))).toBe('bank_transfer')
    expect((await get(sb, path)).html).toMatch(/\?channel=bank_transfer" aria-current="page">Bank transfer/)
    expect(await get(sb, `${path}?channel=card`).then((p) => asks(p.html))).toBe('card')
    // a channel not offered is ignored
    const kes = await open(sb, { currency: 'KES', amount: 250 })
    expect(await get(sb, `${kes.path}?channel=card`).then((p) => asks(p.html))).toBe('mobile_money')
    const kesPage = await get(sb, kes.path)
    expect(kesPage.html).not.toContain('aria-label="Payment method"')
    expect(kesPage.html).toContain('<label for="f-phone">Phone number</label>')
    const locked = await open(sb, { channels: ['card'] })
    expect((await get(sb, locked.path)).html).not.toContain('?channel=')
  })

  it('answers an unknown checkout with a 404 HTML page, for GET and POST', async () => {
    const sb = await sandbox()
    for (const res of [await get(sb, '/checkout/KPY-PI-NOSUCHCHECKOUT/pay'), await post(sb, '/checkout/KPY-PI-NOSUCHCHECKOUT/pay', { action: 'card' }), await post(sb, '/checkout/KPY-PI-NOSUCHCHECKOUT/cancel', {})]) {
      expect(res.status).toBe(404)
      expect(res.type).toContain('text/html')
      expect(text(res.html)).toContain('Checkout not found')
    }
  })
})

describe('card on the page', () => {
  it('asks each step of the card on the page and lands on redirect_url with the merchant reference (its own query kept)', async () => {
    const cases: [string, string[]][] = [
      ['4084127883172787', []],
      ['5188513618552975', ['pin']],
      ['5442056106072595', ['pin', 'otp']],
      ['5384063928932071', ['pin', 'avs']],
      ['5061460410120223210', ['pin', 'phone', 'otp']],
    ]
    const sb = await sandbox({ frozen: true })
    for (const [number, steps] of cases) {
      const { path, reference } = await open(sb)
      const { page, seen } = await payByCard(sb, path, number)
      expect(seen).toEqual(steps)
      expect(page.status).toBe(303)
      expect(page.location).toBe(landed(reference))
      const q = await query(sb, reference)
      expect(q).toMatchObject({ status: 'success', amount_paid: '1500.00' })
      expect(q.payment_attempts.at(-1)).toMatchObject({ channel: 'card', status: 'success' })
      expect(q.payment_attempts).toHaveLength(1)
      // a later visit of the ended checkout goes back to the shop too
      const again = await get(sb, path)
      expect([again.status, again.location]).toEqual([302, landed(reference)])
    }
  })

  it('3DS: links to the card 3DS page, which comes back to the checkout, which goes on to redirect_url', async () => {
    const sb = await sandbox({ frozen: true })
    const { path, reference } = await open(sb)
    const page = await step(sb, path, { action: 'card', card_number: '4562543755474674', ...CARD })
    const link = new RegExp(`href="(/_sandbox/3ds/${pageId(SECRET)}/KPY-CA-[^"]+)"`).exec(page.html)?.[1]
    expect(text(page.html)).toContain('Authenticate with your bank')
    expect(link).toBeDefined()
    await approveAndLand(sb, link!, path, reference)
    expect((await query(sb, reference)).status).toBe('success')
  })

  it('every failure of docs/api.md 7.4 shows its message, and the customer tries again and pays', async () => {
    const sb = await sandbox({ frozen: true })
    const cards = (await sb.call('GET', '/_sandbox/scenarios')).body.data.cards.filter((c: any) => c.outcome === 'failed')
    const shown = new Set<string>()
    for (const card of cards) {
      const { path, reference } = await open(sb)
      const { page } = await payByCard(sb, path, card.number, card.cvv)
      expect(page.status).toBe(200)
      const t = text(page.html)
      expect(t).toContain(`Payment failed: ${card.message}`)
      expect(page.html).toContain('role="alert"')
      shown.add(card.message)
      // the attempt is listed; the card form is there again
      expect(t).toContain('Previous attempts')
      expect(t).toContain(`•••• ${card.number.slice(-4)}: failed`)
      expect(asks(page.html)).toBe('card')
      expect((await query(sb, reference)).status).toBe('processing')
    }
    for (const m of Object.values(FAILURE)) if (m !== FAILURE.THREE_DS_DECLINED && m !== FAILURE.TRY_AGAIN) expect(shown).toContain(m)

    const { path, reference } = await open(sb)
    const failed = await payByCard(sb, path, '506066506066506067', '408')
    expect(text(failed.page.html)).toContain('Card could not be charged due to insufficient funds')
    const retry = await payByCard(sb, path, '5188513618552975')
    expect(retry.page.location).toBe(landed(reference))
    const q = await query(sb, reference)
    expect(q.status).toBe('success')
    expect(q.payment_attempts.map((a: any) => a.status)).toEqual(['failed', 'success'])
  })

  it('a wrong PIN fails the attempt with its message; a declined 3DS too', async () => {
    const sb = await sandbox({ frozen: true })
    const { path } = await open(sb)
    await step(sb, path, { action: 'card', card_number: '5188513618552975', ...CARD })
    const wrong = await step(sb, path, { action: 'pin', pin: '9999' })
    expect(text(wrong.html)).toContain(`Payment failed: ${FAILURE.INCORRECT_PIN}`)
    const tds = await step(sb, path, { action: 'card', card_number: '4562543755474674', ...CARD })
    const link = new RegExp(`href="(/_sandbox/3ds/${pageId(SECRET)}/KPY-CA-[^"]+)"`).exec(tds.html)![1]
    const declined = await post(sb, link, { decision: 'decline' })
    const back = await get(sb, new URL(declined.location!).pathname)
    expect(text(back.html)).toContain(`Payment failed: ${FAILURE.THREE_DS_DECLINED}`)
  })

  it('refuses bad entries as page text with the field named, nothing charged', async () => {
    const sb = await sandbox({ frozen: true })
    const { path, reference } = await open(sb)
    const bad = await post(sb, path, { action: 'card', card_number: '1234', expiry: '13/30', cvv: '12' })
    expect(bad.status).toBe(400)
    expect(bad.type).toContain('text/html')
    const t = text(bad.html)
    expect(t).toContain('Card number must be 12-19 digits')
    expect(t).toContain('Expiry must be MM/YY, e.g. 09/30')
    expect(t).toContain('CVV must be 3 or 4 digits')
    // what was typed comes back, except the CVV
    expect(bad.html).toContain('value="1234"')
    expect(bad.html).not.toContain('value="12"')
    expect(bad.html).toContain('aria-invalid="true" aria-describedby="e-card_number"')

    const luhn = await post(sb, path, { action: 'card', card_number: '4084127883172788', ...CARD })
    expect([luhn.status, text(luhn.html).includes('Card number is not a valid card number')]).toEqual([422, true])
    const expired = await post(sb, path, { action: 'card', card_number: '4084127883172787', expiry: '01/20', cvv: '123' })
    expect(text(expired.html)).toContain('Expiry the card has expired')
    const unsupported = await post(sb, path, { action: 'card', card_number: '9999999999999995', ...CARD })
    expect([unsupported.status, text(unsupported.html).includes('Card not supported')]).toEqual([400, true])
    // a step answered when none is asked
    const noStep = await post(sb, path, { action: 'pin', pin: '1234' })
    expect([noStep.status, text(noStep.html).includes('No payment attempt is in progress')]).toEqual([400, true])
    const unknown = await post(sb, path, { action: 'teleport' })
    expect([unknown.status, text(unknown.html).includes('Unknown action')]).toEqual([400, true])
    const q = await query(sb, reference)
    expect([q.status, q.payment_attempts]).toEqual(['pending', []])
  })
})

describe('mobile money on the page', () => {
  it('KES: wallet number, then the simulated prompt with its PIN', async () => {
    const sb = await sandbox({ frozen: true })
    const { path, reference } = await open(sb, { currency: 'KES', amount: 250 })
    const prompt = await step(sb, path, { action: 'mobile_money', phone: '254700000000' })
    expect(asks(prompt.html)).toBe('prompt')
    expect(text(prompt.html)).toContain('A prompt was sent to +254700000000')
    expect(prompt.html).toContain('aria-label="Phone prompt"')
    // one channel: no choice, but the form again for another wallet
    expect(text(prompt.html)).toContain('Start again')
    expect(asks((await get(sb, `${path}?channel=mobile_money`)).html)).toBe('mobile_money')
    const done = await step(sb, path, { action: 'prompt', pin: '1234' })
    expect([done.status, done.location]).toEqual([303, landed(reference)])
    expect((await query(sb, reference)).payment_attempts.at(-1)).toMatchObject({ channel: 'mobile_money', status: 'success' })
  })

  it('GHS: OTP (a wrong one refused with attempts left), then the prompt', async () => {
    const sb = await sandbox({ frozen: true })
    const { path, reference } = await open(sb, { currency: 'GHS', amount: 20 })
    const otp = await step(sb, path, { action: 'mobile_money', phone: '233240000000' })
    expect(asks(otp.html)).toBe('otp')
    const wrong = await post(sb, path, { action: 'otp', otp: '000000' })
    expect(wrong.status).toBe(400)
    expect(text(wrong.html)).toContain('The OTP you provided is invalid')
    expect(text(wrong.html)).toContain('Attempts left: 2.')
    expect(asks((await step(sb, path, { action: 'otp', otp: '123456' })).html)).toBe('prompt')
    expect((await step(sb, path, { action: 'prompt', pin: '1234' })).location).toBe(landed(reference))
  })

  it("GHS REDIRECT: after the OTP, the operator's page; approved there, back to the checkout and on to redirect_url", async () => {
    const sb = await sandbox({ frozen: true })
    const { path, reference } = await open(sb, { currency: 'GHS', amount: 20 })
    expect(asks((await step(sb, path, { action: 'mobile_money', phone: '233240000001' })).html)).toBe('otp')
    const waiting = await step(sb, path, { action: 'otp', otp: '123456' })
    expect(text(waiting.html)).toContain('Approve the payment at your mobile money operator')
    const link = new RegExp(`href="(/_sandbox/mobile-money/${pageId(SECRET)}/KPY-MO-[^"]+)"`).exec(waiting.html)?.[1]
    expect(link).toBeDefined()
    await approveAndLand(sb, link!, path, reference)
    expect((await query(sb, reference)).payment_attempts.at(-1)).toMatchObject({ channel: 'mobile_money', status: 'success' })
    // the control call pays a checkout through the same wallet's page, approving it
    const other = await open(sb, { currency: 'KES', amount: 250 })
    const paid = await sb.call('POST', `/_sandbox/checkouts/${other.reference}/pay`, { channel: 'mobile_money', mobile_money: { number: '254700000001' } })
    expect(paid.body.data).toMatchObject({ status: 'success', payment_method: 'mobile_money' })
  })

  it('refuses a wallet of another country, and shows a failed wallet with its message', async () => {
    const sb = await sandbox({ frozen: true })
    const { path } = await open(sb, { currency: 'KES', amount: 250 })
    const other = await post(sb, path, { action: 'mobile_money', phone: '233240000000' })
    expect(other.status).toBe(400)
    expect(text(other.html)).toContain('Phone number must start with country code 254 for KES')
    await step(sb, path, { action: 'mobile_money', phone: '254734611986' })
    const failed = await step(sb, path, { action: 'prompt', pin: '1234' })
    expect(text(failed.html)).toContain('Payment failed: Insufficient funds in wallet')
    expect(text(failed.html)).toContain('Mobile money 254734611986: failed')
  })

  it('XOF: the wallet form asks for 225 and 10 digits, then the OTP and the prompt of the testing page\'s wallet', async () => {
    const sb = await sandbox({ frozen: true })
    const { path, reference } = await open(sb, { currency: 'XOF', amount: 5000 })
    const short = await post(sb, path, { action: 'mobile_money', phone: '225050000000' })
    expect(short.status).toBe(400)
    expect(text(short.html)).toContain('Phone number must be 225 followed by 10 digits')
    expect(short.html).toContain('placeholder="2250000000000"')
    expect(asks((await step(sb, path, { action: 'mobile_money', phone: '2250500000000' })).html)).toBe('otp')
    expect(asks((await step(sb, path, { action: 'otp', otp: '123456' })).html)).toBe('prompt')
    expect((await step(sb, path, { action: 'prompt', pin: '1234' })).location).toBe(landed(reference))
  })
})

describe('bank transfer on the page', () => {
  it('shows the temporary account; less is returned and waits, the exact amount pays', async () => {
    const sb = await sandbox({ frozen: true })
    const { path, reference } = await open(sb, { default_channel: 'bank_transfer' })
    const account = await step(sb, path, { action: 'bank_transfer' })
    const t = text(account.html)
    const number = /Account number (\d{10})/.exec(t)?.[1]
    expect(number).toBeDefined()
    expect(t).toContain('Bank wema')
    expect(t).toContain('Account name Sandbox Merchant')
    expect(t).toContain('Amount to send NGN 1,500.00')
    expect(t).toMatch(/Expires \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/)
    expect(asks(account.html)).toBe('sent')
    // asking again gives the same account
    expect(text((await step(sb, path, { action: 'bank_transfer' })).html)).toContain(`Account number ${number}`)
    const short = await step(sb, path, { action: 'sent', amount: 'less' })
    expect(text(short.html)).toContain('A transfer of NGN 750.00 arrived, short of NGN 1,500.00: it was returned to you.')
    expect((await query(sb, reference)).status).toBe('processing')
    const paid = await step(sb, path, { action: 'sent', amount: 'exact' })
    expect(paid.location).toBe(landed(reference))
    expect(await query(sb, reference)).toMatchObject({ status: 'success', amount_paid: '1500.00' })
    expect((await query(sb, reference)).payment_attempts.at(-1)).toMatchObject({ channel: 'bank_transfer', status: 'success' })
  })

  it('more than asked: the excess is returned and the checkout is paid', async () => {
    const sb = await sandbox({ frozen: true })
    const { path, reference } = await open(sb)
    await step(sb, path, { action: 'bank_transfer' })
    expect((await step(sb, path, { action: 'sent', amount: 'more' })).location).toBe(landed(reference))
    expect((await query(sb, reference)).status).toBe('success')
  })
})

describe('pay with bank on the page (docs/behaviour.md#pay-with-bank)', () => {
  it("lists the currency's banks; the customer goes to the bank's page, approves, and lands on redirect_url", async () => {
    const sb = await sandbox()
    const { path, reference } = await open(sb)
    const form = await get(sb, `${path}?channel=pay_with_bank`)
    expect(asks(form.html)).toBe('pay_with_bank')
    expect([...form.html.matchAll(/<option value="(\d+)">([^<]+)<\/option>/g)].map((m) => m[1])).toEqual(['100004', '100033', '000001', '000002'])
    const waiting = await step(sb, path, { action: 'pay_with_bank', bank_code: '100004' })
    expect(text(waiting.html)).toContain('Approve the payment at OPay')
    const link = new RegExp(`href="(/_sandbox/pay-with-bank/${pageId(SECRET)}/KPY-PB-[^"]+)"`).exec(waiting.html)?.[1]
    expect(link).toBeDefined()
    await approveAndLand(sb, link!, path, reference)
    expect((await query(sb, reference)).payment_attempts.at(-1)).toMatchObject({ channel: 'pay_with_bank', status: 'success' })
    const events = (await sb.call('GET', `/_sandbox/events?reference=${reference}`)).body.data
    expect(events.map((e: any) => [e.event, e.data.payment_method])).toEqual([['charge.success', 'pay_with_bank']])
  })

  it('declined at the bank, the attempt fails and the checkout stays open; a bad bank is refused on the page', async () => {
    const sb = await sandbox()
    const { path, reference } = await open(sb)
    const refused = await post(sb, path, { action: 'pay_with_bank', bank_code: '250655' })
    expect(refused.status).toBe(422)
    expect(text(refused.html)).toContain('Bank must be the code of a bank of')
    const waiting = await step(sb, path, { action: 'pay_with_bank', bank_code: '100033' })
    const link = new RegExp(`href="(/_sandbox/pay-with-bank/${pageId(SECRET)}/KPY-PB-[^"]+)"`).exec(waiting.html)![1]
    const declined = await post(sb, link, { decision: 'decline' })
    expect(new URL(declined.location!).pathname).toBe(path)
    const again = await get(sb, path)
    expect(text(again.html)).toContain('Payment failed: Payment was declined by the customer at the bank')
    expect(await query(sb, reference)).toMatchObject({ status: 'processing', payment_attempts: [{ channel: 'pay_with_bank', status: 'failed' }] })
    // the control call pays it at the bank the packs say succeeds
    const paid = await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'pay_with_bank' })
    expect(paid.body.data).toMatchObject({ status: 'success', payment_method: 'pay_with_bank' })
  })

  it('is not offered where the currency does not take it', async () => {
    const sb = await sandbox()
    const { path } = await open(sb, { currency: 'KES', channels: ['mobile_money', 'pay_with_bank'] })
    expect((await get(sb, path)).html).not.toContain('channel=pay_with_bank')
    expect((await post(sb, path, { action: 'pay_with_bank', bank_code: '100004' })).status).toBe(400)
  })
})

describe('cancel and outcomes', () => {
  it('Cancel ends the checkout as failed, announces charge.failed, and goes to redirect_url', async () => {
    const sb = await sandbox({ frozen: true })
    const { path, reference } = await open(sb)
    const res = await post(sb, path.replace(/\/pay$/, '/cancel'), {})
    expect([res.status, res.location]).toEqual([303, landed(reference)])
    expect(await query(sb, reference)).toMatchObject({ status: 'failed' })
    const events = (await sb.call('GET', `/_sandbox/events?reference=${reference}`)).body.data
    expect(events.map((e: any) => e.event)).toEqual(['charge.failed'])
    // a post to the ended checkout changes nothing and goes to the shop too
    const late = await post(sb, path, { action: 'card', card_number: '4084127883172787', ...CARD })
    expect([late.status, late.location]).toEqual([303, landed(reference)])
    expect((await post(sb, path.replace(/\/pay$/, '/cancel'), {})).location).toBe(landed(reference))
    expect((await query(sb, reference)).payment_attempts).toEqual([])
  })

  it('without redirect_url the page shows the outcome', async () => {
    const sb = await sandbox({ frozen: true })
    const { path, reference } = await open(sb, { redirect_url: undefined })
    const paid = await post(sb, path, { action: 'card', card_number: '4084127883172787', ...CARD })
    expect([paid.status, paid.location]).toEqual([303, path])
    const page = await get(sb, path)
    expect(page.status).toBe(200)
    expect(text(page.html)).toContain('Payment successful You paid NGN 1,500.00 to Sandbox Merchant by card.')
    const other = await open(sb, { redirect_url: undefined })
    await post(sb, other.path.replace(/\/pay$/, '/cancel'), {})
    expect(text((await get(sb, other.path)).html)).toContain('Payment cancelled')
    expect((await query(sb, reference)).status).toBe('success')
  })
  it('an expired checkout sends the browser to redirect_url, or says it expired', async () => {
    const sb = await sandbox({ frozen: true })
    const { path, reference } = await open(sb)
    const bare = await open(sb, { redirect_url: undefined })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
    expect((await query(sb, reference)).status).toBe('expired')
    const visit = await get(sb, path)
    expect([visit.status, visit.location]).toEqual([302, landed(reference)])
    const page = await get(sb, bare.path)
    expect(page.status).toBe(200)
    expect(text(page.html)).toContain('Checkout expired')
    expect(page.html).not.toContain('name="action"')
  })
})

describe('the journal of page posts', () => {
  it('keeps the posts in the checkout namespace with no full card number, CVV, PIN or OTP', async () => {
    const sb = await sandbox({ frozen: true })
    const { path } = await open(sb)
    const pan = '5442056106072595'
    await step(sb, path, { action: 'card', card_number: '5442 0561 0607 2595', expiry: '09/30', cvv: '987' })
    await step(sb, path, { action: 'pin', pin: '1234' })
    await step(sb, path, { action: 'otp', otp: '123456' })
    // a card number typed into the wrong field is masked too
    const gh = await open(sb, { currency: 'GHS', amount: 20 })
    await post(sb, gh.path, { action: 'mobile_money', phone: pan })
    const res = await sb.call('GET', '/_sandbox/requests', undefined, { key: SECRET })
    const raw = JSON.stringify(res.body)
    const posts = res.body.data.filter((e: any) => e.path.startsWith('/checkout/'))
    expect(posts.map((e: any) => e.request.action)).toEqual(['card', 'pin', 'otp', 'mobile_money'])
    expect(posts[0].request).toEqual({ action: 'card', card_number: '544205******2595', expiry: '09/30', cvv: '***' })
    expect(posts[1].request.pin).toBe('***')
    expect(posts[2].request.otp).toBe('***')
    expect(posts[3].request.phone).toBe('544205******2595')
    for (const secret of [pan, '5442 0561 0607 2595', '"987"', '=987', '"1234"', '"123456"']) expect(raw).not.toContain(secret)
  })

  it('masks by the journal\'s one rule: a card number that fails Luhn or is dotted, a secret under any secret\'s name', async () => {
    const sb = await sandbox({ frozen: true })
    const { path } = await open(sb)
    await post(sb, path, { action: 'card', card_number: '4084.1278.8317.2788', expiry: '09/30', cvv: '987', card_pin: '4321' })
    const res = await sb.call('GET', '/_sandbox/requests', undefined, { key: SECRET })
    const [note] = res.body.data.filter((e: any) => e.path.startsWith('/checkout/')).map((e: any) => e.request)
    expect(note).toEqual({ action: 'card', card_number: '408412******2788', expiry: '09/30', cvv: '***', card_pin: '***' })
  })
})

/**
 * A person pays on the hosted checkout page (docs/behaviour.md#checkout-page) in a real browser: Debian's
 * /usr/bin/chromium driven by playwright-core (never a downloaded browser), against a sandbox on a
 * real socket, with a real shop page to come back to and a real webhook receiver. Fields and
 * buttons are found by their accessible names, so those names are what is tested.
 *
 * Screenshots go to test-results/screenshots/. The README's picture of the page is
 * `npm run docs:screenshots`'s (scripts/docs-screenshots.mjs).
 */
import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserStand, shot } from './chromium.js'
import { type Received } from '../helpers/receiver.js'
import { PIN_CARD, THREE_DS_CARD, INSUFFICIENT_FUNDS_CARD as DECLINED_CARD, INSUFFICIENT_FUNDS } from '../helpers/cards.js'

const stand = browserStand('co', { stepTimeoutMs: 10_000 })
const { newPage, newKey, api } = stand
/** the merchant's own site: the page redirect_url points at */
let shop: Server
let shopUrl: string

beforeAll(async () => {
  shop = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop')
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end(`<!doctype html><title>Shop</title><h1>Back at the shop</h1><p id="ref">${encodeURIComponent(url.searchParams.get('reference') ?? '')}</p>`)
  })
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve))
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`
})

afterAll(async () => {
  shop?.closeAllConnections()
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()))
})

/**
 * A namespace with a frozen clock (a prompt or transfer must not answer itself while the person
 * types) and a checkout in it, its redirect_url a page of the shop with a query of its own.
 */
async function checkout(name: string, overrides: Record<string, unknown> = {}) {
  const key = newKey(name)
  expect((await api(key, 'POST', '/_sandbox/clock/freeze', { frozen: true })).status).toBe(200)
  const reference = `order-${name}-${Date.now().toString(36)}`
  const res = await api(key, 'POST', '/merchant/api/v1/charges/initialize', {
    reference,
    amount: 1500,
    currency: 'NGN',
    narration: 'Two concert tickets',
    customer: { email: 'ada@example.com', name: 'Ada Obi' },
    redirect_url: `${shopUrl}/return?shop=1`,
    notification_url: stand.receiver.url,
    metadata: { 'order-id': name },
    ...overrides,
  })
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: true })
  return { key, reference, url: res.body.data.checkout_url as string }
}

/** The webhook of `event` for the merchant reference, waiting (bounded) on posts as they arrive. */
async function webhook(reference: string, event: string, ms = 10_000): Promise<Received> {
  const match = () => stand.receiver.received.find((r) => r.body?.event === event && r.body?.data?.reference === reference)
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no ${event} for ${reference} within ${ms} ms`)), ms)))
  try {
    for (let found = match(); ; found = match()) {
      if (found) return found
      await Promise.race([stand.receiver.waitFor(stand.receiver.received.length + 1), late])
    }
  } finally {
    clearTimeout(timer)
  }
}

/** The person is back on the shop's page with the merchant reference; the query, the webhook and its signature agree. */
async function landsPaid(page: Page, key: string, reference: string, method: string, event = 'charge.success', status = 'success') {
  await page.getByRole('heading', { name: 'Back at the shop' }).waitFor()
  const landed = new URL(page.url())
  expect(landed.origin).toBe(shopUrl)
  expect(landed.pathname).toBe('/return')
  expect(landed.searchParams.get('shop')).toBe('1')
  expect(landed.searchParams.get('reference')).toBe(reference)
  const q = await api(key, 'GET', `/merchant/api/v1/charges/${encodeURIComponent(reference)}`)
  expect(q.status).toBe(200)
  expect(q.body.data).toMatchObject({ reference, status })
  // the channel that paid is the successful attempt's (the query shows no payment_method, docs/behaviour.md#card-outcomes-and-query)
  expect(q.body.data.payment_attempts.filter((a: { status: string }) => a.status === 'success').map((a: { channel: string }) => a.channel)).toEqual(status === 'success' ? [method] : [])
  const hook = await webhook(reference, event)
  const signature = createHmac('sha256', key).update(JSON.stringify(hook.body.data)).digest('hex')
  expect(hook.headers['x-korapay-signature']).toBe(signature)
  // the merchant's reference, the metadata as sent (docs/behaviour.md#webhook-payloads)
  expect(hook.body.data).toMatchObject({ reference, payment_reference: reference, status, amount: 1500, currency: q.body.data.currency, metadata: { 'order-id': expect.any(String) } })
  return q.body.data
}

async function payByCard(page: Page, number: string, cvv = '123') {
  await page.getByLabel('Card number', { exact: true }).fill(number)
  await page.getByLabel('Expiry', { exact: true }).fill('09/30')
  await page.getByLabel('CVV', { exact: true }).fill(cvv)
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
}

async function noHorizontalScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
}

describe('the hosted checkout page in a browser (docs/behaviour.md#checkout-page)', () => {
  it('pays by card with a PIN card, in a browser with JavaScript off', async () => {
    const { key, reference, url } = await checkout('pin')
    // plain forms: the page needs no script
    const page = await newPage(1280, 900, false)
    await page.goto(url)
    const summary = await page.getByRole('region', { name: 'Sandbox Merchant' }).innerText()
    expect(summary).toContain('NGN 1,500.00')
    expect(summary).toContain(reference)
    expect(await page.getByRole('link', { name: 'Card', exact: true }).getAttribute('aria-current')).toBe('page')
    await page.getByRole('link', { name: 'Bank transfer', exact: true }).waitFor()
    expect(await page.getByRole('link', { name: 'Mobile money', exact: true }).count()).toBe(0)
    await payByCard(page, PIN_CARD)
    await page.getByRole('heading', { name: 'Enter your card PIN' }).waitFor()
    await page.getByLabel('PIN', { exact: true }).fill('1234')
    await page.getByRole('button', { name: 'Continue' }).click()
    await landsPaid(page, key, reference, 'card')
  })

  it('keeps the test values collapsed until asked for, and styles "Pay another way" as a control', async () => {
    const { url } = await checkout('tests')
    const page = await newPage()
    await page.goto(url)
    const good = page.getByRole('cell', { name: '4084127883172787', exact: true })
    expect(await good.isVisible()).toBe(false)
    await page.getByText('Test values this page accepts').click()
    await good.waitFor()
    expect(await page.getByRole('cell', { name: 'CVV 123: success, no authentication' }).isVisible()).toBe(true)
    await payByCard(page, PIN_CARD)
    await page.getByRole('heading', { name: 'Enter your card PIN' }).waitFor()
    const another = page.getByRole('link', { name: 'Pay another way' })
    const look = await another.evaluate((a) => {
      const style = getComputedStyle(a)
      return { border: style.borderTopStyle, decoration: style.textDecorationLine, padding: style.paddingTop }
    })
    expect(look).toEqual({ border: 'solid', decoration: 'none', padding: '10px' })
  })

  it('pays by a 3DS card, approved on the card 3DS page', async () => {
    const { key, reference, url } = await checkout('tds')
    const page = await newPage()
    await page.goto(url)
    await payByCard(page, THREE_DS_CARD)
    await page.getByRole('link', { name: 'Authenticate with your bank' }).click()
    await page.getByRole('heading', { name: 'Verify your payment' }).waitFor()
    await page.getByRole('button', { name: 'Approve' }).click()
    await landsPaid(page, key, reference, 'card')
  })

  it('fails with a declined card, sees why, and pays with a good one', async () => {
    const { key, reference, url } = await checkout('retry')
    const page = await newPage()
    await page.goto(url)
    // a refused entry: said in words next to its field, what was typed kept (not the CVV)
    await payByCard(page, DECLINED_CARD, '40')
    expect(await page.getByRole('alert').innerText()).toContain('CVV must be 3 or 4 digits')
    const cvv = page.getByLabel('CVV', { exact: true })
    expect(await cvv.getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByLabel('Card number', { exact: true }).inputValue()).toBe(DECLINED_CARD)
    expect(await cvv.inputValue()).toBe('')
    await payByCard(page, DECLINED_CARD, '408')
    expect(await page.getByRole('alert').innerText()).toContain(`Payment failed: ${INSUFFICIENT_FUNDS}`)
    expect(await page.getByRole('list', { name: 'Previous attempts' }).innerText()).toContain('•••• 6067: failed')
    await payByCard(page, PIN_CARD)
    await page.getByLabel('PIN', { exact: true }).fill('1234')
    await page.getByRole('button', { name: 'Continue' }).click()
    const q = await landsPaid(page, key, reference, 'card')
    expect(q.payment_attempts.map((a: { status: string }) => a.status)).toEqual(['failed', 'success'])
    expect(q.payment_attempts[0].message).toBe(INSUFFICIENT_FUNDS)
  })

  it('answers the billing-address and card-enrolment steps by their labels', async () => {
    const avs = await checkout('avs')
    const page = await newPage(390, 844)
    await page.goto(avs.url)
    await payByCard(page, '5384063928932071')
    await page.getByLabel('PIN', { exact: true }).fill('1234')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('heading', { name: 'Billing address' }).waitFor()
    for (const [label, value] of [
      ['Address', '1 Sandbox Road'],
      ['City', 'Lekki'],
      ['State', 'Lagos'],
      ['Postal code', '100001'],
      ['Country', 'NG'],
    ]) await page.getByLabel(label, { exact: true }).fill(value)
    await noHorizontalScroll(page)
    await page.getByRole('button', { name: 'Continue' }).click()
    await landsPaid(page, avs.key, avs.reference, 'card')

    const enrol = await checkout('enrol')
    await page.goto(enrol.url)
    await payByCard(page, '5061460410120223210')
    await page.getByLabel('PIN', { exact: true }).fill('1234')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('heading', { name: 'Enrol your card' }).waitFor()
    await page.getByLabel('Phone number', { exact: true }).fill('+2348000000000')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByLabel('OTP', { exact: true }).fill('123456')
    await page.getByRole('button', { name: 'Continue' }).click()
    await landsPaid(page, enrol.key, enrol.reference, 'card')
  })

  it('pays by mobile money from a KES wallet: the phone prompt answered with the PIN', async () => {
    const { key, reference, url } = await checkout('kes', { currency: 'KES' })
    const page = await newPage(390, 844)
    await page.goto(url)
    // one channel: the page is locked to it
    expect(await page.getByRole('navigation', { name: 'Payment method' }).count()).toBe(0)
    await page.getByLabel('Phone number', { exact: true }).fill('254700000000')
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    const prompt = page.getByRole('group', { name: 'Phone prompt' })
    expect(await prompt.innerText()).toContain('Pay KES 1,500.00 to Sandbox Merchant?')
    await noHorizontalScroll(page)
    await shot(page, 'checkout-prompt-390')
    await prompt.getByLabel('PIN', { exact: true }).fill('1234')
    await prompt.getByRole('button', { name: 'Approve' }).click()
    await landsPaid(page, key, reference, 'mobile_money')
  })

  it("offers what the currency takes of the channels Kora's WooCommerce plugin sends (card and bank_transfer, whatever the currency)", async () => {
    const woo = { channels: ['card', 'bank_transfer'], default_channel: 'card' }
    // USD: card is kept, bank transfer dropped; the page is locked to card
    const usd = await checkout('woo-usd', { currency: 'USD', amount: 20, ...woo })
    const page = await newPage()
    await page.goto(usd.url)
    expect(await page.getByRole('navigation', { name: 'Payment method' }).count()).toBe(0)
    await page.getByLabel('Card number', { exact: true }).waitFor()
    expect(await page.getByRole('link', { name: 'Bank transfer', exact: true }).count()).toBe(0)
    // KES: neither is taken, so every channel KES takes is offered: mobile money, paid through
    const { key, reference, url } = await checkout('woo-kes', { currency: 'KES', ...woo })
    await page.goto(url)
    expect(await page.getByRole('link', { name: 'Card', exact: true }).count()).toBe(0)
    await page.getByLabel('Phone number', { exact: true }).fill('254700000000')
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    const prompt = page.getByRole('group', { name: 'Phone prompt' })
    await prompt.getByLabel('PIN', { exact: true }).fill('1234')
    await prompt.getByRole('button', { name: 'Approve' }).click()
    await landsPaid(page, key, reference, 'mobile_money')
  })

  it('pays by mobile money from a GHS wallet: OTP, then the prompt', async () => {
    const { key, reference, url } = await checkout('ghs', { currency: 'GHS' })
    const page = await newPage()
    await page.goto(url)
    await page.getByLabel('Phone number', { exact: true }).fill('233240000000')
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    await page.getByLabel('OTP', { exact: true }).fill('123456')
    await page.getByRole('button', { name: 'Continue' }).click()
    const prompt = page.getByRole('group', { name: 'Phone prompt' })
    await prompt.getByLabel('PIN', { exact: true }).fill('1234')
    await prompt.getByRole('button', { name: 'Approve' }).click()
    await landsPaid(page, key, reference, 'mobile_money')
  })

  it('pays by bank transfer, the exact amount', async () => {
    const { key, reference, url } = await checkout('transfer')
    const page = await newPage()
    await page.goto(url)
    await page.getByRole('link', { name: 'Bank transfer', exact: true }).click()
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    await page.getByRole('heading', { name: 'Send the money to this account' }).waitFor()
    const account = await page.getByRole('definition').allInnerTexts()
    const [bank, number, name, amount] = account.slice(-5)
    expect([bank, name, amount]).toEqual(['wema', 'Sandbox Merchant', 'NGN 1,500.00'])
    expect(number).toMatch(/^\d{10}$/)
    await shot(page, 'checkout-transfer')
    expect(await page.getByRole('radio', { name: 'Exact amount, NGN 1,500.00' }).isChecked()).toBe(true)
    await page.getByRole('button', { name: 'I have sent the money' }).click()
    const q = await landsPaid(page, key, reference, 'bank_transfer')
    expect(q.payment_attempts).toEqual([expect.objectContaining({ channel: 'bank_transfer', status: 'success' })])
  })

  it('cancels: the shop gets charge.failed and the browser goes back to it', async () => {
    const { key, reference, url } = await checkout('cancel')
    const page = await newPage()
    await page.goto(url)
    await page.getByRole('button', { name: 'Cancel', exact: true }).click()
    await landsPaid(page, key, reference, 'card', 'charge.failed', 'failed')
  })

  it('fits 390 and 1280 px, loads nothing from elsewhere, and its fields are reached in order by keyboard', async () => {
    const { url } = await checkout('layout')
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      const page = await newPage(width, height)
      const origins = new Set<string>()
      page.on('request', (r) => void origins.add(new URL(r.url()).origin))
      await page.goto(url)
      if (width === 390) await payByCard(page, DECLINED_CARD, '408')
      else await page.reload()
      await page.getByRole('alert').waitFor()
      await noHorizontalScroll(page)
      expect([...origins]).toEqual([stand.sandbox.url])
      expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('system-ui')
      await shot(page, `checkout-${width}`)
      await page.getByLabel('Card number', { exact: true }).focus()
      const order: string[] = []
      for (let i = 0; i < 4; i++) {
        order.push(await page.evaluate(() => (document.activeElement as HTMLInputElement | HTMLButtonElement).labels?.[0]?.textContent ?? document.activeElement?.textContent ?? ''))
        await page.keyboard.press('Tab')
      }
      expect(order).toEqual(['Card number', 'Expiry', 'CVV', 'Pay'])
    }
  })
})

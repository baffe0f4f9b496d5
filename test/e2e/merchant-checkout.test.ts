import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECRET } from '../helpers/sandbox.js'
import { spawnUntilListening, startCli, type RunningCli } from './process.js'

/**
 * Checkout Standard against a merchant's real server, unchanged: test/e2e/merchant/shop.py, a
 * Python shop written as a production integration is (standard library only), configured with
 * nothing but the sandbox's base URL and the secret key. The shop initializes the charge, verifies
 * the webhook at its notification_url and queries the charge when the customer comes back to its
 * redirect_url. The customer's side is played without a browser: the control calls that pay or
 * cancel a checkout as the page would (docs/behaviour.md#checkout), then the browser's trip back to
 * `redirect_url?reference=<merchant reference>`. What the shop recorded must match what happened.
 */

const SHOP = fileURLToPath(new URL('./merchant/shop.py', import.meta.url))
const auth = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }

/** Starts the shop as a real child process; resolves once it listens. */
const startShop = (env: Record<string, string>) => spawnUntilListening('shop', 'python3', [SHOP], env, /shop listening on (http:\/\/\S+)/)

let sandbox: RunningCli
let shop: RunningCli

beforeAll(async () => {
  sandbox = await startCli([])
  // its configuration: the base URL and the secret key (and no proxy for loopback, whatever the machine says)
  shop = await startShop({ KORAPAY_BASE_URL: sandbox.url, KORAPAY_SECRET_KEY: SECRET, no_proxy: '127.0.0.1,localhost', NO_PROXY: '127.0.0.1,localhost' })
})

afterAll(async () => {
  for (const p of [shop, sandbox]) {
    if (p && p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGKILL')
      await p.exited
    }
  }
})

interface Cart {
  amount: number
  currency: string
  customer: { email: string; name?: string }
  metadata?: Record<string, unknown>
  channels?: string[]
  default_channel?: string
}

/** The customer checks out on the shop: the shop initializes the charge and redirects to checkout_url. */
async function checkOut(cart: Cart): Promise<{ reference: string; checkoutUrl: string }> {
  const res = await fetch(`${shop.url}/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(cart), redirect: 'manual' })
  const body = (await res.json()) as any
  expect(res.status, JSON.stringify(body)).toBe(303)
  expect(res.headers.get('location')).toBe(body.checkout_url)
  return { reference: body.reference, checkoutUrl: body.checkout_url }
}

/** A control call on the checkout (what the customer does on the page). */
async function control(reference: string, action: 'pay' | 'cancel', body?: Record<string, unknown>) {
  const res = await fetch(`${sandbox.url}/_sandbox/checkouts/${encodeURIComponent(reference)}/${action}`, { method: 'POST', headers: auth, body: body && JSON.stringify(body) })
  const answer = (await res.json()) as any
  expect(res.status, JSON.stringify(answer)).toBe(200)
  return answer.data
}

/** The events the sandbox recorded for the reference; `delivered`: waits (bounded) until one is delivered. */
async function events(reference: string, delivered = false): Promise<any[]> {
  const q = delivered ? `&status=delivered&wait=10000` : ''
  const res = await fetch(`${sandbox.url}/_sandbox/events?reference=${encodeURIComponent(reference)}${q}`, { headers: auth })
  return ((await res.json()) as any).data
}

/** The browser's trip back: redirect_url with the merchant reference, as the page sends it. */
async function comeBack(redirectUrl: string, reference: string) {
  const url = new URL(redirectUrl)
  url.searchParams.set('reference', reference)
  const res = await fetch(url)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/html')
  return res.text()
}

/** What the shop recorded about its order. */
async function shopView(reference: string): Promise<any> {
  const res = await fetch(`${shop.url}/orders/${encodeURIComponent(reference)}`)
  expect(res.status).toBe(200)
  return res.json()
}

type Step = { pay: Record<string, unknown>; status: 'processing' | 'success' } | { cancel: true }

/**
 * One order from checkout to the shop's record: the steps the customer takes (each pay call's
 * checkout status checked; no event may be recorded before the last step), then the webhook
 * delivered to the shop and the customer back on the shop. Returns the shop's view.
 */
async function order(cart: Cart, steps: Step[]) {
  const { reference, checkoutUrl } = await checkOut(cart)
  // the page's URL, on the sandbox's own origin, carries the checkout's transaction reference
  expect(checkoutUrl).toMatch(new RegExp(`^${sandbox.url.replace(/[.]/g, '\\.')}/checkout/KPY-PI-[0-9A-Z]+/pay$`))
  // and the customer's browser gets the hosted page there
  const hosted = await fetch(checkoutUrl)
  expect(hosted.status).toBe(200)
  expect(hosted.headers.get('content-type')).toMatch(/^text\/html/)
  expect(await hosted.text()).toContain(reference)
  for (const [i, step] of steps.entries()) {
    if ('cancel' in step) {
      expect((await control(reference, 'cancel')).status).toBe('failed')
    } else {
      expect((await control(reference, 'pay', step.pay)).status).toBe(step.status)
    }
    // attempts that fail leave the checkout open and announce nothing
    if (i < steps.length - 1) expect(await events(reference)).toEqual([])
  }
  const delivered = await events(reference, true)
  expect(delivered).toHaveLength(1)
  const view = await shopView(reference)
  const page = await comeBack(view.sent.redirect_url, reference)
  return { reference, checkoutUrl, view: await shopView(reference), page, event: delivered[0] }
}

/** What every order's record must show: one verified webhook about its own reference, and the query agreeing. */
function expectRecorded(r: Awaited<ReturnType<typeof order>>, cart: Cart, want: { event: string; status: string; method: string | null; attempts: number }) {
  const { view, reference } = r
  // the webhook went to the shop's notification_url, was verified, and names the shop's reference
  expect(r.event.target).toBe(view.sent.notification_url)
  expect(view.unmatched_webhooks.filter((w: any) => JSON.stringify(w).includes(reference))).toEqual([])
  expect(view.webhooks).toHaveLength(1)
  const hook = view.webhooks[0]
  expect(hook.verified).toBe(true)
  expect(hook.event).toBe(want.event)
  expect(hook.data).toMatchObject({
    reference,
    payment_reference: reference,
    transaction_reference: expect.stringMatching(/^KPY-PI-/),
    amount: cart.amount,
    fee: expect.any(Number),
    currency: cart.currency,
    status: want.status,
    payment_method: want.method,
  })
  expect(hook.data.metadata).toEqual(cart.metadata)
  // the customer came back; the shop queried the charge rather than trusting the redirect
  expect(view.returns).toEqual([
    {
      query_status: 200,
      reference,
      status: want.status,
      amount: cart.amount.toFixed(2),
      amount_paid: (want.status === 'success' ? cart.amount : 0).toFixed(2),
      attempts: want.attempts,
    },
  ])
  expect(view.paid).toBe(want.status === 'success')
  expect(r.page).toContain(want.status === 'success' ? 'payment was received' : 'did not go through')
}

const customer = { email: 'ada@example.com', name: 'Ada Lovelace' }

describe('a merchant server, unchanged, against the sandbox (Checkout Standard)', () => {
  it('card: paid at once; the webhook verifies, with non-ASCII metadata, only in the UTF-8 form', async () => {
    const cart: Cart = { amount: 1500, currency: 'NGN', customer, metadata: { 'order-id': '1001', buyer: 'Adébáyọ̀ Ọlá 😀', items: [{ sku: 'A-1', qty: 2 }] }, channels: ['card', 'bank_transfer'], default_channel: 'card' }
    const r = await order(cart, [{ pay: { channel: 'card' }, status: 'success' }])
    expectRecorded(r, cart, { event: 'charge.success', status: 'success', method: 'card', attempts: 1 })
    // json.dumps' default escapes non-ASCII as \uXXXX: those bytes are not the ones signed (docs/behaviour.md#webhook-signature)
    expect(r.view.webhooks[0].verified_with_ascii_escapes).toBe(false)
    // what the shop sent, as the public clients send it
    expect(r.view.sent).toMatchObject({ redirect_url: `${shop.url}/return`, notification_url: `${shop.url}/webhooks/korapay`, merchant_bears_cost: true, narration: `Order ${r.reference}` })
    expect(r.view.initialize).toEqual({ status: true, message: 'Charge created successfully', data: { reference: r.reference, checkout_url: r.checkoutUrl } })
  })

  it('card: a declined card, then a good one', async () => {
    const cart: Cart = { amount: 2500.5, currency: 'NGN', customer, metadata: { 'order-id': '1002' } }
    const r = await order(cart, [
      { pay: { channel: 'card', outcome: 'failed' }, status: 'processing' },
      { pay: { channel: 'card', card: { number: '5442056106072595', cvv: '123', expiry_month: '09', expiry_year: '30' } }, status: 'success' },
    ])
    expectRecorded(r, cart, { event: 'charge.success', status: 'success', method: 'card', attempts: 2 })
    // ASCII data: both serializations verify
    expect(r.view.webhooks[0].verified_with_ascii_escapes).toBe(true)
  })

  it('mobile money (KES): paid after the prompt', async () => {
    const cart: Cart = { amount: 500.6, currency: 'KES', customer, metadata: { 'order-id': '1003' }, channels: ['mobile_money'] }
    const r = await order(cart, [{ pay: { channel: 'mobile_money' }, status: 'success' }])
    expectRecorded(r, cart, { event: 'charge.success', status: 'success', method: 'mobile_money', attempts: 1 })
  })

  it('mobile money (KES): a wallet without funds, then one with', async () => {
    const cart: Cart = { amount: 700, currency: 'KES', customer, metadata: { 'order-id': '1004' } }
    const r = await order(cart, [
      { pay: { channel: 'mobile_money', outcome: 'failed' }, status: 'processing' },
      { pay: { channel: 'mobile_money', mobile_money: { number: '254700000000' } }, status: 'success' },
    ])
    expectRecorded(r, cart, { event: 'charge.success', status: 'success', method: 'mobile_money', attempts: 2 })
  })

  it('bank transfer: the exact amount arrives', async () => {
    const cart: Cart = { amount: 12000, currency: 'NGN', customer, metadata: { 'order-id': '1005' }, channels: ['bank_transfer'] }
    const r = await order(cart, [{ pay: { channel: 'bank_transfer' }, status: 'success' }])
    expectRecorded(r, cart, { event: 'charge.success', status: 'success', method: 'bank_transfer', attempts: 1 })
  })

  it('bank transfer: too little arrives (returned), then the exact amount to the same account', async () => {
    const cart: Cart = { amount: 12000, currency: 'NGN', customer, metadata: { 'order-id': '1006' }, channels: ['bank_transfer', 'card'], default_channel: 'bank_transfer' }
    const r = await order(cart, [
      { pay: { channel: 'bank_transfer', amount: 11000 }, status: 'processing' },
      { pay: { channel: 'bank_transfer' }, status: 'success' },
    ])
    expectRecorded(r, cart, { event: 'charge.success', status: 'success', method: 'bank_transfer', attempts: 1 })
  })

  it('cancel: the customer gives up; charge.failed, and the query says failed', async () => {
    const cart: Cart = { amount: 900, currency: 'NGN', customer, metadata: { 'order-id': '1007' } }
    const r = await order(cart, [{ cancel: true }])
    expectRecorded(r, cart, { event: 'charge.failed', status: 'failed', method: null, attempts: 0 })
  })

  it('refuses a webhook whose signature is wrong, and records nothing for the order', async () => {
    const { reference } = await checkOut({ amount: 100, currency: 'NGN', customer })
    const data = { reference, payment_reference: reference, amount: 100, fee: 1.5, currency: 'NGN', status: 'success', payment_method: 'card' }
    const res = await fetch(`${shop.url}/webhooks/korapay`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-korapay-signature': '0'.repeat(64) }, body: JSON.stringify({ event: 'charge.success', data }) })
    expect(res.status).toBe(401)
    const view = await shopView(reference)
    expect(view.webhooks).toEqual([])
    expect(view.paid).toBe(false)
  })
})

/**
 * The 3DS page and the dashboard in a real browser: Debian's /usr/bin/chromium driven by
 * playwright-core (never a downloaded browser), against a sandbox on a real socket. When chromium
 * is missing these tests fail: CI installs it (.ci/run).
 *
 * Screenshots go to test-results/screenshots/. The README's picture of the dashboard is
 * `npm run docs:screenshots`'s (scripts/docs-screenshots.mjs).
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/index.js'
import { ENC_KEY, cardPayload, makeSandbox, ref } from '../helpers/sandbox.js'
import { SHOTS, browserStand, shot } from './chromium.js'
import { pageId } from '../../src/namespaces.js'
import { NO_AUTH_CARD, THREE_DS_CARD, PIN_CARD, INSUFFICIENT_FUNDS_CARD, STK_WALLET } from '../helpers/cards.js'

const DECLINED_3DS = '3DS authentication was declined by the cardholder'

const stand = browserStand('ui')
const { newPage, newKey, api } = stand

// ---------------------------------------------------------------------------------------------
// helpers


async function cardCharge(key: string, number: string, overrides: Record<string, unknown> = {}, card: Record<string, unknown> = {}) {
  const payload = cardPayload(number, overrides, card)
  const res = await api(key, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(payload, ENC_KEY) })
  expect(res.status).toBe(200)
  return { reference: payload.reference as string, data: res.body.data }
}

async function preauthorize(key: string, amount = 1000) {
  const payload = cardPayload(NO_AUTH_CARD, { amount })
  const res = await api(key, 'POST', '/merchant/api/v1/charges/card/pre-authorize', { charge_data: encryptChargeData(payload, ENC_KEY) })
  expect(res.status).toBe(200)
  expect(res.body.data.status).toBe('pre_authorized')
  return payload.reference as string
}

async function mobileMoney(key: string, number = STK_WALLET) {
  const reference = ref('mm')
  const res = await api(key, 'POST', '/merchant/api/v1/charges/mobile-money', {
    reference,
    amount: 250,
    currency: 'KES',
    customer: { name: 'Wanjiku Buyer', email: 'buyer@example.com' },
    mobile_money: { number },
  })
  expect(res.status).toBe(200)
  return { reference, data: res.body.data }
}

/** POST /charges/initialize: a checkout of NGN 1,500 (every channel that takes the currency unless told). */
async function checkout(key: string, overrides: Record<string, unknown> = {}) {
  const body = { reference: ref('co'), amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada' }, ...overrides }
  const res = await api(key, 'POST', '/merchant/api/v1/charges/initialize', body)
  expect(res.status).toBe(200)
  return { reference: body.reference as string, tx: /\/checkout\/([^/]+)\/pay$/.exec(res.body.data.checkout_url)![1] }
}
const payCheckout = async (key: string, reference: string, body: Record<string, unknown>) => {
  const res = await api(key, 'POST', `/_sandbox/checkouts/${encodeURIComponent(reference)}/pay`, body)
  expect(res.status).toBe(200)
  return res.body.data
}

const queryCharge = (key: string, reference: string) => api(key, 'GET', `/merchant/api/v1/charges/${encodeURIComponent(reference)}`)
const mandate = async (key: string, reference: string) =>
  (await api(key, 'GET', `/merchant/api/v1/direct-debit/authorizations/${encodeURIComponent(reference)}`)).body.data

/** Retries `check` until it passes or `ms` have gone by; never a bare sleep. */
async function eventually<T>(check: () => Promise<T> | T, ms = 8_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      return await check()
    } catch (e) {
      if (Date.now() > deadline) throw e
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

async function openDashboard(page: Page, key: string, query = '') {
  const res = await page.goto(`${stand.sandbox.url}/_sandbox/ui?ns=${encodeURIComponent(key)}${query}`)
  expect(res?.status()).toBe(200)
  await page.getByRole('heading', { name: 'paysandbox dashboard' }).waitFor()
}

/** Clicks a dashboard action and returns what the status area then says. */
async function act(page: Page, name: string): Promise<string> {
  const button = page.getByRole('button', { name, exact: true })
  const answered = page.waitForResponse((r) => r.request().method() !== 'GET' && new URL(r.url()).pathname.startsWith('/_sandbox/'))
  await button.click()
  await answered
  return eventually(async () => {
    const text = (await page.getByRole('status').textContent())?.trim() ?? ''
    expect(text.endsWith('…')).toBe(false)
    return text
  })
}

const rowRefs = (page: Page, table: string) => page.locator(`${table} tbody tr`).evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.ref))

async function noHorizontalScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
}

// ---------------------------------------------------------------------------------------------

describe('the 3DS page (docs/behaviour.md#webhooks)', () => {
  it('Approve redirects to redirect_url with ?reference= and the charge succeeds', async () => {
    const key = newKey('3ds_ok')
    const back = stand.receiver.url.replace('/webhooks', '/checkout/return')
    const { reference, data } = await cardCharge(key, THREE_DS_CARD, { redirect_url: back })
    expect(data.status).toBe('processing')
    const page = await newPage()
    await page.goto(data.authorization.redirect_url)
    await page.getByRole('heading', { name: 'Verify your payment' }).waitFor()
    const summary = await page.locator('dl').innerText()
    expect(summary).toContain('Sandbox Merchant')
    expect(summary).toContain('NGN 1,000.00')
    expect(summary).toContain('•••• 4674')
    expect(summary).toContain(reference)
    // the CSS is served intact (not HTML-escaped), so the page renders in the system font
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('system-ui')
    expect(await page.evaluate(() => document.compatMode)).toBe('CSS1Compat')
    await shot(page, '3ds-challenge')

    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL((u) => u.pathname === '/checkout/return')
    const landed = new URL(page.url())
    expect(landed.origin).toBe(new URL(back).origin)
    expect(landed.searchParams.get('reference')).toBe(reference)
    expect((await queryCharge(key, reference)).body.data.status).toBe('success')
  })

  it('Decline without redirect_url shows the outcome on the page and the charge fails', async () => {
    const key = newKey('3ds_no')
    const { reference, data } = await cardCharge(key, THREE_DS_CARD)
    const page = await newPage()
    await page.goto(data.authorization.redirect_url)
    await page.getByRole('button', { name: 'Decline' }).click()
    await page.getByRole('heading', { name: 'Payment declined' }).waitFor()
    expect(await page.getByRole('status').innerText()).toContain(DECLINED_3DS)
    await shot(page, '3ds-declined')
    const q = (await queryCharge(key, reference)).body.data
    expect(q.status).toBe('failed')
    expect(q.payment_attempts.at(-1).message).toBe(DECLINED_3DS)

    // coming back to a finished transaction says so
    await page.goto(data.authorization.redirect_url)
    await page.getByRole('heading', { name: 'Nothing to authenticate' }).waitFor()
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0)
  })

  it('is keyboard-usable: Tab reaches Approve, Enter approves', async () => {
    const key = newKey('3ds_kbd')
    // a long reference must wrap, not widen the page
    const { reference, data } = await cardCharge(key, THREE_DS_CARD, { reference: `order-with-a-rather-long-payment-reference-${Date.now()}-${'x'.repeat(30)}` })
    const page = await newPage(390, 800)
    await page.goto(data.authorization.redirect_url)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Approve')
    // the focused button shows where the focus is
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe('none')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Decline')
    await page.keyboard.press('Shift+Tab')
    await noHorizontalScroll(page)
    await shot(page, '3ds-390')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Payment approved' }).waitFor()
    expect((await queryCharge(key, reference)).body.data.status).toBe('success')
  })

  it('says so for an unknown transaction', async () => {
    const page = await newPage()
    const res = await page.goto(`${stand.sandbox.url}/_sandbox/3ds/KPY-CA-doesnotexist`)
    expect(res?.status()).toBe(404)
    await page.getByRole('heading', { name: 'Transaction not found' }).waitFor()
  })
})

describe('the dashboard (docs/behaviour.md#control-api)', () => {
  it('answers without a key on loopback, and refuses other peers unless the control token is sent', async () => {
    const res = await fetch(`${stand.sandbox.url}/_sandbox/ui`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    expect((await fetch(`${stand.sandbox.url}/_sandbox/ui/fragment`)).status).toBe(200)

    const remote = { incoming: { socket: { remoteAddress: '203.0.113.9' } } }
    const open = await makeSandbox()
    const locked = await makeSandbox({ controlToken: 'let-me-in' })
    try {
      const refused = await open.app.request('/_sandbox/ui', {}, remote)
      expect(refused.status).toBe(403)
      expect((await refused.json()).message).toMatch(/loopback/)
      expect((await locked.app.request('/_sandbox/ui', {}, remote)).status).toBe(403)
      expect((await locked.app.request('/_sandbox/ui?token=let-me-in', {}, remote)).status).toBe(200)
    } finally {
      await open.close()
      await locked.close()
    }
  })

  it('shows namespaces, charges of every kind with their steps, pre-auth ledgers, mandates, debits, identity checks and events', async () => {
    const key = newKey('overview')
    await api(key, 'POST', '/_sandbox/clock/freeze', { frozen: true })
    const card = await cardCharge(key, PIN_CARD, {}, { pin: '1234' })
    const failed = await cardCharge(key, INSUFFICIENT_FUNDS_CARD, {}, { cvv: '408' })
    const mm = await mobileMoney(key)
    const pre = await preauthorize(key, 1500)
    const capTx = ref('cap')
    expect((await api(key, 'POST', '/merchant/api/v1/charges/card/capture', { payment_reference: pre, transaction_reference: capTx, amount: 600, currency: 'NGN' })).status).toBe(200)
    const debitRef = ref('dd')
    expect((await api(key, 'POST', '/api/v1/direct-debit/authorizations/AUTH-SANDBOX-ACTIVE/debits', { reference: debitRef, amount: 5000, narration: 'Gym membership', currency: 'NGN' })).status).toBe(200)
    const idv = await api(key, 'POST', '/api/v1/identities/ng/bvn', { id: '22222222222', verification_consent: true })
    expect(idv.status).toBe(200)
    const co = await checkout(key)
    await payCheckout(key, co.reference, { channel: 'card' })

    const page = await newPage()
    await openDashboard(page, key)
    const nav = page.getByRole('navigation', { name: 'Namespaces' })
    expect(await nav.innerText()).toContain(key)
    expect(await nav.locator('[aria-current=page]').innerText()).toContain(key)

    const cardRow = page.locator(`#charges tr[data-ref="${card.reference}"]`)
    const cardText = await cardRow.innerText()
    expect(cardText).toContain('NGN 1,000.00')
    expect(cardText).toContain('518851****2975')
    expect(cardText).toContain(card.data.transaction_reference)
    expect(cardText).toMatch(/PIN\s+passed/)
    expect(await page.locator(`#charges tr[data-ref="${failed.reference}"]`).innerText()).toContain('insufficient funds')
    const mmText = await page.locator(`#charges tr[data-ref="${mm.reference}"]`).innerText()
    expect(mmText).toContain('wallet 254700000000')
    expect(mmText).toContain('KES 250.00')
    expect(mmText).toContain('waiting for STK_PROMPT')
    expect(await page.locator(`#charges tr[data-ref="${debitRef}"]`).innerText()).toContain('AUTH-SANDBOX-ACTIVE')
    const coText = await page.locator(`#charges tr[data-ref="${co.reference}"]`).innerText()
    expect(coText).toContain('checkout')
    expect(coText).toContain('paid by card')
    expect(await page.locator(`#charges tr.attempt[data-parent="${co.tx}"]`).innerText()).toContain(`attempt 1 of ${co.reference}`)

    const ledger = await page.locator(`article.preauth[data-ref="${pre}"]`).innerText()
    expect(ledger).toMatch(/Authorized\s+NGN 1,500.00/)
    expect(ledger).toMatch(/Captured\s+NGN 600.00/)
    expect(ledger).toMatch(/Left to capture\s+NGN 900.00/)
    expect(ledger).toContain(capTx)

    expect(await page.locator('#mandates tr[data-ref="AUTH-SANDBOX-PENDING"]').innerText()).toContain('pending')
    expect(await page.locator(`#debits tr[data-ref="${debitRef}"]`).innerText()).toContain('Gym membership')
    expect(await page.locator(`#identity tr[data-ref="${idv.body.data.reference}"]`).innerText()).toContain('22222222222')
    const events = await page.locator('#events').innerText()
    expect(events).toContain('charge.success')
    expect(events).toContain('charge.failed')
    await shot(page, 'dashboard-overview')
  })

  it('loads its stylesheet and script from the sandbox itself, with their types, for the browser to keep', async () => {
    const key = newKey('assets')
    await cardCharge(key, NO_AUTH_CARD)
    const page = await newPage()
    const origins = new Set<string>()
    const assets = new Map<string, { type: string; cache: string; status: number }>()
    page.on('request', (r) => void origins.add(new URL(r.url()).origin))
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname
      if (path.startsWith('/_sandbox/ui/dashboard.')) assets.set(path, { type: r.headers()['content-type'], cache: r.headers()['cache-control'], status: r.status() })
    })
    await openDashboard(page, key)
    expect([...origins]).toEqual([stand.sandbox.url])
    expect(assets.get('/_sandbox/ui/dashboard.css')).toEqual({ type: 'text/css; charset=utf-8', cache: expect.stringContaining('max-age='), status: 200 })
    expect(assets.get('/_sandbox/ui/dashboard.js')).toEqual({ type: 'text/javascript; charset=utf-8', cache: expect.stringContaining('max-age='), status: 200 })
    // the stylesheet applies, and the script runs (the live state says when it last updated)
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('system-ui')
    await eventually(async () => expect(await page.locator('#live-state').innerText()).toContain('updated'))
  })

  it('freezes, advances and unfreezes the clock', async () => {
    const key = newKey('clock')
    await cardCharge(key, NO_AUTH_CARD)
    const clock = async () => (await api(key, 'GET', '/_sandbox/clock')).body.data
    const page = await newPage()
    await openDashboard(page, key)
    expect(await page.locator('#clock-state').innerText()).toBe('running')
    // frozen first, so the advances can be measured exactly, whatever the test's own duration
    expect(await act(page, 'Freeze the clock')).toBe('Clock frozen')
    expect((await clock()).frozen).toBe(true)
    await eventually(async () => expect(await page.locator('#clock-state').innerText()).toBe('frozen'))
    const before = (await clock()).now_ms

    await page.getByLabel('Advance by (seconds)').fill('7200')
    expect(await act(page, 'Advance clock')).toBe('Clock advanced')
    expect((await clock()).now_ms - before).toBe(7_200_000)
    expect(await act(page, 'Advance the clock by one hour')).toBe('Clock advanced')
    expect((await clock()).now_ms - before).toBe(10_800_000)
    expect(await act(page, 'Advance the clock by one day')).toBe('Clock advanced')
    expect((await clock()).now_ms - before).toBe(97_200_000)
    await eventually(async () => expect(await page.locator('#clock-now').getAttribute('datetime')).toBe(new Date(before + 97_200_000).toISOString()))

    expect(await act(page, 'Unfreeze the clock')).toBe('Clock running')
    expect((await clock()).frozen).toBe(false)
    await eventually(async () => expect(await page.locator('#clock-state').innerText()).toBe('running'))
  })

  it('completes a pending 3DS step and a pending STK prompt', async () => {
    const key = newKey('complete')
    // a frozen clock: the STK prompt must not answer itself while the test clicks
    await api(key, 'POST', '/_sandbox/clock/freeze', { frozen: true })
    const tds = await cardCharge(key, THREE_DS_CARD)
    const stk = await mobileMoney(key)
    const page = await newPage()
    await openDashboard(page, key)
    expect(await page.locator(`#charges tr[data-ref="${tds.reference}"]`).innerText()).toContain('waiting for 3DS')
    expect(await act(page, `Complete ${tds.reference} as success`)).toBe('Charge completed as success')
    expect((await queryCharge(key, tds.reference)).body.data.status).toBe('success')
    expect(await act(page, `Complete ${stk.reference} as failed`)).toBe('Charge completed as failed')
    expect((await queryCharge(key, stk.reference)).body.data.status).toBe('failed')
    // the rows update, and their buttons go
    await eventually(async () => expect(await page.locator(`#charges tr[data-ref="${stk.reference}"]`).getAttribute('data-status')).toBe('failed'))
    expect(await page.getByRole('button', { name: `Complete ${tds.reference} as success` }).count()).toBe(0)
  })

  it('approves a pending mandate, then suspends, reactivates and deactivates it; declines another', async () => {
    const key = newKey('mandate')
    const created = await api(key, 'POST', '/_sandbox/direct-debit/authorizations', { account_number: '0123456789', bank_code: '058', account_name: 'Ada Obi', amount: 20000 })
    expect(created.status).toBe(200)
    const page = await newPage()
    await openDashboard(page, key)
    const R = 'AUTH-SANDBOX-PENDING'
    expect(await act(page, `Approve mandate ${R}`)).toBe('Authorization approved')
    expect((await mandate(key, R)).status).toBe('active')
    expect((await api(key, 'GET', `/_sandbox/events?reference=${R}`)).body.data[0].data.status).toBe('success')
    // the message's wording is the control API's; the effect is checked through the API
    expect(await act(page, `Suspend mandate ${R}`)).toMatch(/^Authorization suspend/)
    expect((await mandate(key, R)).status).toBe('suspended')
    expect(await act(page, `Reactivate mandate ${R}`)).toBe('Authorization reactivated')
    expect((await mandate(key, R)).status).toBe('active')
    expect(await act(page, `Deactivate mandate ${R}`)).toBe('Authorization deactivated')
    expect((await mandate(key, R)).status).toBe('deactivated')
    // a deactivated mandate offers no more moves
    await eventually(async () => expect(await page.locator(`#mandates tr[data-ref="${R}"] button`).count()).toBe(0))

    const other = created.body.data.reference
    expect(await act(page, `Decline mandate ${other}`)).toBe('Authorization declined')
    expect((await mandate(key, other)).status).toBe('deactivated')
  })

  it('settles a capture', async () => {
    const key = newKey('settle')
    const pre = await preauthorize(key)
    const capTx = ref('cap')
    expect((await api(key, 'POST', '/merchant/api/v1/charges/card/capture', { payment_reference: pre, transaction_reference: capTx, amount: 400, currency: 'NGN' })).status).toBe(200)
    const before = (await queryCharge(key, pre)).body.data.operations[0]
    expect(before.settled).toBe(false)
    const page = await newPage()
    await openDashboard(page, key)
    expect(await act(page, `Settle capture ${capTx}`)).toBe('Transaction settled')
    expect((await queryCharge(key, pre)).body.data.operations[0].settled).toBe(true)
    // settled: it can be refunded now
    const refund = await api(key, 'POST', '/merchant/api/v1/charges/card/refund', { payment_reference: pre, transaction_reference: ref('rf'), target_transaction_reference: capTx, amount: 100, currency: 'NGN' })
    expect(refund.status).toBe(200)
    await eventually(async () => expect(await page.getByRole('button', { name: `Settle capture ${capTx}` }).count()).toBe(0))
  })

  it('sets the webhook URL and resends an event to a local receiver', async () => {
    const key = newKey('resend')
    const page = await newPage()
    await cardCharge(key, NO_AUTH_CARD) // creates the namespace; its event has no target
    await openDashboard(page, key)
    await page.getByLabel('URL', { exact: true }).fill(stand.receiver.url)
    expect(await act(page, 'Set webhook URL')).toBe('Webhook URL set')
    await eventually(async () => expect(await page.locator('[data-live=webhook]').innerText()).toContain(stand.receiver.url))

    const { reference } = await cardCharge(key, NO_AUTH_CARD)
    const mine = () => stand.receiver.received.filter((r) => r.body?.data?.payment_reference === reference)
    await eventually(() => expect(mine().length).toBe(1))
    const [event] = (await api(key, 'GET', `/_sandbox/events?reference=${reference}`)).body.data
    await eventually(async () => expect(await page.locator(`#events tr[data-event="${event.id}"]`).innerText()).toContain('HTTP 200'))

    expect(await act(page, `Resend event ${event.id}`)).toBe('Event delivered')
    expect(mine().length).toBe(2)
    expect(mine()[1].body.event).toBe('charge.success')
    const again = (await api(key, 'GET', `/_sandbox/events?reference=${reference}`)).body.data[0]
    expect(again.attempts.length).toBe(2)
    await eventually(async () => expect(await page.locator(`#events tr[data-event="${event.id}"] ul.attempts li`).count()).toBe(2))

    // the probe of the handler at the URL (docs/behaviour.md#webhook-probe): this receiver answers 200 to
    // anything and queries nothing; nothing is recorded of its deliveries
    const events = (await api(key, 'GET', '/_sandbox/events')).body.data.length
    expect(await act(page, 'Probe handler')).toBe('Webhook probe: 2 of 8 checks passed (failed: bad_signature, other_body_signature, missing_signature, event_name, duplicate, out_of_order)')
    expect((await api(key, 'GET', '/_sandbox/events')).body.data.length).toBe(events)

    expect(await act(page, 'Clear webhook URL')).toBe('Webhook URL cleared')
  })

  it('resets the namespace', async () => {
    const key = newKey('reset')
    const { reference } = await cardCharge(key, NO_AUTH_CARD)
    const page = await newPage()
    await openDashboard(page, key)
    await page.locator(`#charges tr[data-ref="${reference}"]`).waitFor()
    page.once('dialog', (d) => void d.accept())
    expect(await act(page, 'Reset the namespace')).toBe('Namespace reset')
    expect((await queryCharge(key, reference)).status).toBe(404)
    await eventually(async () => expect(await page.locator(`#charges tr[data-ref="${reference}"]`).count()).toBe(0))
    // seeded again
    expect(await page.locator('#mandates tr[data-ref="AUTH-SANDBOX-PENDING"]').count()).toBe(1)
  })

  it('asks before a reset and does nothing when the answer is no', async () => {
    const key = newKey('noreset')
    const { reference } = await cardCharge(key, NO_AUTH_CARD)
    const page = await newPage()
    await openDashboard(page, key)
    page.once('dialog', (d) => void d.dismiss())
    await page.getByRole('button', { name: 'Reset the namespace', exact: true }).click()
    expect((await queryCharge(key, reference)).status).toBe(200)
  })

  it('injects and clears a fault, showing the answer of the fault API', async () => {
    const key = newKey('faults')
    await cardCharge(key, NO_AUTH_CARD)
    const page = await newPage()
    await openDashboard(page, key)
    await page.getByLabel('Path').fill('/merchant/api/v1/charges/card')
    await page.getByLabel('Times').fill('1')
    await page.getByLabel('Message (error kinds)').selectOption('Service currently unavailable')
    const injected = page.waitForResponse((r) => new URL(r.url()).pathname === '/_sandbox/faults' && r.request().method() === 'POST')
    const said = act(page, 'Inject fault')
    const res = await injected
    const body = (await res.json()) as { message: string }
    const text = await said
    expect(JSON.parse(res.request().postData() ?? '{}')).toEqual({
      method: 'POST',
      kind: 'error',
      path: '/merchant/api/v1/charges/card',
      times: 1,
      message: 'Service currently unavailable',
    })
    // whatever the fault API answers (a 404 envelope where it is not built), the page shows its message
    expect(text).toContain(body.message)
    if (res.status() === 404) {
      expect(text).toBe(`404: ${body.message}`)
    } else {
      expect(res.status()).toBe(200)
      const hit = await api(key, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(cardPayload(NO_AUTH_CARD), ENC_KEY) })
      expect(hit.status).toBeGreaterThanOrEqual(500)
      expect(hit.body.message).toBe('Service currently unavailable')
      await page.getByLabel('Times').fill('5')
      await act(page, 'Inject fault')
    }

    const cleared = page.waitForResponse((r) => new URL(r.url()).pathname === '/_sandbox/faults' && r.request().method() === 'DELETE')
    const said2 = act(page, 'Clear faults')
    const clearedRes = await cleared
    expect(await said2).toContain(((await clearedRes.json()) as { message: string }).message)
    // nothing armed any more: the card API answers normally
    await cardCharge(key, NO_AUTH_CARD)
  })

  it('filters by kind, status and reference on the server', async () => {
    const key = newKey('filters')
    await api(key, 'POST', '/_sandbox/clock/freeze', { frozen: true })
    const ok = await cardCharge(key, NO_AUTH_CARD)
    const bad = await cardCharge(key, INSUFFICIENT_FUNDS_CARD, {}, { cvv: '408' })
    const mm = await mobileMoney(key)
    const page = await newPage()
    await openDashboard(page, key)
    expect((await rowRefs(page, '#charges')).sort()).toEqual([ok.reference, bad.reference, mm.reference].sort())

    await page.getByLabel('Kind', { exact: true }).selectOption('card')
    await Promise.all([page.waitForURL(/kind=card/), page.getByRole('button', { name: 'Apply filters' }).click()])
    expect((await rowRefs(page, '#charges')).sort()).toEqual([ok.reference, bad.reference].sort())
    expect(await page.locator('#h-dd ~ h3 + p.empty').innerText()).toContain('Hidden by the kind filter')

    await page.getByLabel('Status', { exact: true }).selectOption('failed')
    await Promise.all([page.waitForURL(/status=failed/), page.getByRole('button', { name: 'Apply filters' }).click()])
    expect(await rowRefs(page, '#charges')).toEqual([bad.reference])

    await openDashboard(page, key, `&q=${encodeURIComponent(mm.reference)}`)
    expect(await rowRefs(page, '#charges')).toEqual([mm.reference])
    expect(await page.getByLabel('Reference contains').inputValue()).toBe(mm.reference)
    // the reference filter narrows the events and mandates too
    expect(await page.locator('#mandates tbody tr').count()).toBe(0)
    await shot(page, 'dashboard-filtered')
  })

  it('shows a charge made after the page loaded without a reload, and pauses while a field is focused', async () => {
    const key = newKey('live')
    await cardCharge(key, NO_AUTH_CARD)
    const page = await newPage()
    await openDashboard(page, key)
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42))

    const first = await cardCharge(key, PIN_CARD, {}, { pin: '1234' })
    await page.locator(`#charges tr[data-ref="${first.reference}"]`).waitFor({ timeout: 8_000 })

    await page.getByLabel('Reference contains').focus()
    const second = await cardCharge(key, NO_AUTH_CARD)
    // paused: a few polling periods pass while the field keeps the focus
    await eventually(async () => expect(await page.locator('#live-state').innerText()).toContain('paused'))
    await page.waitForTimeout(2_500)
    expect(await page.locator(`#charges tr[data-ref="${second.reference}"]`).count()).toBe(0)
    await page.getByLabel('Reference contains').blur()
    await page.locator(`#charges tr[data-ref="${second.reference}"]`).waitFor({ timeout: 8_000 })
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42)
  })

  it("lists checkouts with their attempts under them (channel, status, message), a bank transfer's account, and filters by checkout, pending and expired", async () => {
    const key = newKey('checkouts')
    await api(key, 'POST', '/_sandbox/clock/freeze', { frozen: true })
    // tried twice: a declined card, then a short transfer (returned; the transfer still awaited)
    const tried = await checkout(key)
    const declined = await payCheckout(key, tried.reference, { channel: 'card', outcome: 'failed' })
    const short = await payCheckout(key, tried.reference, { channel: 'bank_transfer', amount: 100 })
    expect(short.status).toBe('processing')
    const [cardTry, transferTry] = short.payment_attempts.map((a: { reference: string }) => a.reference)
    expect(declined.payment_attempts[0].reference).toBe(cardTry)
    const untouched = await checkout(key, { reference: ref('co-pending') })
    const paid = await checkout(key)
    await payCheckout(key, paid.reference, { channel: 'bank_transfer' })
    const card = await cardCharge(key, NO_AUTH_CARD)

    const page = await newPage()
    await openDashboard(page, key)
    // each checkout's attempts right under it, oldest first; no attempt as a row of its own
    const refs = await rowRefs(page, '#charges')
    const at = refs.indexOf(tried.reference)
    const triedRows = page.locator(`#charges tr.attempt.nested[data-parent="${tried.tx}"]`)
    expect(await triedRows.count()).toBe(2)
    const attemptRefs = await triedRows.evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.ref))
    expect(refs.slice(at + 1, at + 3)).toEqual(attemptRefs)
    expect(await page.locator('#charges tr.attempt:not(.nested)').count()).toBe(0)
    expect(await page.locator(`#charges tr[data-ref="${tried.reference}"]`).getAttribute('data-status')).toBe('processing')
    const first = await triedRows.nth(0).innerText()
    expect(first).toContain(`attempt 1 of ${tried.reference}`)
    expect(first).toContain(cardTry)
    expect(first).toContain('card')
    expect(first).toContain('failed')
    expect(first).toContain('Card could not be charged due to insufficient funds')
    const second = await triedRows.nth(1).innerText()
    expect(second).toContain(`attempt 2 of ${tried.reference}`)
    expect(second).toContain('bank transfer')
    // the temporary account the attempt asks for (the charge query does not show it, docs/behaviour.md#card-outcomes-and-query)
    expect(second).toMatch(/account [0-9]{10}/)
    expect(second).toContain('wema (035)')
    expect(second).toMatch(/last transfer NGN 100\.00 \(underpayment, NGN 100\.00 returned\)/)
    expect(second).toContain('waiting for a transfer')
    const paidText = await page.locator(`#charges tr[data-ref="${paid.reference}"]`).innerText()
    expect(paidText).toContain('paid by bank transfer')
    expect(await page.locator(`#charges tr[data-ref="${untouched.reference}"]`).innerText()).toContain('Awaiting payment')

    await page.getByLabel('Kind', { exact: true }).selectOption('checkout')
    await Promise.all([page.waitForURL(/kind=checkout/), page.getByRole('button', { name: 'Apply filters' }).click()])
    expect((await page.locator('#charges tbody tr:not(.attempt)').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.ref))).sort()).toEqual([tried.reference, untouched.reference, paid.reference].sort())
    expect(await rowRefs(page, '#charges')).not.toContain(card.reference)
    await page.getByLabel('Status', { exact: true }).selectOption('pending')
    await Promise.all([page.waitForURL(/status=pending/), page.getByRole('button', { name: 'Apply filters' }).click()])
    expect(await rowRefs(page, '#charges')).toEqual([untouched.reference])

    // an attempt the filters keep while they leave its checkout out: alone, marked as an attempt
    await openDashboard(page, key, '&kind=card&status=failed')
    expect(await rowRefs(page, '#charges')).toEqual([`${tried.tx}-1`])
    expect(await page.locator('#charges tr.attempt').innerText()).toContain(`attempt 1 of ${tried.reference}`)
    // an attempt's reference finds its checkout
    await openDashboard(page, key, `&q=${encodeURIComponent(transferTry)}`)
    expect(await rowRefs(page, '#charges')).toEqual([tried.reference, ...attemptRefs])

    // a day later on the namespace clock: the awaited transfer arrived by itself after 120 s and
    // paid the tried checkout; the untouched one has expired
    await api(key, 'POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
    expect((await queryCharge(key, tried.reference)).body.data).toMatchObject({ status: 'success', payment_attempts: [{ channel: 'card', status: 'failed' }, { channel: 'bank_transfer', status: 'success' }] })
    await openDashboard(page, key, '&status=expired&kind=checkout')
    expect(await rowRefs(page, '#charges')).toEqual([untouched.reference])
    expect(await page.locator(`#charges tr[data-ref="${untouched.reference}"]`).innerText()).toContain('Checkout expired')
    await shot(page, 'dashboard-checkouts')
  })

  it('pays a checkout by a channel and cancels another with their buttons, offering only the channels the checkout takes', async () => {
    const key = newKey('checkout_actions')
    await api(key, 'POST', '/_sandbox/clock/freeze', { frozen: true })
    const ngn = await checkout(key, { channels: ['card', 'bank_transfer'] })
    const kes = await checkout(key, { currency: 'KES' })
    const page = await newPage()
    await openDashboard(page, key)
    expect(await page.getByRole('button', { name: `Pay ${kes.reference} by mobile money` }).count()).toBe(1)
    expect(await page.getByRole('button', { name: `Pay ${kes.reference} by card` }).count()).toBe(0)
    expect(await page.getByRole('button', { name: `Pay ${ngn.reference} by mobile money` }).count()).toBe(0)
    expect(await page.locator(`#charges tr[data-ref="${ngn.reference}"] a`).getAttribute('href')).toBe(`/checkout/${pageId(key)}/${ngn.tx}/pay`)

    expect(await act(page, `Pay ${ngn.reference} by bank transfer`)).toBe('Checkout success')
    const q = (await queryCharge(key, ngn.reference)).body.data
    expect(q).toMatchObject({ status: 'success', payment_attempts: [{ channel: 'bank_transfer', status: 'success' }] })
    expect(await act(page, `Cancel checkout ${kes.reference}`)).toBe('Checkout cancelled')
    expect((await queryCharge(key, kes.reference)).body.data.status).toBe('failed')
    // the rows update, and their buttons go; a second cancel is refused
    await eventually(async () => expect(await page.locator(`#charges tr[data-ref="${kes.reference}"]`).getAttribute('data-status')).toBe('failed'))
    await eventually(async () => expect(await page.locator(`#charges tr.attempt[data-parent="${ngn.tx}"]`).getAttribute('data-status')).toBe('success'))
    expect(await page.getByRole('button', { name: `Cancel checkout ${ngn.reference}` }).count()).toBe(0)
    expect((await api(key, 'POST', `/_sandbox/checkouts/${kes.reference}/cancel`)).status).toBe(409)
  })

  it('lists virtual bank accounts with their transfers, and credits one with its button (docs/behaviour.md#virtual-accounts)', async () => {
    const key = newKey('vba')
    const made = await api(key, 'POST', '/merchant/api/v1/virtual-bank-account', { account_name: 'Ada Obi', account_reference: 'cust-dash-1', permanent: true, bank_code: '035', customer: { name: 'Ada Obi' }, kyc: { bvn: '22222222222' } })
    expect(made.status).toBe(200)
    const number = made.body.data.account_number
    const page = await newPage()
    await openDashboard(page, key)
    const row = page.locator('#virtual-accounts tr[data-ref="cust-dash-1"]')
    expect(await row.textContent()).toContain(`${number}Ada Obi · Wema Bank (035)`)
    expect(await row.textContent()).toContain('0 received, NGN 0.00')
    // the credit call, through the page (the merchant API with the namespace's key)
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/merchant/api/v1/virtual-bank-account/sandbox/credit')
    await page.getByRole('button', { name: `Credit virtual account ${number} with NGN 1,000`, exact: true }).click()
    expect((await answered).status()).toBe(200)
    await eventually(async () => expect((await page.getByRole('status').textContent())?.trim()).toBe('Virtual bank account credited successfully'))
    await eventually(async () => expect(await row.textContent()).toContain('1 received, NGN 1,000.00'))
    const tx = (await api(key, 'GET', `/merchant/api/v1/virtual-bank-account/transactions?account_number=${number}`)).body.data.transactions[0].reference
    expect(await row.textContent()).toContain(`${tx} · 1000.00`)
    // the transfer is a charge of its own among the charges
    await eventually(async () => expect(await page.locator(`#charges tr[data-ref="${tx}"]`).getAttribute('data-kind')).toBe('virtual_account'))
    expect(await page.locator(`#charges tr[data-ref="${tx}"]`).textContent()).toContain(`virtual account ${number} (cust-dash-1)`)
  })

  it('lists pool accounts with their settlement history, and credits one with its button (docs/behaviour.md#pool-accounts)', async () => {
    const key = newKey('pool')
    const made = await api(key, 'POST', '/merchant/api/v1/pool-accounts', { customer_name: 'Ada Obi', customer_email: 'ada@example.com', currency: 'KES' })
    expect(made.status).toBe(200)
    const reference = made.body.data.reference
    const page = await newPage()
    await openDashboard(page, key)
    const row = page.locator(`#pool-accounts tr[data-ref="${reference}"]`)
    expect(await row.textContent()).toContain('KES · bank account')
    expect(await row.textContent()).toContain('0 received, KES 0.00')
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/merchant/api/v1/pool-accounts/sandbox/credit')
    await page.getByRole('button', { name: `Credit pool account ${reference} with KES 1,000`, exact: true }).click()
    expect((await answered).status()).toBe(200)
    await eventually(async () => expect((await page.getByRole('status').textContent())?.trim()).toBe('Pool account has been credited successfully'))
    await eventually(async () => expect(await row.textContent()).toContain('1 received, KES 1,000.00'))
    // the fee and its VAT taken: 15 + 1.13
    expect(await row.textContent()).toContain('fee KES 16.13')
    const tx = (await api(key, 'GET', '/_sandbox/events?event=charge.success')).body.data[0].data.reference
    await eventually(async () => expect(await page.locator(`#charges tr[data-ref="${tx}"]`).getAttribute('data-kind')).toBe('pool_account'))
    expect(await page.locator(`#charges tr[data-ref="${tx}"]`).textContent()).toContain(`pool account ${reference}`)
  })

  it('shows the balances and the newest history entries, and funds a balance with its button (docs/behaviour.md#ledger-and-balances)', async () => {
    const key = newKey('balances')
    await api(key, 'POST', '/_sandbox/clock/freeze', { frozen: true })
    const bt = ref('bt')
    expect((await api(key, 'POST', '/merchant/api/v1/charges/bank-transfer', { reference: bt, amount: 1500, currency: 'NGN', merchant_bears_cost: true, customer: { email: 'a@b.co' } })).status).toBe(200)
    await api(key, 'POST', '/_sandbox/clock/advance', { seconds: 120 })
    const page = await newPage()
    await openDashboard(page, key)
    const ngn = page.locator('#balances tr[data-currency="NGN"]')
    expect(await ngn.innerText()).toContain('NGN 5,001,475.81')
    // a row for every balance currency, in the order the balances call answers them
    const currencies = Object.keys((await api(key, 'GET', '/merchant/api/v1/balances')).body.data)
    expect(currencies.slice(0, 4)).toEqual(['NGN', 'KES', 'GHS', 'USD'])
    expect(await page.locator('#balances tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.currency))).toEqual(currencies)
    const newest = page.locator('#balance-history tbody tr').first()
    expect(await newest.getAttribute('data-pointer')).toBe(`payin:${bt}:0`)
    expect(await newest.innerText()).toContain(`Payment ${bt}`)
    expect(await newest.innerText()).toContain('+NGN 1,475.81')
    expect(await act(page, 'Fund the KES balance with KES 10,000')).toBe('Balance funded')
    expect((await api(key, 'GET', '/merchant/api/v1/balances')).body.data.KES.available_balance).toBe(5_010_000)
    await eventually(async () => expect(await page.locator('#balances tr[data-currency="KES"]').innerText()).toContain('KES 5,010,000.00'))
    await eventually(async () => expect(await page.locator('#balance-history tbody tr').first().innerText()).toContain('Balance funded'))
  })

  it('fits 1280 and 390 px wide: no page-wide horizontal scroll, tables scroll in their own box', async () => {
    const key = newKey('layout_with_a_rather_long_key_name')
    await api(key, 'POST', '/_sandbox/clock/freeze', { frozen: true })
    await api(key, 'PUT', '/_sandbox/webhook-url', { url: stand.receiver.url })
    const long = await cardCharge(key, PIN_CARD, { reference: `order-with-a-long-reference-${Date.now()}` }, { pin: '1234' })
    await cardCharge(key, INSUFFICIENT_FUNDS_CARD, {}, { cvv: '408' })
    await cardCharge(key, THREE_DS_CARD)
    await mobileMoney(key)
    const pre = await preauthorize(key, 5000)
    await api(key, 'POST', '/merchant/api/v1/charges/card/capture', { payment_reference: pre, transaction_reference: ref('cap'), amount: 1200, currency: 'NGN' })
    await api(key, 'POST', '/api/v1/direct-debit/authorizations/AUTH-SANDBOX-ACTIVE/debits', { reference: ref('dd'), amount: 5000, narration: 'Monthly plan', currency: 'NGN' })
    await api(key, 'POST', '/api/v1/identities/ng/bvn', { id: '22222222222', verification_consent: true })
    const co = await checkout(key, { reference: `checkout-with-a-long-reference-${Date.now()}` })
    await payCheckout(key, co.reference, { channel: 'card', outcome: 'failed' })
    await payCheckout(key, co.reference, { channel: 'bank_transfer', amount: 100 })
    await eventually(() => expect(stand.receiver.received.some((r) => r.body?.data?.payment_reference === long.reference)).toBe(true))

    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      const page = await newPage(width, height)
      await openDashboard(page, key)
      await noHorizontalScroll(page)
      await page.getByRole('button', { name: 'Advance clock', exact: true }).waitFor()
      await shot(page, `dashboard-${width}`)
      await page.screenshot({ path: `${SHOTS}/dashboard-${width}-top.png` })
      await page.locator('#h-charges').evaluate((h) => h.scrollIntoView())
      await page.screenshot({ path: `${SHOTS}/dashboard-${width}-charges.png` })
      if (width === 390) {
        // the charges table is wider than the phone: its own container scrolls
        const box = await page.locator('#charges').evaluate((t) => {
          const wrap = t.parentElement!
          return { scroll: wrap.scrollWidth, client: wrap.clientWidth, overflow: getComputedStyle(wrap).overflowX }
        })
        expect(box.overflow).toBe('auto')
        expect(box.scroll).toBeGreaterThan(box.client)
      }
    }
  })
})

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { pageId } from '../../src/namespaces.js'
import { ENC_KEY } from '../helpers/sandbox.js'
import { api, killedAfterEach, startCli } from './process.js'
import { THREE_DS_CARD } from '../helpers/cards.js'

/**
 * One snapshot restored under several keys (docs/behaviour.md#snapshots, "Another key's snapshot"),
 * on the real CLI: each namespace holds the same transaction references, and the customer pages
 * (the 3DS page, the sandbox bank's page, the hosted checkout page) act on the namespace their URL
 * names (docs/behaviour.md#urls-handed-out), so each namespace's charges and checkout end as its own customer chose.
 */

const { running } = killedAfterEach()
const FIXTURE = new URL('../fixtures/funded.snapshot.json', import.meta.url).pathname
const SUITE = JSON.parse(readFileSync(FIXTURE, 'utf8')).key as string
const WORKERS = ['sk_test_pages_w1', 'sk_test_pages_w2', 'sk_test_pages_w3']
const SHOP = 'https://shop.example/return'
const customer = { name: 'Ada Obi', email: 'ada@example.com' }

describe('one snapshot restored into three namespaces: their customer pages', () => {
  it("each namespace's card charge, pay-with-bank charge and checkout end as its own customer chose on its pages", async () => {
    const cli = await startCli(['--load', FIXTURE])
    running.push(cli)
    const ok = async (key: string, method: string, path: string, body?: unknown) => {
      const res = await api(cli.url, key, method, path, body)
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200)
      return res.body.data
    }
    const page = (path: string, fields?: Record<string, string>) =>
      fetch(`${cli.url}${path}`, fields ? { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields), redirect: 'manual' } : { redirect: 'manual' })

    // in the fixture's namespace: a card charge at the 3DS page, a pay-with-bank charge at the
    // bank's page, and a checkout whose card attempt waits at the 3DS page
    const card = await ok(SUITE, 'POST', '/merchant/api/v1/charges/card', {
      charge_data: encryptChargeData({ reference: 'pages-card', card: { number: THREE_DS_CARD, cvv: '123', expiry_month: '09', expiry_year: '30' }, amount: 1000, currency: 'NGN', customer, redirect_url: SHOP }, ENC_KEY),
    })
    expect(card.status).toBe('processing')
    const pwb = await ok(SUITE, 'POST', '/merchant/api/v1/charge/pay-with-bank', { reference: 'pages-pwb', amount: 5000, currency: 'NGN', bank_code: '100004', customer, redirect_url: SHOP })
    const init = await ok(SUITE, 'POST', '/merchant/api/v1/charges/initialize', { reference: 'pages-checkout', amount: 1500, currency: 'NGN', customer, redirect_url: SHOP, channels: ['card'] })
    const started = await page(new URL(init.checkout_url).pathname, { action: 'card', card_number: THREE_DS_CARD, expiry: '09/30', cvv: '123' })
    expect(started.status).toBe(303)
    const checkout = await ok(SUITE, 'GET', '/merchant/api/v1/charges/pages-checkout')
    const attempt = checkout.payment_attempts[0].reference as string
    const tx = { card: card.transaction_reference as string, pwb: pwb.transaction_reference as string, checkout: new URL(init.checkout_url).pathname.split('/')[2], attempt }
    const snapshot = await ok(SUITE, 'GET', '/_sandbox/snapshot')
    for (const key of WORKERS) await ok(key, 'POST', '/_sandbox/snapshot', snapshot)

    // four namespaces hold each reference: a page of the reference alone names none of them, and changes nothing
    for (const path of [`/_sandbox/3ds/${tx.card}`, `/_sandbox/pay-with-bank/${tx.pwb}`, `/checkout/${tx.checkout}/pay`]) {
      for (const res of [await page(path), await page(path, { decision: 'approve', action: 'card' })]) {
        expect(res.status, path).toBe(404)
        expect(await res.text()).toContain("Open the link that names the merchant&#39;s page id")
      }
    }

    const [w1, w2, w3] = WORKERS.map((key) => ({ key, id: pageId(key) }))
    const back = (res: Response) => new URL(res.headers.get('location')!)

    // worker 2 first: declines everything, then cancels its checkout
    expect((await page(`/_sandbox/3ds/${w2.id}/${tx.card}`)).status).toBe(200)
    expect(back(await page(`/_sandbox/3ds/${w2.id}/${tx.card}`, { decision: 'decline' })).origin).toBe('https://shop.example')
    expect((await page(`/_sandbox/pay-with-bank/${w2.id}/${tx.pwb}`, { decision: 'decline' })).status).toBe(302)
    const declined = await page(`/_sandbox/3ds/${w2.id}/${tx.attempt}`, { decision: 'decline' })
    // the way back is worker 2's own checkout page, on the origin the customer reached
    expect(back(declined).origin).toBe(cli.url)
    expect(back(declined).pathname).toBe(`/checkout/${w2.id}/${tx.checkout}/pay`)
    const shown = await page(back(declined).pathname + back(declined).search)
    expect([shown.status, await shown.text()]).toEqual([200, expect.stringContaining('Payment failed')])
    const cancelled = await page(`/checkout/${w2.id}/${tx.checkout}/cancel`, {})
    expect([cancelled.status, back(cancelled).origin]).toEqual([303, 'https://shop.example'])

    // worker 1 approves everything
    expect((await page(`/_sandbox/3ds/${w1.id}/${tx.card}`, { decision: 'approve' })).status).toBe(302)
    expect((await page(`/_sandbox/pay-with-bank/${w1.id}/${tx.pwb}`, { decision: 'approve' })).status).toBe(302)
    const approved = await page(`/_sandbox/3ds/${w1.id}/${tx.attempt}`, { decision: 'approve' })
    expect(back(approved).pathname).toBe(`/checkout/${w1.id}/${tx.checkout}/pay`)
    const landed = await page(back(approved).pathname + back(approved).search)
    expect([landed.status, landed.headers.get('location')]).toEqual([302, `${SHOP}?reference=pages-checkout`])

    // worker 3 approves the card and the bank, and leaves its checkout's attempt waiting
    expect((await page(`/_sandbox/3ds/${w3.id}/${tx.card}`, { decision: 'approve' })).status).toBe(302)
    expect((await page(`/_sandbox/pay-with-bank/${w3.id}/${tx.pwb}`, { decision: 'approve' })).status).toBe(302)

    const states = async (key: string) => {
      const of = async (reference: string) => (await ok(key, 'GET', `/merchant/api/v1/charges/${reference}`)).status
      return [await of('pages-card'), await of('pages-pwb'), await of('pages-checkout'), await of(tx.attempt)]
    }
    expect(await states(w1.key)).toEqual(['success', 'success', 'success', 'success'])
    expect(await states(w2.key)).toEqual(['failed', 'failed', 'failed', 'failed'])
    expect(await states(w3.key)).toEqual(['success', 'success', 'processing', 'processing'])
    // the namespace the snapshot was taken of is as it was
    expect(await states(SUITE)).toEqual(['processing', 'processing', 'processing', 'processing'])
    // each page of a namespace shows its own state: worker 3's attempt still asks, worker 1's has ended
    expect(await (await page(`/_sandbox/3ds/${w3.id}/${tx.attempt}`)).text()).toContain('Approve')
    expect(await (await page(`/_sandbox/3ds/${w1.id}/${tx.attempt}`)).text()).not.toContain('Approve')
  })
})

import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, ref, tempFile, fieldMessages } from '../helpers/sandbox.js'
import { killedAfterEach, startCli, type RunningCli } from './process.js'

/**
 * Requests of public clients, sent as they send them to the real CLI over a socket, answered as
 * CONTRACT 14 decides (docs/behaviour.md#scenario-packs, docs/behaviour.md#beyond-the-seed, docs/behaviour.md#checkout): Kora's WooCommerce plugin's checkouts,
 * a 7-character initialize reference, the Python client's underscore metadata key and its bulk
 * payout to the bare /api/v1.
 */

const { running } = killedAfterEach()
const M = '/merchant/api/v1'

async function cli(args: string[] = []): Promise<RunningCli> {
  const started = await startCli(args)
  running.push(started)
  return started
}

async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${SECRET}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, type: res.headers.get('content-type'), text, body: res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as any) : null }
}

describe('public clients against the real CLI (CONTRACT 14)', () => {
  it("Kora's WooCommerce plugin: card and bank_transfer for KES, GHS and USD stores, each offered what its currency takes", async () => {
    const sb = await cli()
    // one channel offered locks the page to its form; NGN takes both
    const offered: Record<string, { shows: string; not: string }> = {
      KES: { shows: 'Phone number', not: 'Card number' },
      GHS: { shows: 'Phone number', not: 'Card number' },
      USD: { shows: 'Card number', not: 'Bank transfer' },
      NGN: { shows: 'Bank transfer', not: 'Phone number' },
    }
    for (const [currency, { shows, not }] of Object.entries(offered)) {
      const init = await call(sb.url, 'POST', `${M}/charges/initialize`, {
        reference: ref(`woo-${currency}`),
        amount: 25,
        currency,
        customer: { name: 'Ada Obi', email: 'ada@example.com' },
        channels: ['card', 'bank_transfer'],
        default_channel: 'card',
        redirect_url: 'https://shop.example/?wc-api=korapay',
        notification_url: 'https://shop.example/?wc-api=korapay_webhook',
      })
      expect([init.status, init.body.message], currency).toEqual([200, 'Charge created successfully'])
      const page = await (await fetch(init.body.data.checkout_url)).text()
      expect(page, currency).toContain(shows)
      expect(page, currency).not.toContain(not)
    }
  })

  it('a 7-character reference on charges/initialize', async () => {
    const sb = await cli()
    const init = await call(sb.url, 'POST', `${M}/charges/initialize`, { reference: 'ord-123', amount: 1000, currency: 'NGN', customer: { email: 'ada@example.com' } })
    expect([init.status, init.body.data.reference]).toEqual([200, 'ord-123'])
  })

  it("the Python client's card charge with metadata {client_id} succeeds where the pack says metadata_underscores", async () => {
    const pack = tempFile('underscores.yaml')
    writeFileSync(pack, 'settings:\n  metadata_underscores: true\n')
    const sb = await cli(['--scenarios', pack])
    const payload = cardPayload('4084127883172787', { metadata: { client_id: 'qwerty' } })
    const charged = await call(sb.url, 'POST', `${M}/charges/card`, { charge_data: encryptChargeData(payload, ENC_KEY) })
    expect([charged.status, charged.body.message]).toEqual([200, 'Card charged successfully'])
    // without the setting, the documented rule
    const strict = await cli()
    const refused = await call(strict.url, 'POST', `${M}/charges/card`, { charge_data: encryptChargeData(cardPayload('4084127883172787', { metadata: { client_id: 'qwerty' } }), ENC_KEY) })
    expect([refused.status, refused.body.data]).toEqual([422, fieldMessages({ metadata: 'keys may only hold A-Z, a-z, 0-9 and -' })])
  })

  it("the Python client's bulk payout to the bare /api/v1: 200, text/plain `Welcome to Kora`, nothing paid", async () => {
    const sb = await cli()
    const batch = ref('batch')
    const body = {
      batch_reference: batch,
      description: 'test bulk transfer',
      merchant_bears_cost: false,
      currency: 'NGN',
      payouts: ['0000000000', '0000000001'].map((account) => ({ reference: ref('bi'), amount: 1000, type: 'bank_account', narration: 'Test bulk', bank_account: { bank_code: '033', account_number: account }, customer: { name: 'John Doe', email: 'johndoe@example.com' } })),
    }
    for (const [method, path, sent] of [['POST', '/api/v1/transactions/disburse/bulk', body], ['GET', `/api/v1/transactions/bulk/${batch}`, undefined], ['GET', `/api/v1/transactions/bulk/${batch}/payout`, undefined]] as const) {
      const res = await call(sb.url, method, path, sent)
      expect([res.status, res.type, res.text], path).toEqual([200, 'text/plain; charset=UTF-8', 'Welcome to Kora'])
    }
    expect((await call(sb.url, 'GET', `${M}/transactions/bulk/${batch}`)).status).toBe(404)
  })
})

import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, ref, fieldMessages } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { api, killedAfterEach, startCli } from './process.js'

/**
 * What public clients send and read, against the real CLI over a socket (docs/behaviour.md#invalid-request-data,
 * docs/behaviour.md#card-outcomes-and-query, docs/behaviour.md#webhook-payloads, docs/behaviour.md#pay-ins-list, docs/behaviour.md#pay-with-bank): null fields taken as left out, the transactions list an Elixir client
 * calls, the charge query's metadata, the pay-ins' payment_sources, and a webhook whose data keys
 * come in the documented order to a real receiver.
 */

const { running, cleanups } = killedAfterEach()
const M = '/merchant/api/v1'

describe('the answers public clients read, against the real CLI', () => {
  it('answers them as CONTRACT 14 decides', async () => {
    const cli = await startCli([])
    running.push(cli)
    const hook = await startReceiver()
    cleanups.push(() => hook.close())
    const call = (method: string, path: string, body?: unknown) => api(cli.url, SECRET, method, path, body)
    expect((await call('PUT', '/_sandbox/webhook-url', { url: hook.url })).status).toBe(200)

    // a Java DTO serialized with its unset fields as null
    const co = ref('co-null')
    const init = await call('POST', `${M}/charges/initialize`, {
      reference: co, amount: 1000, currency: 'NGN', narration: null, channels: null, default_channel: null,
      customer: { email: 'ada@example.com', name: null }, redirect_url: null, notification_url: null, metadata: null, merchant_bears_cost: null,
    })
    expect([init.status, init.body.message]).toEqual([200, 'Charge created successfully'])
    // a required field sent as null is missing
    const missing = await call('POST', `${M}/charges/initialize`, { reference: ref('co-null'), amount: 1000, currency: 'NGN', customer: { email: null } })
    expect([missing.status, missing.body.data]).toEqual([422, fieldMessages({ 'customer.email': 'is required' })])

    // a card charge with no metadata: the query shows none (docs/behaviour.md#card-outcomes-and-query), the webhook's keys come in the documented order
    const card = cardPayload('4084127883172787', { amount: 1000 })
    expect((await call('POST', `${M}/charges/card`, { charge_data: encryptChargeData(card, ENC_KEY) })).status).toBe(200)
    expect((await call('GET', `${M}/charges/${card.reference}`)).body.data).not.toHaveProperty('metadata')
    await hook.waitFor(1)
    const raw = hook.received[0].raw
    expect(Object.keys(JSON.parse(raw.slice(raw.indexOf('"data":') + 7, -1)))).toEqual(['fee', 'amount', 'status', 'currency', 'reference', 'payment_method', 'payment_reference', 'transaction_reference', 'metadata'])

    // the npm SDK's pay-ins item: payment_sources, one object
    const payins = (await call('GET', `${M}/pay-ins`)).body.data.payins
    expect(payins[0].payment_sources).toEqual({ amount_paid: '1000.00', narration: payins[0].description, payment_source_type: 'card', message: 'Card charged successfully', status: 'success' })

    // the Elixir client's call: GET, the secret key, no query; anything but 200 with status true is its error
    const all = await fetch(`${cli.url}${M}/transactions`, { headers: { authorization: `Bearer ${SECRET}` } })
    expect(all.status).toBe(200)
    const listed = (await all.json()) as any
    expect(listed.status).toBe(true)
    expect(listed.data.transactions.map((t: { type: string; reference: string }) => t.type)).toEqual(['collection', 'collection'])
    // a payout joins the same list as a disbursement, newest first
    const payout = ref('po-list')
    const paid = await call('POST', `${M}/transactions/disburse`, {
      reference: payout,
      destination: { type: 'bank_account', amount: 1000, currency: 'NGN', bank_account: { bank: '033', account: '0000000000' }, customer: { email: 'payee@example.com' } },
    })
    expect(paid.status).toBe(200)
    const again = (await call('GET', `${M}/transactions`)).body.data.transactions
    expect(again.map((t: { type: string }) => t.type)).toEqual(['disbursement', 'collection', 'collection'])
    expect(again[0]).toMatchObject({ reference: payout, amount: '1000.00', currency: 'NGN', status: 'processing' })
    // its transfer.success comes with the documented keys in their order too
    expect((await call('POST', '/_sandbox/clock/advance', { seconds: 60 })).status).toBe(200)
    await hook.waitFor(2)
    const transfer = hook.received.find((r) => r.body.event === 'transfer.success')!
    expect(transfer.body.data.reference).toBe(payout)
    expect(Object.keys(JSON.parse(transfer.raw.slice(transfer.raw.indexOf('"data":') + 7, -1)))).toEqual(['fee', 'amount', 'status', 'currency', 'reference', 'narration', 'trace_id'])
  })
})

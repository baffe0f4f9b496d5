import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, ref, fieldMessages } from '../helpers/sandbox.js'
import { api, killedAfterEach } from './process.js'

/**
 * What public clients send and read (CONTRACT 14), sent as they send it to the real CLI over a
 * socket: amounts as numeric strings and null URLs, banks without a country, the older
 * virtual-account body, and the resend-otp answer the SDKs read (the collection's sample).
 */

const { spawnCli } = killedAfterEach()
const M = '/merchant/api/v1'

describe('the shapes public clients send, against the real CLI (CONTRACT 14)', () => {
  it('answers them as CONTRACT 14 decides', async () => {
    const cli = await spawnCli([])
    const call = (method: string, path: string, body?: unknown) => api(cli.url, SECRET, method, path, body)

    // a Dart package and an Elixir client: the amount as a string, an optional URL as null
    const co = ref('co-shape')
    const init = await call('POST', `${M}/charges/initialize`, { reference: co, amount: '1000.0', currency: 'NGN', customer: { email: 'a@b.co' }, notification_url: null })
    expect([init.status, init.body.message]).toEqual([200, 'Charge created successfully'])
    expect((await call('GET', `${M}/charges/${co}`)).body.data.amount).toBe('1000.00')
    const bt = await call('POST', `${M}/charges/bank-transfer`, { reference: ref('bt-shape'), amount: '1500.0', currency: 'NGN', customer: { email: 'a@b.co' }, notification_url: null })
    expect([bt.status, bt.body.data.amount]).toEqual([200, 1500])

    // two clients' tests ask for the banks without a country and expect Nigeria's
    const banks = await call('GET', `${M}/misc/banks`)
    expect(banks.status).toBe(200)
    expect(banks.body.data).toEqual((await call('GET', `${M}/misc/banks?countryCode=NG`)).body.data)

    // the older virtual-account body: bvn at the top
    const vba = await call('POST', `${M}/virtual-bank-account`, { account_name: 'Ada', account_reference: ref('vba-shape'), permanent: true, bank_code: '000', customer: { name: 'Ada' }, bvn: '22222222222' })
    expect(vba.status).toBe(200)

    // resend-otp at a card's OTP step: the collection's sample (the SDKs type the other metadata as optional)
    const payload = cardPayload('5442056106072595', {}, { pin: '1234' })
    const charged = await call('POST', `${M}/charges/card`, { charge_data: encryptChargeData(payload, ENC_KEY) })
    expect(charged.body.data.auth_model).toBe('OTP')
    const resent = await call('POST', `${M}/charges/card/resend-otp`, { transaction_reference: charged.body.data.transaction_reference })
    expect(resent.status).toBe(200)
    expect(resent.body.data).toEqual({
      status: 'processing',
      response_message: expect.any(String),
      metadata: { support_message: expect.any(String) },
    })

    // null inside the encrypted card payload is left out as in any body; a required field sent as null is missing
    const nulls = cardPayload('4084127883172787', { redirect_url: null, description: null, metadata: null, customer: { email: 'ada@example.com', name: null } })
    const nullCharge = await call('POST', `${M}/charges/card`, { charge_data: encryptChargeData(nulls, ENC_KEY) })
    expect([nullCharge.status, nullCharge.body.message]).toEqual([200, 'Card charged successfully'])
    const noEmail = cardPayload('4084127883172787', { customer: { email: null } })
    const refused = await call('POST', `${M}/charges/card`, { charge_data: encryptChargeData(noEmail, ENC_KEY) })
    expect([refused.status, refused.body.data]).toEqual([422, fieldMessages({ 'customer.email': 'is required' })])
  })
})

import { describe, expect, it } from 'vitest'
import { cardPayload, ref, sandboxPerTest, type TestSandbox, fieldMessages } from './helpers/sandbox.js'

/**
 * The pack setting `metadata_underscores` (docs/behaviour.md#scenario-packs, CONTRACT 14): docs/api.md 2.2's
 * key rule by default; with the setting, `_` in metadata keys is taken on every endpoint that takes
 * metadata, and every other metadata rule stays.
 */

const sandbox = sandboxPerTest()
const M = '/merchant/api/v1'
const KEY_RULE = 'keys may only hold A-Z, a-z, 0-9 and -'

/** one request of every endpoint that takes metadata, with `metadata` */
const REQUESTS: [string, string, (metadata: unknown) => Record<string, unknown>][] = [
  ['charges/initialize', `${M}/charges/initialize`, (metadata) => ({ reference: ref('co'), amount: 1500, currency: 'NGN', customer: { email: 'a@b.co' }, metadata })],
  ['charges/mobile-money', `${M}/charges/mobile-money`, (metadata) => ({ reference: ref('mm'), amount: 100, currency: 'KES', mobile_money: { number: '254700000000' }, customer: { email: 'a@b.co' }, metadata })],
  ['charges/bank-transfer', `${M}/charges/bank-transfer`, (metadata) => ({ reference: ref('bt'), amount: 1500, currency: 'NGN', customer: { email: 'a@b.co' }, metadata })],
  ['transactions/disburse', `${M}/transactions/disburse`, (metadata) => ({ reference: ref('po'), destination: { type: 'bank_account', amount: 1000, currency: 'NGN', bank_account: { bank: '033', account: '0000000000' }, customer: { email: 'a@b.co' } }, metadata })],
  ['transactions/disburse/remittance', `${M}/transactions/disburse/remittance`, (metadata) => ({ reference: ref('po'), destination: { type: 'bank_account', amount: 1000, currency: 'NGN', bank_account: { bank: '033', account: '0000000000' }, customer: { email: 'a@b.co' } }, remittance_data: { sender_name: 'Ada' }, metadata })],
]

const takeUnderscores = async (sb: TestSandbox) => expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { metadata_underscores: true } })).status).toBe(200)

describe('metadata keys with _ (pack setting metadata_underscores)', () => {
  it("are refused by default, on every endpoint that takes metadata and on the card charge's quick path", async () => {
    const sb = await sandbox()
    for (const [name, path, body] of REQUESTS) {
      const res = await sb.call('POST', path, body({ client_id: 'qwerty' }))
      expect([res.status, res.body.data], name).toEqual([422, fieldMessages({ metadata: KEY_RULE })])
    }
    const card = await sb.charge(cardPayload('4084127883172787', { metadata: { client_id: 'qwerty' } }))
    expect([card.status, card.body.data]).toEqual([422, fieldMessages({ metadata: KEY_RULE })])
  })

  it('are taken with the setting: the card charge a public client ran against the live test environment, and every other endpoint', async () => {
    const sb = await sandbox()
    await takeUnderscores(sb)
    // GA-PY's test-environment card charge: metadata {"client_id": "qwerty"}, `Card charged successfully`
    const payload = cardPayload('4084127883172787', { metadata: { client_id: 'qwerty' } })
    const card = await sb.charge(payload)
    expect([card.status, card.body.message, card.body.data.status]).toEqual([200, 'Card charged successfully', 'success'])
    // kept as sent: its webhook carries it (the charge query shows no metadata, docs/behaviour.md#card-outcomes-and-query)
    const [event] = (await sb.call('GET', `/_sandbox/events?reference=${payload.reference}`)).body.data
    expect(event.data.metadata).toEqual({ client_id: 'qwerty' })
    // the payload the quick path does not take (a field it does not know) goes through zod, with the same rule
    const slow = await sb.charge(cardPayload('4084127883172787', { metadata: { client_id: 'qwerty' }, extra: 1 }))
    expect(slow.status).toBe(200)
    for (const [name, path, body] of REQUESTS) {
      const res = await sb.call('POST', path, body({ client_id: 'qwerty', 'order-id': '42' }))
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200)
    }
  })

  it('keeps every other metadata rule, and answers its error beside the other fields', async () => {
    const sb = await sandbox()
    await takeUnderscores(sb)
    const bad: [unknown, string][] = [
      [{}, 'must not be an empty object'],
      [{ a_1: 1, a_2: 2, a_3: 3, a_4: 4, a_5: 5, a_6: 6 }, 'must have at most 5 keys'],
      [{ a_very_long_metadata_key: 1 }, 'keys must be at most 20 characters'],
      [{ 'client id': 1 }, KEY_RULE],
      [{ client_id: 'x', 'order.id': 'y' }, KEY_RULE],
      ['client_id', 'must be a record'],
    ]
    for (const [metadata, message] of bad) {
      for (const [name, path, body] of REQUESTS) {
        const res = await sb.call('POST', path, body(metadata))
        expect([res.status, res.body.data], `${name} ${JSON.stringify(metadata)}`).toEqual([422, fieldMessages({ metadata: message })])
      }
      const card = await sb.charge(cardPayload('4084127883172787', { metadata }))
      expect([card.status, card.body.data]).toEqual([422, fieldMessages({ metadata: message })])
    }
    const both = await sb.call('POST', `${M}/charges/initialize`, { reference: ref('co'), amount: 0, currency: 'NGN', customer: { email: 'a@b.co' }, metadata: { 'a b': 1 } })
    expect(both.body.data).toEqual(fieldMessages({ amount: 'must be greater than 0', metadata: KEY_RULE }))
    // without metadata, and with null, the schema decides alone as before
    expect((await sb.call('POST', `${M}/charges/initialize`, { reference: ref('co'), amount: 10, currency: 'NGN', customer: { email: 'a@b.co' } })).status).toBe(200)
  })

  it('is the namespace\'s own: another namespace keeps the default rule', async () => {
    const sb = await sandbox()
    await takeUnderscores(sb)
    const other = await sb.call('POST', `${M}/charges/initialize`, REQUESTS[0][2]({ client_id: 'x' }), { key: 'sk_test_other_ns' })
    expect([other.status, other.body.data]).toEqual([422, fieldMessages({ metadata: KEY_RULE })])
  })
})

import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { LIVE_ANSWERS } from '../src/http/live-profile.js'
import { cardPayload, makeSandbox, type TestSandbox } from './helpers/sandbox.js'

/**
 * The live profile (docs/behaviour.md#live-profile, CONTRACT 15): `--profile live` or a pack's `profile:
 * live` answers as the live service was recorded where SPEC.md says otherwise, and changes nothing
 * else; the table of 0.11 lists every row of LIVE_ANSWERS.
 */

const open: TestSandbox[] = []
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close()
})
async function sandbox(input: Parameters<typeof makeSandbox>[0] = {}): Promise<TestSandbox> {
  const sb = await makeSandbox(input)
  open.push(sb)
  return sb
}

/** a bank transfer missing its amount and customer: a validation refusal with two fields */
const BAD_TRANSFER = { reference: 'live-profile-0001', currency: 'NGN' }
const LIVE_TEXT = 'One or more fields are invalid. Please fix them and try again.'

describe('the live profile', () => {
  it('answers a validation refusal as recorded, field messages twice, where the default answers as SPEC.md', async () => {
    const plain = await sandbox()
    const live = await sandbox({ profile: 'live' })
    const a = await plain.call('POST', '/merchant/api/v1/charges/bank-transfer', BAD_TRANSFER)
    const b = await live.call('POST', '/merchant/api/v1/charges/bank-transfer', BAD_TRANSFER)
    expect(a.status).toBe(422)
    expect(b.status).toBe(422)
    expect(a.body.message).toBe('Invalid request data')
    expect(b.body.message).toBe(LIVE_TEXT)
    expect(Object.keys(b.body)).toEqual(Object.keys(a.body))
    expect(Object.keys(b.body.data)).toEqual(Object.keys(a.body.data))
    for (const [field, v] of Object.entries(a.body.data as Record<string, { message: string }>)) {
      expect(b.body.data[field]).toEqual({ message: v.message, customErrorMessage: v.message })
    }
    // the journal keeps the answer as sent
    const journal = await live.call('GET', '/_sandbox/requests?path=/merchant/api/v1/charges/bank-transfer')
    expect(JSON.stringify(journal.body.data.at(-1))).toContain(LIVE_TEXT)
  })

  it('patches the fields of data a row names, where the fields it matches hold: a PIN card charge, an OTP one, a 3DS one left alone', async () => {
    const plain = await sandbox({ seed: 3 })
    const live = await sandbox({ seed: 3, profile: 'live' })
    const pin = cardPayload('5188513618552975', { reference: 'live-pin-0001' })
    const a = await plain.charge(pin)
    const b = await live.charge(pin)
    expect(a.body.data).toMatchObject({ auth_model: 'PIN', status: 'processing', authorization: { required_fields: ['pin'] } })
    expect(b.body.data).toMatchObject({ auth_model: 'PIN', status: 'pending' })
    expect(b.body.data).not.toHaveProperty('authorization')
    // every other field as the default gives it, in its order
    const { status: _s, authorization: _a, ...rest } = a.body.data
    const { status: _t, ...liveRest } = b.body.data
    expect(liveRest).toEqual(rest)
    expect(Object.keys(b.body.data)).toEqual(Object.keys(a.body.data).filter((k) => k !== 'authorization'))
    // a 3DS charge keeps its authorization (its redirect): no row names it
    const threeDs = cardPayload('4562543755474674', { reference: 'live-3ds-0001' })
    const c = await plain.charge(threeDs)
    const d = await live.charge(threeDs)
    expect(d.body).toEqual(c.body)
  })

  it("answers the mobile-money step calls and the direct-debit read and debit as the collection's samples, every other field as the default", async () => {
    const plain = await sandbox({ seed: 5 })
    const live = await sandbox({ seed: 5, profile: 'live' })
    const MM = '/merchant/api/v1/charges/mobile-money'
    const charge = { reference: 'live-mm-00001', amount: 70, currency: 'GHS', customer: { name: 'John Doe', email: 'john@example.com' }, mobile_money: { number: '233240000000' } }
    const [a, b] = [await plain.call('POST', MM, charge), await live.call('POST', MM, charge)]
    const tx = a.body.data.transaction_reference
    expect(b.body.data.transaction_reference).toBe(tx)
    const steps = [
      [`${MM}/authorize`, { reference: tx, token: '123455' }, 409],
      [`${MM}/authorize`, { reference: tx, token: '123456' }, 200],
      [`${MM}/sandbox/authorize-stk`, { reference: tx, pin: '1234' }, 200],
    ] as const
    for (const [path, body, status] of steps) {
      const d = await plain.call('POST', path, body)
      const l = await live.call('POST', path, body)
      expect([d.status, l.status]).toEqual([status, status])
      const { code: _c, ...envelope } = d.body
      const { narration: _n, customer: _u, ...rest } = d.body.data
      expect(d.body.data).toMatchObject({ narration: '', customer: { name: 'John Doe' }, amount: '70.00' })
      expect(l.body).toEqual({ ...envelope, data: rest })
    }

    const DD = '/merchant/api/v1/direct-debit/authorizations/AUTH-SANDBOX-ACTIVE'
    const [getA, getB] = [await plain.call('GET', DD), await live.call('GET', DD)]
    expect(getA.body).toMatchObject({ message: 'success', data: { amount: 500000 } })
    expect(getB.body).toEqual({ ...getA.body, message: 'Direct debit authorization retrieved successfully', data: { ...getA.body.data, amount: '500000.00' } })
    const debit = { amount: 100, narration: 'test', currency: 'NGN', reference: 'live-debit-0001' }
    const [debA, debB] = [await plain.call('POST', `${DD}/debits`, debit), await live.call('POST', `${DD}/debits`, debit)]
    expect(debA.body).toMatchObject({ message: 'success', data: { status: 'processing', interbank_transaction_id: expect.stringMatching(/^\d{30}$/) } })
    const { interbank_transaction_id: _i, ...debitRest } = debA.body.data
    expect(debB.body).toEqual({ ...debA.body, message: 'Variable authorization debited successfully', data: { ...debitRest, status: 'pending' } })
    // the record is the same under both: the query reads the debit processing
    const q = await live.call('GET', '/merchant/api/v1/charges/live-debit-0001')
    expect(q.body.data.status).toBe('processing')
  })

  it('changes nothing but the rows of the table: a success and a not-found are the same under both', async () => {
    const plain = await sandbox({ seed: 7 })
    const live = await sandbox({ seed: 7, profile: 'live' })
    for (const [method, path, body] of [
      ['GET', '/merchant/api/v1/balances', undefined],
      ['GET', '/merchant/api/v1/charges/no-such-reference', undefined],
      ['POST', '/merchant/api/v1/charges/bank-transfer', { reference: 'same-ref-0001', amount: 1000, currency: 'NGN', customer: { email: 'a@example.com' } }],
    ] as const) {
      const a = await plain.call(method, path, body)
      const b = await live.call(method, path, body)
      expect(b.status).toBe(a.status)
      expect(b.body).toEqual(a.body)
    }
  })

  it('holds for the namespace whose pack says profile: live, and only for it', async () => {
    const sb = await sandbox()
    const other = 'sk_test_live_profile_other'
    const added = await sb.call('POST', '/_sandbox/scenarios', { name: 'live answers', settings: { profile: 'live' } })
    expect(added.status, JSON.stringify(added.body)).toBe(200)
    expect((await sb.call('POST', '/merchant/api/v1/charges/bank-transfer', BAD_TRANSFER)).body.message).toBe(LIVE_TEXT)
    expect((await sb.call('POST', '/merchant/api/v1/charges/bank-transfer', BAD_TRANSFER, { key: other })).body.message).toBe('Invalid request data')
    const bad = await sb.call('POST', '/_sandbox/scenarios', { settings: { profile: 'recorded' } })
    expect(bad.status).toBe(422)
    expect(bad.body.data['settings.profile'].message).toContain('default')
  })

  it('lists every row of LIVE_ANSWERS in docs/behaviour.md#live-profile, in its order', () => {
    const text = readFileSync('docs/behaviour.md', 'utf8')
    const table = text.slice(text.indexOf('<!-- live-answers'), text.indexOf('<!-- /live-answers -->'))
    const rows = table.split('\n').filter((l) => l.startsWith('|')).slice(2)
    expect(rows).toHaveLength(LIVE_ANSWERS.length)
    LIVE_ANSWERS.forEach((a, i) => {
      if (a.live.message) expect(rows[i]).toContain(a.live.message)
      if (a.when.message) expect(rows[i]).toContain(a.when.message)
      if (a.live.status) expect(rows[i]).toContain(String(a.live.status))
      if (a.route) expect(rows[i]).toContain(a.route.split(' ')[1].replace(/^\/merchant\/api\/v1/, ''))
    })
  })
})

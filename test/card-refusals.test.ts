import { createCipheriv, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ENC_KEY, cardPayload, makeSandbox, ref, type TestSandbox } from './helpers/sandbox.js'

/**
 * Every docs/api.md 7.2 refusal that applies to card charges (docs/behaviour.md#keys-and-namespaces, docs/behaviour.md#http, docs/behaviour.md#card-charges), and in each case
 * that the refusal stored nothing: no charge under the payload's reference, no new event, and
 * (for authorize) the charge unchanged.
 */

const CHARGE = '/merchant/api/v1/charges/card'
const AUTHORIZE = `${CHARGE}/authorize`
const query = (reference: string) => `/merchant/api/v1/charges/${encodeURIComponent(reference)}`
const DECRYPT_FAILED = 'Unable to decrypt charge data, please check encryption and try again'

let sb: TestSandbox
beforeAll(async () => {
  sb = await makeSandbox()
})
afterAll(() => sb.close())

type Payload = ReturnType<typeof cardPayload>

async function eventCount(key?: string): Promise<number> {
  const res = await sb.call('GET', '/_sandbox/events', undefined, { key })
  expect(res.status).toBe(200)
  return res.body.data.length
}

/** Runs `act`, then checks the charge query for `reference` is 404 and no event was added. */
async function expectNothingStored(reference: string, act: () => Promise<void>, key?: string) {
  const before = await eventCount(key)
  await act()
  const q = await sb.call('GET', query(reference), undefined, { key })
  expect(q.status).toBe(404)
  expect(q.body).toEqual({ status: false, message: 'Charge not found', data: null })
  expect(await eventCount(key)).toBe(before)
}

/** Runs `act` and checks that the charge query of `reference` and the events are unchanged. */
async function expectUnchanged(reference: string, act: () => Promise<void>) {
  const before = await sb.call('GET', query(reference))
  expect(before.status).toBe(200)
  const events = await eventCount()
  await act()
  expect(await sb.call('GET', query(reference))).toEqual(before)
  expect(await eventCount()).toBe(events)
}

/** authorize with `authorization` is refused with `status`, `message` and no data, and changes nothing. */
async function authorizeRefused(reference: string, tx: string, authorization: unknown, status: number, message: string) {
  await expectUnchanged(reference, async () => {
    const res = await authorize(tx, authorization)
    expect(res.status).toBe(status)
    expect(res.body).toEqual({ status: false, message, data: null })
  })
}

/** A charge of `payload` with `key` is refused 422 for the card's expiry, and stores nothing. */
async function refusedAsExpired(payload: { reference: string }, key: string) {
  await expectNothingStored(
    payload.reference,
    async () => {
      const res = await sb.charge(payload, { key })
      expect(res.status).toBe(422)
      expect(res.body.message).toBe('Invalid request data')
      expect(Object.keys(res.body.data).some((k) => k.startsWith('card.expiry'))).toBe(true)
    },
    key,
  )
}

/** A new charge of card `number` under `reference` is refused 409 Duplicate payment reference, and changes nothing. */
async function refusedAsDuplicate(reference: string, number: string) {
  await expectUnchanged(reference, async () => {
    const res = await sb.charge(cardPayload(number, { reference }))
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ status: false, message: 'Duplicate payment reference', data: null })
  })
}

function expectInvalid(res: { status: number; body: any; headers?: Headers }, field: string) {
  expect(res.status).toBe(422)
  expect(res.body.status).toBe(false)
  expect(res.body.error).toBe('validation_error')
  expect(res.body.message).toBe('Invalid request data')
  expect(res.body.data).not.toBeNull()
  expect(Object.keys(res.body.data)).toContain(field)
  expect(typeof res.body.data[field].message).toBe('string')
  expect(res.body.data[field].message.startsWith(`${field} `)).toBe(true)
}

const authorize = (transaction_reference: unknown, authorization: unknown) =>
  sb.call('POST', AUTHORIZE, { transaction_reference, authorization })

/** Charges `number` and walks its steps up to (not through) the one named `until`. */
async function pendingAt(number: string, answers: Record<string, unknown>[] = []) {
  const payload = cardPayload(number)
  const res = await sb.charge(payload)
  expect(res.status).toBe(200)
  const tx: string = res.body.data.transaction_reference
  for (const a of answers) expect((await authorize(tx, a)).status).toBe(200)
  return { payload, tx }
}

describe('Invalid request data on the charge', () => {
  const mutate = (f: (p: any) => void): Payload => {
    const p: any = cardPayload('4084127883172787')
    f(p)
    return p
  }
  const cases: [string, string, (p: any) => void][] = [
    ['card.expiry_month is one digit', 'card.expiry_month', (p) => (p.card.expiry_month = '9')],
    ['card.expiry_month is 13', 'card.expiry_month', (p) => (p.card.expiry_month = '13')],
    ['card.expiry_month is 00', 'card.expiry_month', (p) => (p.card.expiry_month = '00')],
    ['card.expiry_month is missing', 'card.expiry_month', (p) => delete p.card.expiry_month],
    ['card.expiry_year has 3 digits', 'card.expiry_year', (p) => (p.card.expiry_year = '203')],
    ['card.cvv has 2 digits', 'card.cvv', (p) => (p.card.cvv = '12')],
    ['card.cvv has 5 digits', 'card.cvv', (p) => (p.card.cvv = '12345')],
    ['card.cvv has letters', 'card.cvv', (p) => (p.card.cvv = '12a')],
    ['card.cvv is missing', 'card.cvv', (p) => delete p.card.cvv],
    ['card.cvv is a number', 'card.cvv', (p) => (p.card.cvv = 123)],
    ['card.number is not Luhn-valid', 'card.number', (p) => (p.card.number = '4084127883172788')],
    ['card.number is not Luhn-valid (mastercard)', 'card.number', (p) => (p.card.number = '5555555555554445')],
    ['card.number holds dashes', 'card.number', (p) => (p.card.number = '4084-1278-8317-2787')],
    ['card.number is too short', 'card.number', (p) => (p.card.number = '40841278')],
    ['card.number is missing', 'card.number', (p) => delete p.card.number],
    ['card.pin is not 4 digits', 'card.pin', (p) => (p.card.pin = '12')],
    ['card is missing', 'card', (p) => delete p.card],
    ['customer.email is not an e-mail address', 'customer.email', (p) => (p.customer.email = 'not-an-email')],
    ['customer.email is missing', 'customer.email', (p) => delete p.customer.email],
    ['customer is missing', 'customer', (p) => delete p.customer],
    ['reference is under 8 characters', 'reference', (p) => (p.reference = 'short12')],
    ['reference is missing', 'reference', (p) => delete p.reference],
    ['amount has 3 decimals', 'amount', (p) => (p.amount = 1000.123)],
    ['amount is zero', 'amount', (p) => (p.amount = 0)],
    ['amount is negative', 'amount', (p) => (p.amount = -100)],
    ['amount is a string', 'amount', (p) => (p.amount = '1000')],
    ['amount is missing', 'amount', (p) => delete p.amount],
    ['currency is USD', 'currency', (p) => (p.currency = 'USD')],
    ['currency is lowercase ngn', 'currency', (p) => (p.currency = 'ngn')],
    ['currency is missing', 'currency', (p) => delete p.currency],
    ['metadata is an empty object', 'metadata', (p) => (p.metadata = {})],
    ['metadata has 6 keys', 'metadata', (p) => (p.metadata = { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' })],
    ['a metadata key is over 20 characters', 'metadata', (p) => (p.metadata = { abcdefghijklmnopqrstu: 'x' })],
    ['a metadata key holds _', 'metadata', (p) => (p.metadata = { order_id: '1' })],
    ['a metadata key holds a space', 'metadata', (p) => (p.metadata = { 'order id': '1' })],
    ['a metadata value nests 11 levels', 'metadata', (p) => (p.metadata = { deep: JSON.parse('['.repeat(11) + ']'.repeat(11)) })],
    ['redirect_url is not a URL', 'redirect_url', (p) => (p.redirect_url = 'not a url')],
    ['the card expired years ago', 'card.expiry_year', (p) => ((p.card.expiry_month = '01'), (p.card.expiry_year = '2020'))],
    ['the card expired last year', 'card.expiry_year', (p) => ((p.card.expiry_month = '12'), (p.card.expiry_year = String(new Date().getUTCFullYear() - 1).slice(-2)))],
  ]

  it.each(cases)('refuses a charge whose %s, keyed by %s, storing nothing', async (_name, field, f) => {
    const payload = mutate(f)
    const reference = typeof payload.reference === 'string' && payload.reference.length ? payload.reference : ref('missing')
    await expectNothingStored(reference, async () => {
      expectInvalid(await sb.charge(payload), field)
    })
  })

  it('accepts the limits themselves: 8-character reference, 2 decimals, 5 metadata keys of 20 characters, a value nesting 10 levels', async () => {
    const reference = `r${Date.now().toString(36)}`.slice(0, 8).padEnd(8, '0')
    const res = await sb.charge(
      cardPayload('4084127883172787', {
        reference,
        amount: 1000.55,
        metadata: { 'abcdefghijklmnopqrs-': '1', B: '2', c3: '3', 'd-4': '4', E5e: JSON.parse('['.repeat(10) + ']'.repeat(10)) },
      }),
    )
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ status: 'success', amount: 1000.55, payment_reference: reference })
  })

  it('keys the error of every bad field by its dotted path at once', async () => {
    const payload: any = cardPayload('4084127883172787', { currency: 'USD', amount: 0 }, { cvv: '1', expiry_month: '99' })
    await expectNothingStored(payload.reference, async () => {
      const res = await sb.charge(payload)
      expect(res.status).toBe(422)
      expect(res.body.message).toBe('Invalid request data')
      expect(Object.keys(res.body.data).sort()).toEqual(['amount', 'card.cvv', 'card.expiry_month', 'currency'])
    })
  })

  it('refuses a card that expired last month by the namespace clock, and accepts one expiring this month', async () => {
    const key = 'sk_test_expiry'
    const clock = await sb.call('GET', '/_sandbox/clock', undefined, { key })
    const now = new Date(clock.body.data.now)
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
    const mm = (d: Date) => String(d.getUTCMonth() + 1).padStart(2, '0')
    const yy = (d: Date) => String(d.getUTCFullYear()).slice(-2)
    const expired = cardPayload('4084127883172787', {}, { expiry_month: mm(last), expiry_year: yy(last) })
    await refusedAsExpired(expired, key)
    const current = cardPayload('4084127883172787', {}, { expiry_month: mm(now), expiry_year: String(now.getUTCFullYear()) })
    const ok = await sb.charge(current, { key })
    expect(ok.status).toBe(200)
    expect(ok.body.data.status).toBe('success')
  })

  it('refuses a card that the namespace clock, moved past its expiry, sees as expired', async () => {
    const key = 'sk_test_expiry_future'
    const moved = await sb.call('POST', '/_sandbox/clock/advance', { to: '2030-10-01T00:00:00.000Z' }, { key })
    expect(moved.status).toBe(200)
    const payload = cardPayload('4084127883172787') // 09/30
    await refusedAsExpired(payload, key)
    // the default namespace's clock was not moved: the same card is fine there
    expect((await sb.charge(cardPayload('4084127883172787'))).body.data.status).toBe('success')
  })

  it('refuses charge_data that is missing, empty or not a string', async () => {
    for (const body of [{}, { charge_data: '' }, { charge_data: 42 }, { charge_data: null }]) {
      const before = await eventCount()
      const res = await sb.call('POST', CHARGE, body)
      expectInvalid(res, 'charge_data')
      expect(await eventCount()).toBe(before)
    }
  })

  it('refuses a malformed JSON body with 400 Invalid request data', async () => {
    const before = await eventCount()
    for (const path of [CHARGE, AUTHORIZE, `${CHARGE}/resend-otp`]) {
      const res = await sb.call('POST', path, undefined, { raw: '{"charge_data": "abc"' })
      expect(res.status).toBe(422)
      expect(res.headers.get('content-type')).toMatch(/application\/json/)
      expect(res.body.status).toBe(false)
      expect(res.body.message).toBe('Invalid request data')
      expect(res.body.data).toEqual(expect.any(Object))
    }
    for (const raw of ['[]', '"text"', '']) {
      const res = await sb.call('POST', CHARGE, undefined, { raw })
      expect(res.status).toBe(422)
      expect(res.body.message).toBe('Invalid request data')
    }
    expect(await eventCount()).toBe(before)
  })
})

describe('Card not supported', () => {
  it.each([
    ['American Express', '378282246310005'],
    ['Discover', '6011111111111117'],
    ['JCB', '3530111333300000'],
    ['Diners Club', '30569309025904'],
  ])('refuses a %s card (%s) with 400 Card not supported, storing nothing', async (_scheme, number) => {
    const payload = cardPayload(number, {}, { cvv: number.startsWith('37') ? '1234' : '123' })
    await expectNothingStored(payload.reference, async () => {
      const res = await sb.charge(payload)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ status: false, message: 'Card not supported', data: null })
    })
  })
})

describe('Duplicate payment reference', () => {
  it('refuses a reference already used by a successful charge', async () => {
    const payload = cardPayload('4084127883172787')
    const first = await sb.charge(payload)
    expect(first.body.data.status).toBe('success')
    await refusedAsDuplicate(payload.reference, '5188513618552975')
    // the reference still finds the first charge: the one its transaction reference finds
    const q = await sb.call('GET', query(payload.reference))
    expect(q.body).toEqual((await sb.call('GET', query(first.body.data.transaction_reference))).body)
  })

  it('refuses a reference already used by a failed charge', async () => {
    const payload = cardPayload('506066506066506067', {}, { cvv: '408' })
    const first = await sb.charge(payload)
    expect(first.body.data.status).toBe('failed')
    await refusedAsDuplicate(payload.reference, '4084127883172787')
    const q = await sb.call('GET', query(payload.reference))
    expect(q.body.data.status).toBe('failed')
  })

  it('refuses a reference whose charge is still processing', async () => {
    const { payload } = await pendingAt('5188513618552975')
    await expectUnchanged(payload.reference, async () => {
      const res = await sb.charge(cardPayload('5188513618552975', { reference: payload.reference }))
      expect(res.status).toBe(409)
      expect(res.body.message).toBe('Duplicate payment reference')
    })
  })

  it('lets a reference refused for invalid data be used afterwards', async () => {
    const payload = cardPayload('4084127883172787')
    expectInvalid(await sb.charge({ ...payload, currency: 'USD' }), 'currency')
    const res = await sb.charge(payload)
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('success')
  })
})

describe('Unable to decrypt charge data', () => {
  const valid = (p: Payload) => encryptChargeData(p, ENC_KEY)
  const flip = (hex: string, i: number) => hex.slice(0, i) + (hex[i] === '0' ? '1' : '0') + hex.slice(i + 1)

  /** AES-256-GCM of arbitrary text with the namespace's key (a correct envelope of non-JSON). */
  function encryptText(text: string, key = ENC_KEY): string {
    const iv = randomBytes(16)
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'utf8'), iv)
    const ct = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()])
    return `${iv.toString('hex')}:${ct.toString('hex')}:${cipher.getAuthTag().toString('hex')}`
  }

  const cases: [string, (p: Payload) => string][] = [
    ['it was encrypted with another key', (p) => encryptChargeData(p, 'another-encryption-key-123456789')],
    ['it is truncated (tag cut short)', (p) => valid(p).slice(0, -6)],
    ['it is truncated (last part missing)', (p) => valid(p).split(':').slice(0, 2).join(':')],
    ['its ciphertext lost its last byte', (p) => {
      const [iv, ct, tag] = valid(p).split(':')
      return `${iv}:${ct.slice(0, -2)}:${tag}`
    }],
    ['it holds a character that is not hex', (p) => {
      const [iv, ct, tag] = valid(p).split(':')
      return `${iv}:${ct.slice(0, 10)}zz${ct.slice(12)}:${tag}`
    }],
    ['a hex digit of its tag is flipped', (p) => {
      const [iv, ct, tag] = valid(p).split(':')
      return `${iv}:${ct}:${flip(tag, 7)}`
    }],
    ['a hex digit of its IV is flipped', (p) => {
      const [iv, ct, tag] = valid(p).split(':')
      return `${flip(iv, 3)}:${ct}:${tag}`
    }],
    ['its IV is 12 bytes instead of 16', (p) => {
      const [iv, ct, tag] = valid(p).split(':')
      return `${iv.slice(0, 24)}:${ct}:${tag}`
    }],
    ['it has four parts', (p) => `${valid(p)}:00`],
    ['its parts are in the wrong order', (p) => {
      const [iv, ct, tag] = valid(p).split(':')
      return `${iv}:${tag}:${ct}`
    }],
    ['it is valid ciphertext of text that is not JSON', () => encryptText('this is not JSON {')],
    ['it is plain JSON, not encrypted', (p) => JSON.stringify(p)],
    ['it is base64 instead of hex', (p) => Buffer.from(JSON.stringify(p)).toString('base64')],
  ]

  it.each(cases)('refuses charge_data when %s, storing nothing', async (_name, make) => {
    const payload = cardPayload('4084127883172787')
    await expectNothingStored(payload.reference, async () => {
      const res = await sb.call('POST', CHARGE, { charge_data: make(payload) })
      expect(res.status).toBe(400)
      // the collection's sample of this refusal, keys in its order
      expect(JSON.stringify(res.body)).toBe(JSON.stringify({ status: false, code: null, message: DECRYPT_FAILED, data: {} }))
    })
  })

  it('accepts the same payload when correctly encrypted (the cases above differ only in charge_data)', async () => {
    const payload = cardPayload('4084127883172787')
    const res = await sb.call('POST', CHARGE, { charge_data: valid(payload) })
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('success')
  })

  it('decrypts with the key of the namespace, not another one', async () => {
    // a namespace created on the fly uses the default encryption key, so another key fails there too
    const payload = cardPayload('4084127883172787')
    await expectNothingStored(
      payload.reference,
      async () => {
        const res = await sb.charge(payload, { key: 'sk_test_other_ns', encKey: 'ffffffffffffffffffffffffffffffff' })
        expect(res.status).toBe(400)
        expect(res.body.message).toBe(DECRYPT_FAILED)
      },
      'sk_test_other_ns',
    )
  })
})

describe('authorize refusals', () => {
  it('answers 404 Transaction not found for an unknown transaction reference', async () => {
    const before = await eventCount()
    const res = await authorize('KPY-CA-NOSUCHTHING00', { pin: '1234' })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ status: false, message: 'Transaction not found', data: null })
    const q = await sb.call('GET', query('KPY-CA-NOSUCHTHING00'))
    expect(q.status).toBe(404)
    expect(q.body.message).toBe('Charge not found')
    expect(await eventCount()).toBe(before)
  })

  it('refuses authorize after success with 409 Payment has already been completed', async () => {
    const { payload, tx } = await pendingAt('5188513618552975', [{ pin: '1234' }])
    expect((await sb.call('GET', query(payload.reference))).body.data.status).toBe('success')
    await authorizeRefused(payload.reference, tx, { pin: '1234' }, 409, 'Payment has already been completed')
  })

  it('refuses authorize on a no-auth success with 409 Payment has already been completed', async () => {
    const { payload, tx } = await pendingAt('4084127883172787')
    await authorizeRefused(payload.reference, tx, { otp: '123456' }, 409, 'Payment has already been completed')
  })

  it('refuses authorize after failure with 409 Transaction has already been completed', async () => {
    const { payload, tx } = await pendingAt('5188513618552975', [{ pin: '0000' }])
    expect((await sb.call('GET', query(payload.reference))).body.data.status).toBe('failed')
    await authorizeRefused(payload.reference, tx, { pin: '1234' }, 409, 'Transaction has already been completed')
  })

  it('refuses authorize on a card failed at once with 409 Transaction has already been completed', async () => {
    const payload = cardPayload('506066506066506067', {}, { cvv: '408' })
    const tx = (await sb.charge(payload)).body.data.transaction_reference
    await authorizeRefused(payload.reference, tx, { pin: '1234' }, 409, 'Transaction has already been completed')
  })

  it('refuses authorize while the 3DS step is pending with Authorization is not required for this transaction', async () => {
    const { payload, tx } = await pendingAt('4562543755474674')
    await expectUnchanged(payload.reference, async () => {
      for (const a of [{ pin: '1234' }, { otp: '123456' }]) {
        const res = await authorize(tx, a)
        expect(res.status).toBe(400)
        expect(res.body).toEqual({ status: false, message: 'Authorization is not required for this transaction', data: null })
      }
    })
    // the 3DS step is still there to complete
    const q = await sb.call('GET', query(payload.reference))
    expect(q.body.data.status).toBe('processing')
  })

  it('refuses authorize on the processing-forever card with Authorization is not required for this transaction', async () => {
    const { payload, tx } = await pendingAt('4084080001800005')
    await authorizeRefused(payload.reference, tx, { pin: '1234' }, 400, 'Authorization is not required for this transaction')
  })

  it('refuses an authorization holding two fields ({pin, otp}) with Invalid request data', async () => {
    const { payload, tx } = await pendingAt('5442056106072595')
    await expectUnchanged(payload.reference, async () => {
      expectInvalid(await authorize(tx, { pin: '1234', otp: '123456' }), 'authorization')
    })
  })

  it('refuses an empty authorization and a missing one with Invalid request data', async () => {
    const { payload, tx } = await pendingAt('5188513618552975')
    await expectUnchanged(payload.reference, async () => {
      expectInvalid(await authorize(tx, {}), 'authorization')
      expectInvalid(await sb.call('POST', AUTHORIZE, { transaction_reference: tx }), 'authorization')
      expectInvalid(await sb.call('POST', AUTHORIZE, { authorization: { pin: '1234' } }), 'transaction_reference')
    })
  })

  it.each([
    ['an OTP at the PIN step', '5188513618552975', [], { otp: '123456' }, 'authorization.pin'],
    ['a phone at the PIN step', '5188513618552975', [], { phone: '2348012345678' }, 'authorization.pin'],
    ['a PIN at the OTP step', '5442056106072595', [{ pin: '1234' }], { pin: '1234' }, 'authorization.otp'],
    ['a PIN at the AVS step', '5384063928932071', [{ pin: '1234' }], { pin: '1234' }, 'authorization.avs'],
    ['an OTP at the CARD_ENROLL step', '5061460410120223210', [{ pin: '1234' }], { otp: '123456' }, 'authorization.phone'],
  ] as [string, string, Record<string, unknown>[], Record<string, unknown>, string][])(
    'refuses %s with Invalid request data, leaving the charge at its step',
    async (_name, number, answers, wrong, field) => {
      const { payload, tx } = await pendingAt(number, answers)
      await expectUnchanged(payload.reference, async () => {
        expectInvalid(await authorize(tx, wrong), field)
      })
    },
  )

  it('refuses malformed field values in the authorization with Invalid request data', async () => {
    const { payload, tx } = await pendingAt('5384063928932071', [{ pin: '1234' }])
    await expectUnchanged(payload.reference, async () => {
      expectInvalid(await authorize(tx, { avs: { state: 'Lagos', city: 'Ikeja', country: 'NG', address: '1 Allen Avenue' } }), 'authorization.avs.zip_code')
      expectInvalid(await authorize(tx, { pin: 'abcd' }), 'authorization.pin')
      expectInvalid(await authorize(tx, { otp: 123456 }), 'authorization.otp')
    })
  })

  it('still accepts the right answer after the refusals above (the step was kept)', async () => {
    const { payload, tx } = await pendingAt('5384063928932071', [{ pin: '1234' }])
    expectInvalid(await authorize(tx, { pin: '1234' }), 'authorization.avs')
    const res = await authorize(tx, { avs: { state: 'Lagos', city: 'Ikeja', country: 'NG', address: '1 Allen Avenue', zip_code: '100001' } })
    expect(res.body.data.status).toBe('success')
    expect((await sb.call('GET', query(payload.reference))).body.data.status).toBe('success')
  })
})

describe('keys and routes', () => {
  it.each([
    ['no Authorization header', null, 'Invalid authorization key'],
    ['a public key', 'pk_test_sandbox', 'Invalid authorization key'],
    ['a key of another shape', 'sandbox', 'Invalid authorization key'],
    ['an empty test key', 'sk_test_', 'Invalid authorization key'],
  ] as [string, string | null, string][])('refuses a charge with %s: 401 %s, storing nothing', async (_name, key, message) => {
    const payload = cardPayload('4084127883172787')
    await expectNothingStored(payload.reference, async () => {
      const res = await sb.call('POST', CHARGE, { charge_data: encryptChargeData(payload, ENC_KEY) }, { key })
      expect(res.status).toBe(401)
      expect(res.headers.get('content-type')).toMatch(/application\/json/)
      expect(res.body).toMatchObject({ status: false, message, data: { hint: expect.any(String) } })
    })
  })

  it('refuses a live key with 401 and a message saying live keys are never accepted, storing nothing', async () => {
    const payload = cardPayload('4084127883172787')
    await expectNothingStored(payload.reference, async () => {
      const res = await sb.call('POST', CHARGE, { charge_data: encryptChargeData(payload, ENC_KEY) }, { key: 'sk_live_x' })
      expect(res.status).toBe(401)
      expect(res.body.status).toBe(false)
      expect(res.body.message).toMatch(/live key/i)
      expect(res.body.message).not.toBe('Invalid authorization key')
      expect(res.body.data.hint).toMatch(/live secret key/)
    })
  })

  it('refuses authorize and the charge query without a valid key', async () => {
    const { payload, tx } = await pendingAt('5188513618552975')
    await expectUnchanged(payload.reference, async () => {
      for (const key of [null, 'pk_test_sandbox', 'sk_live_x']) {
        const a = await sb.call('POST', AUTHORIZE, { transaction_reference: tx, authorization: { pin: '1234' } }, { key })
        expect(a.status).toBe(401)
        expect(a.body.status).toBe(false)
        const q = await sb.call('GET', query(payload.reference), undefined, { key })
        expect(q.status).toBe(401)
        expect(Object.keys(q.body.data)).toEqual(['hint'])
      }
    })
  })

  it('answers an unknown route with a 404 JSON envelope', async () => {
    for (const [method, path, key] of [
      ['GET', '/merchant/api/v1/nothing-here', undefined],
      ['POST', `${CHARGE}/no-such-action`, undefined],
      ['GET', '/no-such-page', null],
    ] as [string, string, string | null | undefined][]) {
      const res = await sb.call(method, path, method === 'POST' ? {} : undefined, { key })
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toMatch(/application\/json/)
      expect(res.body).toEqual({ status: false, message: 'Route not found', data: null })
    }
  })

  it('answers a charge query for an unknown reference with 404 Charge not found', async () => {
    const res = await sb.call('GET', query(ref('unknown')))
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ status: false, message: 'Charge not found', data: null })
  })
})

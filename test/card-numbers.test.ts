import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { deepFreeze } from '../src/store/frozen.js'
import { luhnValid } from '../src/store/card-numbers.js'
import { EPOCH_MS, NUMBER, STRING, maybe, shape } from '../src/store/validate.js'
import { openStore } from './helpers/sandbox.js'

/**
 * docs/behaviour.md#request-journal, docs/architecture.md "The store": the store masks a card number in every
 * string, key and number of a record it is written, whatever the collection, except the fields
 * its spec keeps as written and those it declares as numbers; in the record itself, so what the
 * writer still holds is what was stored.
 */

const PAN = '4539148803436467'
const MASKED = '453914******6467'
const HASH_LIKE = `ab${PAN}cd`

const spec = {
  name: 'things',
  fields: { amount: NUMBER, due: EPOCH_MS, hold: maybe(shape({ expires: EPOCH_MS })), ref: STRING },
  asWritten: ['ref', 'wallet.number', 'expect', 'lines.reference'],
}

describe('the store masks card numbers as it writes a record', () => {
  it('masks every other field, in place, and keeps the declared ones as written', async () => {
    const store = await openStore({ collections: [spec] })
    const record = {
      ref: PAN,
      amount: Number(PAN),
      due: Number(PAN),
      hold: { expires: Number(PAN), note: `card ${PAN.replace(/(\d{4})/g, '$1 ').trim()}` },
      wallet: { number: PAN, name: PAN },
      expect: { pin: HASH_LIKE },
      lines: [{ reference: PAN, text: PAN }],
      narration: `paid with ${PAN}`,
      metadata: { n: Number(PAN), [PAN]: 'key', deep: [[PAN]] },
    }
    const stored = store.col<typeof record>('ns', 'things').put('k', record)
    expect(stored).toBe(record)
    expect(record).toEqual({
      ref: PAN,
      amount: Number(PAN),
      due: Number(PAN),
      hold: { expires: Number(PAN), note: `card ${MASKED}` },
      wallet: { number: PAN, name: MASKED },
      expect: { pin: HASH_LIKE },
      lines: [{ reference: PAN, text: MASKED }],
      narration: `paid with ${MASKED}`,
      metadata: { n: MASKED, [MASKED]: 'key', deep: [[MASKED]] },
    })
    // what is stored is what the writer holds
    expect(JSON.parse(store.col('ns', 'things').json('k')!)).toEqual(record)
  })

  it('copies a frozen part it must change, and leaves a record with no card number as it is', async () => {
    const store = await openStore({ collections: [spec] })
    const shared = deepFreeze({ note: PAN })
    const stored = store.col<Record<string, unknown>>('ns', 'things').put('k', { ref: 'r', amount: 1, due: 0, shared })
    expect(stored.shared).toEqual({ note: MASKED })
    expect(shared).toEqual({ note: PAN })
    const clean = { ref: 'r', amount: 1, due: 0, text: 'order 2026-11-24T10:00:00.000Z, 12 items', list: [1, 2] }
    expect(JSON.stringify(store.col('ns', 'things').put('c', clean))).toBe(JSON.stringify({ ref: 'r', amount: 1, due: 0, text: 'order 2026-11-24T10:00:00.000Z, 12 items', list: [1, 2] }))
  })

  it('masks any Luhn-valid 12-19 digit number in free text however often a text comes back', async () => {
    const store = await openStore({ collections: [spec] })
    const col = store.col<Record<string, unknown>>('ns', 'things')
    let n = 0
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 19 }), fc.constantFrom('', ' ', '-'), (digits, sep) => {
        const pan = digits.join('')
        const text = `x ${digits.join(sep)} y`
        // the same text twice: remembered clean or not, it is masked each time
        for (let i = 0; i < 2; i++) {
          const stored = col.put(`k${n++}`, { ref: 'r', amount: 1, due: 0, text })
          const whole = String(stored.text).replace(/[ -]/g, '').includes(pan)
          // a number that is no card stays (with separators, groups of it may make one)
          if (luhnValid(pan)) expect(whole).toBe(false)
          else if (sep === '') expect(whole).toBe(true)
        }
      }),
    )
  })
})

describe('references that may hold a run of digits', () => {
  it("keeps a holder's document file references as written: KPY-FILE-<yyyymmddhhmm><20 characters> can hold a Luhn-valid run", async () => {
    const { ACCOUNT_HOLDERS_SPEC, UPLOAD_FILES_SPEC } = await import('../src/virtual-accounts/holders.js')
    const store = await openStore({ collections: [ACCOUNT_HOLDERS_SPEC, UPLOAD_FILES_SPEC] })
    // a minute's stamp followed by digits the random part drew: 202601010000 + 0004 makes a Luhn-valid 16-digit run
    const file = `KPY-FILE-2026010100000004${'x'.repeat(16)}`
    expect(luhnValid('2026010100000004')).toBe(true)
    const documents = { identification_front: file, identification_back: file, proof_of_address: file, selfie: file, source_of_inflow: file }
    const holder = { reference: 'KPY-AH-1', first_name: 'Ada', last_name: 'Obi', email: 'a@example.com', phone_number: '+2348000000000', status: 'pending', date_created: '2026-01-01T00:00:00.000Z', address: {}, documents, metadata: null }
    store.col('ns', ACCOUNT_HOLDERS_SPEC.name).put('KPY-AH-1', holder)
    // (the store masks in place: compare with the text, not with the object it was given)
    const kept = JSON.parse(store.col('ns', ACCOUNT_HOLDERS_SPEC.name).json('KPY-AH-1')!).documents
    expect(Object.values(kept)).toEqual(Array(5).fill(file))
  })
})

describe('the store masks a PIN, CVV or OTP by its name as it writes a record (src/store/secrets.ts)', () => {
  it('in any spelling, even where the spec keeps the field as written; a digest under its own name, a counter and a flag stay', async () => {
    const store = await openStore({ collections: [{ ...spec, asWritten: [...spec.asWritten, 'voucher.pin', 'PIN'] }] })
    const record = {
      ref: 'r', amount: 1, due: 0,
      voucher: { pin: '1168648096792943', serial: 'S1' },
      PIN: 1234,
      metadata: { voucher_pin: '5820', voucherPin: '5821', 'Card-PIN': '5822', pin_code: '5823', pinNumber: '5824', cvv2: '123', CVC: '456', otp: '123456', spin: 'x', pinned: 'kept', shipping: 'kept' },
      expect: { pin: 'a'.repeat(64) },
      digest: 'b'.repeat(64),
      otp_attempts_left: 3,
      can_resend_otp: true,
    }
    store.col<typeof record>('ns', 'things').put('k', record)
    expect(JSON.parse(store.col('ns', 'things').json('k')!)).toEqual({
      ref: 'r', amount: 1, due: 0,
      voucher: { pin: '********', serial: 'S1' },
      PIN: '***',
      metadata: { voucher_pin: '****', voucherPin: '****', 'Card-PIN': '****', pin_code: '****', pinNumber: '****', cvv2: '***', CVC: '***', otp: '******', spin: '*', pinned: 'kept', shipping: 'kept' },
      expect: { pin: 'a'.repeat(64) },
      digest: 'b'.repeat(64),
      otp_attempts_left: 3,
      can_resend_otp: true,
    })
  })
})

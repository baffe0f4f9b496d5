import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHECKS } from '../src/identity/service.js'
import { SECRET, makeSandbox, type TestSandbox, fieldMessages } from './helpers/sandbox.js'

/**
 * The Nigerian bank-account look-ups (premium and basic), their bank lists and the Kenyan phone
 * check as their pages spell them (docs/behaviour.md#identity-calls-and-modes, docs/behaviour.md#identity-checks, docs/behaviour.md#identity-bank-account-banks; SPEC-BEYOND-3 2.3, 2.4),
 * through the real app on both prefixes: the documented test values found, not found, a name that
 * does not match, a registry a pack marks unavailable, and each refusal field by field. The
 * expected answers are the pages' and the live recording's shapes, copied here by hand.
 */

const PREFIXES = ['/merchant/api/v1/identities', '/api/v1/identities'] as const
const PREMIUM = { id: '0123456789', bank_code: '000013', verification_consent: true }
const BASIC = { id: '0123456789', bank_code: '058', verification_consent: true }
const GTB_PREMIUM = { name: 'Guaranty Trust Bank', code: '000013' }

let sb: TestSandbox
beforeAll(async () => {
  sb = await makeSandbox()
})
afterAll(() => sb.close())

const post = (path: string, body: unknown, key = SECRET, prefix: string = PREFIXES[0]) => sb.call('POST', `${prefix}/${path}`, body, { key })
const checks = (key = SECRET) => sb.deps.store.col(key, CHECKS).size

function expectInvalid(res: { status: number; body: any }, fields: Record<string, string>) {
  expect(res.status, JSON.stringify(res.body)).toBe(422)
  expect(res.body).toMatchObject({ status: false, error: 'validation_error', message: 'Invalid request data' })
  expect(res.body.data).toEqual(fieldMessages(fields))
}

describe('POST identities/ng/bank-account (premium)', () => {
  it.each(PREFIXES)('the test account with a premium bank code answers the page\'s record, its fields in the page\'s order, on %s', async (prefix) => {
    const res = await post('ng/bank-account', { ...PREMIUM, validation: { first_name: 'john', last_name: 'doe', date_of_birth: '1990-04-15' } }, SECRET, prefix)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.message).toBe('Bank account verified successfully')
    expect(res.body.data).toEqual({
      reference: expect.stringMatching(/^VR-[A-Za-z0-9]{17}$/), id: '0123456789', id_type: 'ng_bank_account',
      first_name: 'JOHN', last_name: 'DOE', middle_name: 'MICHAEL', full_name: 'JOHN MICHAEL DOE', gender: 'male', date_of_birth: '1990-04-15',
      bvn: '22222222222', country_of_birth: 'Nigeria', country_of_issuance: 'Nigeria', expired_date: null,
      bank_details: GTB_PREMIUM, account_details: { number: '0123456789', name: 'JOHN MICHAEL DOE', type: 'SAVINGS', currency: 'NGN' },
      address: { city: 'Lagos', town: 'Ikeja', lga: 'Ikeja', state: 'Lagos', street: '12 Allen Avenue' }, adverse_media_report: null, aml_report: null,
      validation: { first_name: { value: 'john', match: true }, last_name: { value: 'doe', match: true }, date_of_birth: { value: '1990-04-15', match: true } },
      requested_by: 'API User',
    })
    expect(Object.keys(res.body.data)).toEqual([
      'reference', 'id', 'id_type', 'first_name', 'last_name', 'middle_name', 'full_name', 'gender', 'date_of_birth', 'bvn', 'country_of_birth', 'country_of_issuance',
      'expired_date', 'bank_details', 'account_details', 'address', 'adverse_media_report', 'aml_report', 'validation', 'requested_by',
    ])
    // the query finds it, with the bank it was asked at
    const query = await sb.call('GET', `${prefix}/verifications/${res.body.data.reference}`)
    expect(query.body.data).toMatchObject({ id_type: 'ng_bank_account', bank_details: GTB_PREMIUM, class: 'data_validation', status: 'found' })
  })

  it('another bank of the premium list is the bank answered; a name that differs does not match', async () => {
    const res = await post('ng/bank-account', { ...PREMIUM, bank_code: '044', validation: { first_name: 'John', last_name: 'Smith', date_of_birth: '1988-04-04' } })
    expect(res.status).toBe(200)
    expect(res.body.data.bank_details).toEqual({ name: 'Access Bank', code: '044' })
    expect(res.body.data.validation).toEqual({ first_name: { value: 'John', match: true }, last_name: { value: 'Smith', match: false }, date_of_birth: { value: '1988-04-04', match: false } })
  })

  it('an account nothing lists, or a code of the basic list, finds nothing: 404, kept', async () => {
    const before = checks()
    for (const body of [{ ...PREMIUM, id: '0000000000' }, { ...PREMIUM, bank_code: '058' }]) {
      const res = await post('ng/bank-account', body)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ status: false, message: 'Bank account data not found', data: {} })
    }
    expect(checks()).toBe(before + 2)
  })

  it('refusals, field by field, change nothing', async () => {
    const before = checks()
    expectInvalid(await post('ng/bank-account', { id: '0123456789', verification_consent: true }), { bank_code: 'is required' })
    expectInvalid(await post('ng/bank-account', { ...PREMIUM, bank_code: 13 }), { bank_code: 'must be a bank code: 3 to 6 letters or digits' })
    expectInvalid(await post('ng/bank-account', { ...PREMIUM, bank_code: '0000013' }), { bank_code: 'must be a bank code: 3 to 6 letters or digits' })
    expectInvalid(await post('ng/bank-account', { bank_code: '000013', verification_consent: true }), { id: 'is required' })
    expectInvalid(await post('ng/bank-account', { ...PREMIUM, id: '012345678' }), { id: 'must be a NUBAN account number: 10 digits' })
    expectInvalid(await post('ng/bank-account', { ...PREMIUM, validation: { first_name: 'John' } }), { 'validation.last_name': 'is required', 'validation.date_of_birth': 'is required' })
    const consent = await post('ng/bank-account', { ...PREMIUM, verification_consent: false })
    expect(consent.status).toBe(400)
    expect(checks()).toBe(before)
  })
})

describe('POST identities/ng/bank-account-basic', () => {
  it.each(PREFIXES)('the test account with a basic bank code answers the live recording\'s shape, a BA- reference, on %s', async (prefix) => {
    const res = await post('ng/bank-account-basic', BASIC, SECRET, prefix)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      status: true, message: 'Bank account verified successfully',
      data: {
        reference: expect.stringMatching(/^BA-[A-Za-z0-9]{17}$/), id: '0123456789', id_type: 'ng_bank_account_basic',
        bank_details: { name: 'Guaranty Trust Bank', code: '058' }, account_details: { number: '0123456789', name: 'JOHN MICHAEL DOE' }, requested_by: 'API User',
      },
    })
    // a BA- reference is a check like any other: the query and the history find it
    const query = await sb.call('GET', `${prefix}/verifications/${res.body.data.reference}`)
    expect(query.status).toBe(200)
    expect(query.body.data).toMatchObject({ reference: res.body.data.reference, identity_type: 'ng_bank_account_basic', country: 'ng', type: 'kyc', class: 'id_lookup', status: 'found' })
    const history = await sb.call('POST', `${prefix}/verifications`, { limit: 1 })
    expect(history.body.data.data[0]).toMatchObject({ reference: res.body.data.reference, full_name: 'JOHN MICHAEL DOE', identity_type_label: 'Bank account' })
  })

  it('is a lookup: validation is refused; a premium code finds nothing', async () => {
    expectInvalid(await post('ng/bank-account-basic', { ...BASIC, validation: { first_name: 'John' } }), { validation: 'is not offered for bank account (basic): lookup only' })
    const premium = await post('ng/bank-account-basic', { ...BASIC, bank_code: '000013' })
    expect(premium.status).toBe(404)
    expect(premium.body.message).toBe('Bank account data not found')
  })
})

describe('GET identities/ng/banks', () => {
  it.each(PREFIXES)('lists the banks of each look-up by type, on %s', async (prefix) => {
    const premium = await sb.call('GET', `${prefix}/ng/banks?type=premium`)
    expect(premium.status).toBe(200)
    expect(premium.body).toEqual({ status: true, message: 'Banks fetched successfully', data: [GTB_PREMIUM, { name: 'Access Bank', code: '044' }, { name: 'Sterling Bank', code: '000001' }] })
    const basic = await sb.call('GET', `${prefix}/ng/banks?type=basic`)
    expect(basic.body.data).toEqual([{ name: 'Guaranty Trust Bank', code: '058' }, { name: 'Access Bank', code: '044' }, { name: 'Wema Bank', code: '035' }])
  })

  it('type is required, one of the lists', async () => {
    expectInvalid(await sb.call('GET', `${PREFIXES[0]}/ng/banks`), { type: 'is required' })
    expectInvalid(await sb.call('GET', `${PREFIXES[0]}/ng/banks?type=gold`), { type: 'must be one of "premium", "basic"' })
    expect((await sb.call('GET', `${PREFIXES[0]}/ng/banks?type=basic`, undefined, { key: null })).status).toBe(401)
  })
})

describe('POST identities/ke/get-phone (and ke/phone, the older page\'s path)', () => {
  it.each(['ke/get-phone', 'ke/phone'])('the test phone answers the page\'s fields, identity_type the type sent (%s)', async (path) => {
    const res = await post(path, { id: '0723818211', type: 'passport', verification_consent: true })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Phone verified successfully')
    expect(Object.keys(res.body.data)).toEqual([
      'reference', 'id', 'id_type', 'first_name', 'middle_name', 'last_name', 'full_name', 'date_of_birth', 'gender', 'marital_status', 'email',
      'home_telephone_number', 'mobile_telephone_number', 'work_telephone_number', 'identity_type', 'requested_by',
    ])
    expect(res.body.data).toMatchObject({ id: '0723818211', id_type: 'ke_phone', gender: 'Female', mobile_telephone_number: '254723818211', identity_type: 'passport', requested_by: 'API User' })
  })

  it('type is required, national_id or passport; validation is not taken; another phone is not found', async () => {
    const before = checks()
    expectInvalid(await post('ke/get-phone', { id: '0723818211', verification_consent: true }), { type: 'is required' })
    expectInvalid(await post('ke/get-phone', { id: '0723818211', type: 'alien_id', verification_consent: true }), { type: 'must be one of "national_id", "passport"' })
    expectInvalid(await post('ke/get-phone', { id: '0723818211', type: 'national_id', verification_consent: true, validation: { first_name: 'A' } }), { validation: 'is not offered for KE phone number: lookup only' })
    expect(checks()).toBe(before)
    const other = await post('ke/get-phone', { id: '0700000000', type: 'national_id', verification_consent: true })
    expect(other).toMatchObject({ status: 404, body: { status: false, message: 'Phone data not found', data: {} } })
  })
})

describe('a registry that does not answer (a sandbox-only outcome)', () => {
  it('the default pack\'s unavailable test values answer 503 Service currently unavailable and keep nothing', async () => {
    const before = checks()
    for (const [path, body] of [
      ['ng/bank-account', { ...PREMIUM, id: '9999999999' }],
      ['ng/bank-account-basic', { ...BASIC, id: '9999999999' }],
      ['ke/get-phone', { id: '0799999999', type: 'national_id', verification_consent: true }],
    ] as const) {
      const res = await post(path, body)
      expect(res.status, path).toBe(503)
      expect(res.body).toEqual({ status: false, message: 'Service currently unavailable', data: null })
    }
    expect(checks()).toBe(before)
    const listed = (await sb.call('GET', '/_sandbox/scenarios')).body.data.identities
    expect(listed).toContainEqual({ type: 'ng_bank_account', id: '9999999999', found: false, unavailable: true, label: 'bank account registry unavailable (sandbox only)' })
  })

  it('a pack marks any document\'s ID unavailable; found and unavailable together are refused', async () => {
    const KEY = 'sk_test_identity_unavailable'
    const pack = { identities: [{ type: 'ng_bvn', id: '22222222229', found: false, unavailable: true, label: 'BVN registry down' }] }
    expect((await sb.call('POST', '/_sandbox/scenarios', pack, { key: KEY })).status).toBe(200)
    expect((await post('ng/bvn', { id: '22222222229', verification_consent: true }, KEY)).status).toBe(503)
    const bad = await sb.call('POST', '/_sandbox/scenarios', { identities: [{ ...pack.identities[0], found: true }] }, { key: KEY })
    expect(bad.status).toBe(422)
    expect(bad.body.data['identities.0.unavailable'].message).toBe('identities.0.unavailable cannot be true with found: true')
  })
})

describe('POST identities/ng/pvc, the collection\'s path of the voter\'s card check', () => {
  it('answers as ng/voters-card does', async () => {
    const res = await post('ng/pvc', { id: '00A0A0A000000000011', verification_consent: true })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: 'PVC verified successfully', data: { id_type: 'ng_voters_card', full_name: 'Adaeze Chioma Nwosu' } })
    expect((await post('ng/pvc', { id: '11A1A1A111111111111', verification_consent: true })).body.message).toBe('PVC data not found')
  })
})

describe('POST identities/gh/voters-card takes the collection\'s required type', () => {
  it('old_voters_card or new_voters_card, echoed as voter_type; missing or another is refused', async () => {
    const res = await post('gh/voters-card', { id: '9001330422', type: 'old_voters_card', verification_consent: true })
    expect(res.status).toBe(200)
    expect(res.body.data.voter_type).toBe('old_voters_card')
    expectInvalid(await post('gh/voters-card', { id: '9001330422', verification_consent: true }), { type: 'is required' })
    expectInvalid(await post('gh/voters-card', { id: '9001330422', type: 'voters_card', verification_consent: true }), { type: 'must be one of "old_voters_card", "new_voters_card"' })
  })
})

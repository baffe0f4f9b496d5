import { describe, expect, it } from 'vitest'
import { SECRET, fieldMessages, sandboxPerTest, type TestSandbox } from './helpers/sandbox.js'

/**
 * docs/behaviour.md#virtual-accounts-usd-kes-tzs: upload URLs, account holders and their USD accounts, KES and TZS
 * accounts, over HTTP; the bare `/api/v1/...` paths the pages write and the `/merchant` ones alike.
 */

const sandbox = sandboxPerTest()
const VBA = '/merchant/api/v1/virtual-bank-account'

async function file(sb: TestSandbox, prefix = '') {
  const r = await sb.call('POST', `${prefix}/api/v1/files/generate-upload-url`, { reference: 'REF-KYC-1', purpose: 'kyc_document', content_type: 'image/jpeg' })
  expect(r.status).toBe(200)
  return r.body.data
}

async function holderBody(sb: TestSandbox) {
  const f = (await file(sb)).korapay_reference
  return {
    first_name: 'Sarah', last_name: 'Doe', use_case: 'Personal', type: 'individual', date_of_birth: '1990-01-31', nationality: 'NG', occupation: 'Engineer',
    email: 'sarah@example.com', phone: '+2348133443000', bank_id_number: '22222222222', source_of_inflow: 'bank_statement',
    source_of_inflow_document: { reference: f }, selfie: { reference: f },
    identification: { type: 'passport', number: 'A12345678', document_front: { reference: f }, issued_date: '2020-01-01', expiry_date: '2030-01-01', country: 'NG' },
    proof_of_address: { type: 'bank_statement', document: { reference: f } },
    address: { country: 'NG', zip: '100001', address: '1 Marina', state: 'Lagos', city: 'Lagos' },
    employment: { status: 'employer', employer: 'Acme', description: 'Builds things' },
    metadata: { customer: 'c-1' },
  }
}

describe('upload URLs', () => {
  it('answers a KPY-FILE reference and a URL of the sandbox that takes the PUT, for an hour; bare and /merchant alike', async () => {
    const sb = await sandbox({ frozen: true })
    const now = Date.parse((await sb.call('GET', '/_sandbox/clock')).body.data.now)
    for (const prefix of ['', '/merchant']) {
      const d = await file(sb, prefix)
      expect(d).toEqual({ korapay_reference: expect.stringMatching(/^KPY-FILE-\d{12}[0-9A-Za-z]{20}$/), owner_reference: 'REF-KYC-1', purpose: 'kyc_document', upload_url: expect.stringMatching(/\/_sandbox\/uploads\/KPY-FILE-/), upload_url_expires: new Date(now + 3_600_000).toISOString() })
      const put = await sb.app.request(new URL(d.upload_url).pathname, { method: 'PUT', body: 'jpeg bytes', headers: { 'content-type': 'image/jpeg' } })
      expect(put.status).toBe(200)
    }
    const bad = await sb.call('POST', '/api/v1/files/generate-upload-url', { reference: 'R', purpose: 'selfie', content_type: 'text/plain' })
    expect([bad.status, bad.body.data]).toEqual([422, fieldMessages({ purpose: 'must be "kyc_document"', content_type: 'must be one of "image/jpeg", "image/png", "application/pdf"' })])
  })
})

describe('account holders', () => {
  it('creates a pending holder whose documents name files, reads it back, and takes a KYC update by PATCH or POST', async () => {
    const sb = await sandbox()
    const body = await holderBody(sb)
    const r = await sb.call('POST', '/api/v1/virtual-bank-account/account-holders', body)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ status: true, message: 'Virtual account holder creation requested successfully', data: { reference: expect.stringMatching(/^KPY-AH-[0-9A-Za-z]{15}$/), email: 'sarah@example.com', status: 'pending', metadata: { customer: 'c-1' } } })
    const ref = r.body.data.reference
    const f = body.selfie.reference
    const details = await sb.call('GET', `/merchant/api/v1/virtual-bank-account/account-holders/${ref}/details`)
    expect(details.body).toEqual({
      status: true,
      message: 'Virtual account holder retrieved successfully',
      data: {
        reference: ref, account_type: 'individual', first_name: 'Sarah', last_name: 'Doe', email: 'sarah@example.com', phone_number: '+2348133443000', occupation: 'Engineer', status: 'pending',
        metadata: { customer: 'c-1' }, date_created: expect.any(String), country: 'NG', date_of_birth: '1990-01-31T00:00:00.000Z',
        address: { zip: '100001', city: 'Lagos', state: 'Lagos', address: '1 Marina', country: 'NG' },
        documents: { identification_front: f, proof_of_address: f, selfie: f, source_of_inflow: f },
      },
    })
    const other = (await file(sb)).korapay_reference
    for (const [method, prefix] of [['PATCH', ''], ['POST', '/merchant']] as const) {
      const u = await sb.call(method, `${prefix}/api/v1/virtual-bank-account/account-holders/${ref}/update-kyc`, { selfie: { reference: other } })
      expect(u.body).toEqual({ status: true, message: 'Virtual bank account holder update kyc requested successfully', data: { reference: ref, first_name: 'Sarah', last_name: 'Doe', status: 'pending' } })
    }
    expect((await sb.call('GET', `/api/v1/virtual-bank-account/account-holders/${ref}/details`)).body.data.documents.selfie).toBe(other)
    const none = await sb.call('PATCH', `/api/v1/virtual-bank-account/account-holders/${ref}/update-kyc`, {})
    expect(none.status).toBe(422)
    const unknown = await sb.call('GET', '/api/v1/virtual-bank-account/account-holders/KPY-AH-nobody/details')
    expect([unknown.status, unknown.body]).toEqual([404, { status: false, code: null, message: 'Virtual account holder not found', data: {} }])
  })

  it('refuses a document that names no file of the namespace, and the old top-level employment fields, making nothing', async () => {
    const sb = await sandbox()
    const body = await holderBody(sb)
    const r = await sb.call('POST', '/api/v1/virtual-bank-account/account-holders', { ...body, selfie: { reference: 'KPY-FILE-made-up' }, employment_status: 'employed' })
    expect(r.status).toBe(422)
    expect(r.body.data).toEqual(fieldMessages({ employment_status: 'is not allowed: send employment.status' }))
    const f = await sb.call('POST', '/api/v1/virtual-bank-account/account-holders', { ...body, selfie: { reference: 'KPY-FILE-made-up' } })
    expect(f.body.data).toEqual(fieldMessages({ 'selfie.reference': 'must be a korapay_reference from POST /api/v1/files/generate-upload-url' }))
    // another namespace's file is no file of this one
    const elsewhere = await sb.call('POST', '/api/v1/virtual-bank-account/account-holders', body, { key: 'sk_test_other_holder' })
    expect(elsewhere.status).toBe(422)
    expect(sb.deps.accountHolders.list(SECRET)).toEqual([])
  })
})

describe('a USD account', () => {
  it('is opened for a holder (pending in its answer), read back active with its payment schemes, credited in USD and listed', async () => {
    const sb = await sandbox()
    const holder = (await sb.call('POST', '/api/v1/virtual-bank-account/account-holders', await holderBody(sb))).body.data.reference
    const r = await sb.call('POST', VBA, { currency: 'USD', account_holder_reference: holder, account_reference: 'usd-1' })
    expect(r.body).toEqual({ status: true, message: 'Virtual bank account created successfully', data: { tier: 1, account_reference: 'usd-1', unique_id: expect.stringMatching(/^KPY-VBA-/), account_status: 'pending', created_at: expect.any(String), currency: 'USD', account_holder_reference: holder } })
    const got = (await sb.call('GET', `${VBA}/usd-1`)).body.data
    expect(got).toMatchObject({ account_name: null, account_status: 'active', iban: null, tier: 1, account_type: 'individual', email: 'sarah@example.com', account_holder: { reference: holder }, bank_code: null, currency: 'USD', customer: { name: 'Sarah Doe', email: 'sarah@example.com' } })
    expect(got.account_number).toMatch(/^\d{12}$/)
    expect(got.payment_schemes.ach).toEqual({ account_holder_name: 'Sarah Doe', account_number: got.account_number, memo: got.unique_id, bank_name: 'Cross River Bank', routing_code: '021214891' })
    expect(got.payment_schemes.fedwire.account_holder_address).toEqual({ city: 'Lagos', postal_code: '100001', country_code: 'NG', address_line1: '1 Marina' })

    const before = (await sb.call('GET', '/merchant/api/v1/balances')).body.data.USD.available_balance
    const wrong = await sb.call('POST', `${VBA}/sandbox/credit`, { account_number: got.account_number, amount: 100, currency: 'NGN' })
    expect([wrong.status, wrong.body.data]).toEqual([422, fieldMessages({ currency: "must be USD, the account's currency" })])
    const c = await sb.call('POST', `${VBA}/sandbox/credit`, { account_number: got.account_number, amount: 100, currency: 'USD' })
    expect(c.body).toEqual({ status: true, message: 'Virtual bank account credited successfully', data: null })
    // 1.5 % and its VAT, the merchant's: 98.39 of 100
    expect((await sb.call('GET', '/merchant/api/v1/balances')).body.data.USD.available_balance - before).toBeCloseTo(98.39, 2)
    const list = (await sb.call('GET', `${VBA}/transactions?account_number=${got.account_number}`)).body.data
    expect(list).toMatchObject({ total_amount_received: 100, currency: 'USD', transactions: [{ amount: '100.00', currency: 'USD', status: 'success', transaction_date: expect.stringMatching(/Z$/) }] })
    // a USD list is written as the collection's USD sample: this spelling alone, each transfer dated
    expect(list).not.toHaveProperty('total_amount_recieved')
    // the dashboard lists it with its holder, and its credit button in USD
    const ui = await (await sb.app.request(`/_sandbox/ui?ns=${SECRET}`)).text()
    expect(ui).toContain(`holder ${holder}`)
    expect(ui).toContain(`Credit virtual account ${got.account_number} with USD 1,000`)
    const unknownHolder = await sb.call('POST', VBA, { currency: 'USD', account_holder_reference: 'KPY-AH-nobody', account_reference: 'usd-2' })
    expect([unknownHolder.status, unknownHolder.body.message]).toEqual([404, 'Virtual account holder not found'])
  })
})

describe('KES and TZS accounts', () => {
  it('are opened at Choice Bank (pending in the answer, as the sample) and credited in their currency; another currency is refused', async () => {
    const sb = await sandbox()
    const r = await sb.call('POST', VBA, { account_name: 'Steph James', account_reference: 'kes-1', permanent: true, currency: 'KES', customer: { name: 'John Doe', email: 'john@example.com' } })
    expect(r.body).toEqual({ status: true, message: 'Virtual bank account created successfully', data: { bank_name: 'Choice Bank', account_reference: 'kes-1', unique_id: expect.any(String), account_status: 'pending', created_at: expect.any(String), currency: 'KES' } })
    const got = (await sb.call('GET', `${VBA}/kes-1`)).body.data
    expect(got).toMatchObject({ account_name: 'Steph James', bank_code: null, bank_name: 'Choice Bank', account_status: 'active', currency: 'KES', customer: { name: 'John Doe', email: 'john@example.com' } })
    expect((await sb.call('POST', `${VBA}/sandbox/credit`, { account_number: got.account_number, amount: 50, currency: 'KES' })).status).toBe(200)
    const q = (await sb.call('GET', `${VBA}/transactions?account_number=${got.account_number}`)).body.data.transactions[0]
    expect((await sb.call('GET', `/merchant/api/v1/charges/${q.reference}`)).body.data).toMatchObject({ currency: 'KES', amount: '50.00', status: 'success' })
    const eur = await sb.call('POST', VBA, { account_name: 'X', account_reference: 'eur-1', permanent: true, currency: 'EUR', customer: { name: 'X' } })
    expect([eur.status, eur.body.data]).toEqual([422, fieldMessages({ currency: 'must be one of "NGN", "USD", "KES", "TZS"' })])
  })
})

import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDocuments } from '../src/scenario/documents.js'
import { CHECKS } from '../src/identity/service.js'
import { SECRET, makeSandbox, type TestSandbox, fieldMessages } from './helpers/sandbox.js'
import { startReceiver } from './helpers/receiver.js'

/**
 * Identity in every documented country and document (docs/behaviour.md#identity): the live service's
 * test IDs (SPEC-BEYOND-2 8, copied here by hand, not read from the fixtures) answer their records
 * and refusals through the real app, on both prefixes; the query and history find the checks; the
 * phone check's webhook reaches a real receiver; the documents file is refused when bad.
 */

const FIXTURES = new URL('../fixtures/', import.meta.url)
const RECORDS = JSON.parse(readFileSync(new URL('identities.json', FIXTURES), 'utf8')) as Record<string, Record<string, any>>
const image = (file: string) => readFileSync(new URL(`identity/${file}`, FIXTURES)).toString('base64')
const PREFIXES = ['/merchant/api/v1/identities', '/api/v1/identities'] as const

interface Doc {
  type: string
  path: string
  valid: string
  /** the key of its fixture record, where it is not `valid` (CAC's is kept with its RC) */
  recordKey?: string
  invalid?: string
  message: string
  notFound: string
  /** an ID of the wrong format and the field message it gets */
  bad: [string, string]
  /** what `validation` compares (none: lookup only) */
  compares: string[]
  /** the document's name, as a lookup-only document's refusal of `validation` gives it */
  name?: string
  /** other fields every call of the document sends (the Kenyan phone check's required `type`) */
  extra?: Record<string, unknown>
}

const DOCS: Doc[] = [
  { type: 'ng_nin', path: 'ng/nin', valid: '55555555555', invalid: '00000000000', message: 'NIN verified successfully', notFound: 'NIN data not found', bad: ['5555555555', 'must be a NIN: 11 digits'], compares: ['first_name', 'last_name', 'date_of_birth'] },
  { type: 'ng_phone', path: 'ng/phone', valid: '08000000000', invalid: '08000000001', message: 'Phone number verified successfully', notFound: 'Phone number data not found', bad: ['8000000000', 'must be a Nigerian phone number: 11 digits starting with 0'], compares: ['first_name', 'last_name', 'date_of_birth'] },
  { type: 'ng_nin_phone', path: 'ng/nin-phone', valid: '08000000000', invalid: '08000000001', message: 'NIN phone verified successfully', notFound: 'NIN phone data not found', bad: ['+2348000000000', 'must be a Nigerian phone number: 11 digits starting with 0'], compares: ['first_name', 'last_name', 'date_of_birth'] },
  { type: 'ng_cac', path: 'ng/cac', valid: '00000011', recordKey: 'RC00000011', invalid: '11111111', message: 'CAC verified successfully', notFound: 'CAC data not found', bad: ['RC00000011', 'must be a CAC number: up to 8 digits, without RC'], compares: [], name: 'CAC registration' },
  { type: 'ng_passport', path: 'ng/passport', valid: 'A01234567', invalid: 'A00000000', message: 'Passport verified successfully', notFound: 'Passport data not found', bad: ['A0123456', 'must be a Nigerian passport number: a letter and 8 digits'], compares: ['first_name', 'last_name', 'date_of_birth'] },
  { type: 'ng_voters_card', path: 'ng/voters-card', valid: '00A0A0A000000000011', invalid: '11A1A1A111111111111', message: 'PVC verified successfully', notFound: 'PVC data not found', bad: ['00A0A0A00000000001', 'must be a voter identification number: 19 letters or digits'], compares: ['first_name', 'last_name', 'date_of_birth'] },
  { type: 'gh_ssnit', path: 'gh/ssnit', valid: 'C987464748977', invalid: 'C000000000000', message: 'SSNIT verified successfully', notFound: 'SSNIT data not found', bad: ['987464748977', 'must be a SSNIT number: a letter and 12 digits'], compares: ['first_name', 'last_name', 'date_of_birth'] },
  { type: 'gh_drivers_license', path: 'gh/drivers-license', valid: '070667', invalid: '000000', message: "Driver's license verified successfully", notFound: "Driver's license data not found", bad: ['07066', "must be a driver's licence number: 6 to 15 letters or digits"], compares: ['first_name', 'last_name', 'date_of_birth'] },
  { type: 'gh_passport', path: 'gh/passport', valid: 'G0000555', invalid: 'G0000000', message: 'GH passport verified successfully', notFound: 'Passport data not found', bad: ['G000055', 'must be a Ghana passport number: a letter and 7 digits'], compares: ['first_name', 'last_name', 'date_of_birth'] },
  { type: 'gh_voters_card', path: 'gh/voters-card', valid: '9001330422', invalid: '0000000000', message: "Voter's card verified successfully", notFound: "Voter's card data not found", bad: ['900133042', 'must be a voter ID number: 10 digits'], compares: ['first_name', 'last_name', 'date_of_birth'], extra: { type: 'new_voters_card' } },
  { type: 'ke_national_id', path: 'ke/national-id', valid: '25219766', invalid: '00000000', message: 'National identity verified successfully', notFound: 'National ID data not found', bad: ['252197661', 'must be a Kenyan national ID number: 7 or 8 digits'], compares: ['first_name', 'last_name', 'date_of_birth'] },
  { type: 'ke_passport', path: 'ke/passport', valid: 'A2011111', invalid: 'A0000000', message: 'Passport verified successfully', notFound: 'Passport data not found', bad: ['2011111', 'must be a Kenyan passport number: one or two letters and 7 digits'], compares: ['first_name', 'last_name', 'date_of_birth'] },
  { type: 'ke_tax_pin', path: 'ke/tax-pin', valid: 'A009274635J', invalid: 'A0000000000', message: 'Tax pin verified successfully', notFound: 'Tax pin data not found', bad: ['A009274635', 'must be a KRA PIN: a letter and 10 more letters or digits'], compares: ['first_name', 'last_name', 'date_of_birth'] },
  // no failing KE phone is documented: any other of the format is not found
  { type: 'ke_phone', path: 'ke/get-phone', valid: '0723818211', message: 'Phone verified successfully', notFound: 'Phone data not found', bad: ['254723818211', 'must be a Kenyan phone number: 10 digits starting with 0'], compares: [], name: 'KE phone number', extra: { type: 'national_id' } },
  { type: 'za_said', path: 'za/said', valid: '8012185201077', invalid: '8000000000001', message: 'South Africa ID verified successfully', notFound: 'South Africa ID data not found', bad: ['801218520107', 'must be a South African ID number: 13 digits'], compares: ['first_name', 'last_name'] },
]
const doc = (type: string) => DOCS.find((d) => d.type === type)!

const DECLARED = JSON.parse(readFileSync(new URL('identity-documents.json', FIXTURES), 'utf8')).documents as { type: string; record: Record<string, any> }[]

/** The fixture record as answered: completed with the document's plain values, image files as their base64. */
function answered(type: string, id: string) {
  expect(RECORDS[`${type}:${id}`], `fixture ${type}:${id}`).toBeDefined()
  const rec = { ...DECLARED.find((x) => x.type === type)!.record, ...RECORDS[`${type}:${id}`] }
  if ('first_name' in rec) rec.middle_name ??= null
  for (const k of ['image', 'signature']) if (typeof rec[k] === 'string') rec[k] = image(rec[k])
  return rec
}
const inputsOf = (d: Doc) => Object.fromEntries(d.compares.map((f) => [f, RECORDS[`${d.type}:${d.valid}`][f]]))
/** how the query and the webhook give an image: a data URL */
const dataUrl = (rec: Record<string, any>) => (typeof rec.image === 'string' ? { ...rec, image: `data:image/png;base64,${rec.image}` } : rec)
const REFERENCE = /^VR-[A-Za-z0-9]{17}$/

let sb: TestSandbox
beforeAll(async () => {
  sb = await makeSandbox()
})
afterAll(() => sb.close())

const verify = (d: Doc, body: Record<string, unknown>, prefix: string = PREFIXES[0], key = SECRET) => sb.call('POST', `${prefix}/${d.path}`, { ...d.extra, ...body }, { key })
const checks = (key = SECRET) => sb.deps.store.col(key, CHECKS).size

function expectInvalid(res: { status: number; body: any }, fields: Record<string, string>) {
  expect(res.status, JSON.stringify(res.body)).toBe(422)
  expect(res.body).toMatchObject({ status: false, error: 'validation_error', message: 'Invalid request data' })
  expect(res.body.data).toEqual(fieldMessages(fields))
}

describe.each(DOCS.map((d) => [d.type, d] as const))('%s', (_t, d) => {
  it.each(PREFIXES)('the valid test ID answers its record, on %s', async (prefix) => {
    const res = await verify(d, { id: d.valid, verification_consent: true }, prefix)
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200)
    expect(res.body.status).toBe(true)
    expect(res.body.message).toBe(d.message)
    const { reference, id, id_type, validation, requested_by, ...record } = res.body.data
    expect(reference).toMatch(REFERENCE)
    // a lookup-only document answers no validation
    expect({ id, id_type, validation, requested_by }).toEqual({ id: d.valid, id_type: d.type, validation: d.compares.length ? {} : undefined, requested_by: 'API User' })
    expect('validation' in res.body.data).toBe(d.compares.length > 0)
    expect(record).toEqual(answered(d.type, d.recordKey ?? d.valid))
    // the query finds it, with the same record
    const query = await sb.call('GET', `${prefix}/verifications/${reference}`)
    expect(query.status).toBe(200)
    const { type, class: cls, identity_type, country, status, date_created, validation: v, requested_by: by, reference: r, id: i, id_type: t, ...queried } = query.body.data
    expect({ r, i, t, type, cls, identity_type, country, status, v, by }).toEqual({
      r: reference, i: d.valid, t: d.type, type: d.type === 'ng_cac' ? 'kyb' : 'kyc', cls: 'id_lookup', identity_type: d.type, country: d.type.slice(0, 2), status: 'found', v: undefined, by: 'API User',
    })
    expect(date_created).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    // the query's own `type` (kyc, kyb), `country` and `identity_type` stand where a record has them (the Kenyan national ID's `type`, the CAC's `country`, the Kenyan phone's `identity_type`)
    const { type: _own, country: _country, identity_type: _identityType, ...recordRest } = record
    expect(queried).toEqual(dataUrl(recordRest))
  })

  it.each(PREFIXES)('the invalid one (or any unlisted ID of the format) is 404 with the document\'s text, and kept, on %s', async (prefix) => {
    const before = checks()
    const res = await verify(d, { id: d.invalid ?? '0700000000', verification_consent: true }, prefix)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ status: false, message: d.notFound, data: {} })
    expect(checks()).toBe(before + 1)
  })

  it('refusals, field by field, change nothing', async () => {
    const before = checks()
    expectInvalid(await verify(d, { id: d.bad[0], verification_consent: true }), { id: d.bad[1] })
    expectInvalid(await verify(d, { verification_consent: true }), { id: 'is required' })
    const consent = await verify(d, { id: d.valid, verification_consent: 'yes' })
    expect(consent.status).toBe(400)
    expect(consent.body).toEqual({ status: false, message: 'Verification consent is required: verification_consent must be true', data: { verification_consent: 'must be true' } })
    if (d.compares.length) {
      const missing = Object.fromEntries(d.compares.slice(1).map((f) => [`validation.${f}`, 'is required']))
      expectInvalid(await verify(d, { id: d.valid, verification_consent: true, validation: { first_name: 'A' } }), missing)
    } else {
      expectInvalid(await verify(d, { id: d.valid, verification_consent: true, validation: { first_name: 'A' } }), { validation: `is not offered for ${d.name}: lookup only` })
    }
    expect(checks()).toBe(before)
  })

  if (d.compares.length) it('data validation compares the fields the document takes', async () => {
    const inputs = inputsOf(d)
    const res = await verify(d, { id: d.valid, verification_consent: true, validation: { ...inputs, first_name: `  ${String(inputs.first_name).toUpperCase()} `, last_name: 'Someone Else' } })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body.data.validation)).toEqual(d.compares)
    expect(res.body.data.validation.first_name.match).toBe(true)
    expect(res.body.data.validation.last_name).toEqual({ value: 'Someone Else', match: false })
    if (d.compares.includes('date_of_birth')) expect(res.body.data.validation.date_of_birth).toEqual({ value: inputs.date_of_birth, match: true })
  })
})

describe('what a document does not compare is refused with its name', () => {
  it('a selfie where facial matching is not shown; date_of_birth for SAID', async () => {
    const selfie = `data:image/png;base64,${image('matching-selfie.png')}`
    const nin = doc('ng_nin')
    expectInvalid(await verify(nin, { id: nin.valid, verification_consent: true, validation: { ...inputsOf(nin), selfie } }), { 'validation.selfie': 'facial matching is not offered for NIN' })
    const said = doc('za_said')
    expectInvalid(await verify(said, { id: said.valid, verification_consent: true, validation: { ...inputsOf(said), date_of_birth: '1980-12-18' } }), { 'validation.date_of_birth': 'is not compared for South African ID' })
  })

  it('the Kenyan national ID matches a selfie of its own portrait (99) and not another (under 30)', async () => {
    const d = doc('ke_national_id')
    const own = await verify(d, { id: d.valid, verification_consent: true, validation: { ...inputsOf(d), selfie: `data:image/png;base64,${image('id-wanjiru.png')}` } })
    expect(own.body.data.validation.selfie).toMatchObject({ match: true, confidence_rating: 99 })
    const other = await verify(d, { id: d.valid, verification_consent: true, validation: { ...inputsOf(d), selfie: `data:image/png;base64,${image('other-selfie.png')}` } })
    expect(other.body.data.validation.selfie.match).toBe(false)
    expect(other.body.data.validation.selfie.confidence_rating).toBeLessThan(30)
  })
})

describe('the ID under `id`, `nin` or `number`', () => {
  const nin = doc('ng_nin')
  it.each(['nin', 'number'])('`%s` alone is taken as the ID', async (field) => {
    const res = await verify(nin, { [field]: nin.valid, verification_consent: true })
    expect(res.status).toBe(200)
    expect(res.body.data.id).toBe(nin.valid)
    expect(res.body.data.first_name).toBe('Adaeze')
  })

  it('two spellings that differ are refused, keyed by the later; a bad one is keyed by its own name', async () => {
    expectInvalid(await verify(nin, { id: nin.valid, nin: '00000000000', verification_consent: true }), { nin: 'must be the same as id, or left out: send the ID once' })
    expect((await verify(nin, { id: nin.valid, nin: nin.valid, verification_consent: true })).status).toBe(200)
    expectInvalid(await verify(nin, { number: '5555', verification_consent: true }), { number: 'must be a NIN: 11 digits' })
    expectInvalid(await verify(nin, { nin: 55555555555, verification_consent: true }), { nin: 'must be a string' })
  })

  it('CAC: digits only, as the live test environment takes it; the record is the one it answers', async () => {
    const cac = doc('ng_cac')
    const res = await verify(cac, { id: '00000011', registration_type: 'RC', verification_consent: true })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ id: '00000011', name: 'John Doe Inc', registration_number: 'RC00000000', search_term: 'RC00000011' })
    for (const id of ['RC00000011', 'rc00000011']) expectInvalid(await verify(cac, { id, verification_consent: true }), { id: 'must be a CAC number: up to 8 digits, without RC' })
    expect((await verify(cac, { id: '11111111', verification_consent: true })).status).toBe(404)
  })
})

describe('the query of one check and the history', () => {
  const KEY = 'sk_test_identity_history'
  const advanceDays = (days: number) => sb.call('POST', '/_sandbox/clock/advance', { seconds: days * 86400 }, { key: KEY })

  it('GET /identities/verifications/:reference shows a found check with its record, type, class and status', async () => {
    const d = doc('gh_ssnit')
    const made = await verify(d, { id: d.valid, verification_consent: true, validation: inputsOf(d) }, PREFIXES[0], KEY)
    for (const prefix of PREFIXES) {
      const res = await sb.call('GET', `${prefix}/verifications/${made.body.data.reference}`, undefined, { key: KEY })
      expect(res.status).toBe(200)
      expect(res.body.message).toBe('Verification retrieved successfully')
      expect(res.body.data).toEqual({
        reference: made.body.data.reference, id: d.valid, id_type: 'gh_ssnit', ...dataUrl(answered('gh_ssnit', d.valid)),
        validation: { first_name: { match: true }, last_name: { match: true }, date_of_birth: { match: true } },
        type: 'kyc', class: 'data_validation', identity_type: 'gh_ssnit', country: 'gh', requested_by: 'API User', status: 'found',
        date_created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      })
    }
    const unknown = await sb.call('GET', `${PREFIXES[0]}/verifications/VR-nope`, undefined, { key: KEY })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ status: false, message: 'Verification not found', data: null })
    // another key's namespace does not see it
    expect((await sb.call('GET', `${PREFIXES[0]}/verifications/${made.body.data.reference}`)).status).toBe(404)
  })

  it('POST /identities/verifications lists checks newest first, not-found ones too, by page and between days, as lines without the record', async () => {
    const cac = doc('ng_cac')
    const said = doc('za_said')
    await verify(cac, { id: cac.invalid, verification_consent: true }, PREFIXES[0], KEY)
    await advanceDays(2)
    const made = await verify(said, { id: said.valid, verification_consent: true }, PREFIXES[0], KEY)
    const all = await sb.call('POST', `${PREFIXES[0]}/verifications`, {}, { key: KEY })
    expect(all.status).toBe(200)
    expect(all.body.message).toBe('Verifications retrieved successfully')
    expect(all.body.data.paging).toEqual({ total_items: 3, page_size: 10, current: 1, count: 3 })
    expect(all.body.data.links).toEqual([{ href: expect.stringMatching(/^http:\/\/[^/]+\/merchant\/api\/v1\/identities\/verifications\?limit=10&page=1$/), rel: 'current', method: 'POST' }])
    expect(all.body.data.data.map((x: any) => [x.identity_type, x.status])).toEqual([['za_said', 'found'], ['ng_cac', 'not_found'], ['gh_ssnit', 'found']])
    expect(all.body.data.data[0]).toEqual({
      reference: made.body.data.reference, full_name: 'Thabo Nkosi', type: 'kyc', class: 'id_lookup', identity_type: 'za_said', identity_type_label: 'South Africa ID',
      identity_type_description: 'South African identity number', country: 'za', merchant: { reference: expect.stringMatching(/^MC-[0-9a-f]{16}$/), name: 'Sandbox Merchant', email: expect.any(String) },
      requested_by: 'API User', status: 'found', date_created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    })
    expect(all.body.data.data[1]).toMatchObject({ full_name: null, type: 'kyb', class: 'id_lookup', identity_type_label: 'CAC', country: 'ng' })
    for (const field of ['id', 'name', 'validation']) expect(all.body.data.data[1]).not.toHaveProperty(field)

    const day = all.body.data.data[0].date_created.slice(0, 10)
    const recent = await sb.call('POST', `${PREFIXES[1]}/verifications`, { start_date: day, end_date: day }, { key: KEY })
    expect(recent.body.data.data.map((x: any) => x.identity_type)).toEqual(['za_said'])
    // limit and page as the documentation types them (String) or as numbers; next and its link while a page follows
    const page1 = await sb.call('POST', `${PREFIXES[0]}/verifications`, { limit: '2', page: '1' }, { key: KEY })
    expect(page1.body.data.paging).toEqual({ total_items: 3, page_size: 2, current: 1, count: 2, next: 2 })
    expect(page1.body.data.links.map((l: any) => [l.rel, l.href.slice(l.href.indexOf('?'))])).toEqual([['current', '?limit=2&page=1'], ['next', '?limit=2&page=2']])
    const page2 = await sb.call('POST', `${PREFIXES[0]}/verifications`, { limit: 2, page: 2 }, { key: KEY })
    expect(page2.body.data.paging).toEqual({ total_items: 3, page_size: 2, current: 2, count: 1 })
    expect(page2.body.data.data[0].identity_type).toBe('gh_ssnit')
    // the next link names the page in the query: a bodiless call to it reads the same page
    const viaLink = await sb.call('POST', `${PREFIXES[0]}/verifications?limit=2&page=2`, undefined, { key: KEY })
    expect(viaLink.body.data.data).toEqual(page2.body.data.data)
    // no body at all: the first page
    const bare = await sb.call('POST', `${PREFIXES[0]}/verifications`, undefined, { key: KEY })
    expect(bare.body.data.paging.total_items).toBe(3)
  })

  it('history refusals: limit over 50, a bad date, an end before the start', async () => {
    const path = `${PREFIXES[0]}/verifications`
    expectInvalid(await sb.call('POST', path, { limit: 51 }), { limit: 'must be at most 50' })
    expectInvalid(await sb.call('POST', path, { page: 0 }), { page: 'must be at least 1' })
    expectInvalid(await sb.call('POST', path, { limit: 'ten' }), { limit: 'must be a number' })
    expectInvalid(await sb.call('POST', path, { start_date: '2026-02-30' }), { start_date: 'must be a real calendar date' })
    expectInvalid(await sb.call('POST', path, { start_date: '2026-03-02', end_date: '2026-03-01' }), { end_date: 'must not be before start_date' })
  })
})

describe('verification.completed, where the source shows one (the Nigerian phone check)', () => {
  it('a found phone check reaches a real receiver, signed; a not-found one and other documents send none', async () => {
    const KEY = 'sk_test_identity_hook'
    const hook = await startReceiver()
    try {
      await sb.call('PUT', '/_sandbox/webhook-url', { url: hook.url }, { key: KEY })
      const phone = doc('ng_phone')
      await verify(doc('ng_nin'), { id: '55555555555', verification_consent: true }, PREFIXES[0], KEY)
      await verify(phone, { id: phone.invalid, verification_consent: true }, PREFIXES[0], KEY)
      const made = await verify(phone, { id: phone.valid, verification_consent: true }, PREFIXES[0], KEY)
      await hook.waitFor(1)
      const got = hook.received[0]
      expect(got.body.event).toBe('verification.completed')
      const query = await sb.call('GET', `${PREFIXES[0]}/verifications/${made.body.data.reference}`, undefined, { key: KEY })
      expect(got.body.data).toEqual(query.body.data)
      expect(got.body.data).toMatchObject({ id: phone.valid, id_type: 'ng_phone', full_name: 'Adaeze Chioma Nwosu', status: 'found' })
      const data = JSON.stringify(got.body.data)
      expect(got.headers['x-korapay-signature']).toBe(createHmac('sha256', KEY).update(data).digest('hex'))
      const events = await sb.call('GET', '/_sandbox/events', undefined, { key: KEY })
      expect(events.body.data.map((e: any) => e.event)).toEqual(['verification.completed'])
    } finally {
      await hook.close()
    }
  })
})

describe('test values are data', () => {
  it('every documented test ID is in the active values (sandbox magic, GET /_sandbox/scenarios)', async () => {
    const res = await sb.call('GET', '/_sandbox/scenarios')
    const listed = new Set(res.body.data.identities.map((x: any) => `${x.type}:${x.id}:${x.found}`))
    for (const d of DOCS) {
      expect(listed.has(`${d.type}:${d.valid}:true`), `${d.type} ${d.valid}`).toBe(true)
      if (d.invalid) expect(listed.has(`${d.type}:${d.invalid}:false`), `${d.type} ${d.invalid}`).toBe(true)
    }
  })

  it('a pack adds a test ID to a new document, with a partial record completed by the document\'s plain values', async () => {
    const KEY = 'sk_test_identity_pack_new_docs'
    const pack = { identities: [{ type: 'ke_phone', id: '0711000000', found: true, label: 'mine', record: { first_name: 'Achieng', last_name: 'Otieno' } }] }
    expect((await sb.call('POST', '/_sandbox/scenarios', pack, { key: KEY })).status).toBe(200)
    const res = await verify(doc('ke_phone'), { id: '0711000000', verification_consent: true }, PREFIXES[0], KEY)
    // the fields the request sets (identity_type, from `type`) are the request's
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ first_name: 'Achieng', last_name: 'Otieno', full_name: 'Test Person', date_of_birth: '1990-01-01' })
    const bad = await sb.call('POST', '/_sandbox/scenarios', { identities: [{ type: 'ng_drivers_license', id: '1', found: true, label: 'x' }] }, { key: KEY })
    expect(bad.status).toBe(422)
    expect(bad.body.data['identities.0.type'].message).toMatch(/^identities\.0\.type must be one of ng_bvn, ng_vnin, ng_nin, .*za_said$/)
  })

  it('a documents file is checked on load: its entry, field and what is wrong', () => {
    const good = JSON.parse(readFileSync(new URL('identity-documents.json', FIXTURES), 'utf8'))
    const one = good.documents.find((x: any) => x.type === 'ke_phone')
    const withDoc = (change: Record<string, unknown>) => ({ documents: [{ ...one, ...change }] })
    expect(parseDocuments(withDoc({}), 'f').get('ke_phone')!.regex.test('0723818211')).toBe(true)
    expect(() => parseDocuments(withDoc({ format: '(' }), 'f')).toThrow('f: documents.0.format: must be a regular expression')
    expect(() => parseDocuments(withDoc({ path: 'ng/phone' }), 'f')).toThrow('f: documents.0.path: must start with the country, ke/')
    expect(() => parseDocuments(withDoc({ validation: ['first_name', 'surname'] }), 'f')).toThrow('documents.0.validation.1')
    expect(() => parseDocuments(withDoc({ validation: ['first_name', 'last_name'], record: { first_name: 'A' } }), 'f')).toThrow('documents.0.record: must have last_name, which validation compares')
    expect(() => parseDocuments(withDoc({ record: { ...one.record, image: 'nobody.png' } }), 'f')).toThrow('image: no file fixtures/identity/nobody.png')
    expect(() => parseDocuments({ documents: [one, one] }, 'f')).toThrow('f: documents.1.type: ke_phone is declared twice')
    expect(() => parseDocuments(withDoc({ colour: 'red' }), 'f')).toThrow('documents.0')
    // a bank-account check's list, once per country; its record answers bank_details
    const premium = good.documents.find((x: any) => x.type === 'ng_bank_account')
    expect(() => parseDocuments({ documents: [premium, { ...premium, type: 'ng_bank_account_two', path: 'ng/bank-account-two' }] }, 'f')).toThrow('f: documents.1.banks.list: ng premium is declared twice')
    expect(() => parseDocuments({ documents: [{ ...premium, record: { first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01' } }] }, 'f')).toThrow('documents.0.record: must have bank_details')
    expect(() => parseDocuments(withDoc({ other_paths: ['ng/phone'] }), 'f')).toThrow('f: documents.0.other_paths: must start with the country, ke/')
  })
})

describe('a card number sent as an ID', () => {
  it('is not stored in clear when nothing lists it (a SAID has a card number\'s shape)', async () => {
    const KEY = 'sk_test_identity_pan'
    const said = doc('za_said')
    const pan = '4222222222222' // 13 digits, Luhn-valid: a Visa test number
    const res = await verify(said, { id: pan, verification_consent: true }, PREFIXES[0], KEY)
    expect(res.status).toBe(404)
    const history = await sb.call('POST', `${PREFIXES[0]}/verifications`, {}, { key: KEY })
    expect([...sb.deps.store.col<{ id: string }>(KEY, CHECKS).values()][0].id).toBe('422222***2222')
    expect(JSON.stringify([...sb.deps.store.col(KEY, CHECKS).values()])).not.toContain(pan)
  })
})

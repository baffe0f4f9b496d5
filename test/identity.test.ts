import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { CHECKS } from '../src/identity/service.js'
import { ENC_KEY, SECRET, cardPayload, makeSandbox, type TestSandbox } from './helpers/sandbox.js'

/**
 * Identity verification end to end through HTTP (docs/api.md 2.12, 2.13, 4.4; docs/behaviour.md#http, docs/behaviour.md#identity, docs/behaviour.md#control-api, docs/behaviour.md#packs-and-replay):
 * every type in every mode on both path prefixes, matching rules, refusals (which store nothing),
 * scenario packs adding or hiding records at run time, and the 4 MiB body limit of these paths.
 */

const FIXTURES = new URL('../fixtures/', import.meta.url)
const fixtureBytes = (file: string) => readFileSync(new URL(`identity/${file}`, FIXTURES))
const RECORDS = JSON.parse(readFileSync(new URL('identities.json', FIXTURES), 'utf8')) as Record<string, Record<string, any>>

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const MATCHING_PNG = fixtureBytes('matching-selfie.png')
const OTHER_PNG = fixtureBytes('other-selfie.png')
const dataUrl = (bytes: Buffer, type = 'png') => `data:image/${type};base64,${bytes.toString('base64')}`
const MATCHING_SELFIE = dataUrl(MATCHING_PNG)
const OTHER_SELFIE = dataUrl(OTHER_PNG)

const PREFIXES = ['/api/v1/identities', '/merchant/api/v1/identities'] as const

type IdType = 'ng_bvn' | 'ng_vnin' | 'gh_passport'
interface TypeCase {
  type: IdType
  path: string
  message: string
  found: string[]
  notFound: string
  extras: string[]
  badIds: string[]
}

const TYPES: TypeCase[] = [
  {
    type: 'ng_bvn',
    path: 'ng/bvn',
    message: 'BVN verified successfully',
    found: ['22222222222', '22222222223'],
    notFound: '00000000000',
    extras: [
      'phone_number', 'enrollment_branch', 'enrollment_institution', 'registration_date', 'nin', 'level_of_account', 'address',
      'title', 'marital_status', 'lga_of_origin', 'other_mobile', 'state_of_origin', 'watch_listed', 'name_on_card',
    ],
    badIds: ['2222222222', '222222222222', '2222222222A', 'KO111111111111IL', 'G0000555', '22222-22222'],
  },
  {
    type: 'ng_vnin',
    path: 'ng/vnin',
    message: 'Virtual NIN verified successfully',
    found: ['KO111111111111IL', 'KO222222222222AB'],
    notFound: 'KO000000000000II',
    extras: ['phone_number', 'v_nin_user_id'],
    badIds: ['KO11111111111IL', 'KO1111111111111IL', 'K0111111111111IL', 'KO111111111111I1', '22222222222', 'G0000555', 'KOO11111111111IL'],
  },
  {
    type: 'gh_passport',
    path: 'gh/passport',
    message: 'GH passport verified successfully',
    found: ['G0000555', 'G0000556'],
    notFound: 'G0000000',
    extras: ['full_name', 'place_of_birth', 'nationality', 'issued_at', 'issued_date', 'expired_date', 'signature'],
    badIds: ['G000055', 'G00005555', '00000555', 'GG000555', '22222222222', 'KO111111111111IL'],
  },
]
const byType = (t: IdType) => TYPES.find((x) => x.type === t)!
const url = (t: IdType, prefix: string = PREFIXES[0]) => `${prefix}/${byType(t).path}`

let sb: TestSandbox
beforeAll(async () => {
  sb = await makeSandbox()
})
afterAll(() => sb.close())

/** Every reference handed out in this file: each verification gets a new one. */
const seenReferences = new Set<string>()

function isPngBase64(v: unknown): boolean {
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(v) || v.length % 4 !== 0) return false
  return Buffer.from(v, 'base64').subarray(0, 8).equals(PNG_SIGNATURE)
}

function expectEnvelope(res: { status: number; body: any; headers: Headers }) {
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/)
  expect(typeof res.body).toBe('object')
  expect(typeof res.body.status).toBe('boolean')
  expect(typeof res.body.message).toBe('string')
  expect(res.body.message.length).toBeGreaterThan(0)
  expect('data' in res.body).toBe(true)
}

/** A 200 with the type's message and every common and extra field of docs/api.md 2.13. */
function expectVerified(res: { status: number; body: any; headers: Headers }, t: TypeCase, id: string) {
  expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200)
  expectEnvelope(res)
  expect(res.body.status).toBe(true)
  expect(res.body.message).toBe(t.message)
  const d = res.body.data
  expect(typeof d.reference).toBe('string')
  expect(d.reference.length).toBeGreaterThan(0)
  expect(seenReferences.has(d.reference), `reference ${d.reference} handed out twice`).toBe(false)
  seenReferences.add(d.reference)
  expect(d.id).toBe(id)
  expect(d.id_type).toBe(t.type)
  for (const f of ['first_name', 'last_name', 'date_of_birth', 'gender']) {
    expect(typeof d[f], f).toBe('string')
    expect(d[f].length, f).toBeGreaterThan(0)
  }
  expect(d).toHaveProperty('middle_name')
  expect(d.middle_name === null || typeof d.middle_name === 'string').toBe(true)
  expect(d.date_of_birth).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  expect(isPngBase64(d.image), 'image is base64 of a PNG').toBe(true)
  expect(typeof d.validation).toBe('object')
  expect(d.validation).not.toBeNull()
  expect(d.requested_by).toBe('API User')
  for (const f of t.extras) expect(d, `extra field ${f} of ${t.type}`).toHaveProperty(f)
  if (t.type === 'ng_bvn') {
    expect(Object.keys(d.address).sort()).toEqual(['lga', 'state', 'street', 'town'])
    expect(d.registration_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  }
  if (t.type === 'gh_passport') {
    expect(d.issued_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(d.expired_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(isPngBase64(d.signature), 'signature is base64 of a PNG').toBe(true)
  }
  return d
}

/** The fixture record as the API should return it: image files become their base64. */
function expectedRecord(t: IdType, id: string): Record<string, unknown> {
  const rec = { ...RECORDS[`${t}:${id}`] }
  expect(rec, `fixture ${t}:${id}`).toBeDefined()
  for (const k of ['image', 'signature']) if (typeof rec[k] === 'string') rec[k] = fixtureBytes(rec[k]).toString('base64')
  return rec
}

const verify = (t: IdType, body: unknown, opts: { prefix?: string; key?: string | null } = {}) =>
  sb.call('POST', url(t, opts.prefix), body, { key: opts.key })

const validationOf = (t: IdType, id: string) => {
  const r = RECORDS[`${t}:${id}`]
  return { first_name: r.first_name, last_name: r.last_name, date_of_birth: r.date_of_birth }
}

/** How many identity checks the namespace holds, and how many events: what a refusal must not change. */
async function footprint(key = SECRET) {
  const events = await sb.call('GET', '/_sandbox/events', undefined, { key })
  expect(events.status).toBe(200)
  return { checks: sb.deps.store.col(key, CHECKS).size, events: events.body.data.length }
}

async function expectNothingChanged(act: () => Promise<void>, key = SECRET) {
  const before = await footprint(key)
  await act()
  expect(await footprint(key)).toEqual(before)
}

function expectInvalid(res: { status: number; body: any; headers: Headers }, ...fields: string[]) {
  expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(422)
  expectEnvelope(res)
  expect(res.body.status).toBe(false)
  expect(res.body.message).toBe('Invalid request data')
  expect(res.body.data).not.toBeNull()
  for (const f of fields) {
    expect(Object.keys(res.body.data), `keys of ${JSON.stringify(res.body.data)}`).toContain(f)
    expect(res.body.data[f].message.startsWith(`${f} `)).toBe(true)
    expect(res.body.data[f].message.length).toBeGreaterThan(f.length + 1)
  }
}

// ---------------------------------------------------------------------------------------------
/** A selfie's confidence_rating: none for a BVN; otherwise a whole number from `min` to `max`, both included. */
function expectConfidence(selfie: any, type: string, min: number, max: number) {
  if (type === 'ng_bvn') expect(selfie).not.toHaveProperty('confidence_rating')
  else {
    expect(Number.isInteger(selfie.confidence_rating)).toBe(true)
    expect(selfie.confidence_rating).toBeGreaterThanOrEqual(min)
    expect(selfie.confidence_rating).toBeLessThanOrEqual(max)
  }
}

describe('every type, every mode, both prefixes, every found fixture record', () => {
  const modes = ['lookup', 'data validation', 'facial'] as const
  const cases = TYPES.flatMap((t) =>
    PREFIXES.flatMap((prefix) => t.found.flatMap((id) => modes.map((mode) => ({ t, prefix, id, mode })))),
  )

  it.each(cases.map((c) => [`${c.t.type} ${c.id} ${c.mode} on ${c.prefix}`, c] as const))('%s', async (_name, { t, prefix, id, mode }) => {
    const validation =
      mode === 'lookup' ? undefined : mode === 'data validation' ? validationOf(t.type, id) : { ...validationOf(t.type, id), selfie: MATCHING_SELFIE }
    const body: Record<string, unknown> = { id, verification_consent: true }
    if (validation) body.validation = validation
    const res = await verify(t.type, body, { prefix })
    const d = expectVerified(res, t, id)

    // the record of the fixture, field by field (images as base64 of their files)
    const { validation: v, reference: _r, id: _id, id_type: _t, requested_by: _b, ...record } = d
    expect(record).toEqual({ middle_name: null, ...expectedRecord(t.type, id) })

    if (mode === 'lookup') {
      expect(v).toEqual({})
    } else {
      expect(v.first_name).toEqual({ value: validation!.first_name, match: true })
      expect(v.last_name).toEqual({ value: validation!.last_name, match: true })
      expect(v.date_of_birth).toEqual({ value: validation!.date_of_birth, match: true })
      if (mode === 'data validation') {
        expect(Object.keys(v).sort()).toEqual(['date_of_birth', 'first_name', 'last_name'])
      } else {
        expect(Object.keys(v).sort()).toEqual(['date_of_birth', 'first_name', 'last_name', 'selfie'])
        expect(v.selfie.value).toBe(MATCHING_SELFIE)
        expect(v.selfie.match).toBe(true)
        if (t.type === 'ng_bvn') expect(v.selfie).not.toHaveProperty('confidence_rating')
        else {
          expect(Number.isInteger(v.selfie.confidence_rating)).toBe(true)
          expect(v.selfie.confidence_rating).toBeGreaterThanOrEqual(90)
        }
      }
    }
  })

  it('gives every call its own reference, even for the same request twice', async () => {
    const body = { id: '22222222222', verification_consent: true }
    const a = await verify('ng_bvn', body)
    const b = await verify('ng_bvn', body)
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    expect(a.body.data.reference).not.toBe(b.body.data.reference)
    const { reference: _a, ...restA } = a.body.data
    const { reference: _b, ...restB } = b.body.data
    expect(restA).toEqual(restB)
  })

  it('answers every found ID of scenarios/default.yaml and lists them through GET /_sandbox/scenarios', async () => {
    const res = await sb.call('GET', '/_sandbox/scenarios')
    expect(res.status).toBe(200)
    const listed = res.body.data.identities.map((x: any) => `${x.type}:${x.id}:${x.found}`)
    for (const t of TYPES) {
      for (const id of t.found) expect(listed).toContain(`${t.type}:${id}:true`)
      expect(listed).toContain(`${t.type}:${t.notFound}:false`)
    }
  })
})

// ---------------------------------------------------------------------------------------------
describe('matching', () => {
  it('compares names trimmed and case-insensitively and echoes each value exactly as sent', async () => {
    const validation = { first_name: ' chinedu ', last_name: 'OKAFOR  ', date_of_birth: '1990-05-14' }
    const res = await verify('ng_bvn', { id: '22222222222', verification_consent: true, validation })
    const d = expectVerified(res, byType('ng_bvn'), '22222222222')
    expect(d.validation).toEqual({
      first_name: { value: ' chinedu ', match: true },
      last_name: { value: 'OKAFOR  ', match: true },
      date_of_birth: { value: '1990-05-14', match: true },
    })
  })

  it.each(TYPES.map((t) => [t.type, t] as const))('%s: a different last name does not match, the others still do', async (_n, t) => {
    const id = t.found[0]
    const validation = { ...validationOf(t.type, id), last_name: 'Somebodyelse' }
    const res = await verify(t.type, { id, verification_consent: true, validation })
    const d = expectVerified(res, t, id)
    expect(d.validation.first_name.match).toBe(true)
    expect(d.validation.last_name).toEqual({ value: 'Somebodyelse', match: false })
    expect(d.validation.date_of_birth.match).toBe(true)
  })

  it.each(TYPES.map((t) => [t.type, t] as const))('%s: a different first name does not match', async (_n, t) => {
    const id = t.found[1]
    const validation = { ...validationOf(t.type, id), first_name: 'Nobody' }
    const d = expectVerified(await verify(t.type, { id, verification_consent: true, validation }), t, id)
    expect(d.validation.first_name).toEqual({ value: 'Nobody', match: false })
    expect(d.validation.last_name.match).toBe(true)
  })

  it.each(TYPES.map((t) => [t.type, t] as const))('%s: date_of_birth is compared exactly', async (_n, t) => {
    const id = t.found[0]
    const right = validationOf(t.type, id)
    const [y, m, dd] = right.date_of_birth.split('-').map(Number)
    const next = new Date(Date.UTC(y, m - 1, dd + 1)).toISOString().slice(0, 10)
    const prevYear = `${y - 1}-${right.date_of_birth.slice(5)}`
    for (const wrong of [next, prevYear]) {
      const d = expectVerified(await verify(t.type, { id, verification_consent: true, validation: { ...right, date_of_birth: wrong } }), t, id)
      expect(d.validation.date_of_birth).toEqual({ value: wrong, match: false })
      expect(d.validation.first_name.match).toBe(true)
      expect(d.validation.last_name.match).toBe(true)
    }
  })

  it.each(TYPES.flatMap((t) => t.found.map((id) => [`${t.type} ${id}`, t, id] as const)))(
    "%s: the record's own image as a data URL matches with a high confidence_rating",
    async (_n, t, id) => {
      const lookup = expectVerified(await verify(t.type, { id, verification_consent: true }), t, id)
      const selfie = `data:image/png;base64,${lookup.image}`
      const d = expectVerified(await verify(t.type, { id, verification_consent: true, validation: { ...validationOf(t.type, id), selfie } }), t, id)
      expect(d.validation.selfie.value).toBe(selfie)
      expect(d.validation.selfie.match).toBe(true)
      expectConfidence(d.validation.selfie, t.type, 90, 100)
    },
  )

  it.each(TYPES.flatMap((t) => t.found.map((id) => [`${t.type} ${id}`, t, id] as const)))(
    '%s: fixtures/identity/other-selfie.png does not match, with a low confidence_rating',
    async (_n, t, id) => {
      const d = expectVerified(await verify(t.type, { id, verification_consent: true, validation: { ...validationOf(t.type, id), selfie: OTHER_SELFIE } }), t, id)
      expect(d.validation.selfie.value).toBe(OTHER_SELFIE)
      expect(d.validation.selfie.match).toBe(false)
      // the data still matches: only the face differs
      expect(d.validation.first_name.match).toBe(true)
      expectConfidence(d.validation.selfie, t.type, 0, 49)
    },
  )

  it("another record's image does not match, and a valid JPEG selfie is accepted but does not match", async () => {
    const kwame = expectVerified(await verify('gh_passport', { id: 'G0000555', verification_consent: true }), byType('gh_passport'), 'G0000555')
    const amaValidation = validationOf('gh_passport', 'G0000556')
    const cross = expectVerified(
      await verify('gh_passport', { id: 'G0000556', verification_consent: true, validation: { ...amaValidation, selfie: `data:image/png;base64,${kwame.image}` } }),
      byType('gh_passport'),
      'G0000556',
    )
    expect(cross.validation.selfie.match).toBe(false)
    expect(cross.validation.selfie.confidence_rating).toBeLessThan(50)

    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0 a small jpeg-looking body'), Buffer.from([0xff, 0xd9])])
    const selfie = dataUrl(jpeg, 'jpeg')
    const d = expectVerified(
      await verify('ng_vnin', { id: 'KO111111111111IL', verification_consent: true, validation: { ...validationOf('ng_vnin', 'KO111111111111IL'), selfie } }),
      byType('ng_vnin'),
      'KO111111111111IL',
    )
    expect(d.validation.selfie).toEqual({ value: selfie, match: false, confidence_rating: expect.any(Number) })
    expect(d.validation.selfie.confidence_rating).toBeLessThan(50)
  })

  it('the matching sample matches a record whose data does not (the face and the data are judged apart)', async () => {
    const validation = { first_name: 'Wrong', last_name: 'Name', date_of_birth: '2001-01-01', selfie: MATCHING_SELFIE }
    const d = expectVerified(await verify('ng_vnin', { id: 'KO222222222222AB', verification_consent: true, validation }), byType('ng_vnin'), 'KO222222222222AB')
    expect(d.validation.first_name.match).toBe(false)
    expect(d.validation.last_name.match).toBe(false)
    expect(d.validation.date_of_birth.match).toBe(false)
    expect(d.validation.selfie.match).toBe(true)
    expect(d.validation.selfie.confidence_rating).toBeGreaterThanOrEqual(90)
  })
})

// ---------------------------------------------------------------------------------------------
describe('refusals: the envelope, and nothing stored', () => {
  const CONSENT = /consent is required/i

  describe.each(TYPES.flatMap((t) => PREFIXES.map((p) => [`${t.type} on ${p}`, t, p] as const)))('%s', (_n, t, prefix) => {
    const id = t.found[0]
    const full = { ...validationOf(t.type, id), selfie: MATCHING_SELFIE }

    it.each([
      ['missing', {}],
      ['false', { verification_consent: false }],
      ["the string 'true'", { verification_consent: 'true' }],
      ['1', { verification_consent: 1 }],
      ['null', { verification_consent: null }],
    ] as const)('verification_consent %s: 400 saying consent is required', async (_c, consent) => {
      for (const extra of [{}, { validation: full }]) {
        await expectNothingChanged(async () => {
          const res = await verify(t.type, { id, ...consent, ...extra }, { prefix })
          expect(res.status).toBe(400)
          expectEnvelope(res)
          expect(res.body.status).toBe(false)
          expect(res.body.message).toMatch(CONSENT)
          expect(res.body.data === null || typeof res.body.data === 'object').toBe(true)
        })
      }
    })

    it('an ID of the wrong format: 400 Invalid request data keyed id', async () => {
      for (const bad of t.badIds) {
        await expectNothingChanged(async () => {
          const res = await verify(t.type, { id: bad, verification_consent: true }, { prefix })
          expectInvalid(res, 'id')
        })
      }
      for (const bad of [12345678901, null, '']) {
        await expectNothingChanged(async () => expectInvalid(await verify(t.type, { id: bad, verification_consent: true }, { prefix }), 'id'))
      }
      await expectNothingChanged(async () => expectInvalid(await verify(t.type, { verification_consent: true }, { prefix }), 'id'))
    })

    it('partial validation: 400 keyed by each missing field', async () => {
      await expectNothingChanged(async () => {
        const res = await verify(t.type, { id, verification_consent: true, validation: { first_name: full.first_name } }, { prefix })
        expectInvalid(res, 'validation.last_name', 'validation.date_of_birth')
        expect(Object.keys(res.body.data)).not.toContain('validation.first_name')
      })
      await expectNothingChanged(async () => {
        const res = await verify(t.type, { id, verification_consent: true, validation: { selfie: MATCHING_SELFIE } }, { prefix })
        expectInvalid(res, 'validation.first_name', 'validation.last_name', 'validation.date_of_birth')
      })
    })

    it('date_of_birth not YYYY-MM-DD or not a real date: keyed validation.date_of_birth', async () => {
      for (const dob of ['1990/05/14', '14-05-1990', '1990-5-14', '19900514', '1990-05-14T00:00:00Z', '1990-02-30', '1990-13-01', '1990-04-31', '1991-02-29', '', 19900514]) {
        await expectNothingChanged(async () => {
          const res = await verify(t.type, { id, verification_consent: true, validation: { ...full, date_of_birth: dob } }, { prefix })
          expectInvalid(res, 'validation.date_of_birth')
        })
      }
    })

    it('a selfie that is not a data URL of a JPEG or PNG: keyed validation.selfie', async () => {
      const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
      const text = Buffer.from('this is plainly not an image at all!')
      const selfies = [
        MATCHING_PNG.toString('base64'), // base64 without the data URL
        'https://example.com/me.png',
        dataUrl(gif, 'gif'),
        dataUrl(MATCHING_PNG, 'gif'),
        `data:image/png,${MATCHING_PNG.toString('base64')}`, // not base64-flagged
        'data:image/png;base64,@@@@not*base64!!',
        `data:image/png;base64,${MATCHING_PNG.toString('base64').slice(0, -1)}x=`, // padding in the wrong place
        `data:image/png;base64,${MATCHING_PNG.toString('base64').slice(0, 9)}`, // length not a multiple of 4
        'data:image/png;base64,',
        dataUrl(text, 'png'),
        dataUrl(text, 'jpeg'),
        dataUrl(gif, 'png'),
        12345,
      ]
      for (const selfie of selfies) {
        await expectNothingChanged(async () => {
          const res = await verify(t.type, { id, verification_consent: true, validation: { ...full, selfie } }, { prefix })
          expectInvalid(res, 'validation.selfie')
        })
      }
    })

    it('an unknown ID: 404 with status false', async () => {
      for (const extra of [{}, { validation: full }]) {
        const before = await footprint()
        const res = await verify(t.type, { id: t.notFound, verification_consent: true, ...extra }, { prefix })
        expect(res.status).toBe(404)
        expectEnvelope(res)
        expect(res.body.status).toBe(false)
        expect(res.body.data === null || (typeof res.body.data === 'object' && Object.keys(res.body.data).length === 0)).toBe(true)
        expect((await footprint()).events).toBe(before.events)
      }
    })

    it('no key, an unknown key or a live key: 401', async () => {
      for (const key of [null, 'not-a-key', 'sk_live_abc123']) {
        const res = await verify(t.type, { id, verification_consent: true }, { prefix, key })
        expect(res.status).toBe(401)
        expectEnvelope(res)
        expect(res.body.status).toBe(false)
        if (key !== 'sk_live_abc123') expect(res.body.message).toBe('Invalid authorization key')
      }
    })
  })

  it('malformed JSON and a non-object body: 400 Invalid request data', async () => {
    for (const raw of ['{"id": "22222222222", ', '[]', '"x"', '']) {
      await expectNothingChanged(async () => {
        const res = await sb.call('POST', url('ng_bvn'), undefined, { raw })
        expect(res.status).toBe(422)
        expectEnvelope(res)
        expect(res.body.status).toBe(false)
      })
    }
  })

  it('a body over 4 MiB: 413 with the envelope, on both prefixes', async () => {
    const big = { id: 'G0000555', verification_consent: true, validation: { ...validationOf('gh_passport', 'G0000555'), selfie: `data:image/png;base64,${'A'.repeat(4 * 1024 * 1024 + 16)}` } }
    for (const prefix of PREFIXES) {
      await expectNothingChanged(async () => {
        const res = await verify('gh_passport', big, { prefix })
        expect(res.status).toBe(413)
        expectEnvelope(res)
        expect(res.body.status).toBe(false)
      })
    }
  })

  it('refusals leave later checks unaffected', async () => {
    await verify('ng_bvn', { id: '22222222222' })
    await verify('ng_bvn', { id: '2222', verification_consent: true })
    const res = await verify('ng_bvn', { id: '22222222222', verification_consent: true, validation: validationOf('ng_bvn', '22222222222') })
    const d = expectVerified(res, byType('ng_bvn'), '22222222222')
    expect(d.validation.first_name.match).toBe(true)
  })

  it('a successful check is stored in the namespace (so the refusal checks above are meaningful)', async () => {
    const before = await footprint()
    expect((await verify('ng_vnin', { id: 'KO111111111111IL', verification_consent: true })).status).toBe(200)
    expect((await footprint()).checks).toBe(before.checks + 1)
  })
})

// ---------------------------------------------------------------------------------------------
describe('scenario packs add and hide identity records at run time, per key', () => {
  const A = 'sk_test_identity_pack_a'
  const B = 'sk_test_identity_pack_b'
  const ZARA_IMAGE = OTHER_PNG.toString('base64')
  const ZARA = {
    first_name: 'Zara',
    last_name: 'Umar',
    middle_name: 'Hauwa',
    date_of_birth: '2000-01-01',
    gender: 'Female',
    image: ZARA_IMAGE,
    phone_number: '08030000000',
    enrollment_branch: 'Kano',
    enrollment_institution: 'Sandbox Bank',
    registration_date: '2018-06-01',
    nin: '98765432109',
    level_of_account: 'Level 1 - Low Level Accounts',
    address: { town: 'Kano', lga: 'Nassarawa', state: 'Kano', street: '7 Zoo Road' },
    title: 'Miss',
    marital_status: 'Single',
    lga_of_origin: 'Nassarawa',
    other_mobile: null,
    state_of_origin: 'Kano',
    watch_listed: 'NO',
    name_on_card: 'ZARA UMAR',
  }
  const pack = {
    identities: [
      { type: 'ng_bvn', id: '33333333333', found: true, label: 'mine', record: ZARA },
      { type: 'ng_bvn', id: '22222222222', found: false, label: 'hidden for this key' },
    ],
  }
  const bvn = (id: string, key: string, extra: Record<string, unknown> = {}, prefix?: string) =>
    sb.call('POST', url('ng_bvn', prefix), { id, verification_consent: true, ...extra }, { key })

  afterAll(async () => {
    await sb.call('DELETE', '/_sandbox/scenarios', undefined, { key: A })
  })

  it('before the pack: 33333333333 is unknown and 22222222222 is found for both keys', async () => {
    for (const key of [A, B]) {
      expect((await bvn('33333333333', key)).status).toBe(404)
      expect((await bvn('22222222222', key)).status).toBe(200)
    }
  })

  it('POST /_sandbox/scenarios adds the pack for that key; GET lists the entries without the record', async () => {
    const res = await sb.call('POST', '/_sandbox/scenarios', pack, { key: A })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.status).toBe(true)
    const list = await sb.call('GET', '/_sandbox/scenarios', undefined, { key: A })
    const mine = list.body.data.identities.find((x: any) => x.id === '33333333333')
    expect(mine).toEqual({ type: 'ng_bvn', id: '33333333333', found: true, label: 'mine' })
    const hidden = list.body.data.identities.find((x: any) => x.type === 'ng_bvn' && x.id === '22222222222')
    expect(hidden.found).toBe(false)
    const other = await sb.call('GET', '/_sandbox/scenarios', undefined, { key: B })
    expect(other.body.data.identities.find((x: any) => x.id === '33333333333')).toBeUndefined()
  })

  it('the added BVN is verifiable for that key in every mode and on both prefixes', async () => {
    const t = byType('ng_bvn')
    for (const prefix of PREFIXES) {
      const look = expectVerified(await bvn('33333333333', A, {}, prefix), t, '33333333333')
      const { validation, reference: _r, id: _i, id_type: _t, requested_by: _b, ...record } = look
      expect(record).toEqual(ZARA)
      expect(validation).toEqual({})

      const data = expectVerified(
        await bvn('33333333333', A, { validation: { first_name: 'zara', last_name: 'UMAR', date_of_birth: '2000-01-01' } }, prefix),
        t,
        '33333333333',
      )
      expect(data.validation).toEqual({
        first_name: { value: 'zara', match: true },
        last_name: { value: 'UMAR', match: true },
        date_of_birth: { value: '2000-01-01', match: true },
      })

      // its own image (here other-selfie.png) matches; the documented sample matches every record
      for (const selfie of [OTHER_SELFIE, MATCHING_SELFIE]) {
        const face = expectVerified(
          await bvn('33333333333', A, { validation: { first_name: 'Zara', last_name: 'Umar', date_of_birth: '2000-01-01', selfie } }, prefix),
          t,
          '33333333333',
        )
        expect(face.validation.selfie).toEqual({ value: selfie, match: true })
      }
    }
  })

  it('another key does not see it: 404; and the hidden fixture stays found there', async () => {
    const res = await bvn('33333333333', B)
    expect(res.status).toBe(404)
    expect(res.body.status).toBe(false)
    expectVerified(await bvn('22222222222', B), byType('ng_bvn'), '22222222222')
  })

  it('an entry with found:false turns a found fixture ID into a 404 for that key', async () => {
    for (const prefix of PREFIXES) {
      for (const extra of [{}, { validation: validationOf('ng_bvn', '22222222222') }]) {
        const res = await bvn('22222222222', A, extra, prefix)
        expect(res.status).toBe(404)
        expectEnvelope(res)
        expect(res.body.status).toBe(false)
      }
    }
    // the other fixture BVN is untouched
    expectVerified(await bvn('22222222223', A), byType('ng_bvn'), '22222222223')
  })

  it('a found entry with no record still answers every field of its type', async () => {
    const res = await sb.call(
      'POST',
      '/_sandbox/scenarios',
      {
        identities: [
          { type: 'ng_vnin', id: 'ZZ123456789012ZZ', found: true, label: 'generic vnin' },
          { type: 'gh_passport', id: 'H1234567', found: true, label: 'generic passport' },
          { type: 'ng_bvn', id: '44444444444', found: true, label: 'generic bvn' },
        ],
      },
      { key: A },
    )
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expectVerified(await sb.call('POST', url('ng_vnin'), { id: 'ZZ123456789012ZZ', verification_consent: true }, { key: A }), byType('ng_vnin'), 'ZZ123456789012ZZ')
    expectVerified(await sb.call('POST', url('gh_passport'), { id: 'H1234567', verification_consent: true }, { key: A }), byType('gh_passport'), 'H1234567')
    expectVerified(await bvn('44444444444', A), byType('ng_bvn'), '44444444444')
    // the earlier pack still holds
    expect((await bvn('33333333333', A)).status).toBe(200)
    expect((await bvn('44444444444', B)).status).toBe(404)
  })

  it('a bad identity entry is refused with Invalid request data keyed by its path', async () => {
    const res = await sb.call('POST', '/_sandbox/scenarios', { identities: [{ type: 'ng_nope', id: '1', found: true, label: 'x' }] }, { key: A })
    expectInvalid(res, 'identities.0.type')
    const res2 = await sb.call('POST', '/_sandbox/scenarios', { identities: [{ type: 'ng_bvn', id: '55555555555', found: 'yes', label: 'x' }] }, { key: A })
    expectInvalid(res2, 'identities.0.found')
    expect((await bvn('55555555555', A)).status).toBe(404)
  })

  it('POST /_sandbox/reset drops the packs of that key too', async () => {
    const C = 'sk_test_identity_pack_c'
    expect((await sb.call('POST', '/_sandbox/scenarios', pack, { key: C })).status).toBe(200)
    expect((await bvn('33333333333', C)).status).toBe(200)
    expect((await bvn('22222222222', C)).status).toBe(404)
    expect((await sb.call('POST', '/_sandbox/reset', {}, { key: C })).status).toBe(200)
    expect((await bvn('33333333333', C)).status).toBe(404)
    expectVerified(await bvn('22222222222', C), byType('ng_bvn'), '22222222222')
    // the reset of C left A's pack alone
    expect((await bvn('33333333333', A)).status).toBe(200)
  })

  it('DELETE /_sandbox/scenarios drops the packs: the fixture is found again and the added BVN is gone', async () => {
    const res = await sb.call('DELETE', '/_sandbox/scenarios', undefined, { key: A })
    expect(res.status).toBe(200)
    expect(res.body.status).toBe(true)
    expectVerified(await bvn('22222222222', A), byType('ng_bvn'), '22222222222')
    expect((await bvn('33333333333', A)).status).toBe(404)
    expect((await bvn('44444444444', A)).status).toBe(404)
  })
})

// ---------------------------------------------------------------------------------------------
describe('body limit: 4 MiB on the identity endpoints, the default elsewhere', () => {
  // a real PNG padded with zero bytes to 2 MiB: it still starts with the PNG signature
  const padded = Buffer.concat([MATCHING_PNG, Buffer.alloc(2 * 1024 * 1024 - MATCHING_PNG.length)])
  const selfie = dataUrl(padded)
  const body = { id: 'G0000556', verification_consent: true, validation: { ...validationOf('gh_passport', 'G0000556'), selfie } }

  it('the body is between the default 1 MiB limit and the 4 MiB identity limit', () => {
    const size = Buffer.byteLength(JSON.stringify(body))
    expect(padded.length).toBe(2 * 1024 * 1024)
    expect(padded.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
    expect(size).toBeGreaterThan(2 * 1024 * 1024)
    expect(size).toBeLessThan(4 * 1024 * 1024)
  })

  it.each(PREFIXES.map((p) => [p] as const))('a ~2 MiB selfie is accepted on %s', async (prefix) => {
    const res = await verify('gh_passport', body, { prefix })
    const d = expectVerified(res, byType('gh_passport'), 'G0000556')
    expect(d.validation.selfie.value).toBe(selfie)
    expect(d.validation.selfie.match).toBe(false)
    expect(d.validation.selfie.confidence_rating).toBeLessThan(50)
    expect(d.validation.first_name.match).toBe(true)
  })

  it('the same body on a card endpoint is 413 with the envelope', async () => {
    const res = await sb.call('POST', '/merchant/api/v1/charges/card', body)
    expect(res.status).toBe(413)
    expectEnvelope(res)
    expect(res.body.status).toBe(false)
    // a normal card charge still goes through after it
    const ok = await sb.call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(cardPayload('4084127883172787'), ENC_KEY) })
    expect(ok.status).toBe(200)
  })
})

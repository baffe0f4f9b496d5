import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Clocks } from '../clock.js'
import type { Random } from '../random.js'
import type { Namespaces } from '../namespaces.js'
import { maskPansIn } from '../pan.js'
import type { Scenarios } from '../scenario/index.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Store } from '../store/store.js'
import { OBJECT, STRING } from '../store/validate.js'
import { ApiError, badRequest, invalid } from '../errors.js'
import { CONSENT_REQUIRED, ID_TYPES, decodeSelfie, type IdType, type IdentityRequest } from './schemas.js'

const FIXTURES = new URL('../../fixtures/', import.meta.url)
export const CHECKS = 'identity_checks'
const REF_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'

/** Loaded on the first verification only: nothing at start needs the records or images. */
let records: Record<string, Record<string, unknown>> | null = null
const images = new Map<string, string>()

function fixtureRecords(): Record<string, Record<string, unknown>> {
  records ??= JSON.parse(readFileSync(new URL('identities.json', FIXTURES), 'utf8')) as Record<string, Record<string, unknown>>
  return records
}

/** An image of fixtures/identity as base64 (what the API returns in `image` and `signature`). */
export function fixtureImage(file: string): string {
  let b64 = images.get(file)
  if (b64 === undefined) {
    b64 = readFileSync(new URL(`identity/${file}`, FIXTURES)).toString('base64')
    images.set(file, b64)
  }
  return b64
}

/** The documented sample selfie that matches every record. */
export const MATCHING_SELFIE_FILE = 'matching-selfie.png'
export function matchingSelfieDataUrl(): string {
  return `data:image/png;base64,${fixtureImage(MATCHING_SELFIE_FILE)}`
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

export interface IdentityCheck {
  reference: string
  id_type: IdType
  id: string
  found: boolean
  mode: 'lookup' | 'data' | 'selfie'
  matches: Record<string, boolean>
  created_at: string
}

/** The checks made, found or not, as a data file must hold them (validate.ts). */
export const CHECKS_SPEC: CollectionSpec<IdentityCheck> = {
  name: CHECKS,
  fields: { reference: STRING, id_type: STRING, id: STRING, mode: STRING, matches: OBJECT, created_at: STRING },
}

/** Identity verification (docs/api.md 2.12, 2.13, 4.4; docs/behaviour.md 7). */
export class IdentityService {
  constructor(
    private readonly store: Store,
    private readonly clocks: Clocks,
    private readonly random: Random,
    private readonly scenarios: Scenarios,
    private readonly namespaces: Namespaces,
  ) {}

  verify(ns: string, type: IdType, input: IdentityRequest) {
    if (input.verification_consent !== true) throw badRequest(CONSENT_REQUIRED, { verification_consent: 'must be true' })
    const spec = ID_TYPES[type]
    if (!spec.format.test(input.id)) throw invalid({ id: spec.formatMessage })
    // letters in vNINs and passport numbers are case-insensitive
    const key = type === 'ng_bvn' ? input.id : input.id.toUpperCase()
    const scenario = this.scenarios.forNs(ns).identity(type, key) ?? this.scenarios.forNs(ns).identity(type, input.id)
    const fixture = scenario?.found ? (scenario.record ?? fixtureRecords()[`${type}:${key}`]) : undefined
    // a pack's partial record is completed with plain values, so every field of docs/api.md 2.13 is there
    const base = scenario?.found ? { ...genericRecord(type), ...fixture } : undefined
    const reference = `idv_${this.random.text(ns, REF_ALPHABET, 20)}`
    const mode = input.validation?.selfie ? 'selfie' : input.validation ? 'data' : 'lookup'
    const check: IdentityCheck = { reference, id_type: type, id: input.id, found: !!base, mode, matches: {}, created_at: this.clocks.iso(ns) }
    if (!base) {
      this.store.col<IdentityCheck>(ns, CHECKS).put(reference, check)
      throw new ApiError(404, spec.notFound, null)
    }
    const record = this.#materialize(base)
    const validation: Record<string, unknown> = {}
    const v = input.validation
    if (v) {
      const same = (a: string, b: unknown) => typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase()
      validation.first_name = { value: maskPansIn(v.first_name), match: same(v.first_name, record.first_name) }
      validation.last_name = { value: maskPansIn(v.last_name), match: same(v.last_name, record.last_name) }
      validation.date_of_birth = { value: v.date_of_birth, match: v.date_of_birth === record.date_of_birth }
      if (v.selfie) {
        const { match, confidence } = this.#faceMatch(v.selfie, String(record.image ?? ''))
        validation.selfie = { value: v.selfie, match, ...(type === 'ng_bvn' ? {} : { confidence_rating: confidence }) }
      }
      for (const [k, r] of Object.entries(validation)) check.matches[k] = (r as { match: boolean }).match
    }
    this.store.col<IdentityCheck>(ns, CHECKS).put(reference, check)
    const meta = this.namespaces.get(ns)
    return {
      message: spec.message,
      data: {
        reference,
        id: input.id,
        id_type: type,
        ...record,
        validation,
        requested_by: meta?.name ?? 'Sandbox Merchant',
      },
    }
  }

  /** Image fields of a fixture name files; a pack's inline record may carry base64 already. */
  #materialize(base: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = { ...base }
    for (const key of ['image', 'signature']) {
      const v = out[key]
      if (typeof v === 'string' && /^[\w-]+\.(png|jpe?g)$/.test(v)) out[key] = fixtureImage(v)
    }
    out.middle_name ??= null
    return out
  }

  /**
   * docs/behaviour.md 7: a selfie that is the record's own image, or the documented matching sample,
   * matches with a high confidence_rating; any other valid image does not, with a low one.
   */
  #faceMatch(selfie: string, recordImageB64: string): { match: boolean; confidence: number } {
    const r = decodeSelfie(selfie)
    if ('error' in r) return { match: false, confidence: 0 }
    const h = sha(r.bytes)
    const own = recordImageB64 && h === sha(Buffer.from(recordImageB64, 'base64'))
    const sample = h === sha(Buffer.from(fixtureImage(MATCHING_SELFIE_FILE), 'base64'))
    if (own || sample) return { match: true, confidence: own ? 99 : 96 }
    // a low score that still differs between images, so it reads like a real comparison
    return { match: false, confidence: 5 + (parseInt(h.slice(0, 4), 16) % 25) }
  }

  /** The namespace's identity checks, found or not, in store order. */
  checks(ns: string): IdentityCheck[] {
    return [...this.store.col<IdentityCheck>(ns, CHECKS).values()]
  }
}

/** A plain record for an identity a pack marks found without giving one. */
function genericRecord(type: IdType): Record<string, unknown> {
  const common = { first_name: 'Test', last_name: 'Person', middle_name: null, date_of_birth: '1990-01-01', gender: 'Female', image: 'bvn-ngozi.png' }
  if (type === 'ng_vnin') return { ...common, phone_number: '08000000000', v_nin_user_id: 'VNIN-USR-TEST' }
  if (type === 'gh_passport') {
    return { ...common, full_name: 'Test Person', place_of_birth: 'Accra', nationality: 'Ghanaian', issued_at: 'Accra', issued_date: '2020-01-01', expired_date: '2030-01-01', signature: 'signature-ama.png' }
  }
  return {
    ...common,
    phone_number: '08000000000', enrollment_branch: 'Head Office', enrollment_institution: 'Sandbox Bank', registration_date: '2015-01-01',
    nin: '00000000000', level_of_account: 'Level 1 - Low Level Accounts', address: { town: 'Ikeja', lga: 'Ikeja', state: 'Lagos', street: '1 Test Street' },
    title: 'Ms', marital_status: 'Single', lga_of_origin: 'Ikeja', other_mobile: null, state_of_origin: 'Lagos', watch_listed: 'NO', name_on_card: 'TEST PERSON',
  }
}

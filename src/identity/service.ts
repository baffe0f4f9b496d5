import { createHash } from 'node:crypto'
import type { Kit } from '../engine/kit.js'
import { pageId } from '../namespaces.js'
import { maskPansIn } from '../store/card-numbers.js'
import { ALPHANUMERIC } from '../random.js'
import { identityDocument, type IdentityDocument } from '../scenario/documents.js'
import type { CollectionSpec } from '../store/collection.js'
import { OBJECT, STRING, maybe } from '../store/validate.js'
import { ApiError } from '../errors.js'
import { MSG } from '../messages.js'
import { IDENTITY_MSG } from './messages.js'
import { MATCHING_SELFIE_FILE, fixtureImage, fixtureRecord, imageDataUrl, materialize } from './fixtures.js'
import { decodeSelfie, type HistoryQuery, type IdentityInput } from './schemas.js'

export const CHECKS = 'identity_checks'
/** who a check made through the API was requested by, as the service's samples give it */
const API_USER = 'API User'

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

export interface IdentityCheck {
  reference: string
  id_type: string
  id: string
  found: boolean
  mode: 'lookup' | 'data' | 'selfie'
  matches: Record<string, boolean>
  created_at: string
  /** the record found, as its fixture or pack entry gives it (image fields as file names); null when not found */
  record?: Record<string, unknown> | null
  /** who asked: `API User` (older data files: the merchant's name) */
  requested_by?: string
}

/** The checks made, found or not, as a data file must hold them (src/store/validate.ts). */
export const CHECKS_SPEC: CollectionSpec<IdentityCheck> = {
  name: CHECKS,
  fields: { reference: STRING, id_type: STRING, id: STRING, mode: STRING, matches: OBJECT, created_at: STRING, record: maybe(OBJECT) },
  // an ID found is a document's (a SAID passes Luhn), one not found is masked by verify; the record is the pack's
  asWritten: ['reference', 'id', 'record'],
}

/** what the query calls a check's mode (docs/behaviour.md#identity-query-and-history) */
const CLASS = { lookup: 'id_lookup', data: 'data_validation', selfie: 'facial_matching' } as const

/**
 * Identity verification (docs/api.md 2.12, 2.13, 4.4; docs/behaviour.md#identity): one engine for every
 * document of fixtures/identity-documents.json, which the caller hands in with its checked input.
 */
export class IdentityService {
  constructor(private readonly kit: Pick<Kit, 'store' | 'clocks' | 'random' | 'scenarios' | 'namespaces' | 'events'>) {}

  verify(ns: string, doc: IdentityDocument, input: IdentityInput) {
    const packs = this.kit.scenarios.forNs(ns)
    const scenario = packs.identity(doc.type, input.key) ?? packs.identity(doc.type, input.id)
    // a registry a pack marks unavailable answers nothing: no check is made or kept (docs/behaviour.md#identity-checks)
    if (scenario?.unavailable) throw new ApiError(503, MSG.SERVICE_UNAVAILABLE)
    // a pack's partial record is completed with the document's plain values, so every field is there;
    // a bank-account check finds nothing at a bank its list does not name (docs/behaviour.md#identity-bank-account-banks)
    const base = scenario?.found && input.bank !== null ? this.#completed(doc, input, { ...doc.record, ...(scenario.record ?? fixtureRecord(doc.type, input.key)) }) : null
    const v = input.validation
    const check: IdentityCheck = {
      reference: `${doc.reference_prefix}${this.kit.random.text(ns, ALPHANUMERIC, 17)}`,
      id_type: doc.type,
      // an ID nothing lists that reads as a card number (a SAID is 13 digits that pass Luhn) is kept masked
      id: base ? input.id : maskPansIn(input.id),
      found: !!base,
      mode: v?.selfie ? 'selfie' : v ? 'data' : 'lookup',
      matches: {},
      created_at: this.kit.clocks.iso(ns),
      record: base,
      requested_by: API_USER,
    }
    const checks = this.kit.store.col<IdentityCheck>(ns, CHECKS)
    if (!base) {
      checks.put(check.reference, check)
      throw new ApiError(404, doc.not_found, {})
    }
    const record = materialize(base)
    const validation: Record<string, unknown> = {}
    if (v) {
      const same = (a: string, b: unknown) => typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase()
      for (const f of doc.validation) {
        const value = v[f]!
        validation[f] = f === 'date_of_birth' ? { value, match: value === record[f] } : { value: maskPansIn(value), match: same(value, record[f]) }
      }
      if (v.selfie) {
        const { match, confidence } = this.#faceMatch(v.selfie, String(record.image ?? ''))
        validation.selfie = { value: v.selfie, match, ...(doc.confidence_rating ? { confidence_rating: confidence } : {}) }
      }
      for (const [k, r] of Object.entries(validation)) check.matches[k] = (r as { match: boolean }).match
    }
    checks.put(check.reference, check)
    if (doc.webhook) this.kit.events.record(ns, 'verification.completed', this.#shown(check))
    return {
      message: doc.message,
      // a lookup-only document (phone, tax PIN, CAC) has no `validation` to answer, as its samples show
      data: { reference: check.reference, id: input.id, id_type: doc.type, ...record, ...(doc.validation.length ? { validation } : {}), requested_by: check.requested_by },
    }
  }

  /** What the request adds to a record found: the bank named (its account's number the ID), the fields the document echoes. */
  #completed(doc: IdentityDocument, input: IdentityInput, record: Record<string, unknown>): Record<string, unknown> {
    const out = { ...record }
    if (input.bank) {
      out.bank_details = { ...input.bank }
      const account: Record<string, unknown> = { number: input.id, ...(out.account_details as Record<string, unknown> | undefined) }
      account.number = input.id
      out.account_details = account
    }
    for (const [f, value] of Object.entries(input.takes)) {
      const answer = doc.takes[f]?.answer
      if (answer) out[answer] = value
    }
    return out
  }

  /** GET /identities/verifications/:reference (docs/behaviour.md#identity-query-and-history). */
  get(ns: string, reference: string) {
    const check = this.kit.store.col<IdentityCheck>(ns, CHECKS).get(reference)
    if (!check) throw new ApiError(404, IDENTITY_MSG.NOT_FOUND, null)
    return this.#shown(check)
  }

  /**
   * POST /identities/verifications (docs/behaviour.md#identity-query-and-history): newest first, by page, between two days;
   * each check as a line of the history (no record), `paging.next` when a page follows.
   */
  history(ns: string, q: HistoryQuery) {
    const day = (iso: string) => iso.slice(0, 10)
    const all = this.checks(ns).filter((c) => (!q.start_date || day(c.created_at) >= q.start_date) && (!q.end_date || day(c.created_at) <= q.end_date))
    const page = all.reverse().slice((q.page - 1) * q.limit, q.page * q.limit)
    const meta = this.kit.namespaces.get(ns)
    const merchant = { reference: `MC-${meta ? pageId(meta.secret_key) : ns}`, name: meta?.name ?? 'Sandbox Merchant', email: meta?.email ?? null }
    const next = q.page * q.limit < all.length ? { next: q.page + 1 } : {}
    return {
      data: page.map((c) => this.#listed(c, merchant)),
      paging: { total_items: all.length, page_size: q.limit, current: q.page, count: page.length, ...next },
    }
  }

  /** What the query, the history line and the webhook share: the kind of check and its outcome. */
  #about(check: IdentityCheck) {
    const doc = identityDocument(check.id_type)
    return {
      type: doc?.kyb ? 'kyb' : 'kyc',
      class: CLASS[check.mode],
      identity_type: check.id_type,
      country: doc?.country ?? check.id_type.slice(0, 2),
    }
  }

  /** A check as the query and the webhook show it: the record found, its image as a data URL; `validation` only when inputs were compared. */
  #shown(check: IdentityCheck) {
    const record = check.record ? materialize(check.record) : {}
    if (typeof record.image === 'string' && record.image) record.image = imageDataUrl(record.image)
    const matches = Object.entries(check.matches)
    return {
      reference: check.reference,
      id: check.id,
      id_type: check.id_type,
      ...record,
      ...(matches.length ? { validation: Object.fromEntries(matches.map(([k, match]) => [k, { match }])) } : {}),
      ...this.#about(check),
      requested_by: check.requested_by ?? null,
      status: check.found ? 'found' : 'not_found',
      date_created: check.created_at,
    }
  }

  /** A check as a line of the history: who it names, the kind of document and the merchant, not the record. */
  #listed(check: IdentityCheck, merchant: { reference: string; name: string; email: string | null }) {
    const doc = identityDocument(check.id_type)
    const r = check.record ?? {}
    const names = [r.first_name, r.middle_name, r.last_name].filter((v) => typeof v === 'string' && v)
    const account = r.account_details as { name?: unknown } | undefined
    const fullName = r.full_name ?? r.name ?? r.company_name ?? (names.length ? names.join(' ') : (account?.name ?? null))
    const { type, class: cls, identity_type, country } = this.#about(check)
    return {
      reference: check.reference,
      full_name: fullName,
      type,
      class: cls,
      identity_type,
      identity_type_label: doc?.label ?? identity_type,
      identity_type_description: doc?.description ?? identity_type,
      country,
      merchant,
      requested_by: check.requested_by ?? null,
      status: check.found ? 'found' : 'not_found',
      date_created: check.created_at,
    }
  }

  /**
   * docs/behaviour.md#identity-matching: a selfie that is the record's own image, or the documented matching sample,
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
    return [...this.kit.store.col<IdentityCheck>(ns, CHECKS).values()]
  }
}

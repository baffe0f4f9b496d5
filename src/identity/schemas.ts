import { fieldErrors } from '../http/body.js'
import { z } from '../zod-messages.js'
import { invalid, type FieldErrors } from '../errors.js'
import { VALIDATION_FIELDS, type IdentityDocument } from '../scenario/documents.js'
import { IDENTITY_MSG } from './messages.js'
import { realDay } from '../time.js'

export const MAX_SELFIE_BYTES = 3 * 1024 * 1024

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(realDay, 'must be a real calendar date')

/** kept as sent: `validation` echoes the input; the comparison trims */
const name = z.string().max(100, 'must be at most 100 characters').refine((v) => v.trim().length > 0, 'must not be empty')

/** The decoded image of a `data:image/(jpeg|png);base64,` URL, or an error message. */
export function decodeSelfie(value: string): { bytes: Buffer } | { error: string } {
  const m = /^data:image\/(jpeg|jpg|png);base64,([A-Za-z0-9+/]+={0,2})$/.exec(value)
  if (!m) return { error: 'must be a data URL: data:image/jpeg;base64,... or data:image/png;base64,...' }
  if (m[2].length % 4 !== 0) return { error: 'is not valid base64' }
  if ((m[2].length / 4) * 3 > MAX_SELFIE_BYTES + 3) return { error: 'must be at most 3 MiB once decoded' }
  const bytes = Buffer.from(m[2], 'base64')
  if (bytes.length > MAX_SELFIE_BYTES) return { error: 'must be at most 3 MiB once decoded' }
  const png = bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))
  const jpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff
  if (!png && !jpeg) return { error: 'must hold a JPEG or PNG image' }
  if ((m[1] === 'png') !== png) return { error: `does not hold the ${m[1].toUpperCase()} image its type says` }
  return { bytes }
}

const idValue = z.string().trim().min(1, 'is required').max(32, 'must be at most 32 characters')

/** docs/api.md 2.12: what every document's call takes; a document's own rules are `parseIdentityRequest`'s */
export const identityRequestSchema = z.object({
  id: idValue.describe('the ID; `nin` or `number` may be sent instead (docs/behaviour.md#identity-calls-and-modes)'),
  nin: idValue.optional().describe('another spelling of `id`, as some apps send it'),
  number: idValue.optional().describe('another spelling of `id`, as some apps send it'),
  verification_consent: z.unknown().optional(),
  bank_code: z.unknown().optional().describe('bank-account checks only, required there: 3 to 6 letters or digits, a code of `GET identities/ng/banks?type=premium` or `basic` (docs/behaviour.md#identity-bank-account-banks)'),
  type: z.unknown().optional().describe('the Kenyan phone check only, required there: `national_id` or `passport`, echoed as `identity_type`'),
  validation: z
    .object({
      first_name: name.optional(),
      last_name: name.optional(),
      date_of_birth: date.optional(),
      selfie: z.string().superRefine((v, ctx) => {
        const r = decodeSelfie(v)
        if ('error' in r) ctx.addIssue({ code: 'custom', message: r.error })
      }).optional(),
    })
    .optional(),
})
export type IdentityRequest = z.infer<typeof identityRequestSchema>

/** The spellings of the ID a body may use, in the order they are read (docs/behaviour.md#identity-calls-and-modes). */
export const ID_FIELDS = ['id', 'nin', 'number'] as const

/** A request a document's checks passed: the ID as sent, the key it is looked up by, the inputs to compare. */
export interface IdentityInput {
  id: string
  key: string
  validation?: IdentityRequest['validation']
  /** a bank-account check's bank: the one of its list the `bank_code` names, null when none does */
  bank?: { name: string; code: string } | null
  /** the other fields the document takes (`takes`), as sent */
  takes: Record<string, string>
}

const BANK_CODE = /^[A-Za-z0-9]{3,6}$/

/**
 * docs/behaviour.md#identity-checks, steps 2 and 3, for one document: the body (the ID under `id`, `nin` or
 * `number`; `validation` as the document compares it), then the ID's format. Every refusal is
 * `Invalid request data` keyed by the field, all of a step's fields at once.
 */
export function parseIdentityRequest(doc: IdentityDocument, body: Record<string, unknown>): IdentityInput {
  const sent = ID_FIELDS.filter((k) => body[k] !== undefined)
  const field = sent[0] ?? 'id'
  const errors: FieldErrors = {}
  for (const k of sent.slice(1)) if (body[k] !== body[field]) errors[k] = IDENTITY_MSG.idTwice(field)
  const r = identityRequestSchema.safeParse({ ...body, id: body[field] })
  if (!r.success) for (const [k, m] of Object.entries(fieldErrors(r.error))) errors[k === 'id' ? field : k] ??= m
  const v = body.validation
  if (v !== undefined && !doc.validation.length) errors.validation ??= IDENTITY_MSG.lookupOnly(doc)
  else if (v && typeof v === 'object' && !Array.isArray(v)) {
    const given = v as Record<string, unknown>
    for (const f of VALIDATION_FIELDS) {
      const wanted = doc.validation.includes(f)
      if (wanted && given[f] === undefined) errors[`validation.${f}`] ??= IDENTITY_MSG.REQUIRED
      if (!wanted && given[f] !== undefined) errors[`validation.${f}`] = IDENTITY_MSG.notCompared(doc)
    }
    if (!doc.selfie && given.selfie !== undefined) errors['validation.selfie'] = IDENTITY_MSG.noFaceMatch(doc)
  }
  const code = body.bank_code
  if (doc.banks) {
    if (code === undefined) errors.bank_code = IDENTITY_MSG.REQUIRED
    else if (typeof code !== 'string' || !BANK_CODE.test(code)) errors.bank_code = IDENTITY_MSG.BANK_CODE
  }
  const takes: Record<string, string> = {}
  for (const [f, spec] of Object.entries(doc.takes)) {
    const value = body[f]
    if (value === undefined) {
      if (spec.required) errors[f] = IDENTITY_MSG.REQUIRED
      continue
    }
    if (typeof value === 'string' && spec.one_of.includes(value)) takes[f] = value
    else errors[f] = IDENTITY_MSG.oneOf(spec.one_of)
  }
  if (Object.keys(errors).length || !r.success) throw invalid(errors)
  // letters are compared in upper case; an ID without the document's optional prefix gets it
  const upper = r.data.id.toUpperCase()
  if (!doc.regex.test(upper)) throw invalid({ [field]: doc.format_message })
  const key = doc.optional_prefix && !upper.startsWith(doc.optional_prefix) ? `${doc.optional_prefix}${upper}` : upper
  // a code of the other list (or of no list) finds nothing, as the page warns it may fail (docs/behaviour.md#identity-bank-account-banks)
  const bank = doc.banks ? (doc.banks.banks.find((b) => b.code === code) ?? null) : undefined
  return { id: r.data.id, key, validation: r.data.validation, bank, takes }
}

/** A page or a page size: a number, or a string of digits (the documentation types them String). */
const wholeNumber = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v), z.number().int('must be a whole number').min(1, 'must be at least 1').max(max, `must be at most ${max}`))

/** POST /identities/verifications (docs/behaviour.md#identity-query-and-history): the checks made between two days, by page. */
export const historySchema = z
  .object({
    start_date: date.optional(),
    end_date: date.optional(),
    limit: wholeNumber(50).default(10),
    page: wholeNumber(1_000_000).default(1),
  })
  .refine((q) => !q.start_date || !q.end_date || q.end_date >= q.start_date, { path: ['end_date'], message: IDENTITY_MSG.endBeforeStart })
export type HistoryQuery = z.infer<typeof historySchema>

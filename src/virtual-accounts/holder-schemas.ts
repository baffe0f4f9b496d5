import { MAX_LENGTH, atMost, metadataSchema } from '../engine/schemas.js'
import { z } from '../zod-messages.js'
import { realDay } from '../time.js'

/** docs/behaviour.md#virtual-accounts-usd-kes-tzs: the requests of upload URLs and account holders. */

export const UPLOAD_CONTENT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const

const text = (max = MAX_LENGTH.name) => z.string().trim().min(1, 'is required').max(max, atMost(max))
const day = z.string().refine((d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && realDay(d), 'must be a date, YYYY-MM-DD')
const country = z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code (NG)')
const file = z.object({ reference: z.string().trim().min(1, 'is required') })

export const uploadUrlSchema = z
  .object({
    reference: text(MAX_LENGTH.reference),
    purpose: z.string().pipe(z.enum(['kyc_document'])),
    content_type: z.string().pipe(z.enum(UPLOAD_CONTENT_TYPES)),
  })
  .passthrough()
export type UploadUrlInput = z.infer<typeof uploadUrlSchema>

const identification = z.object({
  type: text(),
  number: text(),
  document_front: file,
  document_back: file.optional(),
  issued_date: day.optional(),
  expiry_date: day.optional(),
  country: country.optional(),
})

/** the documents a KYC update may send again (all optional) */
const documents = {
  selfie: file.optional(),
  identification: identification.optional(),
  proof_of_address: z.object({ type: text(), document: file }).optional(),
  source_of_inflow_document: file.optional(),
}

export const kycUpdateSchema = z
  .object(documents)
  .passthrough()
  .superRefine((o, ctx) => {
    if (!o.selfie && !o.identification && !o.proof_of_address && !o.source_of_inflow_document) {
      ctx.addIssue({ code: 'custom', path: ['documents'], message: 'at least one of selfie, identification, proof_of_address, source_of_inflow_document is required' })
    }
  })
export type KycUpdateInput = z.infer<typeof kycUpdateSchema>

/** the top-level employment fields the documentation once showed, which the live validator refuses */
const OLD_EMPLOYMENT = { employment_status: 'employment.status', employer_name: 'employment.employer', job_description: 'employment.description' } as const

export const holderSchema = z
  .object({
    first_name: text(),
    last_name: text(),
    email: z.string().trim().email().max(MAX_LENGTH.email, atMost(MAX_LENGTH.email)),
    phone: z.string().regex(/^\+\d{7,15}$/, 'must be an international number, +2348133443000'),
    type: z.string().pipe(z.enum(['individual'])),
    use_case: text().optional(),
    date_of_birth: day,
    nationality: country,
    occupation: text().optional(),
    bank_id_number: z.string().regex(/^\d{11}$/, 'must be 11 digits').optional(),
    source_of_inflow: text().optional(),
    address: z.object({ country: country, zip: text(), address: text(255), state: text(), city: text() }),
    employment: z.object({ status: text(), employer: text().optional(), description: text(255).optional() }).optional(),
    metadata: metadataSchema.optional(),
    ...documents,
    selfie: file,
    identification,
  })
  .passthrough()
  .superRefine((o, ctx) => {
    for (const [old, now] of Object.entries(OLD_EMPLOYMENT)) {
      if (old in o) ctx.addIssue({ code: 'custom', path: [old], message: `is not allowed: send ${now}` })
    }
  })
export type HolderInput = z.infer<typeof holderSchema>

/** docs/behaviour.md#virtual-accounts-usd-kes-tzs: the answers (written here: built in code, not validated). */
export const uploadUrlAnswerSchema = z.object({
  korapay_reference: z.string().describe('KPY-FILE-...: what a holder\'s document names'),
  owner_reference: z.string(),
  purpose: z.literal('kyc_document'),
  upload_url: z.string().describe('PUT the file here within the hour; the sandbox keeps nothing of it'),
  upload_url_expires: z.string(),
})
export const holderCreatedSchema = z.object({ reference: z.string().describe('KPY-AH-...'), email: z.string(), status: z.literal('pending'), metadata: z.record(z.string(), z.unknown()).nullable() })
const DOCUMENT_NAMES = ['identification_front', 'identification_back', 'proof_of_address', 'selfie', 'source_of_inflow'] as const
export const holderDetailsSchema = z.object({
  reference: z.string(),
  account_type: z.literal('individual'),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone_number: z.string(),
  occupation: z.string().nullable(),
  status: z.literal('pending'),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  date_created: z.string(),
  country: z.string(),
  date_of_birth: z.string(),
  address: z.object({ zip: z.string(), city: z.string(), state: z.string(), address: z.string(), country: z.string() }),
  documents: z.object(Object.fromEntries(DOCUMENT_NAMES.map((n) => [n, z.string().optional()]))).describe('each a file reference (the service answers the files themselves)'),
})
export const holderKycSchema = z.object({ reference: z.string(), first_name: z.string(), last_name: z.string(), status: z.literal('pending') })

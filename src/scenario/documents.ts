import { existsSync, readFileSync } from 'node:fs'
import { z } from '../zod-messages.js'

/**
 * The identity documents the sandbox verifies (docs/behaviour.md#identity), declared as data in
 * `fixtures/identity-documents.json` and checked here when first asked for: each is one entry
 * (its id_type, path, ID format, texts, what it compares and its record's fields), and every
 * document is served by the one engine of `src/identity/`. Scenario packs name a document by its
 * type, so the list sits with the packs' schemas.
 */

const FIXTURES = new URL('../../fixtures/', import.meta.url)
export const DOCUMENTS_FILE = 'identity-documents.json'

/** the inputs of data validation a document may compare (docs/api.md 2.12) */
export const VALIDATION_FIELDS = ['first_name', 'last_name', 'date_of_birth'] as const

const pattern = z.string().refine((p) => {
  try {
    new RegExp(p)
    return true
  } catch {
    return false
  }
}, 'must be a regular expression')

const documentSchema = z
  .object({
    /** the answer's `id_type`, `<country>_<document>` */
    type: z.string().regex(/^[a-z]{2}_[a-z_]+$/, 'must be <country>_<document> in lower case'),
    country: z.string().regex(/^[a-z]{2}$/, 'must be a two-letter country code in lower case'),
    /** after `/merchant/api/v1/identities/` (and `/api/v1/identities/`) */
    path: z.string().regex(/^[a-z]{2}\/[a-z-]+$/, 'must be <country>/<document>'),
    /** other paths a source writes for the same check (an older page's, the collection's) */
    other_paths: z.array(z.string().regex(/^[a-z]{2}\/[a-z-]+$/, 'must be <country>/<document>')).default([]),
    /** what the check's `reference` starts with, 17 letters or digits after it */
    reference_prefix: z.string().regex(/^[A-Z]{2}-$/, 'must be two capital letters and a dash').default('VR-'),
    name: z.string().min(1),
    /** whether the live documentation shows this path (otherwise it follows the documented pattern) */
    path_shown: z.boolean(),
    /** a KYB (business) check rather than KYC */
    kyb: z.boolean().default(false),
    /** the ID, upper-cased, must match it */
    format: pattern,
    format_message: z.string().min(1),
    /** a prefix an app may leave out (CAC's `RC`): the ID is looked up with it */
    optional_prefix: z.string().regex(/^[A-Z]+$/).optional(),
    /** the answer's message (`<Label> verified successfully`) and the 404's (`<Label> data not found`), as the service's samples give them */
    message: z.string().min(1),
    not_found: z.string().min(1),
    /** how the history names the document: `identity_type_label` and `identity_type_description` */
    label: z.string().min(1),
    description: z.string().min(1),
    /** what `validation` must hold when sent; empty: lookup only */
    validation: z.array(z.enum(VALIDATION_FIELDS)).max(VALIDATION_FIELDS.length),
    selfie: z.boolean(),
    confidence_rating: z.boolean().default(false),
    /** a found check sends `verification.completed` (docs/behaviour.md#verification-completed) */
    webhook: z.boolean().default(false),
    /**
     * a bank-account check: the list `GET identities/<country>/banks?type=<list>` gives; the body's
     * `bank_code` must name one of them, the answer's `bank_details` is that bank (docs/behaviour.md#identity-bank-account-banks)
     */
    banks: z.object({ list: z.string().regex(/^[a-z]+$/), banks: z.array(z.object({ name: z.string().min(1), code: z.string().regex(/^[A-Za-z0-9]{3,6}$/) }).strict()) }).strict().optional(),
    /** other body fields the check takes: one of its values, required or not; `answer`: the record's field that echoes it */
    takes: z.record(z.string().regex(/^[a-z_]+$/), z.object({ one_of: z.array(z.string().min(1)).min(1), required: z.boolean().default(false), answer: z.string().optional() }).strict()).default({}),
    /** the record's fields, with the plain values of a pack entry marked found without a record */
    record: z.record(z.string(), z.unknown()),
  })
  .strict()
  .superRefine((d, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
    if (!d.type.startsWith(`${d.country}_`)) issue('type', `must start with the country, ${d.country}_`)
    if (!d.path.startsWith(`${d.country}/`)) issue('path', `must start with the country, ${d.country}/`)
    for (const p of d.other_paths) if (!p.startsWith(`${d.country}/`)) issue('other_paths', `must start with the country, ${d.country}/`)
    if (d.banks && !('bank_details' in d.record)) issue('record', 'must have bank_details, which a bank-account check answers')
    for (const f of d.validation) if (!(f in d.record)) issue('record', `must have ${f}, which validation compares`)
    if (d.selfie && !d.validation.length) issue('selfie', 'needs data validation: a selfie comes with first_name, last_name, date_of_birth')
    if (d.confidence_rating && !d.selfie) issue('confidence_rating', 'is only given with facial matching (selfie: true)')
    for (const key of ['image', 'signature']) {
      const v = d.record[key]
      if (typeof v === 'string' && !existsSync(new URL(`identity/${v}`, FIXTURES))) issue('record', `${key}: no file fixtures/identity/${v}`)
    }
  })

const fileSchema = z.object({ _about: z.string().optional(), documents: z.array(documentSchema).min(1) }).strict()

export type IdentityDocument = z.infer<typeof documentSchema> & { regex: RegExp }

/** Read once (a fixture never changes while the process runs). */
let documents: ReadonlyMap<string, IdentityDocument> | null = null

/** The documents by type, in the file's order (read once). */
export function identityDocuments(): ReadonlyMap<string, IdentityDocument> {
  documents ??= parseDocuments(JSON.parse(readFileSync(new URL(DOCUMENTS_FILE, FIXTURES), 'utf8')), `fixtures/${DOCUMENTS_FILE}`)
  return documents
}

/** A documents file's content checked: a bad one is refused with the entry, the field and what is wrong. */
export function parseDocuments(raw: unknown, source: string): ReadonlyMap<string, IdentityDocument> {
  const parsed = fileSchema.safeParse(raw)
  if (!parsed.success) throw new Error(`${source}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  const out = new Map<string, IdentityDocument>()
  const paths = new Set<string>()
  const lists = new Set<string>()
  for (const [i, d] of parsed.data.documents.entries()) {
    if (out.has(d.type)) throw new Error(`${source}: documents.${i}.type: ${d.type} is declared twice`)
    // GET identities/<country>/banks?type=<list> names one document's banks
    if (d.banks && lists.has(`${d.country}:${d.banks.list}`)) throw new Error(`${source}: documents.${i}.banks.list: ${d.country} ${d.banks.list} is declared twice`)
    if (d.banks) lists.add(`${d.country}:${d.banks.list}`)
    for (const p of [d.path, ...d.other_paths]) {
      if (paths.has(p)) throw new Error(`${source}: documents.${i}.path: ${p} is declared twice`)
      paths.add(p)
    }
    out.set(d.type, { ...d, regex: new RegExp(d.format) })
  }
  return out
}

/** The banks of a country's bank-account checks, by list (`premium`, `basic`): docs/behaviour.md#identity-bank-account-banks. */
export function identityBankLists(country: string): ReadonlyMap<string, readonly { name: string; code: string }[]> {
  return new Map([...identityDocuments().values()].filter((d) => d.country === country && d.banks).map((d) => [d.banks!.list, d.banks!.banks]))
}

/** The document of a type, or undefined. */
export const identityDocument = (type: string): IdentityDocument | undefined => identityDocuments().get(type)

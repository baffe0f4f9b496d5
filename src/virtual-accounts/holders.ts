import type { Kit } from '../engine/kit.js'
import { ApiError, invalid } from '../errors.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { OBJECT, STRING, TIME, maybe } from '../store/validate.js'
import { ALPHANUMERIC } from '../random.js'
import { isoAt } from '../time.js'
import { VBA_MSG } from './messages.js'
import type { HolderInput, KycUpdateInput, UploadUrlInput } from './holder-schemas.js'

/**
 * USD accounts' account holders and the upload URLs of their KYC files (docs/behaviour.md#virtual-accounts-usd-kes-tzs):
 * a file reference (`KPY-FILE-...`) is made first, then a holder whose documents name such
 * references, then the holder's USD account (service.ts). The sandbox keeps no file's content
 * and reviews no holder: a holder stays `pending`.
 */

/** An upload URL asked for: the file a holder's document may name. */
export interface UploadFile {
  korapay_reference: string
  owner_reference: string
  purpose: string
  content_type: string
  upload_url_expires: string
  created_at: string
}
export const UPLOAD_FILES = 'upload_files'
export const UPLOAD_FILES_SPEC: CollectionSpec<UploadFile> = {
  name: UPLOAD_FILES,
  fields: { korapay_reference: STRING, owner_reference: STRING, purpose: STRING, content_type: STRING, upload_url_expires: TIME, created_at: TIME },
  asWritten: ['korapay_reference', 'owner_reference'],
}

/** the documents a holder may have, by name */
const DOCUMENT_NAMES = ['identification_front', 'identification_back', 'proof_of_address', 'selfie', 'source_of_inflow'] as const
/** the documents of a holder, by name: each a file reference */
export type HolderDocuments = Partial<Record<(typeof DOCUMENT_NAMES)[number], string>>

export interface AccountHolder {
  reference: string
  account_type: 'individual'
  first_name: string
  last_name: string
  email: string
  phone_number: string
  occupation: string | null
  status: 'pending'
  metadata: Record<string, unknown> | null
  date_created: string
  country: string
  date_of_birth: string
  address: { zip: string; city: string; state: string; address: string; country: string }
  documents: HolderDocuments
}
export const ACCOUNT_HOLDERS = 'account_holders'
export const ACCOUNT_HOLDERS_SPEC: CollectionSpec<AccountHolder> = {
  name: ACCOUNT_HOLDERS,
  fields: { reference: STRING, first_name: STRING, last_name: STRING, email: STRING, status: STRING, date_created: TIME, address: OBJECT, documents: OBJECT, metadata: maybe(OBJECT) },
  // a document's file reference (KPY-FILE-<yyyymmddhhmm>...) is a reference, not a card number, whatever its digits
  asWritten: ['reference', 'phone_number', ...DOCUMENT_NAMES.map((d) => `documents.${d}`)],
}

/** an upload URL lives this long (the sample's X-Amz-Expires) */
const UPLOAD_URL_MS = 3_600_000
/** the holder not found, as the area's other refusals are written (docs/behaviour.md#virtual-accounts) */
const holderNotFound = () => new ApiError(404, VBA_MSG.HOLDER_NOT_FOUND, {}, undefined, null)

/** where a document of the body names its file, and the name the details answer gives it */
const DOCUMENTS: readonly [keyof HolderDocuments, (o: KycUpdateInput) => string | undefined, string][] = [
  ['identification_front', (o) => o.identification?.document_front?.reference, 'identification.document_front.reference'],
  ['identification_back', (o) => o.identification?.document_back?.reference, 'identification.document_back.reference'],
  ['proof_of_address', (o) => o.proof_of_address?.document?.reference, 'proof_of_address.document.reference'],
  ['selfie', (o) => o.selfie?.reference, 'selfie.reference'],
  ['source_of_inflow', (o) => o.source_of_inflow_document?.reference, 'source_of_inflow_document.reference'],
]

export class AccountHolderService {
  constructor(private readonly kit: Pick<Kit, 'store' | 'clocks' | 'random'>) {}

  files(ns: string) {
    return this.kit.store.col<UploadFile>(ns, UPLOAD_FILES)
  }

  col(ns: string) {
    return this.kit.store.col<AccountHolder>(ns, ACCOUNT_HOLDERS)
  }

  /** A file reference and the URL its content is put to, for an hour (`origin`: the one the client called). */
  uploadUrl(ns: string, o: UploadUrlInput, origin: string) {
    const now = this.kit.clocks.now(ns)
    const stamp = isoAt(now).slice(0, 16).replace(/\D/g, '')
    const korapay_reference = `KPY-FILE-${stamp}${this.kit.random.text(ns, ALPHANUMERIC, 20)}`
    const file = this.files(ns).put(korapay_reference, {
      korapay_reference,
      owner_reference: o.reference,
      purpose: o.purpose,
      content_type: o.content_type,
      upload_url_expires: isoAt(now + UPLOAD_URL_MS),
      created_at: isoAt(now),
    })
    return {
      korapay_reference: file.korapay_reference,
      owner_reference: file.owner_reference,
      purpose: file.purpose,
      upload_url: `${origin}${UPLOAD_PATH}/${korapay_reference}`,
      upload_url_expires: file.upload_url_expires,
    }
  }

  /** The documents a body names, each checked to be a file reference of the namespace (a field error otherwise). */
  #documents(ns: string, o: KycUpdateInput): HolderDocuments {
    const docs: HolderDocuments = {}
    const bad: Record<string, string> = {}
    for (const [name, of, path] of DOCUMENTS) {
      const ref = of(o)
      if (ref === undefined) continue
      if (this.files(ns).has(ref)) docs[name] = ref
      else bad[path] = VBA_MSG.NOT_A_FILE
    }
    if (Object.keys(bad).length) throw invalid(bad)
    return docs
  }

  /** A new holder, `pending`. */
  create(ns: string, o: HolderInput): Frozen<AccountHolder> {
    const documents = this.#documents(ns, o)
    let reference: string
    do reference = `KPY-AH-${this.kit.random.text(ns, ALPHANUMERIC, 15)}`
    while (this.col(ns).has(reference))
    return this.col(ns).put(reference, {
      reference,
      account_type: o.type,
      first_name: o.first_name,
      last_name: o.last_name,
      email: o.email,
      phone_number: o.phone,
      occupation: o.occupation ?? null,
      status: 'pending',
      metadata: o.metadata ?? null,
      date_created: this.kit.clocks.iso(ns),
      country: o.nationality,
      date_of_birth: o.date_of_birth,
      address: { zip: o.address.zip, city: o.address.city, state: o.address.state, address: o.address.address, country: o.address.country },
      documents,
    })
  }

  /** The holder with this reference (404 otherwise). */
  get(ns: string, reference: string): Frozen<AccountHolder> {
    const holder = this.col(ns).get(reference)
    if (!holder) throw holderNotFound()
    return holder
  }

  /** New documents for a holder: those named replace the ones it had; it is `pending` again. */
  updateKyc(ns: string, reference: string, o: KycUpdateInput): Frozen<AccountHolder> {
    this.get(ns, reference)
    const documents = this.#documents(ns, o)
    return this.col(ns).update(reference, (h) => {
      Object.assign(h.documents, documents)
      h.status = 'pending'
    })
  }

  /** Every holder of the namespace, oldest first (the dashboard). */
  list(ns: string): Frozen<AccountHolder>[] {
    return [...this.col(ns).values()]
  }

  createdData(h: Frozen<AccountHolder>) {
    return { reference: h.reference, email: h.email, status: h.status, metadata: h.metadata }
  }

  detailsData(h: Frozen<AccountHolder>) {
    return {
      reference: h.reference,
      account_type: h.account_type,
      first_name: h.first_name,
      last_name: h.last_name,
      email: h.email,
      phone_number: h.phone_number,
      occupation: h.occupation,
      status: h.status,
      metadata: h.metadata,
      date_created: h.date_created,
      country: h.country,
      date_of_birth: `${h.date_of_birth}T00:00:00.000Z`,
      address: h.address,
      documents: h.documents,
    }
  }

  kycData(h: Frozen<AccountHolder>) {
    return { reference: h.reference, first_name: h.first_name, last_name: h.last_name, status: h.status }
  }
}

/** where an upload URL points: the sandbox takes the file's PUT and keeps nothing of it */
export const UPLOAD_PATH = '/_sandbox/uploads'

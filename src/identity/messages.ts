import type { IdentityDocument } from '../scenario/documents.js'

/**
 * The identity area's texts (docs/behaviour.md#identity). A document's own answer and not-found texts
 * are part of its declaration (fixtures/identity-documents.json), so they are not repeated here.
 */
export const IDENTITY_MSG = {
  CONSENT_REQUIRED: 'Verification consent is required: verification_consent must be true',
  RETRIEVED: 'Verification retrieved successfully',
  HISTORY: 'Verifications retrieved successfully',
  NOT_FOUND: 'Verification not found',
  // field messages of `Invalid request data`
  MUST_BE_TRUE: 'must be true',
  REQUIRED: 'is required',
  idTwice: (first: string) => `must be the same as ${first}, or left out: send the ID once`,
  lookupOnly: (d: IdentityDocument) => `is not offered for ${d.name}: lookup only`,
  notCompared: (d: IdentityDocument) => `is not compared for ${d.name}`,
  noFaceMatch: (d: IdentityDocument) => `facial matching is not offered for ${d.name}`,
  endBeforeStart: 'must not be before start_date',
  BANK_CODE: 'must be a bank code: 3 to 6 letters or digits',
  /** as a list's refusal reads elsewhere (src/zod-messages.ts) */
  oneOf: (values: readonly string[]) => `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`,
  // GET identities/<country>/banks (docs/behaviour.md#identity-bank-account-banks)
  BANKS: 'Banks fetched successfully',
} as const

import { z } from 'zod'

/** Zod schemas of a scenario pack (the magic test values), as shipped in scenarios/*.yaml. */

export const CARD_STEPS = ['PIN', 'OTP', '3DS', 'AVS', 'CARD_ENROLL'] as const
export type CardStep = (typeof CARD_STEPS)[number]
export const WALLET_STEPS = ['OTP', 'STK_PROMPT'] as const
export type WalletStep = (typeof WALLET_STEPS)[number]
export const SCHEMES = ['visa', 'mastercard', 'verve'] as const
export type Scheme = (typeof SCHEMES)[number]
export const OUTCOMES = ['success', 'failed', 'processing'] as const
export type Outcome = (typeof OUTCOMES)[number]

const digits = (min: number, max: number) =>
  z.string().regex(new RegExp(`^\\d{${min},${max}}$`), `must be ${min === max ? min : `${min}-${max}`} digits`)

const outcomeFields = {
  outcome: z.enum(OUTCOMES),
  message: z.string().min(1).optional(),
  label: z.string().min(1),
}

function failedNeedsMessage(v: { outcome?: unknown; message?: unknown }, ctx: z.RefinementCtx) {
  if (v.outcome === 'failed' && !v.message) {
    ctx.addIssue({ code: 'custom', path: ['message'], message: 'is required when outcome is failed' })
  }
}

/** A scenario: what it matches (and its steps), then its outcome; a failed one says its message. */
function scenario<T extends z.ZodRawShape>(fields: T) {
  return z
    .object({ ...fields, ...outcomeFields })
    .strict()
    .superRefine(failedNeedsMessage)
}

export const cardScenarioSchema = scenario({
  number: digits(12, 19),
  scheme: z.enum(SCHEMES),
  cvv: digits(3, 4),
  expiry_month: z.string().regex(/^(0[1-9]|1[0-2])$/, 'must be 2 digits, 01-12'),
  expiry_year: z.string().regex(/^(\d{2}|\d{4})$/, 'must be 2 or 4 digits'),
  pin: digits(4, 4).optional(),
  otp: digits(4, 8).optional(),
  steps: z.array(z.enum(CARD_STEPS)).default([]),
})
export type CardScenario = z.infer<typeof cardScenarioSchema>

export const walletScenarioSchema = scenario({
  number: digits(10, 15),
  currency: z.enum(['KES', 'GHS']),
  otp: digits(4, 8).optional(),
  pin: digits(4, 6).optional(),
  steps: z.array(z.enum(WALLET_STEPS)).default([]),
})
export type WalletScenario = z.infer<typeof walletScenarioSchema>

export const identityScenarioSchema = z
  .object({
    type: z.enum(['ng_bvn', 'ng_vnin', 'gh_passport']),
    id: z.string().min(1),
    found: z.boolean(),
    label: z.string().min(1),
    /** the government record returned when found (fields of docs/api.md 2.13) */
    record: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
export type IdentityScenario = z.infer<typeof identityScenarioSchema>

export const accountScenarioSchema = scenario({
  account_number: digits(10, 10),
  bank_code: z.string().min(3),
})
export type AccountScenario = z.infer<typeof accountScenarioSchema>

export const authorizationSeedSchema = z
  .object({
    reference: z.string().min(1),
    status: z.enum(['pending', 'active', 'suspended', 'deactivated', 'expired']),
    amount: z.number().positive(),
    label: z.string().min(1),
    account_name: z.string().min(1).optional(),
    account_number: digits(10, 10).optional(),
    bank_code: z.string().min(3).optional(),
  })
  .strict()
export type AuthorizationSeed = z.infer<typeof authorizationSeedSchema>

const feeRuleSchema = z
  .object({
    percent: z.number().min(0).max(100),
    flat: z.number().min(0).optional(),
    cap: z.number().min(0).optional(),
  })
  .strict()

export const settingsSchema = z
  .object({
    /** PIN that authorizes a PIN step (docs/behaviour.md 3: 1234) */
    pin: digits(4, 4),
    /** OTP that authorizes an OTP step (docs/behaviour.md 3: 123456) */
    otp: digits(4, 8),
    vat_percent: z.number().min(0).max(100),
    fees: z
      .object({
        card: feeRuleSchema,
        mobile_money: feeRuleSchema,
        direct_debit: feeRuleSchema,
      })
      .strict(),
    pre_auth_validity_hours: z.number().positive(),
    settlement_delay_hours: z.number().min(0),
    stk_delay_seconds: z.number().min(0),
    otp_attempts: z.number().int().positive(),
    debit_delay_seconds: z.number().min(0),
  })
  .strict()
export type Settings = z.infer<typeof settingsSchema>

/** A pack as written in a file: everything optional, entries win over earlier packs by key. */
export const packSchema = z
  .object({
    name: z.string().optional(),
    settings: settingsSchema.partial().extend({ fees: settingsSchema.shape.fees.partial().optional() }).optional(),
    cards: z.array(cardScenarioSchema).optional(),
    wallets: z.array(walletScenarioSchema).optional(),
    identities: z.array(identityScenarioSchema).optional(),
    accounts: z.array(accountScenarioSchema).optional(),
    authorizations: z.array(authorizationSeedSchema).optional(),
  })
  .strict()
export type Pack = z.infer<typeof packSchema>

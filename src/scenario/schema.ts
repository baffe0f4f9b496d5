import { z } from '../zod-messages.js'
import { identityDocuments } from './documents.js'
import { WALLET_CURRENCIES } from './lookups.js'
import { RATE_DECIMALS, gainingRound } from './rates.js'

/** Zod schemas of a scenario pack (the magic test values), as shipped in scenarios/*.yaml. */

export const CARD_STEPS = ['PIN', 'OTP', '3DS', 'AVS', 'CARD_ENROLL'] as const
export type CardStep = (typeof CARD_STEPS)[number]
/** a wallet's steps: an OTP, the STK prompt on the phone, or the operator's page the customer is sent to (REDIRECT, docs/behaviour.md#mobile-money-operator-page) */
export const WALLET_STEPS = ['OTP', 'STK_PROMPT', 'REDIRECT'] as const
export type WalletStep = (typeof WALLET_STEPS)[number]
export const SCHEMES = ['visa', 'mastercard', 'verve'] as const
export type Scheme = (typeof SCHEMES)[number]
export const OUTCOMES = ['success', 'failed', 'processing'] as const
export type Outcome = (typeof OUTCOMES)[number]

/**
 * Bounds of what a pack may hold (docs/behaviour.md#scenario-packs), so that whatever is accepted keeps every
 * date valid (a delay of at most ten years, on a clock that stops at the year 9999) and every
 * amount finite, and a pack stays small enough to store and show.
 */
export const PACK_LIMITS = {
  /** nesting of the whole document, the pack itself being level 1 */
  depth: 16,
  /** entries of each list (cards, wallets, identities, accounts, authorizations) */
  entries: 10_000,
  /** fields of an identity's record */
  recordFields: 200,
  /** characters of a label, a message, a name */
  text: 500,
  /** characters of an id, a reference, a bank code */
  id: 100,
  /** delays and validity: ten years */
  hours: 10 * 365 * 24,
  seconds: 10 * 365 * 24 * 3600,
  /** fee amounts (flat, cap) and authorization amounts, in major units */
  amount: 1_000_000_000_000,
  otpAttempts: 100,
} as const

export const text = () => z.string().min(1).max(PACK_LIMITS.text)
export const ident = () => z.string().min(1).max(PACK_LIMITS.id)
const list = <T extends z.ZodType>(entry: T) => z.array(entry).max(PACK_LIMITS.entries)
export const hours = () => z.number().max(PACK_LIMITS.hours, `must be at most ${PACK_LIMITS.hours} (ten years)`)
export const seconds = () => z.number().min(0).max(PACK_LIMITS.seconds, `must be at most ${PACK_LIMITS.seconds} (ten years)`)
export const amount = () => z.number().max(PACK_LIMITS.amount)

const digits = (min: number, max: number) =>
  z.string().regex(new RegExp(`^\\d{${min},${max}}$`), `must be ${min === max ? min : `${min}-${max}`} digits`)

const outcomeFields = {
  outcome: z.enum(OUTCOMES),
  message: text().optional(),
  label: text(),
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
  steps: z.array(z.enum(CARD_STEPS)).max(CARD_STEPS.length).default([]),
  /** always disputed: its successful charge opens a chargeback of the whole amount at once (docs/behaviour.md#chargebacks) */
  chargeback: z.boolean().optional(),
})
export type CardScenario = z.infer<typeof cardScenarioSchema>

/** a currency code; which ones a wallet or a payout takes is the fixtures' (docs/behaviour.md#mobile-money-charge, docs/behaviour.md#payouts) */
export const currencyCode = () => z.string().regex(/^[A-Z]{3}$/, 'must be a currency code such as KES')

export const walletScenarioSchema = scenario({
  number: digits(10, 15),
  // the currencies mobile money is charged in: fixtures/lookups.json's
  currency: z.enum(WALLET_CURRENCIES),
  otp: digits(4, 8).optional(),
  pin: digits(4, 6).optional(),
  steps: z.array(z.enum(WALLET_STEPS)).max(WALLET_STEPS.length).default([]),
  /** the holder's name `misc/mobile-money/resolve` answers (docs/behaviour.md#look-ups); one derived from the number when absent */
  name: text().optional(),
  /** false: no such wallet at the operator, resolve answers `Invalid account.` */
  found: z.boolean().optional(),
})
export type WalletScenario = z.infer<typeof walletScenarioSchema>

export const identityScenarioSchema = z
  .object({
    /** a document of fixtures/identity-documents.json */
    type: z.string().superRefine((t, ctx) => {
      if (!identityDocuments().has(t)) ctx.addIssue({ code: 'custom', message: `must be one of ${[...identityDocuments().keys()].join(', ')}` })
    }),
    id: ident(),
    found: z.boolean(),
    /** the registry does not answer for this ID: 503 `Service currently unavailable`, nothing kept (a sandbox-only outcome, docs/behaviour.md#identity-checks) */
    unavailable: z.boolean().optional(),
    label: text(),
    /** the government record returned when found (fields of docs/api.md 2.13); its depth is checked with the pack's */
    record: z
      .record(z.string(), z.unknown())
      .refine((r) => Object.keys(r).length <= PACK_LIMITS.recordFields, `must have at most ${PACK_LIMITS.recordFields} fields`)
      .optional(),
  })
  .strict()
  .refine((x) => !(x.unavailable && x.found), { path: ['unavailable'], message: 'cannot be true with found: true' })
export type IdentityScenario = z.infer<typeof identityScenarioSchema>

export const accountScenarioSchema = scenario({
  account_number: digits(10, 10),
  bank_code: z.string().min(3).max(PACK_LIMITS.id),
})
export type AccountScenario = z.infer<typeof accountScenarioSchema>

/**
 * A bank of pay with bank (docs/behaviour.md#pay-with-bank): listed by `GET .../pay-with-bank/banks` for its
 * currency, and what it does once the customer approves on its page: succeeds, fails with
 * `message`, or never confirms (processing until a control call ends it).
 */
export const PAY_WITH_BANK_CURRENCIES = ['NGN', 'ZAR'] as const
export const bankScenarioSchema = scenario({
  bank_code: digits(3, 10),
  currency: z.enum(PAY_WITH_BANK_CURRENCIES),
  name: text(),
})
export type BankScenario = z.infer<typeof bankScenarioSchema>

/**
 * A test voucher (docs/behaviour.md#vouchers): its PIN, what it is worth (ZAR), and what charging it
 * does: succeeds (once: it is then used), or fails with `message` (a voucher already spent).
 */
export const voucherScenarioSchema = scenario({
  pin: digits(16, 16),
  value: amount().positive(),
}).superRefine((v, ctx) => {
  if (v.outcome === 'processing') ctx.addIssue({ code: 'custom', path: ['outcome'], message: 'must be success or failed: a voucher is charged at once' })
})
export type VoucherScenario = z.infer<typeof voucherScenarioSchema>

/** How a bank transfer of this amount arrives by itself (docs/behaviour.md#bank-transfer). */
export const TRANSFER_ARRIVALS = ['exact', 'short', 'over', 'never'] as const
export const transferScenarioSchema = z
  .object({
    /** the charge's amount, major units */
    amount: amount().positive(),
    arrives: z.enum(TRANSFER_ARRIVALS),
    /** after how long, on the namespace clock (the settings' transfer_delay_seconds when absent) */
    after_seconds: seconds().optional(),
    label: text(),
  })
  .strict()
export type TransferScenario = z.infer<typeof transferScenarioSchema>

/**
 * A payout test destination (docs/behaviour.md#payouts): a bank account (`bank` its code; a USD or GBP
 * account: its routing number, or `IBAN` for one paid by IBAN) or a mobile-money wallet (`bank` the
 * operator's slug), and what a payout to it does: succeeds, fails with `message` on the clock,
 * stays processing, or is refused at once as an invalid account.
 */
export const PAYOUT_OUTCOMES = ['success', 'failed', 'processing', 'invalid'] as const
export const payoutScenarioSchema = z
  .object({
    bank: ident(),
    account: z.string().regex(/^[A-Z0-9]{6,34}$/, 'must be 6-34 digits or capital letters (an IBAN)'),
    outcome: z.enum(PAYOUT_OUTCOMES),
    message: text().optional(),
    label: text(),
  })
  .strict()
  .superRefine(failedNeedsMessage)
export type PayoutScenario = z.infer<typeof payoutScenarioSchema>

export const authorizationSeedSchema = z
  .object({
    reference: ident(),
    status: z.enum(['pending', 'active', 'suspended', 'deactivated', 'expired']),
    amount: amount().positive(),
    label: text(),
    account_name: text().optional(),
    account_number: digits(10, 10).optional(),
    bank_code: z.string().min(3).max(PACK_LIMITS.id).optional(),
  })
  .strict()
export type AuthorizationSeed = z.infer<typeof authorizationSeedSchema>

const feeRuleSchema = z
  .object({
    percent: z.number().min(0).max(100),
    flat: amount().min(0).optional(),
    cap: amount().min(0).optional(),
  })
  .strict()

/** a conversion rate: positive, at most a million, at most RATE_DECIMALS decimals */
const conversionRateSchema = z
  .number()
  .positive()
  .max(1_000_000)
  .refine((r) => Math.round(r * 10 ** RATE_DECIMALS) / 10 ** RATE_DECIMALS === r, `must have at most ${RATE_DECIMALS} decimals`)

export const settingsSchema = z
  .object({
    /** PIN that authorizes a PIN step (docs/behaviour.md#card-charges: 1234) */
    pin: digits(4, 4),
    /** OTP that authorizes an OTP step (docs/behaviour.md#card-charges: 123456) */
    otp: digits(4, 8),
    vat_percent: z.number().min(0).max(100),
    fees: z
      .object({
        card: feeRuleSchema,
        mobile_money: feeRuleSchema,
        direct_debit: feeRuleSchema,
        bank_transfer: feeRuleSchema,
        pay_with_bank: feeRuleSchema,
        voucher: feeRuleSchema,
        /** a payout's fee, in the payout's currency (docs/behaviour.md#payouts) */
        payout: feeRuleSchema,
        /** a stablecoin payout's (USDT, USDC: docs/behaviour.md#stablecoin-payouts), in its stablecoin */
        stablecoin_payout: feeRuleSchema,
      })
      .strict(),
    settlement_delay_hours: hours().min(0),
    /** a bank transfer arrives by itself this long after its account is issued */
    transfer_delay_seconds: seconds(),
    /** what every namespace opens with, available, in each balance currency (major units) */
    opening_balance: amount().min(0),
    /**
     * a rate per pair of balance currencies, `BASE/QUOTE: r` (one BASE buys r QUOTE), used both
     * ways unless `QUOTE/BASE` is rated too; no round of conversions may gain at these rates
     * (docs/behaviour.md#conversions): checked on each pack and on the packs merged
     */
    conversion_rates: z
      .record(z.string().regex(/^[A-Z]{3}\/[A-Z]{3}$/, 'must be a pair such as USD/NGN'), conversionRateSchema)
      .superRefine((rates, ctx) => {
        // a bad rate is already refused, with its own reason
        if (!Object.values(rates).every((r) => conversionRateSchema.safeParse(r).success)) return
        const round = gainingRound(rates)
        if (round) ctx.addIssue({ code: 'custom', message: `must not let a round of conversions end with more than it started: ${round.join(' -> ')}` })
      }),
    /** metadata keys may hold `_` too, as the live test environment was seen taking (docs/behaviour.md#scenario-packs) */
    metadata_underscores: z.boolean(),
    /** where a live recording contradicts docs/api.md: answer as it (default) or as recorded (live; docs/behaviour.md#live-profile) */
    profile: z.enum(['default', 'live']),
  })
  .strict()
export type Settings = z.infer<typeof settingsSchema>

/** A pack as written in a file: everything optional, entries win over earlier packs by key. */
export const packSchema = z
  .object({
    name: z.string().max(PACK_LIMITS.text).optional(),
    settings: settingsSchema.partial().extend({ fees: settingsSchema.shape.fees.partial().optional() }).optional(),
    cards: list(cardScenarioSchema).optional(),
    wallets: list(walletScenarioSchema).optional(),
    identities: list(identityScenarioSchema).optional(),
    accounts: list(accountScenarioSchema).optional(),
    authorizations: list(authorizationSeedSchema).optional(),
    transfers: list(transferScenarioSchema).optional(),
    payouts: list(payoutScenarioSchema).optional(),
    banks: list(bankScenarioSchema).optional(),
    vouchers: list(voucherScenarioSchema).optional(),
  })
  .strict()
export type Pack = z.infer<typeof packSchema>

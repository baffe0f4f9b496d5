import { MAX_LENGTH, METADATA_DEPTH, amountSchema, atMost, checkUnit, httpUrlSchema, metadataSchema } from '../engine/schemas.js'
import { depthAtMost } from '../store/validate.js'
import { realDay } from '../time.js'
import { listQuerySchema } from '../http/cursor-list.js'
import { z } from '../zod-messages.js'
import { AVAILABILITY_CURRENCIES, PAYOUT_CURRENCY_LIST } from '../scenario/lookups.js'
import { NETWORKS, STABLECOINS } from '../stablecoins/index.js'
import { bankAccountExtras, bankAccountIssues, destinationExtras, type AccountNames, type BankAccountFields, type Beside } from './bank-fields.js'

/** docs/behaviour.md#payouts: the payout requests. */

/** a payout's reference: at least 5 characters (the live service's rule), at most 100 */
export const payoutReferenceSchema = z.string().trim().min(5, 'must be at least 5 characters').max(MAX_LENGTH.reference, atMost(MAX_LENGTH.reference))

const customerSchema = z.object({
  email: z.string().email().max(MAX_LENGTH.email, atMost(MAX_LENGTH.email)),
  name: z.string().max(MAX_LENGTH.name, atMost(MAX_LENGTH.name)).optional(),
})

/** a bank account's code (none for USD and GBP) and number: what each currency needs is bank-fields.ts's */
const bankCode = z.string().trim().min(1).max(20, atMost(20))
const accountNumber = z.string().trim().min(1, 'is required').max(34, atMost(34))
const bankAccountSchema = z.object({ bank: bankCode.optional(), account: accountNumber, ...bankAccountExtras })

const mobileMoneySchema = z.object({
  operator: z.string().trim().min(1).max(50, atMost(50)),
  mobile_number: z.string().regex(/^\+?\d{9,15}$/, 'must be 9-15 digits'),
})

/**
 * A stablecoin wallet a payout sends USDT or USDC to (docs/behaviour.md#stablecoin-payouts): its network (the
 * wallets' own, docs/behaviour.md#stablecoin-wallets) and its address, written as that network writes them.
 */
const cryptoSchema = z.object({
  network: z.enum(NETWORKS),
  destination_address: z.string().trim().min(1, 'is required').max(100, atMost(100)),
})
/** an address as each network writes it: ETH `0x` and 40 hexadecimal digits, TRX `T` and 33 base58, SOL 32 to 44 base58 */
const ADDRESS: Record<(typeof NETWORKS)[number], RegExp> = {
  ETH: /^0x[0-9a-fA-F]{40}$/,
  TRX: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  SOL: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
}

/** The destinations a payout goes to, declared once: a batch pays the first two (the bulk samples'); a single payout any. */
export const PAYOUT_TYPES = ['bank_account', 'mobile_money', 'crypto'] as const
const payoutType = z.enum(PAYOUT_TYPES)
const batchType = z.enum(PAYOUT_TYPES.filter((t) => t !== 'crypto') as ['bank_account', 'mobile_money'])

/** the currencies a stablecoin payout sends: the wallets' (USDT, USDC) */
export const isStablecoin = (currency: string): boolean => (STABLECOINS as readonly string[]).includes(currency)

/** A payout, alone or in a batch, needs the destination its `type` names. */
function destinationOfType(d: { type: z.infer<typeof payoutType>; bank_account?: unknown; mobile_money?: unknown; crypto?: unknown }, ctx: z.RefinementCtx): void {
  if (!d[d.type]) ctx.addIssue({ code: 'custom', path: [d.type], message: 'is required' })
}

/** A bank payout has the fields its currency needs (bank-fields.ts), reported under `prefix`. */
function bankFieldsOf(currency: string, d: { type: string; bank_account?: BankAccountFields } & Beside, code: string | undefined, number: string | undefined, names: AccountNames, ctx: z.RefinementCtx, prefix: (string | number)[] = []): void {
  if (d.type !== 'bank_account' || !d.bank_account) return
  bankAccountIssues(currency, d.bank_account, code, number!, d, names, (path, message) => ctx.addIssue({ code: 'custom', path: [...prefix, ...path], message }))
}

/** the disburse call's names of an account's code and number, and a batch item's */
const SINGLE: AccountNames = { code: 'bank', number: 'account' }
const BULK: AccountNames = { code: 'bank_code', number: 'account_number' }

export const destinationSchema = z
  .object({
    type: payoutType,
    amount: amountSchema({ allowString: true }),
    // a stablecoin's code has four letters (USDT, USDC)
    currency: z.string().regex(/^[A-Z]{3,4}$/, 'must be a currency code such as NGN'),
    narration: z.string().max(MAX_LENGTH.description, atMost(MAX_LENGTH.description)).optional(),
    bank_account: bankAccountSchema.optional(),
    mobile_money: mobileMoneySchema.optional(),
    crypto: cryptoSchema.optional(),
    customer: customerSchema,
    ...destinationExtras,
  })
  .superRefine((d, ctx) => {
    destinationOfType(d, ctx)
    if (d.type === 'crypto' && d.crypto && !ADDRESS[d.crypto.network].test(d.crypto.destination_address)) ctx.addIssue({ code: 'custom', path: ['crypto', 'destination_address'], message: `must be a valid ${d.crypto.network} address` })
    checkUnit(ctx, d.currency, d.amount, ['amount'])
    bankFieldsOf(d.currency, d, d.bank_account?.bank, d.bank_account?.account, SINGLE, ctx)
  })
export type Destination = z.infer<typeof destinationSchema>

export const disburseSchema = z.object({
  reference: payoutReferenceSchema,
  destination: destinationSchema,
  metadata: metadataSchema.optional(),
  notification_url: httpUrlSchema.optional(),
})

const senderText = z.string().trim().min(1, 'is required').max(MAX_LENGTH.name, atMost(MAX_LENGTH.name))

/**
 * `remittance_data`: the sender's and the purpose's details (SPEC-BEYOND-3 4.5). The service's
 * sample refuses an empty one with `remittance_data.sender_name is required`; which of the others
 * it requires is not shown, so they are taken when sent, each a text (`sender_dob` a day, kept as
 * the query shows it, `1990-05-15T00:00:00.000Z`; `sender_country_iso` two capitals), and the
 * fields no source names are kept as sent.
 */
const remittanceDataSchema = z
  .object({
    sender_name: senderText,
    sender_phone_number: z.string().regex(/^\+?\d{6,15}$/, 'must be 6-15 digits').optional(),
    sender_dob: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD', abort: true })
      .refine(realDay, 'must be a real calendar date')
      .transform((d) => `${d}T00:00:00.000Z`)
      .optional(),
    sender_country_iso: z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code such as NG').optional(),
    ...Object.fromEntries(
      (['sender_nationality', 'sender_id_type', 'sender_id_number', 'sender_service_provider_name', 'remittance_purpose', 'sender_recipient_relationship', 'source_of_funds', 'sender_occupation'] as const).map((f) => [f, senderText.optional()]),
    ),
  })
  .passthrough()
  .refine((r) => Object.keys(r).length <= 50, 'must have at most 50 fields')
  .refine((r) => depthAtMost(r, METADATA_DEPTH), `may nest at most ${METADATA_DEPTH} levels`)

/** `.../disburse/remittance`: the same, with the sender's and the purpose's details */
export const remittanceSchema = disburseSchema.extend({ remittance_data: remittanceDataSchema })

const TYPE_ALIASES: Record<string, string> = { 'bank-account': 'bank_account', 'mobile-money': 'mobile_money', bank: 'bank_account', momo: 'mobile_money' }

const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined)

/** A copy of `o` where each field takes the first of its aliases sent when it is not itself, the aliases dropped. */
function aliased(o: Record<string, unknown>, names: Record<string, string[]>): Record<string, unknown> {
  const out = { ...o }
  for (const [name, aliases] of Object.entries(names)) {
    for (const a of aliases) {
      if (out[name] === undefined && out[a] !== undefined) out[name] = out[a]
      delete out[a]
    }
  }
  return out
}

/** a wallet's number: `phone` / `phone_number` for `mobile_number` */
const WALLET_ALIASES = { mobile_number: ['phone', 'phone_number'] }

/**
 * The field names public clients send besides the documented ones (docs/behaviour.md#payouts):
 * `bank_code` / `account_number` for `bank` / `account` (inside `bank_account` or flat on the
 * destination), `phone` / `phone_number` for `mobile_number`, `bank-account` / `mobile-money` for
 * the type, `bank_account.bank_country` for `destination.bank_country` (the Postman USD sample). The documented name wins when both are sent. Returns a new body; the input is kept.
 */
export function normalizeDisburse(body: Record<string, unknown>): Record<string, unknown> {
  const d = obj(body.destination)
  if (!d) return body
  const dest: Record<string, unknown> = { ...d }
  if (typeof dest.type === 'string' && TYPE_ALIASES[dest.type]) dest.type = TYPE_ALIASES[dest.type]
  const flat = dest.bank_code !== undefined || dest.account_number !== undefined
  if (dest.type === 'bank_account' && (obj(dest.bank_account) || flat)) {
    const b: Record<string, unknown> = { ...(obj(dest.bank_account) ?? {}) }
    b.bank ??= b.bank_code ?? dest.bank_code
    b.account ??= b.account_number ?? dest.account_number
    delete b.bank_code
    delete b.account_number
    delete dest.bank_code
    delete dest.account_number
    // the Postman USD sample sends bank_country inside bank_account
    if (dest.bank_country === undefined && b.bank_country !== undefined) dest.bank_country = b.bank_country
    delete b.bank_country
    dest.bank_account = b
  }
  const m = obj(dest.mobile_money)
  if (m) dest.mobile_money = aliased(m, WALLET_ALIASES)
  return { ...body, destination: dest }
}

/**
 * `payouts/availability`: "currently only available for South African payouts" (the payout
 * documentation): the bank-payout currencies fixtures/lookups.json marks `availability`
 */
export const availabilitySchema = z.object({ type: z.enum(['bank_account']), currency: z.enum(AVAILABILITY_CURRENCIES as [string, ...string[]]) }).passthrough()

export const PAYOUT_STATUSES = ['processing', 'success', 'failed'] as const

/** GET /payouts: the list's query, with `status` */
export const payoutListSchema = listQuerySchema.extend({ status: z.enum(PAYOUT_STATUSES).optional() })

/** POST /_sandbox/payouts/{reference}/complete */
export const completePayoutSchema = z.object({
  outcome: z.enum(['success', 'failed']).optional(),
  reason: z.string().min(1).max(255, atMost(255)).optional(),
})

/** docs/behaviour.md#bulk-payouts: a bulk payout's references, 5 to 50 characters */
const bulkReference = z.string().trim().min(5, 'must be at least 5 characters').max(50, atMost(50))

/** One payout of a batch, as the documentation writes it (`bank_code` / `account_number`). */
const bulkItemSchema = z
  .object({
    reference: bulkReference,
    amount: amountSchema({ allowString: true }),
    type: batchType.default('bank_account'),
    narration: z.string().max(MAX_LENGTH.description, atMost(MAX_LENGTH.description)).optional(),
    bank_account: z.object({ bank_code: bankCode.optional(), account_number: accountNumber, ...bankAccountExtras }).optional(),
    mobile_money: mobileMoneySchema.optional(),
    customer: customerSchema,
    ...destinationExtras,
  })
  .superRefine(destinationOfType)
export type BulkItem = z.infer<typeof bulkItemSchema>

/** a batch pays out in any currency a single payout takes */
export const BULK_CURRENCIES = PAYOUT_CURRENCY_LIST

export const bulkSchema = z
  .object({
    batch_reference: bulkReference,
    description: z.string().max(MAX_LENGTH.description, atMost(MAX_LENGTH.description)).optional(),
    merchant_bears_cost: z.boolean().optional(),
    currency: z.enum(BULK_CURRENCIES),
    payouts: z.array(bulkItemSchema).min(2, 'must hold at least 2 payouts').max(50, 'must hold at most 50 payouts'),
  })
  .superRefine((b, ctx) => {
    const seen = new Set<string>()
    b.payouts.forEach((p, i) => {
      bankFieldsOf(b.currency, p, p.bank_account?.bank_code, p.bank_account?.account_number, BULK, ctx, ['payouts', i])
      checkUnit(ctx, b.currency, p.amount, ['payouts', i, 'amount'])
      if (seen.has(p.reference)) ctx.addIssue({ code: 'custom', path: ['payouts', i, 'reference'], message: 'is used by another payout of the batch' })
      seen.add(p.reference)
    })
  })
export type BulkInput = z.infer<typeof bulkSchema>

/** the items list: page by page */
export const bulkItemsQuerySchema = z
  .object({
    page: z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).refine((n) => n >= 1, 'must be 1 or more').optional(),
    limit: z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).refine((n) => n >= 1 && n <= 100, 'must be from 1 to 100').optional(),
  })
  .passthrough()

/** Aliases public clients send inside a batch's items: `bank` / `account`, `phone`. */
export function normalizeBulk(body: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(body.payouts)) return body
  const payouts = body.payouts.map((item) => {
    const p = obj(item)
    if (!p) return item
    const out: Record<string, unknown> = { ...p }
    if (typeof out.type === 'string' && TYPE_ALIASES[out.type]) out.type = TYPE_ALIASES[out.type]
    const b = obj(out.bank_account)
    if (b) out.bank_account = aliased(b, { bank_code: ['bank'], account_number: ['account'] })
    const m = obj(out.mobile_money)
    if (m) out.mobile_money = aliased(m, WALLET_ALIASES)
    return out
  })
  return { ...body, payouts }
}

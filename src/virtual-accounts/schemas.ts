import { TRANSFER_LIMITS } from '../bank-transfer/index.js'
import { MAX_LENGTH, amountSchema, atMost } from '../engine/schemas.js'
import { z } from '../zod-messages.js'
import { realDay } from '../time.js'

/** docs/behaviour.md#virtual-accounts: the virtual bank account calls' requests. */

/**
 * The banks a virtual account is opened at: `000` is the live test environment's, the others the
 * live service's list, each with the name its account answers carry.
 */
export const VBA_BANKS: readonly (readonly [code: string, name: string])[] = [
  ['000', 'Sandbox Bank'],
  ['035', 'Wema Bank'],
  ['070', 'Fidelity Bank'],
  ['103', 'Globus Bank'],
  ['033', 'United Bank for Africa'],
  ['090405', 'Moniepoint MFB'],
  ['107', 'Optimus Bank'],
  ['104', 'Parallex Bank'],
  ['214', 'First City Monument Bank'],
]
const BANK_NAMES = new Map(VBA_BANKS)
/** the bank name of a code of VBA_BANKS */
export const bankName = (code: string): string => BANK_NAMES.get(code)!

/** the credit call's amounts, NGN major units: what one transfer may carry (docs/behaviour.md#bank-transfer) */
export const CREDIT_LIMITS = TRANSFER_LIMITS
/** the credit call's amounts in an account's other currency, major units (decided here: no page shows them) */
export const OTHER_CREDIT_LIMITS = { min: 1, max: TRANSFER_LIMITS.max }

/**
 * The currencies an account is opened in (docs/behaviour.md#virtual-accounts, docs/behaviour.md#virtual-accounts-usd-kes-tzs): NGN, a holder's USD,
 * KES and TZS at Choice Bank (RWF, which the page lists too, is no balance currency of the sandbox).
 */
export const VBA_CURRENCIES = ['NGN', 'USD', 'KES', 'TZS'] as const
export type VbaCurrency = (typeof VBA_CURRENCIES)[number]
export const OTHER_CURRENCIES = ['KES', 'TZS'] as const
export const CHOICE_BANK = 'Choice Bank'
/** the bank of a USD account's payment schemes (the collection's sample) */
export const USD_BANK = {
  bank_name: 'Cross River Bank',
  routing_code: '021214891',
  bank_address: { city: 'Fort Lee', postal_code: '07024', country_code: 'US', address_line1: '2115 Linwood Ave' },
}

/** the path of the transactions list, which an account reference cannot take */
export const RESERVED_REFERENCE = 'transactions'

const text = (max: number) => z.string().trim().min(1, 'is required').max(max, atMost(max))
const elevenDigits = z.string().regex(/^\d{11}$/, 'must be 11 digits')

export const createSchema = z
  .object({
    account_name: text(MAX_LENGTH.name),
    account_reference: text(MAX_LENGTH.reference).refine((r) => r !== RESERVED_REFERENCE, `must not be "${RESERVED_REFERENCE}" (the transactions list's path)`),
    permanent: z.boolean().refine((p) => p, 'must be true: only permanent accounts are offered'),
    bank_code: z.string().refine((c) => BANK_NAMES.has(c), `must be one of ${VBA_BANKS.map(([c]) => c).join(', ')}`),
    customer: z.object({
      name: text(MAX_LENGTH.name),
      email: z.string().email().max(MAX_LENGTH.email, atMost(MAX_LENGTH.email)).optional(),
    }),
    kyc: z.object({ bvn: elevenDigits, nin: elevenDigits.optional() }),
  })
  .passthrough()
export type CreateInput = z.infer<typeof createSchema>

/**
 * The older create body some clients still send, with `bvn` (and `nin`) at the top and no `kyc`
 * (CONTRACT 14): taken as `kyc.bvn` (and `kyc.nin`). A body with `kyc` is left as it is.
 */
export function normalizeCreate(body: Record<string, unknown>): Record<string, unknown> {
  if (body.kyc !== undefined || body.bvn === undefined) return body
  const { bvn, nin, ...rest } = body
  return { ...rest, kyc: nin === undefined ? { bvn } : { bvn, nin } }
}

/** the create body's `currency`, read first: it says which body the rest is (NGN when absent) */
export const currencyOfSchema = z.object({ currency: z.string().pipe(z.enum(VBA_CURRENCIES)).optional() }).passthrough()

/** docs/behaviour.md#virtual-accounts-usd-kes-tzs: a holder's USD account */
export const usdCreateSchema = z
  .object({
    currency: z.literal('USD'),
    account_holder_reference: text(MAX_LENGTH.reference),
    account_reference: text(MAX_LENGTH.reference).refine((r) => r !== RESERVED_REFERENCE, `must not be "${RESERVED_REFERENCE}" (the transactions list's path)`),
  })
  .passthrough()
export type UsdCreateInput = z.infer<typeof usdCreateSchema>

/** docs/behaviour.md#virtual-accounts-usd-kes-tzs: a KES or TZS account */
export const otherCreateSchema = z
  .object({
    currency: z.enum(OTHER_CURRENCIES),
    account_name: text(MAX_LENGTH.name),
    account_reference: text(MAX_LENGTH.reference).refine((r) => r !== RESERVED_REFERENCE, `must not be "${RESERVED_REFERENCE}" (the transactions list's path)`),
    permanent: z.boolean().refine((p) => p, 'must be true: only permanent accounts are offered'),
    customer: z.object({ name: text(MAX_LENGTH.name), email: z.string().email().max(MAX_LENGTH.email, atMost(MAX_LENGTH.email)).optional() }),
  })
  .passthrough()
export type OtherCreateInput = z.infer<typeof otherCreateSchema>

const accountNumber = z.string().regex(/^(\d{10}|\d{12})$/, 'must be 10 digits (a USD account\'s: 12)')

export const creditSchema = z
  .object({
    account_number: accountNumber,
    amount: amountSchema({ allowString: true }),
    currency: z.string().pipe(z.enum(VBA_CURRENCIES)),
  })
  .passthrough()
  .superRefine((o, ctx) => {
    // an NGN transfer carries what a bank transfer may (docs/behaviour.md#bank-transfer); another currency's, OTHER_CREDIT_LIMITS
    const { min, max } = o.currency === 'NGN' ? CREDIT_LIMITS : OTHER_CREDIT_LIMITS
    if (typeof o.amount === 'number' && (o.amount < min * 100 || o.amount > max * 100)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: `must be between ${min} and ${max}` })
    }
  })

const DATE = /^\d{4}-\d{2}-\d{2}$/
const date = z.string().refine((d) => DATE.test(d) && realDay(d), 'must be a date, YYYY-MM-DD')
const positiveInt = (max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `must be from 1 to ${max}`)

/** the most transactions one page lists */
export const PAGE_LIMIT = { default: 100, max: 100 }

export const transactionsQuerySchema = z
  .object({
    account_number: accountNumber,
    start_date: date.optional(),
    end_date: date.optional(),
    page: positiveInt(1_000_000).optional(),
    limit: positiveInt(PAGE_LIMIT.max).optional(),
  })
  .passthrough()
  .superRefine((q, ctx) => {
    if (q.start_date && q.end_date && q.end_date < q.start_date) ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'must not be before start_date' })
  })
export type TransactionsQuery = z.infer<typeof transactionsQuerySchema>

/** docs/behaviour.md#virtual-accounts: the answers (written here: they are built in code, not validated). */
const ngnAccountSchema = z.object({
  account_name: z.string(),
  account_number: z.string().describe('10 digits, from the namespace and the account reference'),
  bank_code: z.string().nullable().describe('null for KES and TZS'),
  bank_name: z.string(),
  account_reference: z.string(),
  unique_id: z.string(),
  account_status: z.literal('active'),
  created_at: z.string(),
  currency: z.enum(VBA_CURRENCIES),
  customer: z.object({ name: z.string(), email: z.string().nullable().optional().describe('read back only: the e-mail given, or null') }),
})
export const virtualAccountSchema = z.union([
  ngnAccountSchema,
  z.object({ currency: z.enum(VBA_CURRENCIES), account_reference: z.string(), unique_id: z.string(), account_status: z.enum(['pending', 'active']) }).passthrough().describe("a USD account, and a KES or TZS account's create answer (docs/behaviour.md#virtual-accounts-usd-kes-tzs)"),
])

export const virtualAccountTransactionsSchema = z.object({
  total_amount_recieved: z.number().optional().describe('the transfers the dates select, all pages, major units: so spelt on every account but a USD one (the NGN page)'),
  total_amount_received: z.number().optional().describe('the same number on a USD account, so spelt (the USD sample)'),
  account_number: z.string(),
  currency: z.enum(VBA_CURRENCIES),
  transactions: z.array(z.object({
    reference: z.string().describe('KPY-PAY-...: query it with GET /merchant/api/v1/charges/{reference}'),
    status: z.literal('success'),
    amount: z.string(),
    fee: z.string(),
    currency: z.string(),
    description: z.string(),
    transaction_date: z.string().optional().describe('a USD account\'s transfers only (the USD sample)'),
    payer_bank_account: z.object({ account_number: z.string(), account_name: z.string(), bank_name: z.string() }),
  })).describe('newest first'),
  pagination: z.object({ page: z.number(), total: z.number(), pageCount: z.number().describe('transactions on this page'), totalPages: z.number() }),
})

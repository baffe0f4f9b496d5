import { TRANSFER_LIMITS } from '../bank-transfer/schemas.js'
import { MAX_LENGTH, amountSchema, atMost } from '../charges/schemas.js'
import { z } from '../http/zod-messages.js'
import { realDay } from '../time.js'

/** docs/behaviour.md 13.3: the virtual bank account calls' requests. */

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

/** the credit call's amounts, NGN major units: what one transfer may carry (docs/behaviour.md 13.2) */
export const CREDIT_LIMITS = TRANSFER_LIMITS

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

const tenDigits = z.string().regex(/^\d{10}$/, 'must be 10 digits')

export const creditSchema = z
  .object({
    account_number: tenDigits,
    amount: amountSchema({ allowString: true, within: CREDIT_LIMITS }),
    currency: z.string().refine((c) => c === 'NGN', 'must be NGN'),
  })
  .passthrough()

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
    account_number: z.string().regex(/^\d{10}$/, 'must be 10 digits'),
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

/** docs/behaviour.md 13.3: the answers (written here: they are built in code, not validated). */
export const virtualAccountSchema = z.object({
  account_name: z.string(),
  account_number: z.string().describe('10 digits, from the namespace and the account reference'),
  bank_code: z.string(),
  bank_name: z.string(),
  account_reference: z.string(),
  unique_id: z.string(),
  account_status: z.literal('active'),
  created_at: z.string(),
  currency: z.literal('NGN'),
  customer: z.object({ name: z.string(), email: z.string().nullable().optional().describe('read back only: the e-mail given, or null') }),
})

export const virtualAccountTransactionsSchema = z.object({
  total_amount_received: z.number().describe('the transfers the dates select, all pages, major units'),
  total_amount_recieved: z.number().describe('the same number, as the service\'s documentation spells it'),
  account_number: z.string(),
  currency: z.literal('NGN'),
  transactions: z.array(z.object({
    reference: z.string().describe('KPY-PAY-...: query it with GET /merchant/api/v1/charges/{reference}'),
    status: z.literal('success'),
    amount: z.string(),
    fee: z.string(),
    currency: z.string(),
    description: z.string(),
    transaction_date: z.string(),
    payer_bank_account: z.object({ account_number: z.string(), account_name: z.string(), bank_name: z.string() }),
  })).describe('newest first'),
  pagination: z.object({ page: z.number(), total: z.number(), pageCount: z.number().describe('transactions on this page'), totalPages: z.number() }),
})

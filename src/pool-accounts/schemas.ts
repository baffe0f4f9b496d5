import { MAX_LENGTH, amountSchema, atMost } from '../engine/schemas.js'
import { z } from '../zod-messages.js'

/** docs/behaviour.md#pool-accounts: the pool account calls' requests, and Kora's shared accounts. */

/** the currencies a pool account is opened in (the page's list) */
export const POOL_CURRENCIES = ['GHS', 'KES', 'XAF', 'XOF', 'ZAR'] as const
export type PoolCurrency = (typeof POOL_CURRENCIES)[number]
/** the currencies whose customers may pay by mobile money (the page: GHS; the collection's sample: KES) */
export const MOBILE_MONEY_POOLS: readonly PoolCurrency[] = ['GHS', 'KES']
export const ACCOUNT_TYPES = ['bank_account', 'mobile_money'] as const
export type PoolAccountType = (typeof ACCOUNT_TYPES)[number]

/** the credit call's amounts, in the pool's currency (major units): decided here, the pages show none */
export const POOL_CREDIT_LIMITS = { min: 1, max: 10_000_000 }

/**
 * How an answer writes the shared account, each as its newest sample (CONTRACT 15): the create
 * answer, its duplicate and the event as the page (2026-04, `branch_address`); the charge query as
 * the page (`bank_address`); the read-back as the collection (2026-05, no `account_name`).
 */
export type DetailsView = 'answer' | 'query' | 'read'

/**
 * The account every customer of a currency pays into (the page: Kora's shared account; the pool
 * reference, as the transfer's narration, tells whose payment it is). The values are the
 * collection's samples, the same in every currency but the bank's name.
 */
export function sharedBankAccount(currency: string, view: DetailsView) {
  const head = { currency, bank_code: '123456', bank_name: `Kora ${currency} Bank`, swift_code: 'KORABANK123' }
  const account_name = 'Kora Technologies Ltd'
  const address = '123 Kora Street, City, Country'
  if (view === 'read') return { ...head, account_number: '1234567890', branch_address: address }
  if (view === 'query') return { ...head, account_name, bank_address: address, account_number: '1234567890' }
  return { ...head, account_name, account_number: '1234567890', branch_address: address }
}
/** The mobile-money wallet a pool of `account_type: mobile_money` is paid into (the collection's GHS sample). */
export const sharedWallet = (currency: string) => ({ currency, account_name: 'Kora 2342', mobile_number: '233812343' })

/** What a pool of `type` is paid into, in `currency`. */
export const sharedAccount = (type: PoolAccountType, currency: string, view: DetailsView) => (type === 'mobile_money' ? sharedWallet(currency) : sharedBankAccount(currency, view))

const text = (max: number) => z.string().trim().min(1, 'is required').max(max, atMost(max))

export const createSchema = z
  .object({
    customer_name: text(MAX_LENGTH.name),
    customer_email: z.string().trim().email().max(MAX_LENGTH.email, atMost(MAX_LENGTH.email)),
    currency: z.string().pipe(z.enum(POOL_CURRENCIES)),
    account_type: z.string().pipe(z.enum(ACCOUNT_TYPES)).optional(),
  })
  .passthrough()
  .superRefine((o, ctx) => {
    if (o.account_type === 'mobile_money' && !MOBILE_MONEY_POOLS.includes(o.currency)) {
      ctx.addIssue({ code: 'custom', path: ['account_type'], message: `mobile_money is offered in ${MOBILE_MONEY_POOLS.join(' and ')} only` })
    }
  })
export type CreateInput = z.infer<typeof createSchema>

export const creditSchema = z
  .object({
    reference: text(MAX_LENGTH.reference),
    amount: amountSchema({ allowString: true, within: POOL_CREDIT_LIMITS }),
    currency: z.string().pipe(z.enum(POOL_CURRENCIES)),
  })
  .passthrough()
export type CreditInput = z.infer<typeof creditSchema>

/** docs/behaviour.md#pool-accounts: the answers (written here: they are built in code, not validated). */
const bankDetails = z.object({ currency: z.string(), bank_code: z.string(), bank_name: z.string(), swift_code: z.string(), account_name: z.string(), account_number: z.string(), branch_address: z.string() })
const walletDetails = z.object({ currency: z.string(), account_name: z.string(), mobile_number: z.string() })

export const poolAccountSchema = z.object({
  reference: z.string().describe('SBKP + 8 characters + the currency: the narration a customer writes on a transfer'),
  customer_name: z.string(),
  customer_email: z.string(),
  currency: z.enum(POOL_CURRENCIES),
  date_created: z.string(),
  account_details: z.union([bankDetails, walletDetails]).describe("Kora's shared account (or wallet) the customer pays into"),
})

export const poolAccountReadSchema = z.object({
  reference: z.string(),
  customer_name: z.string(),
  customer_email: z.string(),
  currency: z.enum(POOL_CURRENCIES),
  account_details: z.union([bankDetails.omit({ account_name: true }), walletDetails]),
  created_at: z.string().describe('to the second, as read back (.000Z)'),
})

export const poolCreditSchema = z.object({
  currency: z.enum(POOL_CURRENCIES),
  amount_paid: z.number(),
  transaction_reference: z.string().describe('KPY-PA-...: the pay-in, queried with GET /merchant/api/v1/charges/{reference}'),
  transaction_date: z.string(),
})

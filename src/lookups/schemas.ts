import { z } from '../zod-messages.js'
import { COUNTRIES, WALLET_CURRENCIES, operatorOf, walletCurrency } from '../scenario/lookups.js'
import { walletNumberIssue } from '../mobile-money/index.js'
import { nigerianBank } from './service.js'

/** docs/behaviour.md#look-ups: the look-ups' requests. */

const country = z.enum(COUNTRIES, { error: (iss) => (iss.input === undefined ? 'is required' : undefined) })

export const countryQuerySchema = z.object({ countryCode: country }).passthrough()

/** the banks' query: without `countryCode`, Nigeria's (CONTRACT 14: public clients' tests expect them) */
export const banksQuerySchema = z.object({ countryCode: country.default('NG') }).passthrough()

export const resolveSchema = z
  .object({
    bank: z.string().refine((c) => nigerianBank(c) !== undefined, 'must be the code of a bank of GET /merchant/api/v1/misc/banks?countryCode=NG'),
    account: z.string().regex(/^\d{10}$/, 'must be 10 digits'),
    currency: z.literal('NGN').optional(),
  })
  .passthrough()

/** the wallet resolve's body, camelCase as the service's (docs/behaviour.md#look-ups) */
export const walletResolveSchema = z
  .object({
    mobileMoneyCode: z.string().min(1, 'is required'),
    phoneNumber: z.string().regex(/^\+?\d{10,15}$/, 'must be the wallet number in international format, digits only'),
    currency: z.enum(WALLET_CURRENCIES),
  })
  .passthrough()
  .superRefine((v, ctx) => {
    const issue = walletNumberIssue(v.currency, v.phoneNumber)
    if (issue) ctx.addIssue({ code: 'custom', path: ['phoneNumber'], message: issue })
    const country = walletCurrency(v.currency)!.country
    if (!operatorOf(country, v.mobileMoneyCode)) ctx.addIssue({ code: 'custom', path: ['mobileMoneyCode'], message: `must be the code of a mobile-money operator of GET /merchant/api/v1/misc/mobile-money?countryCode=${country}` })
  })
export type WalletResolveInput = z.infer<typeof walletResolveSchema>

/** The answers (written here: they are built in code, not validated). */
export const banksSchema = z.array(z.object({ name: z.string(), slug: z.string(), code: z.string(), nibss_bank_code: z.string().nullable().describe('NIBSS institution code; null outside Nigeria'), country: z.string() }))
export const operatorsSchema = z.array(z.object({ name: z.string(), slug: z.string(), code: z.string().describe("what a payout's `operator` takes"), country: z.string(), min: z.number(), max: z.number() }))
export const resolvedWalletSchema = z.object({ mobile_money_operator: z.string(), mobile_money_code: z.string(), phone_number: z.string(), account_name: z.string() })
export const resolvedAccountSchema = z.object({ bank_name: z.string(), bank_code: z.string(), account_number: z.string(), account_name: z.string() })
export const payoutPurposesSchema = z.array(z.object({ countryCode: z.string(), code: z.string().describe("what a USD or GBP payout's `purpose_of_payment` takes"), name: z.string(), description: z.string() }))
export const payoutBankCountriesSchema = z.array(z.object({ country: z.string(), countryCode: z.string().describe("what a USD or GBP payout's `destination.bank_country` takes"), currencyCode: z.string(), metadata: z.null() }))

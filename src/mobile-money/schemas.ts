import { amountSchema, checkUnit, httpUrlSchema, metadataSchema, referenceSchema } from '../engine/schemas.js'
import { z } from '../zod-messages.js'
import { WALLET_CURRENCIES, walletCurrency } from '../scenario/lookups.js'

/**
 * docs/behaviour.md#mobile-money-charge's wallet rule, the one place it is decided (the charge, the checkout's
 * attempt and its page ask it): what is wrong with a wallet number for a currency (a leading `+`
 * dropped), or null. The country code and the digits after it are the fixture's, per currency.
 */
export function walletNumberIssue(currency: string, number: string): string | null {
  const w = walletCurrency(currency)
  if (!w) return null
  const digits = number.replace(/^\+/, '')
  if (!digits.startsWith(w.dial_code)) return `must start with country code ${w.dial_code} for ${currency}`
  if (digits.length !== w.dial_code.length + w.digits) return `must be ${w.dial_code} followed by ${w.digits} digits`
  return null
}

/** docs/api.md 2.6 and 8, with docs/behaviour.md#mobile-money's wallet rule. */

export const mobileMoneyChargeSchema = z
  .object({
    reference: referenceSchema,
    amount: amountSchema(),
    currency: z.enum(WALLET_CURRENCIES),
    redirect_url: httpUrlSchema.optional(),
    customer: z.object({
      name: z.string().max(100, 'must be at most 100 characters').optional(),
      email: z.string().email().max(254),
    }),
    mobile_money: z.object({
      number: z.string().regex(/^\+?\d{10,15}$/, 'must be the wallet number in international format, digits only'),
    }),
    notification_url: httpUrlSchema.optional(),
    merchant_bears_cost: z.boolean().optional(),
    description: z.string().max(255, 'must be at most 255 characters').optional(),
    metadata: metadataSchema.optional(),
  })
  // the wallet rule is asked by the charge, once the fields are valid (docs/behaviour.md#mobile-money-charge: its own refusal)
  .superRefine((v, ctx) => checkUnit(ctx, v.currency, v.amount, ['amount']))
export type MobileMoneyChargeInput = z.infer<typeof mobileMoneyChargeSchema>

export const mmAuthorizeSchema = z.object({
  reference: z.string().min(1, 'is required'),
  token: z.string().regex(/^\d{4,8}$/, 'must be the 4-8 digit OTP'),
})

export const stkAuthorizeSchema = z.object({
  reference: z.string().min(1, 'is required'),
  pin: z.string().regex(/^\d{4,6}$/, 'must be 4-6 digits'),
})

/** resend calls: `transaction_reference` (docs/behaviour.md#mobile-money), `reference` also accepted */
export const resendSchema = z
  .object({ transaction_reference: z.string().min(1).optional(), reference: z.string().min(1).optional() })
  .refine((v) => v.transaction_reference || v.reference, { message: 'is required', path: ['transaction_reference'] })

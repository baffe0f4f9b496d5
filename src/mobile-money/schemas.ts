import { amountSchema, httpUrlSchema, metadataSchema, referenceSchema } from '../charges/schemas.js'
import { z } from '../http/zod-messages.js'

/** docs/api.md 2.6 and 8, with docs/behaviour.md 5's wallet rule. */
export const WALLET_PREFIX = { KES: '254', GHS: '233' } as const

export const mobileMoneyChargeSchema = z
  .object({
    reference: referenceSchema,
    amount: amountSchema(),
    currency: z.enum(['KES', 'GHS']),
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
  .superRefine((v, ctx) => {
    const prefix = WALLET_PREFIX[v.currency as keyof typeof WALLET_PREFIX]
    const number = v.mobile_money.number.replace(/^\+/, '')
    if (prefix && !number.startsWith(prefix)) {
      ctx.addIssue({ code: 'custom', path: ['mobile_money', 'number'], message: `must start with country code ${prefix} for ${v.currency}` })
    } else if (prefix && number.length !== 12) {
      ctx.addIssue({ code: 'custom', path: ['mobile_money', 'number'], message: `must be ${prefix} followed by 9 digits` })
    }
  })
export type MobileMoneyChargeInput = z.infer<typeof mobileMoneyChargeSchema>

export const mmAuthorizeSchema = z.object({
  reference: z.string().min(1, 'is required'),
  token: z.string().regex(/^\d{4,8}$/, 'must be the 4-8 digit OTP'),
})

export const stkAuthorizeSchema = z.object({
  reference: z.string().min(1, 'is required'),
  pin: z.string().regex(/^\d{4,6}$/, 'must be 4-6 digits'),
})

/** resend calls: `transaction_reference` (docs/behaviour.md 5), `reference` also accepted */
export const resendSchema = z
  .object({ transaction_reference: z.string().min(1).optional(), reference: z.string().min(1).optional() })
  .refine((v) => v.transaction_reference || v.reference, { message: 'is required', path: ['transaction_reference'] })

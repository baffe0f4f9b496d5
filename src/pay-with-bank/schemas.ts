import { MAX_LENGTH, amountSchema, atMost, httpUrlSchema, metadataSchema, referenceSchema } from '../engine/schemas.js'
import { z } from '../zod-messages.js'
import { formatMoney, toMinor } from '../money.js'
import { PAY_WITH_BANK_CURRENCIES } from '../scenario/schema.js'

/** docs/behaviour.md#pay-with-bank: the pay with bank charge request, and its bank list's query and answers. */

/** the smallest amount of one charge, major units: NGN's documented minimum, and the sandbox's for ZAR */
export const PAY_WITH_BANK_MIN: Record<(typeof PAY_WITH_BANK_CURRENCIES)[number], number> = { NGN: 200, ZAR: 1 }

const currency = z.enum(PAY_WITH_BANK_CURRENCIES)

export const payWithBankSchema = z
  .object({
    reference: referenceSchema,
    // a numeric string too, as public clients send amounts (CONTRACT 14)
    amount: amountSchema({ allowString: true }),
    currency,
    bank_code: z.string().trim().min(1, 'is required').max(MAX_LENGTH.reference, atMost(MAX_LENGTH.reference)),
    customer: z.object({
      name: z.string().trim().min(1, 'is required').max(MAX_LENGTH.name, atMost(MAX_LENGTH.name)),
      email: z.string().email().max(MAX_LENGTH.email, atMost(MAX_LENGTH.email)),
    }),
    redirect_url: httpUrlSchema.optional(),
    notification_url: httpUrlSchema.optional(),
    narration: z.string().max(MAX_LENGTH.description, atMost(MAX_LENGTH.description)).optional(),
    merchant_bears_cost: z.boolean().optional(),
    metadata: metadataSchema.optional(),
  })
  .superRefine((v, ctx) => {
    const min = PAY_WITH_BANK_MIN[v.currency]
    if (typeof v.amount === 'number' && v.amount < toMinor(min)) ctx.addIssue({ code: 'custom', path: ['amount'], message: `must be at least ${formatMoney(v.currency, toMinor(min))}` })
  })
export type PayWithBankInput = z.infer<typeof payWithBankSchema>

export const banksQuerySchema = z.object({ currency: currency.default('NGN') }).passthrough()

/** The answers (written here: they are built in code, not validated). */
export const payWithBankBanksSchema = z.array(z.object({ code: z.string(), name: z.string(), slug: z.string(), country: z.string().describe('NG or ZA') }))
const redirect = z.object({ redirect_url: z.string().describe("the sandbox bank's page: `<origin>/_sandbox/pay-with-bank/<transaction reference>`") })
export const payWithBankAnswerSchema = z.object({
  currency: z.string(),
  amount: z.number(),
  amount_expected: z.number().optional().describe('ZAR: what the customer pays, the amount plus fee and VAT unless the merchant bears them'),
  fee: z.number(),
  vat: z.number(),
  transaction_reference: z.string(),
  payment_reference: z.string(),
  status: z.string(),
  merchant_bears_cost: z.boolean(),
  customer: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
  narration: z.string(),
  authorization: redirect,
  bank_account: z.object({ bank_name: z.string() }),
  message: z.string().optional().describe('NGN'),
})

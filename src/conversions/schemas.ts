import { MAX_LENGTH, amountSchema, atMost, checkUnit } from '../engine/schemas.js'
import { z } from '../zod-messages.js'
import { realDay } from '../time.js'

/** docs/behaviour.md#conversions: the conversion requests. */

const currency = z.string().regex(/^[A-Z]{3}$/, 'must be a currency code such as NGN')

const optionalText = (max: number) => z.string().max(max, atMost(max)).optional()

export const quoteSchema = z.object({
  from_currency: currency,
  to_currency: currency,
  amount: amountSchema({ allowString: true }),
  /** the merchant's own note of who converts (a customer or session id): kept, not answered */
  reference: optionalText(MAX_LENGTH.reference),
}).superRefine((v, ctx) => checkUnit(ctx, v.from_currency, v.amount, ['amount']))
export type QuoteInput = z.infer<typeof quoteSchema>

export const convertSchema = z.object({
  rate_reference: z.string().trim().min(1).max(MAX_LENGTH.reference, atMost(MAX_LENGTH.reference)),
  amount: amountSchema({ allowString: true }),
  from_currency: currency,
  to_currency: currency,
  customer_name: optionalText(MAX_LENGTH.name),
  customer_email: z.string().email().max(MAX_LENGTH.email, atMost(MAX_LENGTH.email)).optional(),
  narration: optionalText(MAX_LENGTH.description),
}).superRefine((v, ctx) => checkUnit(ctx, v.from_currency, v.amount, ['amount']))
export type ConvertInput = z.infer<typeof convertSchema>

const day = /^\d{4}-\d{2}-\d{2}$/
const whole = (max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `must be from 1 to ${max}`)
    .optional()

/**
 * The history's query: `page` (from 1) and `limit` (20 unless asked, at most 100), as the live
 * documentation gives them, and `date`: one day (`YYYY-MM-DD`) or a range of two joined by a comma.
 */
export const historyQuerySchema = z
  .object({
    page: whole(1_000_000),
    limit: whole(100),
    date: z
      .string()
      .refine((s) => s.split(',').length <= 2 && s.split(',').every((d) => day.test(d.trim()) && realDay(d.trim())), 'must be a day as YYYY-MM-DD, or two joined by a comma')
      .optional(),
  })
  .passthrough()
export type HistoryQuery = z.infer<typeof historyQuerySchema>

export const quoteAnswerSchema = z.object({
  from_currency: z.string(),
  to_currency: z.string(),
  from_amount: z.number(),
  to_amount: z.number(),
  rate: z.number(),
  reference: z.string().describe('the rate reference to convert with'),
  expiry_in_seconds: z.number(),
  expiry_date: z.string(),
})

const conversionFields = {
  source_currency: z.string(),
  destination_currency: z.string(),
  exchange_rate: z.string(),
  source_amount: z.string(),
  converted_amount: z.string(),
  status: z.literal('success'),
  reference: z.string(),
}

export const convertAnswerSchema = z.object(conversionFields)

export const conversionAnswerSchema = z.object({
  ...conversionFields,
  channel: z.literal('api'),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  narration: z.string().nullable(),
  transaction_date: z.string(),
})

export const historyAnswerSchema = z.object({
  history: z.array(conversionAnswerSchema.extend({ account: z.object({ name: z.string(), email: z.string() }) })),
})

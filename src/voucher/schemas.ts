import { MAX_LENGTH, amountSchema, atMost, httpUrlSchema, metadataSchema, referenceSchema } from '../engine/schemas.js'
import { z } from '../zod-messages.js'

/** docs/behaviour.md#vouchers: the voucher charge's request (ZAR), and its answer. */

/** the providers the sandbox takes: 1Voucher, the sample's `0001` */
export const VOUCHER_PROVIDERS = ['0001'] as const

export const voucherSchema = z.object({
  reference: referenceSchema,
  // a numeric string too, as public clients send amounts (CONTRACT 14)
  amount: amountSchema({ allowString: true }),
  currency: z.literal('ZAR'),
  voucher: z.object({
    pin: z.string().trim().min(1, 'is required').max(32, atMost(32)),
    phone_number: z.string().trim().min(1, 'is required').max(20, atMost(20)),
    provider_code: z.string().trim().min(1, 'is required').max(10, atMost(10)),
  }),
  customer: z.object({
    email: z.string().email().max(MAX_LENGTH.email, atMost(MAX_LENGTH.email)),
    name: z.string().max(MAX_LENGTH.name, atMost(MAX_LENGTH.name)).optional(),
  }),
  description: z.string().max(MAX_LENGTH.description, atMost(MAX_LENGTH.description)).optional(),
  notification_url: httpUrlSchema.optional(),
  merchant_bears_cost: z.boolean().optional(),
  metadata: metadataSchema.optional(),
})
export type VoucherInput = z.infer<typeof voucherSchema>

/** What the charge answers (written here: it is built in code, not validated). */
export const voucherAnswerSchema = z.object({
  currency: z.string(),
  amount: z.number().describe("what the voucher paid: its whole value, which is at most the amount asked"),
  fee: z.number(),
  vat: z.number(),
  transaction_reference: z.string(),
  payment_reference: z.string(),
  status: z.literal('success'),
  voucher: z.object({
    serial_number: z.string().describe('20 digits: the moment of the charge (YYYYMMDDHHMMSS) and 6 more'),
    balance: z.number().describe('the value the voucher held'),
    pin: z.string(),
    expiry_date: z.string().describe('`YYYY-MM-DD HH:MM:SS`, a year after the charge'),
  }),
  customer: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
})

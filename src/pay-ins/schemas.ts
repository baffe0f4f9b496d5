import { listQuerySchema } from '../http/cursor-list.js'
import { z } from '../zod-messages.js'

/** what a pay-in of the list shows as its status (a pre-authorization: the state of its hold) */
export const PAYIN_STATUSES = ['pending', 'processing', 'success', 'failed', 'expired', 'pre_authorized', 'voided'] as const

/** GET /merchant/api/v1/pay-ins: the list query and the pay-in's status (docs/behaviour.md#pay-ins-list) */
export const payinQuerySchema = listQuerySchema.extend({ status: z.enum(PAYIN_STATUSES).optional() })
export type PayinQuery = z.infer<typeof payinQuerySchema>

/** Its answer's `data`, for the OpenAPI document. */
export const payinsAnswerSchema = z.object({
  has_more: z.boolean(),
  payins: z.array(z.object({
    pointer: z.string().describe('the transaction reference: the cursor of starting_after / ending_before'),
    reference: z.string().describe("the merchant's payment reference"),
    status: z.string(),
    amount: z.string(),
    amount_paid: z.string(),
    amount_expected: z.string(),
    fee: z.string().nullable().describe('null while the pay-in is open'),
    currency: z.string(),
    description: z.string().nullable(),
    payment_method: z.string().nullable(),
    message: z.string(),
    date_created: z.string(),
    date_completed: z.string().nullable(),
    payment_sources: z.object({
      amount_paid: z.string(),
      narration: z.string().nullable(),
      payment_source_type: z.string().nullable().describe('the channel that paid it (payment_method)'),
      message: z.string(),
      status: z.string(),
    }).describe('one object, not an array, as the SDKs read it'),
  })).describe('newest first'),
})

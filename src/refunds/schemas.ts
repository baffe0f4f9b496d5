import { amountIssue, atMost, isHttpUrl } from '../engine/schemas.js'
import { listQuerySchema } from '../http/cursor-list.js'
import { z } from '../zod-messages.js'
import { parseAmount } from '../money.js'

/** docs/behaviour.md#refunds: POST /merchant/api/v1/refunds/initiate */
export const REFUND_TEXT_MAX = 200

const text = z.string().max(REFUND_TEXT_MAX, atMost(REFUND_TEXT_MAX))

export const initiateSchema = z.object({
  payment_reference: z.string().trim().min(1, 'is required').max(100, atMost(100)),
  reference: z.string().trim().min(1, 'is required').max(50, atMost(50)),
  // omitted: the whole pay-in
  amount: z
    .unknown()
    .superRefine((v, ctx) => {
      const message = v === undefined ? undefined : amountIssue(v)
      if (message) ctx.addIssue({ code: 'custom', message })
    })
    .transform((v) => (v === undefined ? undefined : parseAmount(v)!))
    .optional(),
  reason: text.optional(),
  webhook_url: text.refine(isHttpUrl, 'must be an http(s) URL').optional(),
  completion_status: z.enum(['success', 'failed']).optional(),
  status_reason: text.optional(),
})

/** docs/behaviour.md#refunds: the control call that finishes a processing refund */
export const completeRefundSchema = z.object({
  outcome: z.enum(['success', 'failed']).optional(),
  reason: text.optional(),
})

export const refundListSchema = listQuerySchema.extend({
  status: z.enum(['processing', 'success', 'failed']).optional(),
  payment_reference: z.string().max(100, atMost(100)).optional(),
})

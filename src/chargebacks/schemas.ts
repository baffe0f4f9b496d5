import { atMost } from '../engine/schemas.js'
import { listQuerySchema } from '../http/cursor-list.js'
import { z } from '../zod-messages.js'
import { initiateSchema } from '../refunds/index.js'
import { PACK_LIMITS } from '../scenario/schema.js'

/** docs/behaviour.md#chargebacks: the chargebacks' requests. */
export const CHARGEBACK_TEXT_MAX = 500

const text = z.string().trim().min(1, 'is required').max(CHARGEBACK_TEXT_MAX, atMost(CHARGEBACK_TEXT_MAX))
/** an amount in major units, as a refund's (minor units once parsed; omitted: undefined) */
const amount = initiateSchema.shape.amount

export const CHARGEBACK_STATUSES = ['pending', 'accepted', 'auto_accepted', 'declined', 'partial', 'won', 'lost'] as const
export type ChargebackStatus = (typeof CHARGEBACK_STATUSES)[number]

/**
 * PATCH /api/v1/chargebacks/:reference (SPEC-BEYOND-3 1.2): `status`; `evidence` when declined or
 * partial; the merchant's `reason` unless accepted (the field whose name the page lost); `amount`,
 * what a partial answer accepts (its name not shown either).
 */
export const answerSchema = z
  .object({
    status: z.enum(['accepted', 'declined', 'partial']),
    evidence: text.optional(),
    reason: text.optional(),
    amount,
  })
  .superRefine((v, ctx) => {
    const answered = v.status === 'declined' || v.status === 'partial'
    if (answered && v.evidence === undefined) ctx.addIssue({ code: 'custom', path: ['evidence'], message: 'is required when status is declined or partial' })
    if (answered && v.reason === undefined) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'is required when status is not accepted' })
    if (v.status === 'partial' && v.amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'is required when status is partial' })
    if (v.status !== 'partial' && v.amount !== undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'is only taken when status is partial' })
  })
export type AnswerInput = z.infer<typeof answerSchema>

/** The control call that opens a chargeback, as the customer's bank would (docs/behaviour.md#chargebacks). */
export const openSchema = z.object({
  amount,
  reason: text.optional(),
  deadline_hours: z.number().positive().max(PACK_LIMITS.hours, `must be at most ${PACK_LIMITS.hours} (ten years)`).optional(),
})
export type OpenInput = z.infer<typeof openSchema>

/** The control call that decides a declined or partly accepted chargeback now. */
export const decideSchema = z.object({ outcome: z.enum(['won', 'lost']) })

export const chargebackListSchema = listQuerySchema.extend({
  status: z.enum(CHARGEBACK_STATUSES).optional(),
  payment_reference: z.string().max(100, atMost(100)).optional(),
})

import { httpUrlSchema } from '../cards/schemas.js'
import { z } from '../http/zod-messages.js'

export const advanceSchema = z
  .object({
    seconds: z.number().min(0, 'must be zero or more').max(10 * 365 * 24 * 3600, 'must be at most ten years').optional(),
    to: z.union([z.string().min(1), z.number()]).optional(),
  })
  .refine((b) => (b.seconds === undefined) !== (b.to === undefined), { message: 'send exactly one of seconds or to', path: ['seconds'] })

export const completeSchema = z.object({
  outcome: z.enum(['success', 'failed']),
  message: z.string().min(1).max(300).optional(),
})

export const webhookUrlSchema = z.object({ url: httpUrlSchema.nullable() })

export const requestsQuerySchema = z.object({
  method: z.string().regex(/^[A-Za-z]{1,10}$/, 'must be an HTTP method').optional(),
  path: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1, 'must be 1 or more').max(100_000).optional(),
  format: z.enum(['json', 'flow']).optional(),
})

export const eventsQuerySchema = z.object({
  reference: z.string().max(200).optional(),
  event: z.string().max(50).optional(),
  status: z.enum(['pending', 'delivered', 'failed', 'no_target']).optional(),
  wait: z.coerce.number().int().min(0, 'must be zero or more').optional(),
})

export const freezeSchema = z.object({ frozen: z.boolean() })

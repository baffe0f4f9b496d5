import { httpUrlSchema } from '../engine/schemas.js'
import { z } from '../zod-messages.js'
import { API_KINDS, SERVER_ERRORS, WEBHOOK_KINDS, type FaultInput } from '../faults.js'

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

/** POST /_sandbox/webhooks/probe (docs/behaviour.md#webhook-probe): the handler, and how long it has to answer (the --webhook-timeout's range; default: the sandbox's) */
export const probeSchema = z.object({
  url: httpUrlSchema,
  timeout_ms: z.number().int().min(1, 'must be 1 or more').max(600_000, 'must be at most 600000').optional(),
})

export const requestsQuerySchema = z.object({
  method: z.string().regex(/^[A-Za-z]{1,10}$/, 'must be an HTTP method').optional(),
  path: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1, 'must be 1 or more').max(100_000).optional(),
  format: z.enum(['json', 'flow']).optional(),
})

/** `GET /_sandbox/report` (docs/behaviour.md#readiness-report): the key's namespace, or every namespace */
export const reportQuerySchema = z.object({
  scope: z.enum(['namespace', 'all']).optional(),
})

export const eventsQuerySchema = z.object({
  reference: z.string().max(200).optional(),
  event: z.string().max(50).optional(),
  status: z.enum(['pending', 'delivered', 'failed', 'no_target']).optional(),
  wait: z.coerce.number().int().min(0, 'must be zero or more').optional(),
})

export const freezeSchema = z.object({ frozen: z.boolean() })

/** POST /_sandbox/faults (the registry is src/faults.ts). */
export const faultSchema: z.ZodType<FaultInput> = z
  .object({
    kind: z.enum([...API_KINDS, ...WEBHOOK_KINDS]),
    method: z.string().regex(/^(\*|[A-Za-z]{1,10})$/, 'must be an HTTP method or *').optional(),
    path: z.string().min(1).max(500).regex(/^\//, 'must start with / (use * as a wildcard)').optional(),
    event: z.string().min(1).max(50).optional(),
    times: z.number().int().min(1).max(1_000_000).optional(),
    probability: z.number().gt(0).max(1).optional(),
    seed: z.number().int().optional(),
    status: z.number().int().min(500).max(599).optional(),
    message: z.enum(SERVER_ERRORS).optional(),
    delay_ms: z.number().int().min(0).max(120_000).optional(),
  })
  .superRefine((f, ctx) => {
    const api = (API_KINDS as readonly string[]).includes(f.kind)
    if (api && !f.path) ctx.addIssue({ code: 'custom', path: ['path'], message: `is required for ${f.kind}` })
    if (!api && (f.path || f.method)) ctx.addIssue({ code: 'custom', path: ['path'], message: 'webhook faults match by event, not path' })
    if (f.kind === 'latency' && f.delay_ms === undefined) ctx.addIssue({ code: 'custom', path: ['delay_ms'], message: 'is required for latency' })
  })

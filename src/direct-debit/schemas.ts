import { readFileSync } from 'node:fs'
import { amountSchema } from '../engine/schemas.js'
import { z } from '../zod-messages.js'
import { realDay } from '../time.js'

/** An authorization's (a mandate's) statuses (docs/api.md 2.9). */
export const AUTH_STATUSES = ['pending', 'active', 'suspended', 'deactivated', 'expired'] as const

/** docs/api.md 2.11: the 28 supported bank codes, with their names (fixture data). */
export const BANKS: Record<string, string> = JSON.parse(
  readFileSync(new URL('../../fixtures/banks.json', import.meta.url), 'utf8'),
) as Record<string, string>

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(realDay, 'must be a real calendar date')

export const AUTH_TYPES = ['variable', 'fixed'] as const

export const createAuthorizationSchema = z
  .object({
    account_number: z.string().regex(/^\d{10}$/, 'must be 10 digits'),
    bank_code: z.string().refine((c) => c in BANKS, 'must be a supported bank code (docs/api.md 2.11)'),
    account_name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
    amount: amountSchema(),
    type: z.enum(AUTH_TYPES).optional(),
    start_date: date.optional(),
    end_date: date.optional(),
    reference: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8-64 letters, digits, _ or -').optional(),
  })
  .refine((v) => !v.start_date || !v.end_date || v.end_date >= v.start_date, { message: 'must not be before start_date', path: ['end_date'] })
export type CreateAuthorizationInput = z.infer<typeof createAuthorizationSchema>

export const debitSchema = z.object({
  amount: amountSchema(),
  narration: z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters'),
  currency: z.literal('NGN'),
  reference: z.string().trim().min(8, 'must be at least 8 characters').max(100, 'must be at most 100 characters').optional(),
})
export type DebitInput = z.infer<typeof debitSchema>

/** docs/behaviour.md#direct-debit-authorizations: `POST /merchant/api/v1/direct-debit/initiate`, a mandate the customer activates by a token payment. */
export const FREQUENCIES = ['days', 'weeks', 'months'] as const
export const initiateSchema = z
  .object({
    amount: amountSchema({ allowString: true }),
    currency: z.literal('NGN'),
    debit_type: z.enum(AUTH_TYPES),
    description: z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters'),
    start_date: date,
    end_date: date,
    customer: z.object({
      name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
      email: z.string().email().max(100, 'must be at most 100 characters'),
      account_number: z.string().regex(/^\d{10}$/, 'must be 10 digits'),
      bank_code: z.string().refine((c) => c in BANKS, 'must be a supported bank code (docs/api.md 2.11)'),
      billing_address: z.string().max(255, 'must be at most 255 characters').optional(),
      phone_number: z.string().max(20, 'must be at most 20 characters').optional(),
    }),
    // a fixed mandate's schedule
    initial_debit_date: date.optional(),
    frequency: z.enum(FREQUENCIES).optional(),
    interval: z.number().int().positive().max(365).optional(),
    retrial_frequency: z.number().int().min(0).max(30).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.end_date < v.start_date) ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'must not be before start_date' })
    if (v.debit_type !== 'fixed') return
    for (const f of ['initial_debit_date', 'frequency', 'interval'] as const) {
      if (v[f] === undefined) ctx.addIssue({ code: 'custom', path: [f], message: 'is required for a fixed debit_type' })
    }
  })
export type InitiateInput = z.infer<typeof initiateSchema>

/** What the initiate call answers (written here: it is built in code, not validated). */
export const initiateAnswerSchema = z.object({
  status: z.literal('pending'),
  reference: z.string().describe('`KPY-DD-AUTH-...`: the GET path takes it (or the code)'),
  authorization_code: z.string().describe('`KPY-AUTH-...`: the debit path takes it (or the reference)'),
  amount: z.number(),
  currency: z.literal('NGN'),
  debit_type: z.enum(AUTH_TYPES),
  description: z.string().describe('what the customer must do to activate it: the token payment'),
  customer_account_number: z.string(),
  customer_bank_code: z.string(),
  customer_account_name: z.string(),
  customer_bank_name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
})

export const transitionReasonSchema = z.object({ reason: z.string().trim().min(1).max(255).optional() })

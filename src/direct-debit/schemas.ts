import { readFileSync } from 'node:fs'
import { amountSchema } from '../charges/schemas.js'
import { z } from '../http/zod-messages.js'
import { realDay } from '../time.js'

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

export const transitionReasonSchema = z.object({ reason: z.string().trim().min(1).max(255).optional() })

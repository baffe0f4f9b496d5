import { z } from '../http/zod-messages.js'
import { COUNTRIES, nigerianBank } from './service.js'

/** docs/behaviour.md 13.5: the look-ups' requests. */

export const countryQuerySchema = z
  .object({ countryCode: z.enum(COUNTRIES, { error: (iss) => (iss.input === undefined ? 'is required' : undefined) }) })
  .passthrough()

export const resolveSchema = z
  .object({
    bank: z.string().refine((c) => nigerianBank(c) !== undefined, 'must be the code of a bank of GET /merchant/api/v1/misc/banks?countryCode=NG'),
    account: z.string().regex(/^\d{10}$/, 'must be 10 digits'),
    // public clients send the optional fields they were not given as null
    currency: z.literal('NGN').nullable().optional(),
  })
  .passthrough()
export type ResolveInput = z.infer<typeof resolveSchema>

import { MAX_LENGTH, amountSchema, atMost, httpUrlSchema, metadataSchema, referenceSchema } from '../engine/schemas.js'
import { z } from '../zod-messages.js'

/** docs/behaviour.md#bank-transfer: the bank-transfer charge request. */

/** what one transfer may carry, major units (the live service's limits) */
export const TRANSFER_LIMITS = { min: 100, max: 10_000_000 }

export const bankTransferSchema = z.object({
  reference: referenceSchema,
  // a numeric string too, as Elixir and Java clients send it (CONTRACT 14)
  amount: amountSchema({ allowString: true, within: TRANSFER_LIMITS }),
  currency: z.literal('NGN'),
  customer: z.object({
    email: z.string().email().max(MAX_LENGTH.email, atMost(MAX_LENGTH.email)),
    name: z.string().max(MAX_LENGTH.name, atMost(MAX_LENGTH.name)).optional(),
  }),
  account_name: z.string().min(1).max(MAX_LENGTH.name, atMost(MAX_LENGTH.name)).optional(),
  narration: z.string().max(MAX_LENGTH.description, atMost(MAX_LENGTH.description)).optional(),
  notification_url: httpUrlSchema.optional(),
  merchant_bears_cost: z.boolean().optional(),
  metadata: metadataSchema.optional(),
  auto_complete: z.boolean().optional(),
})

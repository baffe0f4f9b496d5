import { BALANCE_CURRENCIES } from '../engine/ledger.js'
import { amountSchema, checkUnit } from '../engine/schemas.js'
import { listQuerySchema } from '../http/cursor-list.js'
import { z } from '../zod-messages.js'

/** POST /_sandbox/balances/fund (docs/behaviour.md#ledger-and-balances) */
export const fundSchema = z.object({ currency: z.enum(BALANCE_CURRENCIES), amount: amountSchema() }).superRefine((v, ctx) => checkUnit(ctx, v.currency, v.amount, ['amount']))

/** GET /merchant/api/v1/balances/history: the list query and the entry's direction (docs/behaviour.md#ledger-and-balances) */
export const historyQuerySchema = listQuerySchema.extend({ direction: z.enum(['credit', 'debit']).optional() })

/** Its answer's `data`, for the OpenAPI document. */
export const historyAnswerSchema = z.object({
  has_more: z.boolean(),
  history: z.array(z.object({
    pointer: z.string().describe('the cursor of starting_after / ending_before'),
    amount: z.string(),
    currency: z.string(),
    balance_before: z.string(),
    balance_after: z.string(),
    date: z.string().describe('when the entry became available, YYYY-MM-DD HH:MM:SS (UTC)'),
    description: z.string(),
    direction: z.enum(['credit', 'debit']),
    source: z.string().describe('opening, payin, funding, ...'),
    source_reference: z.string(),
  })).describe('newest first'),
})

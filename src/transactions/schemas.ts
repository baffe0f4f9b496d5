import { listQuerySchema } from '../http/cursor-list.js'
import { z } from '../zod-messages.js'

/** GET /merchant/api/v1/transactions (docs/behaviour.md#transactions-list): the query every list takes. */
export const transactionsQuerySchema = listQuerySchema

/** One item of the list: a pay-in (`collection`) or a payout (`disbursement`). */
export const transactionItemSchema = z.object({
  pointer: z.string().describe('the cursor of starting_after / ending_before: `<type>:<reference>`, so a payout and a pay-in of the same reference have pointers of their own'),
  type: z.enum(['collection', 'disbursement']),
  reference: z.string().describe("a pay-in's transaction reference (what GET /charges/{reference} takes), a payout's reference (what GET /transactions/{reference} takes)"),
  amount: z.string(),
  fee: z.string(),
  narration: z.string().nullable(),
  currency: z.string(),
  status: z.string(),
  transaction_status: z.string().describe('the same as status'),
  created_at: z.string().describe('ISO 8601, UTC, with milliseconds'),
  callback_url: z.string().nullable(),
  meta: z.string().nullable().describe('the metadata sent, as a JSON text; null when none was sent'),
  customer: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
})
export type TransactionItem = z.infer<typeof transactionItemSchema>

/** Its answer's `data`, for the OpenAPI document. */
export const transactionsAnswerSchema = z.object({ has_more: z.boolean(), transactions: z.array(transactionItemSchema).describe('newest first') })

import type { Kit } from '../engine/kit.js'
import { ApiError, ValidationError, conflict, invalid, notFound } from '../errors.js'
import { MSG } from '../messages.js'
import { toDecimalString, toMajor } from '../money.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { ARRAY, STRING } from '../store/validate.js'
import type { BulkInput, BulkItem, Destination } from './schemas.js'
import { PAYOUT_MSG } from './messages.js'
import { debitOf, type Payout, type PayoutService } from './service.js'

/**
 * Bulk payouts (docs/behaviour.md#bulk-payouts): a batch of 2 to 50 payouts, each checked and run as a
 * single payout by the payout service. The batch is accepted whole or refused whole: every item
 * is checked, then the balance for all of them, then every item is debited, in one synchronous
 * turn. Its status follows its items, read off them when asked.
 */

export const PAYOUT_BATCHES = 'payout_batches'

export interface PayoutBatch {
  batch_reference: string
  description: string | null
  currency: string
  merchant_bears_cost: boolean
  /** the references of its payouts, in the order sent */
  payouts: string[]
  created_at: string
}

export const PAYOUT_BATCHES_SPEC: CollectionSpec<PayoutBatch> = {
  name: PAYOUT_BATCHES,
  fields: { batch_reference: STRING, currency: STRING, payouts: ARRAY, created_at: STRING },
  asWritten: ['batch_reference', 'payouts'],
}

export type BatchStatus = 'pending' | 'complete' | 'failed'

/** a batch the available balance does not cover: 400 with the code and text of the bulk sample (docs/behaviour.md#bulk-payouts) */
const batchShortOfFunds = () => new ApiError(400, PAYOUT_MSG.BULK_INSUFFICIENT, null, undefined, PAYOUT_MSG.BULK_INSUFFICIENT_CODE)

export class BulkPayoutService {
  constructor(
    private readonly kit: Pick<Kit, 'store' | 'clocks' | 'ledger'>,
    private readonly payouts: PayoutService,
  ) {}

  /** Checks and accepts a whole batch, or refuses it whole (the refusal names the item's reference). */
  create(ns: string, b: BulkInput): Frozen<PayoutBatch> {
    const col = this.#col(ns)
    if (col.has(b.batch_reference)) throw conflict(PAYOUT_MSG.DUPLICATE)
    const bears = b.merchant_bears_cost ?? false
    const prepared = b.payouts.map((item) => {
      try {
        return this.payouts.prepare(ns, {
          reference: item.reference,
          destination: destinationOf(item, b.currency),
          batch_reference: b.batch_reference,
          merchant_bears_cost: bears,
        })
      } catch (e) {
        // which item was refused: its reference in `data`, beside the fields a field refusal names
        // (a conflict's data names it already)
        if (e instanceof ValidationError) throw new ApiError(e.status, e.message, { reference: item.reference, ...(invalid(fieldsOf<string>(e.fields)).data as object) }, e.error)
        if (e instanceof ApiError) throw e.error === 'conflict' ? e : new ApiError(e.status, e.message, { reference: item.reference, ...fieldsOf(e.data) }, e.error)
        throw e
      }
    })
    const total = prepared.reduce((sum, p) => sum + debitOf(p), 0)
    // the check and every debit in one synchronous turn
    this.kit.ledger.requireAvailable(ns, b.currency, total, this.kit.clocks.now(ns), batchShortOfFunds)
    for (const p of prepared) this.payouts.accept(ns, p)
    const batch: PayoutBatch = {
      batch_reference: b.batch_reference,
      description: b.description ?? null,
      currency: b.currency,
      merchant_bears_cost: bears,
      payouts: prepared.map((p) => p.reference),
      created_at: this.kit.clocks.iso(ns),
    }
    return col.put(batch.batch_reference, batch)
  }

  get(ns: string, batchReference: string): Frozen<PayoutBatch> {
    const batch = this.#col(ns).get(batchReference)
    if (!batch) throw notFound(MSG.TRANSACTION_NOT_FOUND)
    return batch
  }

  /** Its payouts, in the order sent. */
  items(ns: string, batch: Frozen<PayoutBatch>): Frozen<Payout>[] {
    return batch.payouts.map((r) => this.payouts.find(ns, r)).filter((p) => p !== undefined)
  }

  /** pending while any payout processes; failed when all failed; complete once all ended otherwise. */
  status(items: readonly Frozen<Payout>[]): BatchStatus {
    if (items.some((p) => p.status === 'processing')) return 'pending'
    return items.every((p) => p.status === 'failed') ? 'failed' : 'complete'
  }

  createdData(ns: string, batch: Frozen<PayoutBatch>) {
    const items = this.items(ns, batch)
    return {
      status: this.status(items),
      total_chargeable_amount: toMajor(items.reduce((sum, p) => sum + debitOf(p), 0)),
      merchant_bears_cost: batch.merchant_bears_cost,
      reference: batch.batch_reference,
      currency: batch.currency,
      description: batch.description,
      createdAt: batch.created_at,
    }
  }

  summaryData(ns: string, batch: Frozen<PayoutBatch>) {
    const items = this.items(ns, batch)
    const count = (s: Payout['status']) => items.filter((p) => p.status === s).length
    return {
      amount: toDecimalString(items.reduce((sum, p) => sum + p.amount, 0)),
      currency: batch.currency,
      reference: batch.batch_reference,
      status: this.status(items),
      description: batch.description,
      failedTransactions: count('failed'),
      successfulTransactions: count('success'),
      pendingTransactions: 0,
      processingTransactions: count('processing'),
    }
  }

  /** The items list, page by page (`page` from 1; `limit` 50 unless asked: a whole batch). */
  itemsData(ns: string, batch: Frozen<PayoutBatch>, q: { page?: number; limit?: number }) {
    const items = this.items(ns, batch)
    const size = q.limit ?? 50
    const current = q.page ?? 1
    const page = items.slice((current - 1) * size, current * size)
    return {
      data: page.map((p) => ({
        reference: p.reference,
        amount: toMajor(p.amount),
        currency: p.currency,
        narration: p.narration,
        status: p.status,
        batch_reference: batch.batch_reference,
        type: p.type,
        customer: { name: p.customer.name, email: p.customer.email },
        ...(p.bank_account ? { bank_account: { bank_code: p.bank_account.bank, account_number: p.bank_account.account } } : {}),
        ...(p.mobile_money ? { mobile_money: p.mobile_money } : {}),
      })),
      paging: { total_items: items.length, page_size: size, current, count: page.length },
    }
  }

  #col(ns: string) {
    return this.kit.store.col<PayoutBatch>(ns, PAYOUT_BATCHES)
  }
}

function destinationOf(item: BulkItem, currency: string): Destination {
  const { bank_account, ...rest } = item
  const bank = bank_account && (({ bank_code, account_number, ...extras }) => ({ ...extras, bank: bank_code, account: account_number }))(bank_account)
  return { ...rest, currency, bank_account: bank }
}

/** The field errors a refusal carries (docs/behaviour.md#invalid-request-data), renamed as the batch's item names them. */
function fieldsOf<T>(data: unknown): Record<string, T> {
  if (!data || typeof data !== 'object') return {}
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k.replace(/^destination\./, ''), v as T]))
}

import type { Kit } from '../engine/kit.js'
import { chargeQueryRecord } from '../engine/charge-record.js'
import { CHARGES, type ChargeBase } from '../engine/types.js'
import type { ListQuery } from '../http/cursor-list.js'
import { byDate, orderedPage, recordsInOrder } from '../http/cursor-list.js'
import { toDecimalString } from '../money.js'
import { PAYOUTS, feeOf, type Payout } from '../payouts/index.js'
import type { Frozen } from '../store/frozen.js'
import type { TransactionItem } from './schemas.js'

/**
 * The transactions list (docs/behaviour.md#transactions-list): the namespace's pay-ins and payouts as one
 * list, newest first. The two kept orders (the charges', the payouts') are read as one by date
 * (`byDate`), so a page costs about a page, whatever the namespace holds; an item's pointer is
 * `<type>:<reference>`, named so by the merge; a pay-in's amounts and status are its charge query's.
 */
export class TransactionService {
  constructor(private readonly kit: Pick<Kit, 'store' | 'kinds'>) {}

  list(ns: string, q: ListQuery): { has_more: boolean; transactions: TransactionItem[] } {
    const payins = recordsInOrder(this.kit.store.col<ChargeBase>(ns, CHARGES), (c) => this.#collection(ns, c))
    const payouts = recordsInOrder(this.kit.store.col<Payout>(ns, PAYOUTS), disbursement)
    // a checkout's attempts are no pay-ins of their own (docs/behaviour.md#pay-ins-list)
    const page = orderedPage(byDate({ name: 'collection', items: payins }, { name: 'disbursement', items: payouts }), q, (f) => !f.parent && (!q.currency || f.currency === q.currency))
    return { has_more: page.has_more, transactions: page.items }
  }

  #collection(ns: string, charge: Frozen<ChargeBase>): TransactionItem {
    const record = chargeQueryRecord(this.kit.kinds, ns, charge)
    return {
      // `collection:<transaction reference>` in the list (byDate names it)
      pointer: charge.transaction_reference,
      type: 'collection',
      reference: charge.transaction_reference,
      amount: record.amount as string,
      fee: record.fee as string,
      narration: charge.description,
      currency: charge.currency,
      status: record.status as string,
      transaction_status: record.status as string,
      created_at: charge.created_at,
      // the URL its events go to, for the kinds that take one
      callback_url: charge.notification_url ?? null,
      meta: charge.metadata ? JSON.stringify(charge.metadata) : null,
      customer: { name: charge.customer?.name ?? null, email: charge.customer?.email ?? null },
    }
  }
}

function disbursement(p: Frozen<Payout>): TransactionItem {
  return {
    pointer: p.reference,
    type: 'disbursement',
    reference: p.reference,
    amount: toDecimalString(p.amount),
    fee: toDecimalString(feeOf(p)),
    narration: p.narration,
    currency: p.currency,
    status: p.status,
    transaction_status: p.status,
    created_at: p.created_at,
    callback_url: p.notification_url,
    meta: p.metadata ? JSON.stringify(p.metadata) : null,
    customer: { name: p.customer.name, email: p.customer.email },
  }
}

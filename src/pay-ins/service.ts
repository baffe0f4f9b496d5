import type { Kit } from '../engine/kit.js'
import type { Frozen } from '../store/frozen.js'
import { chargeQueryRecord } from '../engine/charge-record.js'
import { CHARGES, type ChargeBase } from '../engine/types.js'
import { byQuery, listTime, orderedPage, recordsInOrder } from '../http/cursor-list.js'
import type { PayinQuery } from './schemas.js'

/**
 * The pay-ins list (docs/behaviour.md#pay-ins-list): every charge of the namespace a customer paid or may
 * pay (a checkout, not its attempts), newest first, its fields as the charge query derives them.
 */

/** An item of the list: amounts as strings in major units, times `YYYY-MM-DD HH:MM:SS`. */
export interface PayinItem {
  pointer: string
  reference: string
  status: string
  amount: string
  amount_paid: string
  amount_expected: string
  /** null until the pay-in ends (the collection's sample of a waiting pay-in; docs/behaviour.md#pay-ins-list) */
  fee: string | null
  currency: string
  description: string | null
  payment_method: string | null
  message: string
  date_created: string | null
  date_completed: string | null
  /** what paid it, as one object (docs/behaviour.md#pay-ins-list): the same facts, as an SDK reads them */
  payment_sources: { amount_paid: string; narration: string | null; payment_source_type: string | null; message: string; status: string }
}

export class PayinService {
  /** `kinds`: the pay-in reads its amounts and status from its kind's charge query record */
  constructor(private readonly kit: Pick<Kit, 'store' | 'kinds'>) {}

  /** GET /pay-ins: a page of the namespace's pay-ins, newest first (ties: the last made first). */
  list(ns: string, q: PayinQuery): { has_more: boolean; payins: PayinItem[] } {
    const charges = recordsInOrder(this.kit.store.col<ChargeBase>(ns, CHARGES))
    const matches = byQuery(q, 'currency', 'status')
    const page = orderedPage(charges, q, (f) => !f.parent && matches(f))
    return { has_more: page.has_more, payins: page.items.map((c) => this.#item(ns, c)) }
  }

  #item(ns: string, charge: Frozen<ChargeBase>): PayinItem {
    const record = chargeQueryRecord(this.kit.kinds, ns, charge)
    const status = record.status as string
    const amountPaid = record.amount_paid as string
    const paymentMethod = record.payment_method as string | null
    const message = charge.failure_message ?? charge.response_message
    return {
      pointer: charge.transaction_reference,
      reference: charge.payment_reference,
      status,
      amount: record.amount as string,
      amount_paid: amountPaid,
      amount_expected: (record.amount_expected ?? record.amount) as string,
      fee: charge.completed_at === null ? null : (record.fee as string),
      currency: charge.currency,
      description: charge.description,
      payment_method: paymentMethod,
      message,
      date_created: listTime(charge.created_at),
      date_completed: listTime(charge.completed_at),
      payment_sources: { amount_paid: amountPaid, narration: charge.description, payment_source_type: paymentMethod, message, status },
    }
  }
}

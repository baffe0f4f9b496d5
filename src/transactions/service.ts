import type { ListQuery } from '../http/cursor-list.js'
import { byDate, orderedPage } from '../http/cursor-list.js'
import type { PayinService } from '../pay-ins/service.js'
import type { PayoutService } from '../payouts/service.js'
import type { TransactionItem } from './schemas.js'

/**
 * The transactions list (docs/behaviour.md 13.12): the namespace's pay-ins and payouts as one
 * list, newest first, each shown by the service that owns it. The two kept orders are read as one
 * by date (`byDate`), so a page costs about a page, whatever the namespace holds.
 */
export class TransactionService {
  constructor(
    private readonly payins: PayinService,
    private readonly payouts: PayoutService,
  ) {}

  list(ns: string, q: ListQuery): { has_more: boolean; transactions: TransactionItem[] } {
    // a checkout's attempts are no pay-ins of their own (13.9)
    const page = orderedPage(byDate(this.payins.asTransactions(ns), this.payouts.asTransactions(ns)), q, (f) => !f.parent && (!q.currency || f.currency === q.currency))
    return { has_more: page.has_more, transactions: page.items }
  }
}

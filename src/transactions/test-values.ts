import type { AreaTestValues } from '../http/area.js'
import { code as c } from '../scenario/test-value-text.js'

/** Its section of docs/test-values.md (docs/behaviour.md#pay-ins-list, docs/behaviour.md#transactions-list): the two lists of every channel's records. */
function page(): string {
  return `${c('GET /merchant/api/v1/pay-ins')} lists the namespace's pay-ins of every channel (a checkout once, not
its attempts), newest first, as ${c('{"has_more", "payins": [{pointer, reference, status, amount, amount_paid, amount_expected, fee, currency, description, payment_method, message, date_created, date_completed, payment_sources: {amount_paid, narration, payment_source_type, message, status}}]}')};
filter by ${c('currency')}, ${c('status')}, ${c('date_from')} / ${c('date_to')}, and page with ${c('limit')}
and ${c('starting_after')} / ${c('ending_before')} (the ${c('pointer')}, which is the transaction reference;
behaviour.md#pay-ins-list).

${c('GET /merchant/api/v1/transactions')} lists pay-ins (${c('"type": "collection"')}) and payouts (${c('"type": "disbursement"')})
together, newest first, as ${c('{"has_more", "transactions": [{pointer, type, reference, amount, fee, narration, currency, status, transaction_status, created_at, callback_url, meta, customer: {name, email}}]}')},
paged and filtered as the other lists (the ${c('pointer')} is ${c('<type>:<reference>')}; behaviour.md#transactions-list).
`
}

/** Its test values (`Area.testValues`): its section of the test-value page. */
export const transactionsTestValues: AreaTestValues = { place: 92, page: { title: 'Pay-ins and transactions lists', body: page } }

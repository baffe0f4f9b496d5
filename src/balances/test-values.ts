import type { AreaTestValues } from '../http/area.js'
import { BALANCE_CURRENCIES } from '../scenario/lookups.js'
import { code as c, num, words, type TestValuesView } from '../scenario/test-value-text.js'

/** Its section of docs/test-values.md (docs/behaviour.md#ledger-and-balances): the opening balances, what credits them, the history. */
function page(v: TestValuesView): string {
  return `${c('GET /merchant/api/v1/balances')} answers ${c('{"NGN": {"pending_balance", "available_balance"}, ...}')}:
every namespace opens with ${num(v.settings.opening_balance)} available in ${words(BALANCE_CURRENCIES)} (the pack's
${c('opening_balance')}; the currencies are ${c('fixtures/lookups.json')}'s ${c('currencies')}, so one added there opens a
balance too), and each successful pay-in adds what the customer paid net of fee and VAT (the fee taken
once: a KES 1,000 wallet payment the customer bears the cost of is 1,016.13 paid and 1,000.00 credited),
pending until it settles (a bank transfer at once, other channels after ${v.settings.settlement_delay_hours} h on the namespace clock).
${c('POST /_sandbox/balances/fund')} ${c('{"currency", "amount"}')} adds to a balance. A namespace takes in at most
50,000,000,000,000.00 per currency until it is reset, so every sum stays exact (behaviour.md#ledger-and-balances).
${c('GET /merchant/api/v1/balances/history')} lists every entry of the available balances, newest first,
each with ${c('balance_before')} and ${c('balance_after')}: the opening balances, pay-ins once they settle,
fundings; filter by ${c('currency')}, ${c('direction')} (${c('credit')} | ${c('debit')}), ${c('date_from')} / ${c('date_to')}, and page
with ${c('limit')} and the items' ${c('pointer')} (${c('starting_after')}, ${c('ending_before')}; behaviour.md#ledger-and-balances, behaviour.md#lists).
`
}

/** Its test values (`Area.testValues`): its section of the test-value page. */
export const balancesTestValues: AreaTestValues = { place: 90, page: { title: 'Balances', body: page } }

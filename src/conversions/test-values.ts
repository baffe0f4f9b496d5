import type { AreaTestValues } from '../http/area.js'
import { code as c, type TestValuesView } from '../scenario/test-value-text.js'

/** Its section of docs/test-values.md (docs/behaviour.md#conversions): the quote, the conversion, the pack's rates. */
function page(v: TestValuesView): string {
  const rates = Object.entries(v.settings.conversion_rates).map(([pair, rate]) => `${c(`${pair}: ${rate}`)}`)
  return `${c('POST /merchant/api/v1/conversions/rates')} ${c('{"from_currency", "to_currency", "amount"}')} quotes a
rate (a ${c('reference')} UUID good for 25 s on the namespace clock); ${c('POST /merchant/api/v1/conversions/')}
${c('{"rate_reference", "amount", "from_currency", "to_currency"}')} converts once at that rate, taking
the amount from one available balance and adding the result to the other through the ledger (both
in the balance history); ${c('GET /merchant/api/v1/conversions/{reference}')} and
${c('GET /merchant/api/v1/conversions?page=&limit=&date=')} read them back. Rates come from the pack's
${c('conversion_rates')} (${rates.join(', ')}, each used both ways; behaviour.md#conversions); the converted amount is
rounded down, and a table that lets a round of conversions gain is refused, so no conversion makes money.
`
}

/** Its test values (`Area.testValues`): its section of the test-value page. */
export const conversionsTestValues: AreaTestValues = { place: 91, page: { title: 'Rate conversions', body: page } }

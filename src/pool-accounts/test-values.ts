import type { AreaTestValues } from '../http/area.js'
import { code as c, feeText, words, type TestValuesView } from '../scenario/test-value-text.js'
import { MOBILE_MONEY_POOLS, POOL_CREDIT_LIMITS, POOL_CURRENCIES } from './schemas.js'

/** Pool accounts (docs/behaviour.md#pool-accounts): the currencies, the shared account, the credit call. */
function text(m: TestValuesView): string {
  return [
    '\nPool accounts\n',
    `POST /merchant/api/v1/pool-accounts {"customer_name", "customer_email", "currency": ${POOL_CURRENCIES.join(' | ')}, "account_type"?: "bank_account" | "mobile_money" (${MOBILE_MONEY_POOLS.join(', ')})}: one reference SBKP<8><currency> per customer e-mail (409 A reference already exists for this customer).\n`,
    `POST /merchant/api/v1/pool-accounts/sandbox/credit {"reference", "amount", "currency": the pool's}, ${POOL_CREDIT_LIMITS.min} to ${POOL_CREDIT_LIMITS.max}: a pay-in KPY-PA-..., success and available at once, charge.success (payment_method pool_account); fee ${feeText(m.settings.fees.bank_transfer)}, the merchant's.\n`,
  ].join('')
}

/** Its section of docs/test-values.md, below its title. */
function page(v: TestValuesView): string {
  return `${c('POST /merchant/api/v1/pool-accounts')} ${c('{"customer_name", "customer_email", "currency"}')} (${POOL_CURRENCIES.join(', ')};
${c('"account_type": "mobile_money"')} in ${words(MOBILE_MONEY_POOLS)}) gives the customer a reference
(${c('SBKP...KES')}) into Kora's shared account, one per e-mail. ${c('POST /merchant/api/v1/pool-accounts/sandbox/credit')}
${c('{"reference", "amount", "currency"}')} is a ${c('pool_account')} pay-in, ${c('success')} and on the balance at once,
announced by ${c('charge.success')}; the dashboard shows each pool's settlement history (behaviour.md#pool-accounts).
`
}

/** Its test values (`Area.testValues`): `sandbox magic`'s part and the test-value page's section. */
export const poolAccountsTestValues: AreaTestValues = { place: 85, text, page: { title: 'Pool accounts', body: page } }

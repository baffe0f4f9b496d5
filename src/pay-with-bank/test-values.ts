import type { AreaTestValues } from '../http/area.js'
import { code as c, ended, feeText, feeWords as fee, markdownTable, num, textTable, words, type TestValuesView } from '../scenario/test-value-text.js'
import { PAY_WITH_BANK_MIN } from './schemas.js'

/** Pay with bank (docs/behaviour.md#pay-with-bank): the banks of each currency and what each does once approved. */
function text(m: TestValuesView): string {
  const minimums = Object.entries(PAY_WITH_BANK_MIN).map(([currency, min]) => `${currency} ${min}`).join(', ')
  return [
    '\nPay with bank\n',
    `POST /merchant/api/v1/charge/pay-with-bank (or charges/), at least ${minimums}; fee ${feeText(m.settings.fees.pay_with_bank)}.\n`,
    'The customer approves or declines at data.authorization.redirect_url (<origin>/_sandbox/pay-with-bank/<transaction reference>);\n',
    'declined, the charge fails. Approved, it ends as its bank says:\n',
    textTable(['bank_code', 'currency', 'name', 'on approval', 'label'], m.banks.map((b) => [b.bank_code, b.currency, b.name, b.outcome === 'failed' ? `failed: ${b.message}` : b.outcome, b.label])),
    'Any other bank_code is refused. Without a browser: POST /_sandbox/charges/<reference>/complete {"outcome", "message"?}.\n',
  ].join('')
}

/** Its section of docs/test-values.md, below its title. */
function page(v: TestValuesView): string {
  const groups = new Map<string, TestValuesView['banks']>()
  for (const b of v.banks) {
    const key = `${b.currency}|${ended(b)}`
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key)!.push(b)
  }
  const rows = [...groups.values()].map((banks) => [
    banks.map((b) => `${c(b.bank_code)} (${b.name})`).join(', '),
    banks[0].currency,
    banks[0].outcome === 'processing' ? `stays ${c('processing')}: the bank never confirms` : ended(banks[0]),
  ])
  const minimums = Object.entries(PAY_WITH_BANK_MIN).map(([cur, min]) => `${cur} ${num(min)}`)
  return `${c('POST /merchant/api/v1/charge/pay-with-bank')} (also ${c('.../charges/pay-with-bank')}: ${c('reference')},
${c('amount')} at least ${words(minimums, 'or')}, a number or a numeric string, ${c('currency')} ${words(Object.keys(PAY_WITH_BANK_MIN), 'or')},
${c('bank_code')}, ${c('customer')} ${c('{name, email}')}, ${c('redirect_url')}?, ${c('notification_url')}?, ${c('narration')}?,
${c('merchant_bears_cost')}? default false, ${c('metadata')}?) answers the sandbox bank's page in
${c('data.authorization.redirect_url')}; the charge stays ${c('processing')} until the customer approves or
declines there, or ${c('POST /_sandbox/charges/<reference>/complete {"outcome", "message"?}')} ends it.
Declined, it fails (${c('Payment was declined by the customer at the bank')}); approved, it ends as its bank
says. ${c('GET /merchant/api/v1/charge/pay-with-bank/banks?currency=NGN')} lists the banks (behaviour.md#pay-with-bank):

${markdownTable(['bank_code', 'currency', 'once approved'], rows)}

Any other ${c('bank_code')} is refused. Fee: the pack's ${c('fees.pay_with_bank')} (${fee(v.settings.fees.pay_with_bank)})
plus VAT, borne by the customer unless ${c('merchant_bears_cost')}.
`
}

/** Its test values (`Area.testValues`): `sandbox magic`'s part and the test-value page's section. */
export const payWithBankTestValues: AreaTestValues = { place: 70, text, page: { title: 'Pay with bank', body: page } }

import type { AreaTestValues } from '../http/area.js'
import { code as c, feeText, markdownTable, textTable, type TestValuesView } from '../scenario/test-value-text.js'
import { CREDIT_LIMITS, OTHER_CREDIT_LIMITS, VBA_BANKS } from './schemas.js'

/** Virtual bank accounts (docs/behaviour.md#virtual-accounts): the banks, and what the test environment's credit call does. */
function text(m: TestValuesView): string {
  return [
    '\nVirtual bank accounts\n',
    'POST /merchant/api/v1/virtual-bank-account: one per account_reference; its 10-digit number comes from the namespace and the reference.\n',
    textTable(['bank_code', 'bank_name'], VBA_BANKS.map(([code, name]) => [code, name])),
    `\nPOST /merchant/api/v1/virtual-bank-account/sandbox/credit {"account_number", "amount", "currency": "NGN"}, NGN ${CREDIT_LIMITS.min} to ${CREDIT_LIMITS.max}:\n`,
    textTable(
      ['account_number', 'outcome'],
      [
        ['a virtual account\'s', `a pay-in KPY-PAY-..., success at once, charge.success; fee ${feeText(m.settings.fees.bank_transfer)}`],
        ['a temporary account\'s', 'a transfer of that amount: exact or over pays it, under is returned (as above)'],
        ['an expired temporary account\'s', '409 Account has expired'],
        ['any other', '404 Account not found'],
      ],
    ),
    `\nUSD: POST /api/v1/files/generate-upload-url, then POST /api/v1/virtual-bank-account/account-holders (its documents naming those files), then {"currency": "USD", "account_holder_reference", "account_reference"}: a 12-digit account. KES, TZS: {"currency", "account_name", "account_reference", "permanent": true, "customer"}, at Choice Bank. Their credits are in the account's currency, ${OTHER_CREDIT_LIMITS.min} to ${OTHER_CREDIT_LIMITS.max}.\n`,
  ].join('')
}

/** Its section of docs/test-values.md, below its title. */
function page(v: TestValuesView): string {
  return `${c('POST /merchant/api/v1/virtual-bank-account')} opens a customer's permanent NGN account
(${c('account_name')}, ${c('account_reference')}, ${c('permanent: true')}, ${c('bank_code')}, ${c('customer.name')}, ${c('kyc.bvn')}
of 11 digits): one per ${c('account_reference')} (409 ${c('Duplicate account reference')} after that),
at most 50 per namespace (${c('--max-virtual-accounts')}). Its 10-digit number comes from the namespace
and the reference, so a test that opens ${c('cust-1')} in a fresh namespace gets the same number every
run. Read it back with ${c('GET .../virtual-bank-account/{account_reference}')} and its transfers with
${c('GET .../virtual-bank-account/transactions?account_number=...')} (dates, pages). The first bank is the
test environment's; the others are the live codes, and behave the same:

${markdownTable(['`bank_code`', 'bank'], VBA_BANKS.map(([code, name]) => [c(code), name]))}

**Money arrives** with the test environment's own call, ${c('POST /merchant/api/v1/virtual-bank-account/sandbox/credit')}
${c('{"account_number", "amount", "currency": "NGN"}')}, NGN 100 to 10,000,000. Into a virtual account it is a pay-in of its own, ${c('success')} at
once, reference ${c('KPY-PAY-...')} (query it at ${c('/merchant/api/v1/charges/KPY-PAY-...')}), announced by a
signed ${c('charge.success')} whose data carries ${c('virtual_bank_account_details')}. The same call pays a
bank-transfer charge's temporary account with any amount (exact, more or less, as above);
an expired one answers 409 ${c('Account has expired')}, an unknown number 404
${c('Account not found')} (behaviour.md#virtual-accounts).

A **USD account** belongs to an account holder: ask ${c('POST /api/v1/files/generate-upload-url')} for
file references, create the holder with ${c('POST /api/v1/virtual-bank-account/account-holders')} (its
documents naming those references), then open ${c('{"currency": "USD", "account_holder_reference", "account_reference"}')}
with the same create call; ${c('KES')} and ${c('TZS')} accounts take ${c('{"currency", "account_name", "account_reference", "permanent": true, "customer"}')}.
Each is credited in its own currency (behaviour.md#virtual-accounts-usd-kes-tzs).
`
}

/** Its test values (`Area.testValues`): `sandbox magic`'s part and the test-value page's section. */
export const virtualAccountsTestValues: AreaTestValues = { place: 80, text, page: { title: 'Virtual bank accounts', body: page } }

import type { AreaTestValues } from '../http/area.js'
import { code as c, markdownTable } from '../scenario/test-value-text.js'
import { MAGIC_ACCOUNTS } from './service.js'

/** Its section of docs/test-values.md (docs/behaviour.md#look-ups): the lists, the resolves, the test accounts, how a country is added. */
function page(): string {
  const rows = [...MAGIC_ACCOUNTS].map(([account, name]) => [c(account), name === null ? `refused: 400 ${c('Invalid account.')} (code ${c('AA027')})` : c(name)])
  rows.push(['any other 10 digits', 'a name derived from bank and number, the same every time'])
  return `${c('GET /merchant/api/v1/misc/banks?countryCode=NG')} (${c('NG')}, ${c('KE')}, ${c('GH')}, ${c('ZA')}, ${c('EG')}, ${c('CM')}, ${c('CI')},
${c('TZ')}) and ${c('GET /merchant/api/v1/misc/mobile-money?countryCode=KE')} list banks and operators (message
${c('Successful')}; Egypt's banks are ${c('NBE')} and ${c('CIB')}; the operators are ${c('safaricom-ke')}, ${c('airtel-ke')},
${c('mtn-gh')}, ${c('airtel-gh')}, ${c('vodafone-gh')}, ${c('mtn-cm')}, ${c('orange-cm')}, ${c('mtn-ci')}, ${c('orange-ci')}, ${c('tigo-tz')},
${c('airtel-tz')}, ${c('vodafone-eg')}, ${c('orange-eg')}, each with its payout ${c('min')} / ${c('max')}, and Kenya's Equitel as
${c('equitel-ke')}); ${c('POST /merchant/api/v1/misc/banks/resolve')} ${c('{"bank": "033", "account": "0000000000"}')}
resolves a Nigerian account (message ${c('Request Completed')}), and
${c('POST /merchant/api/v1/misc/mobile-money/resolve')} ${c('{"mobileMoneyCode": "0004", "phoneNumber": "233240000000", "currency": "GHS"}')}
a wallet (message ${c('Request completed')}; the test wallets' names are in the wallets' table above). A
public ${c('pk_test_')} key works as well as the secret key (behaviour.md#look-ups).

${markdownTable(['account, at any listed Nigerian bank', '`account_name`'], rows)}

**Adding a country.** The look-ups, the balance currencies and what each payout currency needs
are data, in ${c('fixtures/lookups.json')} inside the installed package
(${c('node_modules/paysandbox/fixtures/lookups.json')}): ${c('currencies')} (each with its ${c('decimals')}),
${c('banks')}, ${c('mobile_money')} (operators with their payout ${c('min')} / ${c('max')}), ${c('wallet_currencies')} (a
mobile-money currency's country, dial code, digits and default steps) and ${c('payout_currencies')}
(${c('bank_account')} / ${c('mobile_money')}: each currency's ${c('country')}; a bank currency may say
${c('requires: ["account_name"]')}, ${c('remittance: [<payment methods>]')} or ${c('availability: true')}). To add, say,
Zambia: declare ${c('ZMW')} in ${c('currencies')}, its banks and operators, and its entries in
${c('wallet_currencies')} and ${c('payout_currencies')}; restart. No code changes: it opens a balance, takes
mobile-money pay-ins, refunds and payouts. The file is checked at start and a bad entry stops the
sandbox with the entry and field (${c('fixtures/lookups.json: banks.1 (citibank).nibss_bank_code: must be 6 digits')}).
Test wallets, test payout accounts and identities go in a scenario pack
(${c('--scenarios')}, no package edit: ${c('wallets')}, ${c('payouts')}, ${c('identities')}, behaviour.md#scenario-packs); a new
identity document is an entry of ${c('fixtures/identity-documents.json')} beside it.
`
}

/** Its test values (`Area.testValues`): the test-value page's last shared section (`sandbox magic` names the wallets' resolve with the wallets). */
export const lookupsTestValues: AreaTestValues = { place: 100, page: { title: 'Look-ups', body: page } }

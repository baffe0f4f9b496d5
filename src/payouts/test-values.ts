import type { AreaTestValues } from '../http/area.js'
import { code as c, ended, feeText, markdownTable, num, textTable, words, type TestValuesView } from '../scenario/test-value-text.js'
import { payoutSettings } from './settings.js'
import { PAYOUT_BANK_COUNTRY_CURRENCIES, PAYOUT_PURPOSE_COUNTRIES, banksOf, payoutBankCountriesOf, payoutCurrencies, payoutPurposesOf } from '../scenario/lookups.js'

/** Payouts (docs/behaviour.md#payouts): the destinations, the test accounts, the fee, the delay, the limits, the banks' availability. */
function text(m: TestValuesView): string {
  const own = payoutSettings.of(m)
  const limits = Object.entries(own.payout_limits).map(([k, l]) => `${k} ${l.min} to ${l.max}`).join(', ')
  const multiples = Object.entries(own.payout_multiples).map(([c, n]) => `${c} amounts are multiples of ${n}`).join('; ')
  const availability = Object.entries(own.payout_availability).map(([code, status]) => `${code} ${status}`).join(', ')
  return [
    '\nPayouts\n',
    `POST /merchant/api/v1/transactions/disburse (bank_account: ${payoutCurrencies('bank_account').join(', ')}; mobile_money: ${payoutCurrencies('mobile_money').join(', ')});\n`,
    'bulk: POST /merchant/api/v1/transactions/disburse/bulk, in the same currencies.\n',
    'ZAR bank accounts need account_name; USD and GBP ones name no bank code but bank_country, bank_name, the beneficiary,\n',
    'account_type, account_number_type, payment_method (USD AbaRouting or BicSwift, GBP SortCode or IBAN), routing_number\n',
    '(not for IBAN), address_information {country, city, street} and supporting_documents; their test accounts are keyed\n',
    'by routing number (IBAN: "IBAN").\n',
    `purpose_of_payment and bank_country, as GET /merchant/api/v1/misc/payout-payment-purpose-by-country-code/<country> and\n`,
    `.../misc/payout-countries-by-currency-code/<currency> list them (public key): ${PAYOUT_PURPOSE_COUNTRIES.map((c) => `${c} ${payoutPurposesOf(c)!.map((p) => p.code).join(', ') || 'none shown'}`).join('; ')};\n`,
    `  ${PAYOUT_BANK_COUNTRY_CURRENCIES.map((c) => `${c} to ${payoutBankCountriesOf(c)!.map((b) => b.countryCode).join(', ')}`).join('; ')}; any other 400.\n`,
    'remittance: POST /merchant/api/v1/transactions/disburse/remittance, the same with remittance_data {sender_name, ...}.\n',
    `Fee ${feeText(m.settings.fees.payout)} plus ${m.settings.vat_percent}% VAT, debited with the amount at once; processing ${own.payout_delay_seconds} s on the namespace clock, then:\n`,
    textTable(['bank / operator', 'account', 'outcome', 'label'], m.payouts.map((p) => [p.bank, p.account, p.outcome === 'failed' ? `failed: ${p.message}` : p.outcome, p.label])),
    `Any other account succeeds. Limits per payout: ${limits || 'none'}; wallets otherwise the operator list's min and max.\n`,
    ...(multiples ? [`${multiples}.\n`] : []),
    `POST /merchant/api/v1/payouts/availability {"type": "bank_account", "currency": "ZAR"}: every South African bank is available${availability ? ` but ${availability}` : ''};\n`,
    '  a payout to an unavailable bank fails after the delay (Destination bank is not available).\n',
    'End one now: POST /_sandbox/payouts/<reference>/complete {"outcome"?, "reason"?}\n',
  ].join('')
}

/** Its section of docs/test-values.md, below its title. */
function page(v: TestValuesView): string {
  const rows = v.payouts.map((p) => [c(p.bank), c(p.account), p.outcome === 'invalid' ? `refused at once: 409 ${c('Invalid account.')} (a conflict, below)` : ended(p), p.label])
  const f = v.settings.fees.payout
  const own = payoutSettings.of(v)
  const limits = Object.entries(own.payout_limits).map(([k, l]) => `${k} ${num(l.min)} to ${num(l.max)}`)
  const multiples = Object.entries(own.payout_multiples).map(([cur, n]) => `${cur} amounts are multiples of ${n}`)
  const bankName = (code: string) => banksOf('ZA').find((b) => b.code === code)?.name
  const availability = Object.entries(own.payout_availability).map(([code, status]) => `${c(status)} (${bankName(code) ?? 'bank'} ${c(code)})`)
  return `${c('POST /merchant/api/v1/transactions/disburse')} ${c('{"reference", "destination": {"type": "bank_account", "amount": 1000, "currency": "NGN", "bank_account": {"bank": "033", "account": "0000000000"}, "customer": {"email"}}}')}
(or ${c('"type": "mobile_money"')} with ${c('"mobile_money": {"operator", "mobile_number"}')}; ${c('.../disburse/remittance')} adds ${c('remittance_data')})
debits amount + ${f.flat} + ${v.settings.vat_percent} % VAT (NGN 1,000 costs 1,032.25; ${f.flat} of the payout's currency in each) from the available balance at once and
answers ${c('Transfer initiated successfully.')} (the live text), ${c('processing')}. ${own.payout_delay_seconds} s later on the namespace clock it
ends as its account says, with a signed ${c('transfer.success')} / ${c('transfer.failed')} webhook; a failed
payout gets all of it back. ${c('GET /merchant/api/v1/transactions/{reference}')} queries one,
${c('GET /merchant/api/v1/payouts')} lists them, ${c('POST /_sandbox/payouts/{reference}/complete')}
${c('{"outcome"?, "reason"?}')} ends one now (behaviour.md#payouts).

${markdownTable(['bank / operator', 'account', 'outcome', 'label'], rows)}

Any other account succeeds, but ${c('9999999999')} at any other Nigerian bank: refused at once, 409
${c('Unable to resolve bank account.')} (a conflict, below).

Destinations: bank accounts in NGN, KES, ZAR, EGP, USD and GBP; wallets in KES, GHS, XAF, XOF,
TZS and EGP; bulk payouts in any of them. Amounts are major units in every currency (ZAR too).
A ZAR bank account needs ${c('account_name')}. A USD or GBP one names no bank code; it takes the
documentation's remittance-style fields, each checked by name:

\`\`\`json
{"reference": "pay-usd-0001", "destination": {"type": "bank_account", "amount": 1000, "currency": "USD",
  "bank_country": "US",
  "bank_account": {"bank_name": "JPMorgan Chase", "beneficiary_type": "individual", "first_name": "Ada",
    "last_name": "Obi", "account_type": "checking", "account_number_type": "account_number",
    "payment_method": "AbaRouting", "routing_number": "026009593", "account": "0000000000",
    "address_information": {"country": "US", "city": "New York", "street": "1 Main St"}},
  "supporting_documents": [{"title": "Invoice", "file_reference": "file-1"}],
  "purpose_of_payment": "Services", "customer": {"email": "payee@example.com"}}}
\`\`\`

(${c('payment_method')} USD ${c('AbaRouting')} | ${c('BicSwift')}, GBP ${c('SortCode')} | ${c('IBAN')}; ${c('corporate')} beneficiaries
give ${c('business_name')}; an IBAN goes in ${c('account')} with ${c('account_number_type: "iban"')} and no
${c('routing_number')}; the test accounts are keyed by routing number, or ${c('IBAN')}.) ${multiples.join('; ')}
(${c('destination.amount: must be a multiple of 5 for XAF')}).
XAF and XOF have no minor unit: an amount with decimals is refused wherever amounts are taken
(${c('amount: must be a whole number for XAF')}), and fees and VAT are whole francs (a payout costs
30 + 2 XAF, where NGN's costs 30 + 2.25; behaviour.md#money). Limits per payout: ${limits.join(', ')} (bank accounts),
each wallet its operator's ${c('min')} / ${c('max')}; no other currency has one.
${c('POST /merchant/api/v1/payouts/availability')} ${c('{"type": "bank_account", "currency": "ZAR"}')} (or GET
with a query) lists South Africa's banks with ${c('status')} ${c('available')}, but ${words(availability)}
(an unavailable bank's payouts are taken, then fail after the delay with
${c('Destination bank is not available')}, ${c('transfer.failed')}, the money given back, as the sources list
that text among the failures after creation).

Refused with no record: ${c('Insufficient funds in disbursement wallet')} (400), ${c('Invalid bank provided.')},
${c('Invalid mobile money operator.')}, ${c('Currency not allowed for this destination')}, a
reused reference (409 ${c('Duplicate Transaction Reference. Please use a unique reference')}), amounts outside the
limits, wallets outside the operator's ${c('min')}/${c('max')}. An amount outside the
limits and an invalid or unresolvable account are conflicts, as the live test environment answers
them: 409, ${c('error: "conflict"')}, ${c('data: {status: "failed", message, reference}')}. The fee, the
delay, the limits, the multiples, the banks' availability and the test accounts are pack settings
(${c('fees.payout')}, ${c('payout_delay_seconds')}, ${c('payout_limits')}, ${c('payout_multiples')},
${c('payout_availability')}, ${c('payouts')}); the countries, banks, operators and which currencies each
destination takes are ${c('fixtures/lookups.json')}'s, so a country is added with no change of code
(see [Adding a country](#look-ups)).
`
}

/** Its test values (`Area.testValues`): `sandbox magic`'s part and the test-value page's section. */
export const payoutsTestValues: AreaTestValues = { place: 110, text, page: { title: 'Payouts', body: page } }

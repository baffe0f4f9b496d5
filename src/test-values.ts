import { TRANSFER_BANK } from './bank-transfer/service.js'
import { bankTransferChannel } from './bank-transfer/checkout-channel.js'
import { cardChannel, pickTestCard } from './cards/checkout-channel.js'
import { mobileMoneyChannel } from './mobile-money/checkout-channel.js'
import { payWithBankChannel } from './pay-with-bank/checkout-channel.js'
import { pickTestOf } from './engine/checkout-channel.js'
import { CHECKOUT_HOURS } from './checkout/service.js'
import { REFUND_MIN } from './refunds/service.js'
import { formatMoney } from './money.js'
import { PAY_WITH_BANK_MIN } from './pay-with-bank/schemas.js'
import { identityDocument, identityDocuments } from './scenario/documents.js'
import type { AnyArea } from './http/area.js'
import { textTable as table, type TestValuesView as Magic } from './scenario/test-value-text.js'
import { PAYOUT_BANK_COUNTRY_CURRENCIES, PAYOUT_PURPOSE_COUNTRIES, WALLET_CURRENCIES, operatorsOf, payoutBankCountriesOf, payoutCurrencies, payoutPurposesOf, walletCurrency } from './scenario/lookups.js'
import { NETWORKS, STABLECOINS } from './stablecoins/schemas.js'
import { CREDIT_LIMITS, OTHER_CREDIT_LIMITS, VBA_BANKS } from './virtual-accounts/schemas.js'
import { MOBILE_MONEY_POOLS, POOL_CREDIT_LIMITS, POOL_CURRENCIES } from './pool-accounts/schemas.js'

/**
 * The active test values as plain-text tables (`sandbox magic`): the shipped areas' parts below,
 * then the part each area of `areas` brings (`Area.testValues`), in the order of src/areas.ts.
 */
export function testValuesText(m: Magic, areas: readonly AnyArea[]): string {
  const parts: string[] = []
  parts.push(`PIN ${m.settings.pin}, OTP ${m.settings.otp}; cards expire as listed, any future date works.\n`)
  parts.push('Cards\n')
  parts.push(
    table(
      ['number', 'scheme', 'cvv', 'expiry', 'steps', 'outcome', 'label'],
      m.cards.map((c) => [c.number, c.scheme, c.cvv, `${c.expiry_month}/${c.expiry_year}`, c.steps.join(',') || '-', c.outcome, c.label]),
    ),
  )
  if (m.wallets.length) {
    parts.push('\nMobile money wallets\n')
    parts.push(table(['number', 'currency', 'steps', 'otp', 'pin', 'outcome', 'resolves to', 'label'], m.wallets.map((w) => [w.number, w.currency, w.steps.join(',') || '-', w.otp ?? 'N/A', w.pin ?? '-', w.outcome, resolvesTo(w), w.label])))
    parts.push('REDIRECT: the customer approves or declines at data.authorization.redirect_url (<origin>/_sandbox/mobile-money/<transaction reference>).\n')
    parts.push('POST /merchant/api/v1/misc/mobile-money/resolve {"mobileMoneyCode", "phoneNumber", "currency"}: a wallet above as its column says;\n')
    parts.push('  "not found" is 503 AA024 Invalid account.; any other number resolves to a name derived from operator and number.\n')
  }
  parts.push(walletCurrenciesPart())
  if (m.identities.length) {
    parts.push('\nIdentities\n')
    // the path each is posted to, under /merchant/api/v1/identities/ (docs/behaviour.md#identity-calls-and-modes)
    parts.push(table(['type', 'path', 'id', 'found', 'label'], m.identities.map((x) => [x.type, identityDocument(x.type)?.path ?? '-', x.id, x.unavailable ? 'unavailable' : String(x.found), x.label])))
    // a bank-account check's bank_code names a bank of its list (docs/behaviour.md#identity-bank-account-banks)
    for (const d of identityDocuments().values()) if (d.banks) parts.push(`  ${d.path} takes bank_code from GET identities/${d.country}/banks?type=${d.banks.list}: ${d.banks.banks.map((b) => `${b.code} ${b.name}`).join(', ')}\n`)
  }
  if (m.accounts.length) {
    parts.push('\nDirect debit accounts\n')
    parts.push(table(['account', 'bank', 'outcome', 'label'], m.accounts.map((a) => [a.account_number, a.bank_code, a.outcome, a.label])))
  }
  if (m.authorizations.length) {
    parts.push('\nSeeded direct debit authorizations\n')
    parts.push(table(['reference', 'status', 'amount', 'label'], m.authorizations.map((a) => [a.reference, a.status, String(a.amount), a.label])))
  }
  parts.push(
    'A mandate by API (POST /merchant/api/v1/direct-debit/initiate) is pending until the customer\'s token payment arrives,\n' +
      `${m.settings.transfer_delay_seconds} s later on the namespace clock (or at once: POST /_sandbox/direct-debit/authorizations/<reference>/approve).\n`,
  )
  parts.push(checkoutPart(m))
  parts.push(payWithBankPart(m))
  parts.push(voucherPart(m))
  parts.push(virtualAccountsPart(m))
  parts.push(poolAccountsPart(m))
  parts.push(refundsPart(m))
  parts.push(chargebacksPart(m))
  parts.push(payoutsPart(m))
  for (const a of areas) if (a.testValues) parts.push(`\n${a.testValues.title}\n`, a.testValues.text(m))
  return parts.join('')
}

/** What the wallet resolve answers of a pack's wallet (docs/behaviour.md#look-ups). */
function resolvesTo(w: Magic['wallets'][number]): string {
  if ('found' in w && w.found === false) return 'not found'
  return 'name' in w && w.name ? w.name : '(derived)'
}

/** Mobile money by currency (docs/behaviour.md#mobile-money-charge, docs/behaviour.md#look-ups): the wallet number's form, the steps of any other wallet, the operators. */
function walletCurrenciesPart(): string {
  const rows = WALLET_CURRENCIES.map((currency) => {
    const w = walletCurrency(currency)!
    const operators = operatorsOf(w.country).map((o) => `${o.slug} (${o.min}-${o.max})`).join(', ')
    return [currency, w.country, `${w.dial_code} + ${w.digits} digits`, w.steps.join(','), operators || '-']
  })
  return ['\nMobile money by currency (any other wallet takes these steps, then succeeds; operators as payouts take them, with their limits)\n', table(['currency', 'country', 'number', 'steps', 'operators'], rows)].join('')
}

type Fee = Magic['settings']['fees']['card']
const feeText = (f: Fee) => [`${f.percent}%`, ...Object.entries(f).filter(([k]) => k !== 'percent').map(([k, v]) => `${k} ${v}`)].join(', ')

/** Checkout Standard (docs/behaviour.md#checkout, docs/behaviour.md#bank-transfer): the page, the control calls, what pays by default, the bank transfer's account. */
function checkoutPart(m: Magic): string {
  const rows: string[][] = []
  const card = (want: 'success' | 'failed') => pickTestCard(m.cards, want)?.number ?? '(none: give one)'
  rows.push(['card', cardChannel.currencies.join(', '), card('success'), card('failed'), feeText(m.settings.fees.card)])
  rows.push(['bank_transfer', bankTransferChannel.currencies.join(', '), 'the expected amount', 'the attempt fails', feeText(m.settings.fees.bank_transfer)])
  for (const currency of mobileMoneyChannel.currencies) {
    const wallet = (want: 'success' | 'failed') => pickTestOf(m.wallets, currency, want)?.number ?? '(none: give one)'
    rows.push(['mobile_money', currency, wallet('success'), wallet('failed'), feeText(m.settings.fees.mobile_money)])
  }
  for (const currency of payWithBankChannel.currencies) {
    const bank = (want: 'success' | 'failed') => pickTestOf(m.banks, currency, want)?.bank_code ?? '(none: give one)'
    rows.push(['pay_with_bank', currency, bank('success'), bank('failed'), feeText(m.settings.fees.pay_with_bank)])
  }
  return [
    '\nCheckout Standard\n',
    'POST /merchant/api/v1/charges/initialize answers {reference, checkout_url}; the page is <origin>/checkout/<transaction reference>/pay.\n',
    `A checkout nobody pays expires after ${CHECKOUT_HOURS} h on the namespace clock.\n`,
    'Without a browser: POST /_sandbox/checkouts/<reference>/pay {"channel", "outcome"?, "card"?, "mobile_money"?, "bank_code"?, "amount"?}\n',
    '  and POST /_sandbox/checkouts/<reference>/cancel. A failed attempt leaves the checkout open for another; cancel ends it.\n',
    'Without card, wallet or bank, the pay call uses the first test value that ends as outcome:\n',
    table(['channel', 'currencies', 'outcome success', 'outcome failed', 'fee (the paying channel\'s)'], rows),
    `\nBank transfer: a temporary account of 10 digits at ${TRANSFER_BANK.bank_name} (${TRANSFER_BANK.bank_code}), open ${m.settings.transfer_account_minutes} min;\n`,
    `with nothing sent, the expected amount arrives by itself ${m.settings.transfer_delay_seconds} s after it is issued (namespace clock),\n`,
    'unless the charge\'s amount is one of these:\n',
    table(['amount', 'arrives', 'after (s)', 'label'], m.transfers.map((t) => [String(t.amount), t.arrives, String(t.after_seconds), t.label])),
    table(
      ['amount sent ("amount")', 'outcome'],
      [
        ['exact (or absent)', 'success'],
        ['over', 'success; the excess is returned to the payer'],
        ['under', 'all of it is returned; the checkout stays open for another transfer'],
      ],
    ),
  ].join('')
}

/** Pay with bank (docs/behaviour.md#pay-with-bank): the banks of each currency and what each does once approved. */
function payWithBankPart(m: Magic): string {
  const minimums = Object.entries(PAY_WITH_BANK_MIN).map(([currency, min]) => `${currency} ${min}`).join(', ')
  return [
    '\nPay with bank\n',
    `POST /merchant/api/v1/charge/pay-with-bank (or charges/), at least ${minimums}; fee ${feeText(m.settings.fees.pay_with_bank)}.\n`,
    'The customer approves or declines at data.authorization.redirect_url (<origin>/_sandbox/pay-with-bank/<transaction reference>);\n',
    'declined, the charge fails. Approved, it ends as its bank says:\n',
    table(['bank_code', 'currency', 'name', 'on approval', 'label'], m.banks.map((b) => [b.bank_code, b.currency, b.name, b.outcome === 'failed' ? `failed: ${b.message}` : b.outcome, b.label])),
    'Any other bank_code is refused. Without a browser: POST /_sandbox/charges/<reference>/complete {"outcome", "message"?}.\n',
  ].join('')
}

/** Vouchers (docs/behaviour.md#vouchers): each test PIN's value and what charging it does. */
function voucherPart(m: Magic): string {
  if (!m.vouchers.length) return ''
  return [
    '\nVouchers (ZAR)\n',
    `POST /merchant/api/v1/charge/voucher, provider_code 0001; a voucher pays its whole value once, towards an amount of at least that; fee ${feeText(m.settings.fees.voucher)}.\n`,
    table(['pin', 'value', 'outcome', 'label'], m.vouchers.map((v) => [v.pin, String(v.value), v.outcome === 'failed' ? `refused: ${v.message}` : v.outcome, v.label])),
    'Any other PIN is refused as invalid; a reset makes the vouchers unused again.\n',
  ].join('')
}

/** Virtual bank accounts (docs/behaviour.md#virtual-accounts): the banks, and what the test environment's credit call does. */
function virtualAccountsPart(m: Magic): string {
  return [
    '\nVirtual bank accounts\n',
    'POST /merchant/api/v1/virtual-bank-account: one per account_reference; its 10-digit number comes from the namespace and the reference.\n',
    table(['bank_code', 'bank_name'], VBA_BANKS.map(([code, name]) => [code, name])),
    `\nPOST /merchant/api/v1/virtual-bank-account/sandbox/credit {"account_number", "amount", "currency": "NGN"}, NGN ${CREDIT_LIMITS.min} to ${CREDIT_LIMITS.max}:\n`,
    table(
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

/** Pool accounts (docs/behaviour.md#pool-accounts): the currencies, the shared account, the credit call. */
function poolAccountsPart(m: Magic): string {
  return [
    '\nPool accounts\n',
    `POST /merchant/api/v1/pool-accounts {"customer_name", "customer_email", "currency": ${POOL_CURRENCIES.join(' | ')}, "account_type"?: "bank_account" | "mobile_money" (${MOBILE_MONEY_POOLS.join(', ')})}: one reference SBKP<8><currency> per customer e-mail (409 A reference already exists for this customer).\n`,
    `POST /merchant/api/v1/pool-accounts/sandbox/credit {"reference", "amount", "currency": the pool's}, ${POOL_CREDIT_LIMITS.min} to ${POOL_CREDIT_LIMITS.max}: a pay-in KPY-PA-..., success and available at once, charge.success (payment_method pool_account); fee ${feeText(m.settings.fees.bank_transfer)}, the merchant's.\n`,
  ].join('')
}

/** Payouts (docs/behaviour.md#payouts): the destinations, the test accounts, the fee, the delay, the limits, the banks' availability. */
function payoutsPart(m: Magic): string {
  const limits = Object.entries(m.settings.payout_limits).map(([k, l]) => `${k} ${l.min} to ${l.max}`).join(', ')
  const multiples = Object.entries(m.settings.payout_multiples).map(([c, n]) => `${c} amounts are multiples of ${n}`).join('; ')
  const availability = Object.entries(m.settings.payout_availability).map(([code, status]) => `${code} ${status}`).join(', ')
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
    `Fee ${feeText(m.settings.fees.payout)} plus ${m.settings.vat_percent}% VAT, debited with the amount at once; processing ${m.settings.payout_delay_seconds} s on the namespace clock, then:\n`,
    table(['bank / operator', 'account', 'outcome', 'label'], m.payouts.map((p) => [p.bank, p.account, p.outcome === 'failed' ? `failed: ${p.message}` : p.outcome, p.label])),
    `Any other account succeeds. Limits per payout: ${limits || 'none'}; wallets otherwise the operator list's min and max.\n`,
    ...(multiples ? [`${multiples}.\n`] : []),
    `POST /merchant/api/v1/payouts/availability {"type": "bank_account", "currency": "ZAR"}: every South African bank is available${availability ? ` but ${availability}` : ''};\n`,
    '  a payout to an unavailable bank fails after the delay (Destination bank is not available).\n',
    'End one now: POST /_sandbox/payouts/<reference>/complete {"outcome"?, "reason"?}\n',
    `Stablecoin wallets: POST /merchant/api/v1/crypto/wallets {"reference", "currency": ${STABLECOINS.join(' | ')}, "network"?: ${NETWORKS.join(' | ')} (default ${NETWORKS[0]}), "customer"};\n`,
    '  GET /merchant/api/v1/crypto/wallets/<reference>.\n',
    `Stablecoin payouts: disburse with {"type": "crypto", "currency": ${STABLECOINS.join(' | ')}, "crypto": {"network", "destination_address"}}, paid from the USD\n`,
    `  balance one for one; fee ${feeText(m.settings.fees.stablecoin_payout)} plus VAT; any address succeeds after the delay (the complete call fails one).\n`,
  ].join('')
}

/** Refunds (docs/behaviour.md#refunds): how long one processes, and the test fields that pick its outcome. */
function refundsPart(m: Magic): string {
  const minimums = Object.entries(REFUND_MIN).map(([currency, minor]) => formatMoney(currency, minor)).join(', ')
  return [
    '\nRefunds\n',
    `POST /merchant/api/v1/refunds/initiate {"payment_reference", "reference", "amount"?}: a settled pay-in, at least ${minimums};\n`,
    `processing for ${m.settings.refund_delay_seconds} s on the namespace clock, its amount debited from the available balance at once, then:\n`,
    table(
      ['completion_status', 'outcome'],
      [
        ['(absent) or success', 'success, refund.success'],
        ['failed', 'failed, refund.failed with status_reason (default "Refund failed"); the amount returns to the balance'],
      ],
    ),
    'Now: POST /_sandbox/refunds/<reference>/complete {"outcome"?, "reason"?}.\n',
  ].join('')
}

/** Chargebacks (docs/behaviour.md#chargebacks): the disputed test cards, the calls, the pack's timings. */
function chargebacksPart(m: Magic): string {
  const disputed = m.cards.filter((c) => c.chargeback).map((c) => c.number)
  const st = m.settings
  return [
    '\nChargebacks\n',
    `Always disputed: ${disputed.join(', ') || '(no card: mark one chargeback: true in a pack)'}: a successful charge opens a chargeback of its whole amount at once.\n`,
    'Open one on any successful pay-in: POST /_sandbox/charges/<reference>/chargeback {"amount"?, "reason"?, "deadline_hours"?}\n',
    '  (amount at most what refunds and other chargebacks left; held from then on).\n',
    'Answer: PATCH /api/v1/chargebacks/<reference> (or /merchant/api/v1/...) {"status": "accepted" | "declined" | "partial", "evidence"?, "reason"?, "amount"?}\n',
    `Unanswered ${st.chargeback_deadline_hours} h: auto_accepted. Accepted amounts are debited once (balance history source chargeback).\n`,
    `Declined or partial: decided ${st.chargeback_decision} ${st.chargeback_decision_hours} h after the answer; now: POST /_sandbox/chargebacks/<reference>/decide {"outcome": "won" | "lost"}.\n`,
  ].join('')
}

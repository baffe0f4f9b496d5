import { TRANSFER_BANK } from './bank-transfer/service.js'
import { bankTransferChannel } from './bank-transfer/checkout-channel.js'
import { bankTransferSettings } from './bank-transfer/settings.js'
import { cardChannel, pickTestCard } from './cards/checkout-channel.js'
import { mobileMoneyChannel } from './mobile-money/checkout-channel.js'
import { payWithBankChannel } from './pay-with-bank/checkout-channel.js'
import { pickTestOf } from './engine/checkout-channel.js'
import { CHECKOUT_HOURS } from './checkout/service.js'
import type { AnyArea } from './http/area.js'
import { feeText, textTable as table, type TestValuesView as Magic } from './scenario/test-value-text.js'

/**
 * The active test values as plain-text tables (`sandbox magic`): the cards, wallets, direct debit
 * and checkout below (read by several areas) and the part each area of `areas` brings
 * (`Area.testValues`), by place.
 */
export function testValuesText(m: Magic, areas: readonly AnyArea[]): string {
  const own = [
    { place: 30, text: directDebitPart },
    { place: 50, text: checkoutPart },
  ]
  const brought = areas.flatMap(({ testValues: t }) => (t?.text ? [{ place: t.textPlace ?? t.place, text: t.text }] : []))
  return [...own, ...brought].sort((a, b) => a.place - b.place).map((p) => p.text(m)).join('')
}

function directDebitPart(m: Magic): string {
  const parts: string[] = []
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
  return parts.join('')
}

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
    `\nBank transfer: a temporary account of 10 digits at ${TRANSFER_BANK.bank_name} (${TRANSFER_BANK.bank_code}), open ${bankTransferSettings.of(m).transfer_account_minutes} min;\n`,
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


// docs/test-values.md, made from the data it describes: the shipped scenario pack
// (scenarios/default.yaml, read through the pack loader the server uses, from dist/) and the few
// lists the code holds (the checkout's channels). The prose around the tables is written here for
// direct debit (its seeded authorizations' accounts are the pack's, not the view's), the checkout
// (it names every channel) and bank transfers (an amount's own delay is the pack's); the other
// sections are the areas' own (`Area.testValues`, src/http/area.ts), each in its folder's
// test-values.ts, shown among these by place. Every test value, fee, delay and limit is read from the
// data. test/test-values-page.test.ts fails when the committed page differs from what this prints.
//
//   node scripts/test-values.mjs                 prints the page
//   node scripts/test-values.mjs --output FILE   writes it (npm run docs:test-values)
import { writeFileSync } from 'node:fs'
import { TRANSFER_BANK } from '../dist/bank-transfer/service.js'
import { AREAS } from '../dist/areas.js'
import { pickTestCard } from '../dist/cards/checkout-channel.js'
import { checkoutChannels, pickTestOf } from '../dist/engine/checkout-channel.js'
import { CHECKOUT_HOURS } from '../dist/checkout/service.js'
import { ActiveScenarios, BUILT_DEFAULT_PACK_FILE, DEFAULT_PACK_FILE, loadBuiltPack, packRules } from '../dist/scenario/index.js'

const pack = loadBuiltPack(DEFAULT_PACK_FILE, BUILT_DEFAULT_PACK_FILE, packRules(AREAS))
const st = pack.settings

const c = (s) => '`' + s + '`'
const num = (n) => Number(n).toLocaleString('en-US')
const cell = (s) => String(s).replaceAll('|', '\\|')
const table = (headers, rows) => [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n')
const fee = (f) => [`${f.percent} %`, ...(f.cap !== undefined ? [`at most ${num(f.cap)}`] : []), ...(f.flat !== undefined ? [`plus ${num(f.flat)}`] : [])].join(', ')
const ended = (x) => (x.outcome === 'failed' ? `failed: ${c(x.message)}` : x.outcome === 'processing' ? `stays ${c('processing')}` : x.outcome)

function directDebitPart() {
  const ceilings = [...new Set(pack.authorizations.map((a) => a.amount))]
  const rows = pack.authorizations.map((a) => [c(a.reference), a.status, `${c(a.account_number)} (${a.bank_code})`, a.label])
  const accounts = pack.accounts.map((a) => [c(a.account_number), a.bank_code, ended(a), a.label])
  return `## Direct debit

Every namespace is seeded with these authorizations (and again on reset), type ${c('variable')},
ceiling NGN ${ceilings.map(num).join(' or ')} per debit; debit one with
${c('POST /api/v1/direct-debit/authorizations/{reference}/debits')} ${c('{amount, narration, currency: "NGN"}')}.
Debits answer ${c('processing')} and complete ${st.debit_delay_seconds} s later on the clock; authorizations are created and
moved with the control API ([behaviour.md#direct-debit](behaviour.md#direct-debit)).

${table(['reference', 'status', 'account (bank)', 'what it does'], rows)}

A debit ends by the authorization's account; any other account succeeds:

${table(['account', 'bank', 'debits', 'label'], accounts)}
`
}


/** each checkout channel the areas declare, and the currencies it takes (src/engine/checkout-channel.ts) */
const CHANNEL_CURRENCIES = Object.fromEntries(checkoutChannels().map((ch) => [ch.kind, ch.currencies]))

function checkoutPart() {
  const channelRows = Object.entries(CHANNEL_CURRENCIES).map(([channel, currencies]) => [
    c(channel),
    currencies.join(', '),
    { card: 'the cards above, with their steps and outcomes', bank_transfer: 'a temporary account (below)', mobile_money: 'the wallets above', pay_with_bank: 'a bank of the list below, approved at its page' }[channel],
    fee(st.fees[channel]),
  ])
  const first = (x, key) => (x ? c(x[key]) : '(none: give one)')
  const defaults = [
    ['card', ...CHANNEL_CURRENCIES.card.slice(0, 1), first(pickTestCard(pack.cards, 'success'), 'number'), first(pickTestCard(pack.cards, 'failed'), 'number')],
    ...CHANNEL_CURRENCIES.mobile_money.map((cur) => ['mobile_money', cur, first(pickTestOf(pack.wallets, cur, 'success'), 'number'), first(pickTestOf(pack.wallets, cur, 'failed'), 'number')]),
    ...CHANNEL_CURRENCIES.pay_with_bank.map((cur) => ['pay_with_bank', cur, first(pickTestOf(pack.banks, cur, 'success'), 'bank_code'), first(pickTestOf(pack.banks, cur, 'failed'), 'bank_code')]),
  ]
  return `## Checkout Standard

${c('POST /merchant/api/v1/charges/initialize')} answers ${c('checkout_url')}, the hosted page on the
origin you called: ${c('<origin>/checkout/<transaction reference>/pay')} (${c('https://api.korapay.com/...')}
through the proxy or the in-process interception, which then serve it;
[behaviour.md#urls-handed-out](behaviour.md#urls-handed-out)). The page offers the channels you list
in ${c('channels')} (all by default) that take the currency, or every channel that takes it when none of
yours does (Kora's WooCommerce plugin sends card and bank transfer for KES, GHS and USD too); the same cards and wallets as above work on
it, each try an attempt of its own, and a failed attempt can be followed by another. A checkout
nobody pays expires after ${CHECKOUT_HOURS} hours on the namespace clock (behaviour.md#checkout). The fee is the
paying channel's (the pack's ${c('fees')}), plus ${st.vat_percent} % VAT on it.

${table(['channel', 'currencies', 'pays with', 'fee'], channelRows)}

**The page** needs no script: plain forms, each step of the card or wallet asked in turn (PIN,
OTP, billing address, phone, the card's 3DS page, the wallet's PIN prompt simulated), a failed try
said in words with the earlier tries listed, and "Cancel". Once the checkout ends the browser
goes to ${c('redirect_url?reference=<your reference>')} (behaviour.md#checkout-page).

![The hosted checkout page: the order on the left; the channel choice, the card form and the test values it accepts on the right](images/checkout.png)

**Bank transfer**: the page shows a temporary account of 10 digits at ${c(TRANSFER_BANK.bank_name)} (${c(TRANSFER_BANK.bank_code)}), open for
${st.transfer_account_minutes} minutes. The transfer is told to the sandbox by the page's "I have sent the money", by the
control call below (with ${c('amount')}), or by the clock: with nothing sent, the expected amount
arrives by itself ${st.transfer_delay_seconds} s after the account is issued (behaviour.md#bank-transfer).

| amount sent | outcome |
|---|---|
| exact | success |
| more | success; the excess is returned to the payer |
| less | all of it is returned; the checkout stays open for another transfer |

**Without a browser** (CI): ${c('POST /_sandbox/checkouts/{reference}/pay')}
${c('{"channel": "card" | "bank_transfer" | "mobile_money" | "pay_with_bank", "outcome"?: "success" | "failed", "card"?, "mobile_money"?: {"number"}, "bank_code"?, "amount"?}')}
pays as the customer would, every step answered with the pack's values; without ${c('card')},
${c('mobile_money')} or ${c('bank_code')} it uses the first test value that ends as ${c('outcome')}:

${table(['channel', 'currency', 'outcome success', 'outcome failed'], defaults)}

${c('POST /_sandbox/checkouts/{reference}/cancel')} cancels as the customer does. ${c('{reference}')} is yours or the
transaction reference; ${c('npx sandbox magic')} prints all of this for the active packs.
`
}

function bankTransferPart() {
  const arrives = { short: 'half the expected amount: returned, the charge waits (then expires)', over: 'a tenth more: the excess is returned, success', never: `nothing: the account expires after ${st.transfer_account_minutes} minutes`, exact: 'exactly' }
  const rows = pack.transfers.map((t) => [c(t.amount.toFixed(2)), arrives[t.arrives] + (t.after_seconds !== undefined ? `, but after ${t.after_seconds / 60} minutes` : '')])
  return `## Bank transfers

${c('POST /merchant/api/v1/charges/bank-transfer')} (${c('reference')}, ${c('amount')} NGN 100 to 10,000,000,
${c('currency: "NGN"')}, ${c('customer')}, ${c('account_name')}?, ${c('narration')}?, ${c('notification_url')}?,
${c('merchant_bears_cost')}? default false, ${c('metadata')}?, ${c('auto_complete')}?) answers the temporary
account in ${c('data.bank_account')}; the charge stays ${c('processing')} until a transfer arrives. With
nothing else done the expected amount arrives by itself ${st.transfer_delay_seconds} s later on the namespace clock
(${c('auto_complete: false')} waits for a transfer told to the sandbox); the account expires after ${st.transfer_account_minutes}
minutes. Over- and under-payment as in the checkout's table above; a pack setting
${c('transfer_mismatch: accept_all')} keeps whatever arrives as paid (the shipped pack: ${c(st.transfer_mismatch)}). These
amounts arrive otherwise by themselves (behaviour.md#bank-transfer):

${table(['amount', 'arrives'], rows)}
`
}



/**
 * The page's sections by place: the script's own below (each a function and the titles of its
 * headings), and those the areas bring (`Area.testValues`, their title the heading), from the
 * shipped pack and their settings' defaults.
 */
function sections() {
  const own = [
    [30, ['Direct debit'], directDebitPart],
    [50, ['Checkout Standard'], checkoutPart],
    [60, ['Bank transfers'], bankTransferPart],
  ].map(([place, titles, part]) => ({ place, titles, text: part() }))
  const view = new ActiveScenarios([pack], packRules(AREAS)).toJSON()
  const areas = AREAS.filter((a) => a.testValues?.page).map(({ testValues: t }) => ({ place: t.place, titles: [t.page.title], text: `## ${t.page.title}\n\n${t.page.body(view)}` }))
  return [...own, ...areas].sort((a, b) => a.place - b.place)
}

/** A heading's anchor, as GitHub makes it. */
const anchor = (title) => title.toLowerCase().replace(/[^a-z0-9 -]/g, '').replaceAll(' ', '-')

/** The page's contents: a link per heading, wrapped. */
function contents(titles) {
  const lines = ['Contents:']
  for (const [i, t] of titles.entries()) {
    const link = `[${t}](#${anchor(t)})${i < titles.length - 1 ? ' ·' : ''}`
    if (lines.at(-1).length + 1 + link.length > 132) lines.push(link)
    else lines[lines.length - 1] += ` ${link}`
  }
  return lines.join('\n')
}

/** The whole page. */
export function testValuesPage() {
  const all = sections()
  const head = `# Test values

<!-- Generated by scripts/test-values.mjs from scenarios/default.yaml and fixtures/: do not edit by hand.
     Change the data (or the script's prose) and run npm run docs:test-values; test/test-values-page.test.ts
     fails while this page differs from what the data gives. -->

The live service's published sandbox values work unchanged; these are the shipped pack's
(${c('scenarios/default.yaml')}, pack ${c(pack.name)}). ${c('npx sandbox magic')} prints the active ones (${c('--json')}, or
${c('GET /_sandbox/scenarios')}, for the JSON); ${c('--scenarios FILE')} or ${c('POST /_sandbox/scenarios')} adds your own
([behaviour.md#packs-and-replay](behaviour.md#packs-and-replay)). Amounts are in major units.

Metadata follows the documented rule: at most 5 keys of at most 20 characters of ${c('A-Za-z0-9-')}.
The live test environment was seen taking an underscore key on a card charge (${c('{"client_id": "qwerty"}')},
from a public client's test suite), so a pack setting takes ${c('_')} too, on every endpoint
that takes metadata, every other rule kept (the shipped pack: ${c(`metadata_underscores: ${st.metadata_underscores}`)}):

\`\`\`yaml
settings:
  metadata_underscores: true
\`\`\`

Where public clients send requests the documentation does not describe, see
[differences.md](differences.md).

${contents(all.flatMap((p) => p.titles))}
`
  return [head, ...all.map((p) => p.text)].join('\n')
}

const at = process.argv.indexOf('--output')
if (import.meta.url === `file://${process.argv[1]}`) {
  if (at > 0) writeFileSync(process.argv[at + 1], testValuesPage())
  else process.stdout.write(testValuesPage())
}

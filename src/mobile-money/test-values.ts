import type { AreaTestValues } from '../http/area.js'
import { code as c, codes as cs, ended, markdownTable, textTable as table, type TestValuesView } from '../scenario/test-value-text.js'
import { WALLET_CURRENCIES, operatorsOf, walletCurrency } from '../scenario/lookups.js'
import { mobileMoneySettings } from './settings.js'

/** The wallets (docs/behaviour.md#mobile-money-charge): each test wallet, what the resolve answers of it, each currency's default. */
function text(m: TestValuesView): string {
  const parts: string[] = []
  if (m.wallets.length) {
    parts.push('\nMobile money wallets\n')
    parts.push(table(['number', 'currency', 'steps', 'otp', 'pin', 'outcome', 'resolves to', 'label'], m.wallets.map((w) => [w.number, w.currency, w.steps.join(',') || '-', w.otp ?? 'N/A', w.pin ?? '-', w.outcome, resolvesTo(w), w.label])))
    parts.push('REDIRECT: the customer approves or declines at data.authorization.redirect_url (<origin>/_sandbox/mobile-money/<transaction reference>).\n')
    parts.push('POST /merchant/api/v1/misc/mobile-money/resolve {"mobileMoneyCode", "phoneNumber", "currency"}: a wallet above as its column says;\n')
    parts.push('  "not found" is 503 AA024 Invalid account.; any other number resolves to a name derived from operator and number.\n')
  }
  parts.push(walletCurrenciesPart())
  return parts.join('')
}

/** What the wallet resolve answers of a pack's wallet (docs/behaviour.md#look-ups). */
function resolvesTo(w: TestValuesView['wallets'][number]): string {
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

/** a wallet the operator has none of (`found: false`) */
const notFound = (w: TestValuesView['wallets'][number]) => 'found' in w && w.found === false

/** a list of steps in words */
const steps = (list: readonly string[]) => (list.length ? list.join(', ') : 'none')

/** Its section of docs/test-values.md, below its title. */
function page(v: TestValuesView): string {
  const own = mobileMoneySettings.of(v)
  const missing = v.wallets.filter(notFound)
  const rows = v.wallets.filter((w) => !notFound(w)).map((w) => {
    let outcome = w.outcome === 'processing' ? 'never completes' : ended(w)
    if (w.outcome === 'success' && w.steps.includes('REDIRECT')) outcome = "success once approved on the operator's page"
    return [c(w.number), w.currency, steps(w.steps), outcome, ('name' in w && w.name) || '(derived)']
  })
  if (missing.length) rows.push([cs(missing.map((w) => w.number)), missing.map((w) => w.currency).join(', '), 'none', `no such wallet: fails at once, and the resolve answers 503 ${c(missing[0].message!)}`, 'not found'])
  const currencies = WALLET_CURRENCIES.map((currency) => {
    const w = walletCurrency(currency)!
    return [currency, w.country, `${w.dial_code}, then ${w.digits} digits`, steps(w.steps)]
  })
  return `OTP **${c(v.settings.otp)}** (${c('POST .../charges/mobile-money/authorize')} ${c('{reference, token}')}; ${own.otp_attempts} wrong ones fail
the charge). The STK prompt is answered by the live sandbox's own
${c('POST .../charges/mobile-money/sandbox/authorize-stk')} ${c('{reference, pin}')} with PIN **${c(v.settings.pin)}**, or
by itself ${own.stk_delay_seconds} s later on the namespace clock ([behaviour.md#mobile-money](behaviour.md#mobile-money)). The last
column is what ${c('POST /merchant/api/v1/misc/mobile-money/resolve')} answers as the wallet's name.

${markdownTable(['number', 'currency', 'steps', 'outcome', 'resolves to'], rows)}

The XAF, XOF, TZS and EGP wallets are the live testing page's. A wallet number carries its
currency's country code. Any other wallet takes its currency's success path (behaviour.md#mobile-money-charge): the
STK prompt alone where the testing page's OTP is "N/A", else an OTP then the prompt. The
currencies, country codes and default steps are ${c('fixtures/lookups.json')}'s ${c('wallet_currencies')}:

${markdownTable(['currency', 'country', 'number', 'steps of any other wallet'], currencies)}

Your own wallets go in a scenario pack's ${c('wallets')}. A ${c('REDIRECT')} step answers
${c('data.authorization.redirect_url')}, the sandbox's operator page where the customer approves or
declines (behaviour.md#mobile-money-operator-page).
`
}

/** Its test values (`Area.testValues`): after the cards in `sandbox magic` and on the page. */
export const mobileMoneyTestValues: AreaTestValues = { place: 20, text, page: { title: 'Mobile money wallets', body: page } }

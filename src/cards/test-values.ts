import type { AreaTestValues } from '../http/area.js'
import { code as c, ended, markdownTable, textTable as table, type TestValuesView } from '../scenario/test-value-text.js'

/** The cards (docs/behaviour.md#card-charges): the test PIN and OTP, each card's steps and outcome. */
function text(m: TestValuesView): string {
  return [
    `PIN ${m.settings.pin}, OTP ${m.settings.otp}; cards expire as listed, any future date works.\n`,
    'Cards\n',
    table(
      ['number', 'scheme', 'cvv', 'expiry', 'steps', 'outcome', 'label'],
      m.cards.map((c) => [c.number, c.scheme, c.cvv, `${c.expiry_month}/${c.expiry_year}`, c.steps.join(',') || '-', c.outcome, c.label]),
    ),
  ].join('')
}

/** a list of steps in words */
const steps = (list: readonly string[]) => (list.length ? list.join(', ') : 'none')

/** the value most of `values` are */
function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0][0]
}

/** Its section of docs/test-values.md, below its title. */
function page(v: TestValuesView): string {
  const usual = mostCommon(v.cards.map((x) => x.cvv))
  const expiry = mostCommon(v.cards.map((x) => `${x.expiry_month}/${x.expiry_year}`))
  const others = [...new Set(v.cards.map((x) => x.cvv).filter((v) => v !== usual))]
  const rows = v.cards.map((x) => {
    let outcome = ended(x)
    if (x.outcome === 'success' && x.steps.includes('3DS')) outcome = 'success when approved'
    if (x.outcome === 'processing') outcome += ' (no step left to answer)'
    if (x.chargeback) outcome += ', then disputed: a chargeback of the whole amount opens at once ([Chargebacks](#chargebacks))'
    return [c(x.number) + (x.cvv !== usual ? ` (CVV ${x.cvv})` : ''), x.scheme, steps(x.steps), outcome]
  })
  return `The card number selects a scenario: authorization steps, then an outcome. While a step is
pending the charge is ${c('processing')}, ${c('auth_model')} names the step and ${c('authorization')} says what to
send to ${c('POST /merchant/api/v1/charges/card/authorize')}; for 3DS, ${c('authorization.redirect_url')} is
the sandbox's own 3DS page, with Approve and Decline ([behaviour.md#card-charges](behaviour.md#card-charges)).

- Test PIN **${c(v.settings.pin)}**, test OTP **${c(v.settings.otp)}**. A PIN sent up front in ${c('card.pin')} consumes the PIN
  step. A wrong PIN fails the charge with ${c('Incorrect card PIN')}, a wrong OTP with
  ${c('The OTP entered is invalid')}, Decline on the 3DS page with
  ${c('3DS authentication was declined by the cardholder')}.
- Any other Luhn-valid Visa, Mastercard or Verve number succeeds with no authentication.
- Listed with expiry ${c(expiry)} and CVV ${c(usual)}${others.length ? ` (${others.map(c).join(', ')} where shown)` : ''}; the CVV and expiry are checked for
  their format (and the expiry for being in the future) only, so any others work too.

${markdownTable(['number', 'scheme', 'steps', 'outcome'], rows)}

The same cards pre-authorize (${c('.../charges/card/pre-authorize')}), then capture, void and refund
([behaviour.md#preauth](behaviour.md#preauth)).
`
}

/** Its test values (`Area.testValues`): first in `sandbox magic` and on the page. */
export const cardsTestValues: AreaTestValues = { place: 10, text, page: { title: 'Cards', body: page } }

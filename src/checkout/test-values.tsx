import type { FC } from 'hono/jsx'
import type { ActiveScenarios } from '../scenario/index.js'
import type { CheckoutChannel } from './schemas.js'

/**
 * The test values the checkout page shows under its form, collapsed (docs/behaviour.md#checkout-page):
 * what the chosen channel accepts in the namespace's packs and what each does, read from the
 * packs in force (the same values `sandbox magic` prints), so a pack added at run time shows too.
 */

/** one value and what paying with it does */
export interface TestValue {
  value: string
  what: string
}

export interface ChannelTestValues {
  /** one line above the list: the PIN, OTP and the like */
  note: string
  values: TestValue[]
}

export function checkoutTestValues(pack: ActiveScenarios, channel: CheckoutChannel, currency: string): ChannelTestValues {
  const { pin, otp } = pack.settings
  if (channel === 'card') {
    return {
      note: `Any future expiry date works. Asked for a PIN, ${pin}; an OTP, ${otp}.`,
      values: [...pack.cards.values()].map((c) => ({ value: c.number, what: `CVV ${c.cvv}: ${c.label}` })),
    }
  }
  if (channel === 'mobile_money') {
    return {
      note: `Wallets of ${currency}: the prompt's PIN is ${pin}, the OTP ${otp}, unless a wallet says otherwise.`,
      values: [...pack.wallets.values()].filter((w) => w.currency === currency).map((w) => ({ value: w.number, what: w.label })),
    }
  }
  if (channel === 'pay_with_bank') {
    return {
      note: "Choose a bank, then approve or decline on the bank's page; approved, the payment ends as its bank says.",
      values: [...pack.banks.values()].filter((b) => b.currency === currency).map((b) => ({ value: `${b.name} (${b.bank_code})`, what: b.label })),
    }
  }
  return {
    note: 'No transfer is sent: "I have sent the money" says what arrives, the amount expected, less or more.',
    values: [],
  }
}

/** The test values the chosen channel accepts collapsed under the form (its style is the page's, page-views.tsx): what a tester looks for, out of a customer's way. */
export const TestValues: FC<{ tests: ChannelTestValues }> = ({ tests }) => (
  <details class="tests">
    <summary>Test values this page accepts</summary>
    <p>{tests.note}</p>
    {tests.values.length ? (
      <table>
        <tbody>
          {tests.values.map((t) => (
            <tr>
              <td class="v">{t.value}</td>
              <td>{t.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    ) : null}
  </details>
)

import type { FC } from 'hono/jsx'
import type { ChannelTestValues } from '../engine/checkout-channel.js'

/**
 * The test values the checkout page shows under its form, collapsed (docs/behaviour.md#checkout-page):
 * what the chosen channel accepts in the namespace's packs and what each does, as the channel
 * declares them (`testValues`, src/engine/checkout-channel.ts), read from the packs in force (the
 * same values `sandbox magic` prints), so a pack added at run time shows too.
 */

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

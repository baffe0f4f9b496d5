import { decisionPage, type DecisionPage, type Said } from '../engine/decision-page.js'
import type { CardCharge } from './types.js'
import type { Namespaces } from '../namespaces.js'
import type { Frozen } from '../store/frozen.js'
import type { Store } from '../store/store.js'
import { customerPagePath } from '../engine/pages.js'
import type { CardService } from './service.js'

/** The 3DS page of a card charge (docs/behaviour.md#card-3ds-page), naming the namespace `ns` when given. */
export const threeDsPagePath = customerPagePath('/_sandbox/3ds/')

/**
 * The 3DS challenge page (docs/behaviour.md#card-3ds-page), the cards area's decision page
 * (src/engine/decision-page.tsx): the cardholder approves or declines the card payment.
 */

const tone = (charge: Frozen<CardCharge>): Said['tone'] => (charge.status === 'success' ? 'ok' : 'bad')
const NOTHING = { title: 'Transaction already complete', heading: 'Nothing to authenticate' }

function outcomeText(charge: Frozen<CardCharge>): string {
  if (charge.status === 'success') return 'Payment approved. This transaction is complete.'
  if (charge.status === 'failed') return `Payment declined: ${charge.failure_message ?? 'failed'}.`
  return 'This transaction is still processing.'
}

/** GET and POST /_sandbox/3ds/:page/:tx (and /_sandbox/3ds/:tx), served by the cards area (src/cards/area.ts). */
export function threeDsPage(wiring: { store: Store; namespaces: Namespaces; cards: CardService; intercepted: readonly string[] }): DecisionPage {
  return decisionPage<CardCharge>(
    {
      kind: 'card',
      look: {
        ground: '#eef1f5',
        shadow: 'rgba(20,30,50,.12)',
        accent: '#0b3d91',
        header: `.bank{display:flex;align-items:center;gap:10px;font-weight:700;color:#0b3d91;margin-bottom:8px}
.logo{width:34px;height:34px;border-radius:8px;background:#0b3d91;color:#fff;display:grid;place-items:center;font-size:14px}`,
      },
      bank: () => (
        <>
          <span class="logo" aria-hidden="true">
            SB
          </span>
          <span>Sandbox Bank Secure</span>
        </>
      ),
      foot: 'paysandbox 3-D Secure simulation. No real card is charged.',
      path: threeDsPagePath,
      instrument: ({ card }) => ['Card', `${card.card_type.toUpperCase()} •••• ${card.last_four}`],
      notFound: { show: 'No card transaction has this reference. Check the link you were given.', decide: 'No card transaction has this reference.' },
      awaiting: (charge) => charge.status === 'processing' && charge.pending_steps[0] === '3DS',
      ask: () => ({ title: 'Verify your payment', text: 'Your bank asks you to confirm this online payment.' }),
      decide: (ns, tx, decision) => wiring.cards.decide3ds(ns, tx, decision),
      ended: (charge) => ({ ...NOTHING, tone: tone(charge), text: charge.status === 'processing' ? 'This transaction does not need 3-D Secure authentication now.' : outcomeText(charge) }),
      refused: (message) => ({ ...NOTHING, tone: 'bad', text: message }),
      decided: (charge) => ({ title: charge.status === 'success' ? 'Payment approved' : 'Payment declined', tone: tone(charge), text: outcomeText(charge) }),
      // back to the merchant after the choice, the scenario's next step included (docs/behaviour.md#card-3ds-page)
      returns: () => true,
    },
    wiring,
  )
}

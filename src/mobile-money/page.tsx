import { decisionPage, type DecisionPage, type Said } from '../charges/decision-page.js'
import { walletPagePath } from '../charges/pages.js'
import type { Namespaces } from '../namespaces.js'
import type { Frozen } from '../store/frozen.js'
import type { Store } from '../store/store.js'
import type { MobileMoneyCharge, MobileMoneyService } from './service.js'

/**
 * The operator's page of a mobile-money charge's REDIRECT step (docs/behaviour.md#mobile-money-operator-page), the
 * area's decision page (src/charges/decision-page.tsx): the wallet's owner approves or declines
 * the payment, as on the telco's page the service sends them to.
 */

const NOT_FOUND = 'No mobile money transaction has this reference. Check the link you were given.'

const said = (text: string, tone: Said['tone']): Said => ({ title: tone === 'ok' ? 'Payment approved' : 'Payment status', tone, text })

/** What the page says of a charge that is no longer waiting for the customer on it. */
function outcome(charge: Frozen<MobileMoneyCharge>): Said {
  if (charge.status === 'success') return said('Payment approved. This transaction is complete.', 'ok')
  if (charge.status === 'processing') return said(`${charge.message}.`, 'wait')
  return said(`Payment not completed: ${charge.failure_message ?? charge.message}.`, 'bad')
}

/** GET and POST /_sandbox/mobile-money/:page/:tx (and /_sandbox/mobile-money/:tx), served by the mobile money area. */
export function walletPage(wiring: { store: Store; namespaces: Namespaces; mobileMoney: MobileMoneyService; intercepted: readonly string[] }): DecisionPage {
  return decisionPage<MobileMoneyCharge>(
    {
      kind: wiring.mobileMoney.kind,
      look: { ground: '#fdf6e7', shadow: 'rgba(60,40,0,.12)', accent: '#b36b00', header: '.bank{font-weight:700;color:#b36b00;margin-bottom:8px}' },
      bank: () => 'Sandbox Mobile Money',
      foot: 'paysandbox mobile money simulation. No real wallet is debited.',
      path: walletPagePath,
      instrument: (charge) => ['Wallet', `+${charge.wallet.number}`],
      notFound: { show: NOT_FOUND, decide: NOT_FOUND },
      awaiting: (charge) => charge.status === 'processing' && charge.pending_steps[0] === 'REDIRECT',
      ask: (charge) => ({ title: 'Approve your payment', text: `Approve this payment from your ${charge.currency} wallet +${charge.wallet.number}, or decline it.` }),
      decide: (ns, tx, decision) => wiring.mobileMoney.decide(ns, tx, decision),
      ended: outcome,
      refused: (message) => said(message, 'bad'),
      decided: outcome,
      // a wallet that never answers keeps the customer on the page
      returns: (charge) => charge.status !== 'processing',
    },
    wiring,
  )
}

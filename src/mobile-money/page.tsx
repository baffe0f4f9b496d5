import { decisionPage, paymentSays, type DecisionPage } from '../engine/decision-page.js'
import { customerPagePath } from '../engine/pages.js'
import type { Namespaces } from '../namespaces.js'
import type { Store } from '../store/store.js'
import type { MobileMoneyCharge, MobileMoneyService } from './service.js'

/** The operator's page of a mobile-money charge's REDIRECT step (docs/behaviour.md#mobile-money-operator-page), naming `ns` when given. */
export const walletPagePath = customerPagePath('/_sandbox/mobile-money/')

/**
 * The operator's page of a mobile-money charge's REDIRECT step (docs/behaviour.md#mobile-money-operator-page), the
 * area's decision page (src/engine/decision-page.tsx): the wallet's owner approves or declines
 * the payment, as on the telco's page the service sends them to.
 */

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
      awaiting: (charge) => charge.status === 'processing' && charge.pending_steps[0] === 'REDIRECT',
      ask: (charge) => ({ title: 'Approve your payment', text: `Approve this payment from your ${charge.currency} wallet +${charge.wallet.number}, or decline it.` }),
      decide: (ns, tx, decision) => wiring.mobileMoney.decide(ns, tx, decision),
      ...paymentSays<MobileMoneyCharge>('mobile money', (charge) => charge.message),
    },
    wiring,
  )
}

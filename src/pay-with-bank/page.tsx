import { decisionPage, paymentSays, type DecisionPage } from '../engine/decision-page.js'
import type { Namespaces } from '../namespaces.js'
import type { Store } from '../store/store.js'
import { customerPagePath } from '../engine/pages.js'
import type { PayWithBankCharge, PayWithBankService } from './service.js'

/** The sandbox bank's page of a pay-with-bank charge (docs/behaviour.md#pay-with-bank), naming `ns` when given. */
export const bankPagePath = customerPagePath('/_sandbox/pay-with-bank/')

/**
 * The sandbox bank's page of pay with bank (docs/behaviour.md#pay-with-bank), at the charge's
 * `redirect_url`, the area's decision page (src/engine/decision-page.tsx): the customer approves
 * or declines the payment from their account.
 */

/** GET and POST /_sandbox/pay-with-bank/:page/:tx (and /_sandbox/pay-with-bank/:tx), served by the pay with bank area. */
export function bankPage(wiring: { store: Store; namespaces: Namespaces; payWithBank: PayWithBankService; intercepted: readonly string[] }): DecisionPage {
  return decisionPage<PayWithBankCharge>(
    {
      kind: wiring.payWithBank.kind,
      look: { ground: '#eef3ef', shadow: 'rgba(20,40,30,.12)', accent: '#0d6b3c', header: '.bank{font-weight:700;color:#0d6b3c;margin-bottom:8px}' },
      bank: (charge) => charge?.bank.name ?? 'Sandbox Bank',
      foot: 'paysandbox pay with bank simulation. No real account is debited.',
      path: bankPagePath,
      instrument: (charge) => ['Bank', charge.bank.name],
      awaiting: (charge) => charge.status === 'processing' && !charge.approved,
      ask: ({ bank }) => ({ title: 'Approve your payment', text: `You are signed in to ${bank.name}. Approve this payment from your account, or decline it.` }),
      decide: (ns, tx, decision) => wiring.payWithBank.decide(ns, tx, decision),
      ...paymentSays<PayWithBankCharge>('pay with bank', (charge) => charge.response_message),
    },
    wiring,
  )
}

import type { AreaTestValues } from '../http/area.js'
import { code as c, codes as cs, type TestValuesView } from '../scenario/test-value-text.js'
import { chargebackSettings } from './settings.js'

/** Chargebacks (docs/behaviour.md#chargebacks): the disputed test cards, the calls, the pack's timings. */
function text(m: TestValuesView): string {
  const disputed = m.cards.filter((c) => c.chargeback).map((c) => c.number)
  const st = chargebackSettings.of(m)
  return [
    '\nChargebacks\n',
    `Always disputed: ${disputed.join(', ') || '(no card: mark one chargeback: true in a pack)'}: a successful charge opens a chargeback of its whole amount at once.\n`,
    'Open one on any successful pay-in: POST /_sandbox/charges/<reference>/chargeback {"amount"?, "reason"?, "deadline_hours"?}\n',
    '  (amount at most what refunds and other chargebacks left; held from then on).\n',
    'Answer: PATCH /api/v1/chargebacks/<reference> (or /merchant/api/v1/...) {"status": "accepted" | "declined" | "partial", "evidence"?, "reason"?, "amount"?}\n',
    `Unanswered ${st.chargeback_deadline_hours} h: auto_accepted. Accepted amounts are debited once (balance history source chargeback).\n`,
    `Declined or partial: decided ${st.chargeback_decision} ${st.chargeback_decision_hours} h after the answer; now: POST /_sandbox/chargebacks/<reference>/decide {"outcome": "won" | "lost"}.\n`,
  ].join('')
}

/** Its section of docs/test-values.md, below its title. */
function page(v: TestValuesView): string {
  const disputed = v.cards.filter((x) => x.chargeback).map((x) => x.number)
  return `Only a customer's bank opens a chargeback, so the sandbox does it for you:
${c('POST /_sandbox/charges/{reference}/chargeback')} ${c('{"amount"?, "reason"?, "deadline_hours"?}')} on any
successful pay-in (at most what refunds left; a pre-authorization, what was captured; the dashboard's "Chargeback" button does the same),
or charge the test card ${cs(disputed)}, which is disputed as soon as it succeeds. Answer with
${c('PATCH /api/v1/chargebacks/{reference}')} (or ${c('/merchant/api/v1/...')})
${c('{"status": "accepted" | "declined" | "partial", "evidence"?, "reason"?, "amount"?}')}; read them with
${c('GET /api/v1/chargebacks/{reference}')} and ${c('GET /api/v1/chargebacks')}. Unanswered for ${chargebackSettings.of(v).chargeback_deadline_hours} h on the
namespace clock, a chargeback is accepted. What is accepted (or lost) is debited from the balance
once, in the balance history as source ${c('chargeback')}, ${c('Chargeback deduction for KPY-...')}; refunds
and chargebacks of one pay-in never return more than it paid. A declined or partial one is
decided ${c(chargebackSettings.of(v).chargeback_decision)} ${chargebackSettings.of(v).chargeback_decision_hours} h later (the pack settings ${c('chargeback_deadline_hours')}, ${c('chargeback_decision_hours')},
${c('chargeback_decision')}), or now with ${c('POST /_sandbox/chargebacks/{reference}/decide')}
${c('{"outcome": "won" | "lost"}')} (behaviour.md#chargebacks).

Webhooks: ${c('chargeback.pending')}, ${c('chargeback.declined')}, ${c('chargeback.partial')},
${c('chargeback.auto_accepted')} and ${c('chargeback.lost')}, the events the service's pages name. The pages
document no notification for a chargeback the merchant accepts or wins, so the sandbox sends none
for those two.
`
}

/** Its test values (`Area.testValues`): `sandbox magic`'s part and the test-value page's section. */
export const chargebacksTestValues: AreaTestValues = { place: 140, text, page: { title: 'Chargebacks', body: page } }

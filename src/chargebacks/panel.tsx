import type { Panel } from '../http/area.js'
import { listPanel } from '../http/panel/list-panel.js'
import type { ChargebackService } from './service.js'
import { ActionButton, enc, money, when } from '../http/panel/ui.js'

/**
 * Chargebacks (docs/behaviour.md#chargebacks), newest first: the chargeback and its pay-in, the amount
 * and what left the balance, its status and deadline, and on a declined or partly accepted one the
 * buttons that decide it through the control call. A successful charge's row (src/control/dashboard/charges.tsx) opens one.
 */
export const Chargebacks = listPanel({
  id: 'chargebacks',
  caption: 'Chargebacks',
  items: (s: { chargebacks: Pick<ChargebackService, 'all'> }, ns) => s.chargebacks.all(ns),
  search: (c) => [c.payment_reference],
  columns: (col) => [
    col.ref('Chargeback', (c) => <>{c.reason ?? ''} · {when(c.created_at)}</>),
    { head: 'Pay-in', cls: 'wrap-s', cell: (c) => <span class="mono">{c.payment_reference}</span> },
    col.line('Amount', undefined, (c) => money(c.amount, c.currency), (c) => <>debited {money(c.debited, c.currency)}</>),
    col.status((c) => (
      <>
        {c.status === 'pending' ? <span class="sub">accepted at {when(c.deadline)} unless answered</span> : ''}
        {c.answer_reason ? <span class="sub">{c.answer_reason}</span> : ''}
      </>
    )),
    col.actions((c) =>
      c.status === 'declined' || c.status === 'partial' ? (
        <>
          <ActionButton path={`/_sandbox/chargebacks/${enc(c.reference)}/decide`} body={{ outcome: 'won' }} label="Won" name={`Decide chargeback ${c.reference} won`} />
          <ActionButton path={`/_sandbox/chargebacks/${enc(c.reference)}/decide`} body={{ outcome: 'lost' }} label="Lost" name={`Decide chargeback ${c.reference} lost`} cls="danger" />
        </>
      ) : (
        ''
      ),
    ),
  ],
})

/** Its panel of the dashboard (`Area.panels`). */
export const chargebacksPanel: Panel<{ chargebacks: Pick<ChargebackService, 'all'> }> = { id: 'chargebacks', title: 'Chargebacks', jump: 'Chargebacks', place: 80, body: (s, ns, f) => <Chargebacks s={s} ns={ns} f={f} /> }

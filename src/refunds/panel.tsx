import type { Panel } from '../http/area.js'
import { listPanel } from '../http/panel/list-panel.js'
import type { RefundService } from './service.js'
import { ActionButton, enc, money, when } from '../http/panel/ui.js'

/**
 * Refunds (docs/behaviour.md#refunds), newest first, whichever endpoint made them: the refund and
 * its pay-in, the amount of what was collected, its status (with its reason), and on a
 * processing one the buttons that finish it through the control call.
 */
export const Refunds = listPanel({
  id: 'refunds',
  caption: 'Refunds',
  items: (s: { refunds: Pick<RefundService, 'all'> }, ns, f) => s.refunds.all(ns).filter((r) => !f.status || r.status === f.status),
  search: (r) => [r.payment_reference],
  columns: (col) => [
    col.ref('Refund', (r) => <>{r.made_by === 'card_refund' ? 'card refund' : 'refunds API'} · {when(r.created_at)}</>),
    col.line('Pay-in', 'wrap-s', (r) => <span class="mono">{r.payment_reference}</span>, (r) => r.payment_method ?? ''),
    col.line('Amount', undefined, (r) => money(r.amount, r.currency), (r) => <>of {money(r.transaction_amount, r.currency)}</>),
    col.status((r) => (
      <>
        {r.status_reason ? <span class="sub">{r.status_reason}</span> : ''}
        {r.completed_at ? <span class="sub">{when(r.completed_at)}</span> : ''}
      </>
    )),
    col.actions((r) =>
      r.status === 'processing' ? (
        <>
          <ActionButton path={`/_sandbox/refunds/${enc(r.reference)}/complete`} body={{ outcome: 'success' }} label="Succeed" name={`Succeed refund ${r.reference}`} />
          <ActionButton path={`/_sandbox/refunds/${enc(r.reference)}/complete`} body={{ outcome: 'failed' }} label="Fail" name={`Fail refund ${r.reference}`} cls="danger" />
        </>
      ) : (
        ''
      ),
    ),
  ],
})

/** Its panel of the dashboard (`Area.panels`). */
export const refundsPanel: Panel<{ refunds: Pick<RefundService, 'all'> }> = { id: 'refunds', title: 'Refunds', jump: 'Refunds', place: 70, body: (s, ns, f) => <Refunds s={s} ns={ns} f={f} /> }

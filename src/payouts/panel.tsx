import type { Panel } from '../http/area.js'
import { listPanel } from '../http/panel/list-panel.js'
import type { PayoutService } from './service.js'
import { ActionButton, enc, money, when } from '../http/panel/ui.js'

/**
 * Payouts (docs/behaviour.md#payouts): each with its destination, amount and cost, status and
 * message, its batch if it has one, and buttons that end a processing one now (the control call).
 */
export const Payouts = listPanel({
  id: 'payouts',
  caption: 'Payouts',
  items: (s: { payouts: Pick<PayoutService, 'all'> }, ns) => s.payouts.all(ns),
  search: (p) => [p.batch_reference],
  columns: (col) => [
    col.ref('Reference', (p) => when(p.created_at), (p) => (p.batch_reference ? <span class="sub mono">batch {p.batch_reference}</span> : null)),
    {
      head: 'Destination',
      cls: 'wrap-s',
      cell: (p) =>
        p.bank_account ? (
          <>
            <span class="mono">{p.bank_account.account}</span>
            <span class="sub">
              {p.bank_account.bank_name} ({p.bank_account.bank}){p.bank_account.account_name ? ` · ${p.bank_account.account_name}` : ''}
            </span>
          </>
        ) : (
          <>
            <span class="mono">{p.mobile_money?.mobile_number}</span>
            <span class="sub">{p.mobile_money?.operator}</span>
          </>
        ),
    },
    col.line('Amount', undefined, (p) => money(p.amount, p.currency), (p) => <>fee {money(p.fee + p.vat, p.currency)}</>),
    col.status((p) => (
      <>
        <span class="sub">{p.message}</span>
        {p.trace_id ? <span class="sub mono">trace {p.trace_id}</span> : null}
      </>
    )),
    {
      head: 'Actions',
      cell: (p) =>
        p.status === 'processing' ? (
          <div class="actions">
            <ActionButton path={`/_sandbox/payouts/${enc(p.reference)}/complete`} body={{ outcome: 'success' }} label="Succeed" name={`Complete payout ${p.reference} as success`} />
            <ActionButton path={`/_sandbox/payouts/${enc(p.reference)}/complete`} body={{ outcome: 'failed' }} label="Fail" cls="danger" name={`Complete payout ${p.reference} as failed`} />
          </div>
        ) : (
          <span class="sub">{when(p.completed_at)}</span>
        ),
    },
  ],
})

/** Its panel of the dashboard (`Area.panels`). */
export const payoutsPanel: Panel<{ payouts: Pick<PayoutService, 'all'> }> = { id: 'payouts', title: 'Payouts', jump: 'Payouts', place: 50, body: (s, ns, f) => <Payouts s={s} ns={ns} f={f} /> }

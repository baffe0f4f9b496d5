import type { FC } from 'hono/jsx'
import { ActionButton, Badge, ListTable, enc, money, when } from './ui.js'
import { matchesRef, type DashboardSources, type Filters } from './view.js'

/**
 * Refunds (docs/behaviour.md#refunds), newest first, whichever endpoint made them: the refund and
 * its pay-in, the amount of what was collected, its status (with its reason), and on a
 * processing one the buttons that finish it through the control call.
 */
export const Refunds: FC<{ s: DashboardSources; ns: string; f: Filters }> = ({ s, ns, f }) => {
  const all = s.refunds
    .all(ns)
    .filter((r) => (!f.status || r.status === f.status) && matchesRef(f.q, r.reference, r.payment_reference))
  return (
    <ListTable
      id="refunds"
      caption="Refunds"
      head={['Refund', 'Pay-in', 'Amount', 'Status', 'Actions']}
      empty="No refunds match."
      items={all}
      row={(r) => (
        <tr data-ref={r.reference}>
          <td>
            <span class="mono strong">{r.reference}</span>
            <span class="sub">
              {r.made_by === 'card_refund' ? 'card refund' : 'refunds API'} · {when(r.created_at)}
            </span>
          </td>
          <td class="wrap-s">
            <span class="mono">{r.payment_reference}</span>
            <span class="sub">{r.payment_method ?? ''}</span>
          </td>
          <td>
            {money(r.amount, r.currency)}
            <span class="sub">of {money(r.transaction_amount, r.currency)}</span>
          </td>
          <td class="wrap-s">
            <Badge value={r.status} />
            {r.status_reason ? <span class="sub">{r.status_reason}</span> : ''}
            {r.completed_at ? <span class="sub">{when(r.completed_at)}</span> : ''}
          </td>
          <td>
            <div class="actions">
              {r.status === 'processing' ? (
                <>
                  <ActionButton path={`/_sandbox/refunds/${enc(r.reference)}/complete`} body={{ outcome: 'success' }} label="Succeed" name={`Succeed refund ${r.reference}`} />
                  <ActionButton path={`/_sandbox/refunds/${enc(r.reference)}/complete`} body={{ outcome: 'failed' }} label="Fail" name={`Fail refund ${r.reference}`} cls="danger" />
                </>
              ) : (
                ''
              )}
            </div>
          </td>
        </tr>
      )}
    />
  )
}

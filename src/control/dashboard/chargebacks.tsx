import type { FC } from 'hono/jsx'
import { ActionButton, Badge, ListTable, enc, money, when } from './ui.js'
import { matchesRef, type DashboardSources, type Filters } from './view.js'

/**
 * Chargebacks (docs/behaviour.md#chargebacks), newest first: the chargeback and its pay-in, the amount
 * and what left the balance, its status and deadline, and on a declined or partly accepted one the
 * buttons that decide it through the control call. A successful charge's row (charges.tsx) opens one.
 */
export const Chargebacks: FC<{ s: DashboardSources; ns: string; f: Filters }> = ({ s, ns, f }) => {
  const all = s.chargebacks.all(ns).filter((c) => matchesRef(f.q, c.reference, c.payment_reference))
  return (
    <ListTable
      id="chargebacks"
      caption="Chargebacks"
      head={['Chargeback', 'Pay-in', 'Amount', 'Status', 'Actions']}
      empty="No chargebacks match."
      items={all}
      row={(c) => (
        <tr data-ref={c.reference}>
          <td>
            <span class="mono strong">{c.reference}</span>
            <span class="sub">{c.reason ?? ''} · {when(c.created_at)}</span>
          </td>
          <td class="wrap-s">
            <span class="mono">{c.payment_reference}</span>
          </td>
          <td>
            {money(c.amount, c.currency)}
            <span class="sub">debited {money(c.debited, c.currency)}</span>
          </td>
          <td class="wrap-s">
            <Badge value={c.status} />
            {c.status === 'pending' ? <span class="sub">accepted at {when(c.deadline)} unless answered</span> : ''}
            {c.answer_reason ? <span class="sub">{c.answer_reason}</span> : ''}
          </td>
          <td>
            <div class="actions">
              {c.status === 'declined' || c.status === 'partial' ? (
                <>
                  <ActionButton path={`/_sandbox/chargebacks/${enc(c.reference)}/decide`} body={{ outcome: 'won' }} label="Won" name={`Decide chargeback ${c.reference} won`} />
                  <ActionButton path={`/_sandbox/chargebacks/${enc(c.reference)}/decide`} body={{ outcome: 'lost' }} label="Lost" name={`Decide chargeback ${c.reference} lost`} cls="danger" />
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

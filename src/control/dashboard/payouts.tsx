import type { FC } from 'hono/jsx'
import { ActionButton, Badge, ListTable, enc, money, when } from './ui.js'
import { matchesRef, type DashboardSources, type Filters } from './view.js'

/**
 * Payouts (docs/behaviour.md#payouts): each with its destination, amount and cost, status and
 * message, its batch if it has one, and buttons that end a processing one now (the control call).
 */
export const Payouts: FC<{ s: DashboardSources; ns: string; f: Filters }> = ({ s, ns, f }) => {
  const all = s.payouts.all(ns).filter((p) => matchesRef(f.q, p.reference, p.batch_reference))
  return (
    <ListTable
      id="payouts"
      caption="Payouts"
      head={['Reference', 'Destination', 'Amount', 'Status', 'Actions']}
      empty="No payouts match."
      items={all}
      row={(p) => (
        <tr data-ref={p.reference}>
          <td>
            <span class="mono strong">{p.reference}</span>
            <span class="sub">{when(p.created_at)}</span>
            {p.batch_reference ? <span class="sub mono">batch {p.batch_reference}</span> : null}
          </td>
          <td class="wrap-s">
            {p.bank_account ? (
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
            )}
          </td>
          <td>
            {money(p.amount, p.currency)}
            <span class="sub">fee {money(p.fee + p.vat, p.currency)}</span>
          </td>
          <td class="wrap-s">
            <Badge value={p.status} />
            <span class="sub">{p.message}</span>
            {p.trace_id ? <span class="sub mono">trace {p.trace_id}</span> : null}
          </td>
          <td>
            {p.status === 'processing' ? (
              <div class="actions">
                <ActionButton path={`/_sandbox/payouts/${enc(p.reference)}/complete`} body={{ outcome: 'success' }} label="Succeed" name={`Complete payout ${p.reference} as success`} />
                <ActionButton path={`/_sandbox/payouts/${enc(p.reference)}/complete`} body={{ outcome: 'failed' }} label="Fail" cls="danger" name={`Complete payout ${p.reference} as failed`} />
              </div>
            ) : (
              <span class="sub">{when(p.completed_at)}</span>
            )}
          </td>
        </tr>
      )}
    />
  )
}

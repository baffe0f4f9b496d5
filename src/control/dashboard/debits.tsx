import type { FC } from 'hono/jsx'
import { DIRECT_DEBIT, isDebit, type DirectDebit } from '../../direct-debit/index.js'
import { Badge, ListTable, money, newestFirst, when } from '../../http/panel/ui.js'
import { chargeMatches, type DashboardSources, type Filters } from './view.js'

/** Direct debits: the charges made on a mandate. */
export const Debits: FC<{ s: DashboardSources; ns: string; f: Filters }> = ({ s, ns, f }) => {
  if (f.kind && f.kind !== DIRECT_DEBIT) return <p class="empty">Hidden by the kind filter.</p>
  const all = newestFirst(s.charges.list(ns).filter((c): c is DirectDebit => isDebit(c) && chargeMatches(c, f)))
  return (
    <ListTable
      id="debits"
      caption="Debits"
      head={['Reference', 'Authorization', ['Amount', 'num'], 'Status', 'Narration', 'Interbank id']}
      empty="No debits match."
      items={all}
      row={(d) => (
        <tr data-ref={d.payment_reference}>
          <td class="ref">
            <span class="mono">{d.payment_reference}</span>
            <span class="sub">{when(d.created_at)}</span>
          </td>
          <td class="mono">{d.authorization_code}</td>
          <td class="num">{money(d.amount, d.currency)}</td>
          <td>
            <Badge value={d.status} />
            {d.failure_message ? <div class="small muted">{d.failure_message}</div> : ''}
          </td>
          <td>{d.narration}</td>
          <td class="mono small">{d.interbank_transaction_id}</td>
        </tr>
      )}
    />
  )
}

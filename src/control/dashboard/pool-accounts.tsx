import type { FC } from 'hono/jsx'
import { ActionButton, ListTable, money, newestFirst, when } from './ui.js'
import { matchesRef, type DashboardSources, type Filters } from './view.js'

/** transfers shown under each pool account, newest first */
const TRANSFERS_SHOWN = 5

/**
 * Pool accounts (docs/behaviour.md#pool-accounts): each reference with its customer, currency and the
 * way it is paid, its settlement history (what it received, the newest transfers with the fee
 * taken) and a button that credits it through the test environment's credit call.
 */
export const PoolAccounts: FC<{ s: DashboardSources; ns: string; f: Filters }> = ({ s, ns, f }) => {
  const all = newestFirst(s.poolAccounts.list(ns).filter((p) => matchesRef(f.q, p.reference) || matchesRef(f.q, p.customer_email)).map((p) => ({ ...p, created_at: p.date_created })))
  return (
    <ListTable
      id="pool-accounts"
      caption="Pool accounts"
      head={['Reference', 'Customer', 'Settlements', 'Actions']}
      empty="No pool accounts match."
      items={all}
      row={(p) => (
        <tr data-ref={p.reference}>
          <td>
            <span class="mono strong">{p.reference}</span>
            <span class="sub">
              {p.currency} · {p.account_type.replace('_', ' ')} · {when(p.created_at)}
            </span>
          </td>
          <td class="wrap-s">
            {p.customer_name}
            <span class="sub">{p.customer_email}</span>
          </td>
          <td class="wrap-s">
            {p.transfers} received, {money(p.total_received, p.currency)}
            {s.poolAccounts.newestTransfers(ns, p, TRANSFERS_SHOWN).map((c) => (
              <span class="sub mono">
                {c.transaction_reference} · {money(c.amount, c.currency)} · fee {money(c.fee + c.vat, c.currency)} · {when(c.created_at)}
              </span>
            ))}
          </td>
          <td>
            <div class="actions">
              <ActionButton
                path="/merchant/api/v1/pool-accounts/sandbox/credit"
                body={{ reference: p.reference, amount: 1000, currency: p.currency }}
                label={`Credit ${p.currency} 1,000`}
                name={`Credit pool account ${p.reference} with ${p.currency} 1,000`}
              />
            </div>
          </td>
        </tr>
      )}
    />
  )
}

import type { FC } from 'hono/jsx'
import { toDecimalString } from '../../money.js'
import { ActionButton, ListTable, money, newestFirst, when } from './ui.js'
import { matchesRef, type DashboardSources, type Filters } from './view.js'

/** transfers shown under each account, newest first */
const TRANSFERS_SHOWN = 5

/**
 * Virtual bank accounts (docs/behaviour.md#virtual-accounts): each with its number, bank, customer, the
 * transfers it received (total and the newest ones, as the transactions call lists them) and a
 * button that credits it through the test environment's credit call.
 */
export const VirtualAccounts: FC<{ s: DashboardSources; ns: string; f: Filters }> = ({ s, ns, f }) => {
  const all = newestFirst(s.virtualAccounts.list(ns).filter((a) => matchesRef(f.q, a.account_reference) || matchesRef(f.q, a.account_number)))
  return (
    <ListTable
      id="virtual-accounts"
      caption="Virtual bank accounts"
      head={['Reference', 'Account', 'Customer', 'Transfers', 'Actions']}
      empty="No virtual bank accounts match."
      items={all}
      row={(a) => {
        const t = s.virtualAccounts.transfers(ns, { account_number: a.account_number, limit: TRANSFERS_SHOWN })
        return (
          <tr data-ref={a.account_reference}>
            <td>
              <span class="mono strong">{a.account_reference}</span>
              <span class="sub">{when(a.created_at)}</span>
            </td>
            <td class="wrap-s">
              <span class="mono">{a.account_number}</span>
              <span class="sub">
                {a.account_name} · {a.bank_name} ({a.bank_code})
              </span>
            </td>
            <td class="wrap-s">
              {a.customer.name}
              {a.holder && <span class="sub mono">holder {a.holder}</span>}
            </td>
            <td class="wrap-s">
              {t.count} received, {money(t.total, a.currency)}
              {t.items.map((x) => (
                <span class="sub mono">
                  {x.transaction_reference} · {toDecimalString(x.amount)} · {when(x.created_at)}
                </span>
              ))}
            </td>
            <td>
              <div class="actions">
                <ActionButton
                  path="/merchant/api/v1/virtual-bank-account/sandbox/credit"
                  body={{ account_number: a.account_number, amount: 1000, currency: a.currency }}
                  label={`Credit ${a.currency} 1,000`}
                  name={`Credit virtual account ${a.account_number} with ${a.currency} 1,000`}
                />
              </div>
            </td>
          </tr>
        )
      }}
    />
  )
}

import type { Panel } from '../http/area.js'
import { toDecimalString } from '../money.js'
import { CreditButton, listPanel } from '../http/panel/list-panel.js'
import type { VirtualAccountService } from './service.js'
import { money, newestFirst, when } from '../http/panel/ui.js'

/** transfers shown under each account, newest first */
const TRANSFERS_SHOWN = 5

/**
 * Virtual bank accounts (docs/behaviour.md#virtual-accounts): each with its number, bank, customer, the
 * transfers it received (total and the newest ones, as the transactions call lists them) and a
 * button that credits it through the test environment's credit call.
 */
export const VirtualAccounts = listPanel({
  id: 'virtual-accounts',
  caption: 'Virtual bank accounts',
  items: (s: { virtualAccounts: Pick<VirtualAccountService, 'list' | 'transfers'> }, ns) => newestFirst(s.virtualAccounts.list(ns)),
  search: (a) => [a.account_number],
  ref: (a) => a.account_reference,
  columns: (col) => [
    col.ref('Reference', (a) => when(a.created_at)),
    col.line('Account', 'wrap-s', (a) => <span class="mono">{a.account_number}</span>, (a) => <>{a.account_name} · {a.bank_name} ({a.bank_code})</>),
    {
      head: 'Customer',
      cls: 'wrap-s',
      cell: (a) => (
        <>
          {a.customer.name}
          {a.holder && <span class="sub mono">holder {a.holder}</span>}
        </>
      ),
    },
    {
      head: 'Transfers',
      cls: 'wrap-s',
      cell: (a, s, ns) => {
        const t = s.virtualAccounts.transfers(ns, { account_number: a.account_number, limit: TRANSFERS_SHOWN })
        return (
          <>
            {t.count} received, {money(t.total, a.currency)}
            {t.items.map((x) => (
              <span class="sub mono">
                {x.transaction_reference} · {toDecimalString(x.amount)} · {when(x.created_at)}
              </span>
            ))}
          </>
        )
      },
    },
    col.actions((a) => (
      <CreditButton path="/merchant/api/v1/virtual-bank-account/sandbox/credit" body={{ account_number: a.account_number, amount: 1000, currency: a.currency }} currency={a.currency} name={`virtual account ${a.account_number}`} />
    )),
  ],
})

/** Its panel of the dashboard (`Area.panels`). */
export const virtualAccountsPanel: Panel<{ virtualAccounts: Pick<VirtualAccountService, 'list' | 'transfers'> }> = { id: 'vba', title: 'Virtual bank accounts', jump: 'Virtual accounts', place: 30, body: (s, ns, f) => <VirtualAccounts s={s} ns={ns} f={f} /> }

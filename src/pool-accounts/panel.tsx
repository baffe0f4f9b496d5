import type { Panel } from '../http/area.js'
import { CreditButton, listPanel } from '../http/panel/list-panel.js'
import type { PoolAccountService } from './service.js'
import { money, newestFirst, when } from '../http/panel/ui.js'

/** transfers shown under each pool account, newest first */
const TRANSFERS_SHOWN = 5

/**
 * Pool accounts (docs/behaviour.md#pool-accounts): each reference with its customer, currency and the
 * way it is paid, its settlement history (what it received, the newest transfers with the fee
 * taken) and a button that credits it through the test environment's credit call.
 */
export const PoolAccounts = listPanel({
  id: 'pool-accounts',
  caption: 'Pool accounts',
  items: (s: { poolAccounts: Pick<PoolAccountService, 'list' | 'newestTransfers'> }, ns) => newestFirst(s.poolAccounts.list(ns).map((p) => ({ ...p, created_at: p.date_created }))),
  search: (p) => [p.customer_email],
  columns: (col) => [
    col.ref('Reference', (p) => <>{p.currency} · {p.account_type.replace('_', ' ')} · {when(p.created_at)}</>),
    col.line('Customer', 'wrap-s', (p) => p.customer_name, (p) => p.customer_email),
    {
      head: 'Settlements',
      cls: 'wrap-s',
      cell: (p, s, ns) => (
        <>
          {p.transfers} received, {money(p.total_received, p.currency)}
          {s.poolAccounts.newestTransfers(ns, p, TRANSFERS_SHOWN).map((c) => (
            <span class="sub mono">
              {c.transaction_reference} · {money(c.amount, c.currency)} · fee {money(c.fee + c.vat, c.currency)} · {when(c.created_at)}
            </span>
          ))}
        </>
      ),
    },
    col.actions((p) => (
      <CreditButton path="/merchant/api/v1/pool-accounts/sandbox/credit" body={{ reference: p.reference, amount: 1000, currency: p.currency }} currency={p.currency} name={`pool account ${p.reference}`} />
    )),
  ],
})

/** Its panel of the dashboard (`Area.panels`). */
export const poolAccountsPanel: Panel<{ poolAccounts: Pick<PoolAccountService, 'list' | 'newestTransfers'> }> = { id: 'pool', title: 'Pool accounts', jump: 'Pool accounts', place: 40, body: (s, ns, f) => <PoolAccounts s={s} ns={ns} f={f} /> }

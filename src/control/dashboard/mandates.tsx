import { listPanel } from '../../http/panel/list-panel.js'
import type { DashboardSources } from './view.js'
import { ActionButton, Badge, enc, money, newestFirst } from '../../http/panel/ui.js'

const capitalized = (m: string) => m[0].toUpperCase() + m.slice(1)

/** Direct-debit authorizations, with a button for each move their status allows. */
export const Mandates = listPanel({
  id: 'mandates',
  caption: 'Authorizations (mandates)',
  empty: 'No authorizations match.',
  items: (s: DashboardSources, ns) => newestFirst(s.directDebit.list(ns)),
  status: (a) => a.status,
  columns: (col) => [
    col.ref(
      'Reference',
      (a) => <>{a.type}, {a.start_date} to {a.end_date}</>,
      (a) =>
        a.authorization_code ? (
          <span class="sub mono">
            code {a.authorization_code}
            {a.token && !a.token.paid_at ? ` · awaiting the token payment of ${money(a.token.amount, a.currency)}` : ''}
          </span>
        ) : (
          ''
        ),
    ),
    {
      head: 'Status',
      cls: 'wrap-s',
      cell: (a) => (
        <>
          <Badge value={a.status} />
          {a.status_update_reason ? <div class="small muted">{a.status_update_reason}</div> : ''}
        </>
      ),
    },
    { head: ['Ceiling', 'num'], cls: 'num', cell: (a) => money(a.amount, a.currency) },
    { head: 'Account', cls: 'wrap-s', cell: (a) => <>{a.account_name}<span class="sub mono">{a.account_number} · {a.bank_name}</span></> },
    col.actions((a, s) =>
      s.directDebit.movesFrom(a.status).map((m) => (
        <ActionButton
          path={`/_sandbox/direct-debit/authorizations/${enc(a.reference)}/${m}`}
          label={capitalized(m)}
          name={`${capitalized(m)} mandate ${a.reference}`}
          cls={m === 'decline' || m === 'deactivate' ? 'danger' : m === 'suspend' ? 'secondary' : ''}
        />
      )),
    ),
  ],
})

import type { FC } from 'hono/jsx'
import { ActionButton, Badge, ListTable, enc, money, newestFirst } from './ui.js'
import { matchesRef, type DashboardSources, type Filters } from './view.js'

const capitalized = (m: string) => m[0].toUpperCase() + m.slice(1)

/** Direct-debit authorizations, with a button for each move their status allows. */
export const Mandates: FC<{ s: DashboardSources; ns: string; f: Filters }> = ({ s, ns, f }) => {
  const all = newestFirst(s.directDebit.list(ns).filter((a) => matchesRef(f.q, a.reference)))
  return (
    <ListTable
      id="mandates"
      caption="Authorizations (mandates)"
      head={['Reference', 'Status', ['Ceiling', 'num'], 'Account', 'Actions']}
      empty="No authorizations match."
      items={all}
      row={(a) => (
        <tr data-ref={a.reference} data-status={a.status}>
          <td>
            <span class="mono strong">{a.reference}</span>
            <span class="sub">
              {a.type}, {a.start_date} to {a.end_date}
            </span>
            {a.authorization_code ? (
              <span class="sub mono">
                code {a.authorization_code}
                {a.token && !a.token.paid_at ? ` · awaiting the token payment of ${money(a.token.amount, a.currency)}` : ''}
              </span>
            ) : (
              ''
            )}
          </td>
          <td class="wrap-s">
            <Badge value={a.status} />
            {a.status_update_reason ? <div class="small muted">{a.status_update_reason}</div> : ''}
          </td>
          <td class="num">{money(a.amount, a.currency)}</td>
          <td class="wrap-s">
            {a.account_name}
            <span class="sub mono">
              {a.account_number} · {a.bank_name}
            </span>
          </td>
          <td>
            <div class="actions">
              {s.directDebit.movesFrom(a.status).map((m) => (
                <ActionButton
                  path={`/_sandbox/direct-debit/authorizations/${enc(a.reference)}/${m}`}
                  label={capitalized(m)}
                  name={`${capitalized(m)} mandate ${a.reference}`}
                  cls={m === 'decline' || m === 'deactivate' ? 'danger' : m === 'suspend' ? 'secondary' : ''}
                />
              ))}
            </div>
          </td>
        </tr>
      )}
    />
  )
}

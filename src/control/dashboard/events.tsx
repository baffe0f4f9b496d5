import type { FC } from 'hono/jsx'
import { ActionButton, Badge, ListTable, enc, when } from '../../http/panel/ui.js'
import { matchesRef, type DashboardSources, type Filters } from './view.js'

/** Events, newest first, with every delivery attempt and a button that sends one again. */
export const Events: FC<{ s: DashboardSources; ns: string; f: Filters }> = ({ s, ns, f }) => {
  const all = s.events
    .list(ns)
    .filter((e) => matchesRef(f.q, e.data.reference as string, e.data.payment_reference as string, e.data.transaction_reference as string, e.data.authorization_code as string))
    .reverse()
  return (
    <ListTable
      id="events"
      caption="Events, newest first"
      head={['Event', 'Reference', 'Delivery', 'Target', 'Attempts', 'Actions']}
      empty="No events match."
      items={all}
      row={(e) => {
        const ref = String(e.data.payment_reference ?? e.data.reference ?? '')
        return (
          <tr data-event={e.id} data-ref={ref}>
            <td>
              {e.event}
              <span class="sub mono">{e.id}</span>
            </td>
            <td class="ref">
              <span class="mono">{ref}</span>
              <span class="sub">{when(e.created_at)}</span>
            </td>
            <td>
              <Badge value={e.status} />
            </td>
            <td class="mono small url">{e.target ?? 'no URL'}</td>
            <td class="wrap">
              {e.attempts.length ? (
                <ul class="attempts">
                  {e.attempts.map((a) => (
                    <li>
                      {when(a.at)}: {a.status_code !== undefined ? `HTTP ${a.status_code}` : a.error} in {a.ms} ms
                    </li>
                  ))}
                </ul>
              ) : (
                <span class="muted">none</span>
              )}
            </td>
            <td>
              <ActionButton path={`/_sandbox/events/${enc(e.id)}/resend`} label="Resend" cls="secondary" name={`Resend event ${e.id}`} />
            </td>
          </tr>
        )
      }}
    />
  )
}

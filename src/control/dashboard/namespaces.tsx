import type { FC } from 'hono/jsx'
import { plural } from '../../http/panel/ui.js'
import { nsHref, type DashboardSources, type View } from './view.js'

/** Every namespace (name, key, number of charges), the chosen one marked. */
export const Namespaces: FC<{ v: View; s: DashboardSources }> = ({ v, s }) => (
  <div data-live="namespaces">
    {v.nsList.length === 0 ? (
      <p class="empty">No namespace yet: any call with a key starting sk_test_ creates one.</p>
    ) : (
      <ul>
        {v.nsList.map((m) => (
          <li>
            <a href={nsHref(v, m.secret_key)} aria-current={v.ns?.secret_key === m.secret_key ? 'page' : undefined}>
              <span class="name">{m.name}</span>
              <span class="key">{m.secret_key}</span>{' '}
              <span class="muted small">· {plural(s.charges.count(m.secret_key), 'charge')}</span>
            </a>
          </li>
        ))}
      </ul>
    )}
  </div>
)

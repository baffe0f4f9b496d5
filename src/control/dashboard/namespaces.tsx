import type { FC } from 'hono/jsx'
import { plural } from '../../http/panel/ui.js'
import { nsHref, type DashboardSources, type View } from './view.js'

/**
 * Every namespace (name, key, and the number of charges of those this process serves), the chosen
 * one marked, at most ROW_LIMIT: with several processes on one database, the deployment's, each
 * linking to its page, which its owner serves.
 */
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
              <span class="key">{m.secret_key}</span>
              {v.nsHere.has(m.secret_key) ? (
                <>
                  {' '}
                  <span class="muted small">· {plural(s.charges.count(m.secret_key), 'charge')}</span>
                </>
              ) : null}
            </a>
          </li>
        ))}
      </ul>
    )}
    {v.nsTotal > v.nsList.length ? <p class="muted small">{`${v.nsList.length} of ${v.nsTotal} namespaces listed: open another by its key, ?ns=KEY.`}</p> : null}
  </div>
)

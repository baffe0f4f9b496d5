import type { FC } from 'hono/jsx'
import { Field, Select } from '../../http/panel/ui.js'
import { STATUSES, nsHref, type View } from './view.js'

/** Kind, status and reference: the lists are filtered on the server (a GET form). */
export const FilterForm: FC<{ v: View }> = ({ v }) => (
  <section class="panel" aria-labelledby="h-filters">
    <h2 id="h-filters">Filters</h2>
    <form method="get" action="/_sandbox/ui" role="search" aria-label="Filter the lists">
      {v.ns ? <input type="hidden" name="ns" value={v.ns.secret_key} /> : ''}
      {v.token ? <input type="hidden" name="token" value={v.token} /> : ''}
      <div class="fields">
        <Select id="filter-kind" label="Kind" name="kind" value={v.filters.kind} options={[['', 'all kinds'], ...v.kinds]} />
        <Select id="filter-status" label="Status" name="status" value={v.filters.status} options={[['', 'all statuses'], ...STATUSES.map((st): [string, string] => [st, st])]} />
        <Field id="filter-q" label="Reference contains" name="q" value={v.filters.q} placeholder="payment or transaction reference" />
        <button type="submit">Apply filters</button>
        <a href={v.ns ? nsHref(v, v.ns.secret_key) : '/_sandbox/ui'} class="small">
          Clear
        </a>
      </div>
    </form>
    <p class="small muted" style="margin:8px 0 0">
      Kind and status narrow charges, pre-authorizations and debits; the reference also narrows mandates, identity checks and events. A checkout's attempts are listed under it; one that matches when its checkout does not is listed alone, marked as an attempt.
    </p>
  </section>
)

import type { FC } from 'hono/jsx'
import { Badge, ListTable, newestFirst, when } from '../http/panel/ui.js'
import type { Panel, PanelFilters } from '../http/area.js'
import { matchesRef } from '../http/panel/list-panel.js'
import type { IdentityService } from './service.js'

/** Identity checks: found or not, the mode, and which fields matched. */
export const Identity: FC<{ s: { identity: Pick<IdentityService, 'checks'> }; ns: string; f: PanelFilters }> = ({ s, ns, f }) => {
  const all = newestFirst(s.identity.checks(ns).filter((c) => matchesRef(f.q, c.reference, c.id)))
  return (
    <ListTable
      id="identity"
      caption="Identity checks"
      head={['Reference', 'Type', 'ID', 'Result', 'Mode', 'Matches', 'At']}
      empty="No identity checks match."
      items={all}
      row={(c) => (
        <tr data-ref={c.reference}>
          <td class="mono">{c.reference}</td>
          <td>{c.id_type.replaceAll('_', ' ').toUpperCase()}</td>
          <td class="mono">{c.id}</td>
          <td>
            <Badge value={c.found ? 'found' : 'not_found'} />
          </td>
          <td>{c.mode}</td>
          <td>
            {Object.entries(c.matches)
              .map(([k, m]) => `${k} ${m ? '✓' : '✗'}`)
              .join(', ') || '—'}
          </td>
          <td class="small">{when(c.created_at)}</td>
        </tr>
      )}
    />
  )
}

/** Its panel of the dashboard (`Area.panels`). */
export const identityPanel: Panel<{ identity: Pick<IdentityService, 'checks'> }> = { id: 'identity', title: 'Identity checks', jump: 'Identity', place: 100, body: (s, ns, f) => <Identity s={s} ns={ns} f={f} /> }

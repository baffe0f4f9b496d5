import type { FC } from 'hono/jsx'
import { ListTable } from '../../http/panel/ui.js'
import type { DashboardSources } from './view.js'

/**
 * The readiness report of the namespace (docs/behaviour.md#readiness-report): each area's share of its
 * outcomes met, the outcomes not met yet, and what the webhook receiver answered per event type.
 * It shows what `GET /_sandbox/report` answers (src/control/outcomes.ts), nothing of its own.
 */
export const Readiness: FC<{ s: DashboardSources; ns: string }> = ({ s, ns }) => {
  const r = s.report.of(ns)
  return (
    <>
      <p>
        {r.met} of {r.total} outcomes met ({r.percent}%). <span class="muted">The catalogue: docs/outcomes.md; the CLI: sandbox report.</span>
      </p>
      <ListTable
        id="report-areas"
        caption="Outcomes met, by area"
        head={['Area', 'Met', 'Not met yet']}
        empty="No outcomes."
        items={r.areas}
        row={(a) => (
          <tr data-area={a.area}>
            <td>{a.area}</td>
            <td>
              {a.met}/{a.total} ({a.percent}%)
            </td>
            <td class="wrap mono small">
              {r.outcomes
                .filter((o) => o.area === a.area && !o.met)
                .map((o) => o.id)
                .join(', ') || '-'}
            </td>
          </tr>
        )}
      />
      <ListTable
        id="report-webhooks"
        caption="What the webhook receiver answered, by event type"
        head={['Event', 'First try', 'After retries', 'Never', 'Not sent']}
        empty="No events yet."
        items={r.webhooks.filter((w) => w.events)}
        row={(w) => (
          <tr data-event-type={w.event}>
            <td>{w.event}</td>
            <td>{w.first_try}</td>
            <td>{w.after_retries}</td>
            <td>{w.never}</td>
            <td>{w.no_target}</td>
          </tr>
        )}
      />
    </>
  )
}

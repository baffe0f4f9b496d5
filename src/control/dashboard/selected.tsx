import type { FC } from 'hono/jsx'
import { duration, plural, when } from '../../http/panel/ui.js'
import type { DashboardSources, View } from './view.js'

/** The chosen namespace's clock: its time, frozen or running, offset and pending timers. */
const Clock: FC<{ s: DashboardSources; ns: string }> = ({ s, ns }) => {
  const frozen = s.clocks.frozenAt(ns) !== null
  const timers = s.clocks.pending(ns)
  return (
    <div data-live="clock">
      <p style="margin:0">
        <time datetime={s.clocks.iso(ns)} id="clock-now">
          {when(s.clocks.iso(ns))}
        </time>{' '}
        <span class="badge" id="clock-state">
          {frozen ? 'frozen' : 'running'}
        </span>
      </p>
      <p class="muted small" style="margin:4px 0 0">
        Offset from wall clock {duration(s.clocks.offset(ns))}; {plural(timers.length, 'pending timer')}
        {timers.length ? `, next: ${timers[0].kind} at ${when(new Date(timers[0].due).toISOString())}` : ''}
      </p>
    </div>
  )
}

/** The clock (an empty placeholder without a namespace), live. */
export const ClockState: FC<{ v: View; s: DashboardSources }> = ({ v, s }) => (v.ns ? <Clock s={s} ns={v.ns.secret_key} /> : <div data-live="clock" />)

export const WebhookState: FC<{ v: View }> = ({ v }) => (
  <div data-live="webhook">
    <p class="small muted" style="margin:6px 0 0">
      Webhook URL: {v.ns?.webhook_url ? <span class="key">{v.ns.webhook_url}</span> : 'none (events are recorded, not delivered)'}
    </p>
  </div>
)

/** The chosen namespace: its name, key, clock and webhook URL. */
export const Selected: FC<{ v: View; s: DashboardSources }> = ({ v, s }) => (
  <section class="panel" aria-labelledby="h-selected">
    <h2 id="h-selected">{v.ns ? v.ns.name : 'No namespace'}</h2>
    {v.ns ? <p class="key" style="margin:0 0 8px">{v.ns.secret_key}</p> : ''}
    <ClockState v={v} s={s} />
    <WebhookState v={v} />
  </section>
)

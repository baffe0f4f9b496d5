import { html } from 'hono/html'
import type { Child, FC } from 'hono/jsx'
import { CHARGES, type ChargeBase } from '../../engine/types.js'
import { isCheckout, isOpen, type CheckoutService } from '../../checkout/index.js'
import type { Kit } from '../../engine/kit.js'
import type { AnyArea, Area } from '../../http/area.js'
import { asset, assetRoutes, type AssetName } from './assets.js'
import { Charges } from './charges.js'
import { Controls } from './controls.js'
import { Debits } from './debits.js'
import { Events } from './events.js'
import { FilterForm } from './filters.js'
import { Mandates } from './mandates.js'
import { Namespaces } from './namespaces.js'
import { Preauths } from './preauths.js'
import { Readiness } from './report.js'
import { outcomeReport } from '../outcomes.js'
import { ClockState, Selected, WebhookState } from './selected.js'
import { readView, uiHref, type DashboardSources, type Filters, type View } from './view.js'

/**
 * The dashboard (docs/behaviour.md#control-api): `GET /_sandbox/ui` and its live part `GET /_sandbox/ui/fragment`.
 * Server-rendered, no build step, nothing fetched from elsewhere: its stylesheet and script are
 * files served beside it (assets.ts). It takes no key: it sits behind the loopback rule, lists
 * every namespace, and the page's actions call the control API with fetch(), sending the selected
 * namespace's own key (namespaces are keys).
 */

/**
 * The dashboard's own panels of a namespace, those that read the charges of every kind, the events
 * and the report: its section (`h-` and the id), its title, its link in the jump bar, and its place
 * among the panels the areas bring (`Area.panels`, src/http/area.ts).
 */
const PANELS: { id: string; title: string; jump: string; place: number; body: (s: DashboardSources, ns: string, f: Filters) => Child }[] = [
  { id: 'charges', title: 'Charges', jump: 'Charges', place: 10, body: (s, ns, f) => <Charges s={s} ns={ns} f={f} /> },
  { id: 'preauth', title: 'Pre-authorizations', jump: 'Pre-authorizations', place: 60, body: (s, ns, f) => <Preauths s={s} ns={ns} f={f} /> },
  {
    id: 'dd',
    place: 90,
    title: 'Direct debit',
    jump: 'Direct debit',
    body: (s, ns, f) => (
      <>
        <Mandates s={s} ns={ns} f={f} />
        <h3>Debits</h3>
        <Debits s={s} ns={ns} f={f} />
      </>
    ),
  },
  { id: 'events', title: 'Events and deliveries', jump: 'Events', place: 110, body: (s, ns, f) => <Events s={s} ns={ns} f={f} /> },
  { id: 'report', title: 'Can I go live? Outcomes met', jump: 'Readiness', place: 120, body: (s, ns) => <Readiness s={s} ns={ns} /> },
]

/** A panel as the page shows it: what it shows of a namespace, from the sandbox it was declared with. */
type Shown = { id: string; title: string; jump: string; place: number; show: (ns: string, f: Filters) => Child }

/**
 * The panels of the page by place: the dashboard's own and those the areas bring (`Area.panels`),
 * each given the wired sandbox (`wired`: the kit and every service); of one place, the
 * dashboard's first, then the areas' in the order of src/areas.ts.
 */
function panelsOf(s: DashboardSources, wired: { areas: readonly AnyArea[] }): Shown[] {
  return [
    ...PANELS.map((p) => ({ ...p, show: (ns: string, f: Filters) => p.body(s, ns, f) })),
    ...wired.areas.flatMap((a) => (a.panels ?? []).map((p) => ({ ...p, show: (ns: string, f: Filters) => p.body(wired, ns, f) }))),
  ].sort((a, b) => a.place - b.place)
}

/** The lists of the chosen namespace: the part of the page the fragment refreshes. */
const Data: FC<{ v: View; panels: Shown[] }> = ({ v, panels }) => {
  if (!v.ns) {
    return (
      <div data-live="data" class="main">
        <section class="panel">
          <h2>No namespace selected</h2>
          <p class="empty">{v.unknownNs ? `There is no namespace ${v.unknownNs}.` : v.nsList.length ? 'Choose a namespace in the list.' : 'Nothing has called the sandbox yet.'}</p>
        </section>
      </div>
    )
  }
  const ns = v.ns.secret_key
  const f = v.filters
  return (
    <div data-live="data" class="main">
      {panels.map((p) => (
        <section class="panel" aria-labelledby={`h-${p.id}`}>
          <h2 id={`h-${p.id}`}>{p.title}</h2>
          {p.show(ns, f)}
        </section>
      ))}
    </div>
  )
}

/** The fragment: every `data-live` part, which dashboard.js swaps in where it changed. */
const Live: FC<{ v: View; s: DashboardSources; panels: Shown[] }> = ({ v, s, panels }) => (
  <>
    <Namespaces v={v} s={s} />
    <ClockState v={v} s={s} />
    <WebhookState v={v} />
    <Data v={v} panels={panels} />
  </>
)

const assetHref = (v: View, name: AssetName) => uiHref(v, `/${name}`, { v: asset(name).version })

const Page: FC<{ v: View; s: DashboardSources; panels: Shown[]; version: string }> = ({ v, s, panels, version }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{v.ns ? `${v.ns.name} · paysandbox dashboard` : 'paysandbox dashboard'}</title>
      <link rel="stylesheet" href={assetHref(v, 'dashboard.css')} />
    </head>
    <body>
      <header class="top">
        <h1>paysandbox dashboard</h1>
        <span class="ver">v{version}</span>
        <span id="live-state" aria-live="off">
          Live
        </span>
        <nav class="jump" aria-label="Sections">
          {panels.map((p) => (
            <a href={`#h-${p.id}`}>{p.jump}</a>
          ))}
          <a href="#h-actions">Actions</a>
        </nav>
      </header>
      <p id="status" role="status" aria-live="polite">
        {v.ns
          ? `${v.ns.name} (${v.ns.secret_key}): its lists below follow its calls live. The buttons call the control API with its key; their answers show here.`
          : v.nsList.length
            ? 'Choose a namespace in the list: its page shows its lists, served by the process that holds it.'
            : 'No namespace yet: a call with a key starting sk_test_ makes one (curl -H "Authorization: Bearer sk_test_sandbox" ...), and this page shows it.'}
      </p>
      <main data-ns={v.ns?.secret_key ?? ''}>
        <div class="layout">
          <aside>
            <section class="panel" aria-labelledby="h-ns">
              <h2 id="h-ns">Namespaces</h2>
              <nav aria-label="Namespaces">
                <Namespaces v={v} s={s} />
              </nav>
            </section>
            <Selected v={v} s={s} />
            <Controls v={v} />
            <noscript>
              <p>The actions and the live updates need JavaScript; the lists work without it.</p>
            </noscript>
          </aside>
          <div class="main">
            <FilterForm v={v} />
            <Data v={v} panels={panels} />
          </div>
        </div>
      </main>
      <script src={assetHref(v, 'dashboard.js')} />
    </body>
  </html>
)

/** What the panels read (`DashboardSources`): the services of the areas built before this one (src/areas.ts). */
type Sources = Omit<DashboardSources, 'charges' | 'checkout' | 'report'> & { checkout: CheckoutService }

/** The dashboard as an area: no key, loopback only (src/app.ts); its stylesheet and script beside it. */
export const dashboardArea: Area<{ dashboard: DashboardSources }, Kit & Sources> = {
  key: 'dashboard',
  build: (built) => ({
    dashboard: {
      ...built,
      // no one service owns the charges of every kind: read where every kind stores them
      charges: {
        list: (ns) => [...built.store.col<ChargeBase>(ns, CHARGES).values()],
        // as the charges list counts them: a checkout's attempts are rows under it, not charges of their own
        count: (ns) => {
          let n = 0
          for (const c of built.store.col<ChargeBase>(ns, CHARGES).values()) if (!c.parent) n++
          return n
        },
      },
      checkout: { attempts: (ns, c) => built.checkout.attempts(ns, c), isOpen, is: isCheckout },
      report: { of: (ns) => outcomeReport(built, [ns], 'namespace') },
    },
  }),
  routes: [
    {
      method: 'get', path: '/_sandbox/ui', access: 'dashboard', page: true,
      handler: async (c, wired) => {
        c.header('cache-control', 'no-store')
        const { dashboard, version } = wired
        return c.html(html`<!doctype html>${<Page v={await readView(dashboard, c.req.query())} s={dashboard} panels={panelsOf(dashboard, wired)} version={version} />}`)
      },
    },
    {
      method: 'get', path: '/_sandbox/ui/fragment', access: 'dashboard', page: true,
      handler: async (c, wired) => {
        c.header('cache-control', 'no-store')
        const { dashboard } = wired
        return c.html(<Live v={await readView(dashboard, c.req.query())} s={dashboard} panels={panelsOf(dashboard, wired)} />)
      },
    },
    ...assetRoutes,
  ],
}

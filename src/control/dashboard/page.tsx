import { html } from 'hono/html'
import type { FC } from 'hono/jsx'
import { CHARGES, type ChargeBase } from '../../charges/types.js'
import { isCheckout, isOpen, type CheckoutService } from '../../checkout/service.js'
import type { Kit } from '../../charges/kit.js'
import type { Area } from '../../http/area.js'
import { asset, assetRoutes, type AssetName } from './assets.js'
import { Balances } from './balances.js'
import { Charges } from './charges.js'
import { Controls } from './controls.js'
import { Debits } from './debits.js'
import { Events } from './events.js'
import { FilterForm } from './filters.js'
import { Identity } from './identity.js'
import { Mandates } from './mandates.js'
import { VirtualAccounts } from './virtual-accounts.js'
import { Refunds } from './refunds.js'
import { Payouts } from './payouts.js'
import { Namespaces } from './namespaces.js'
import { Preauths } from './preauths.js'
import { ClockState, Selected, WebhookState } from './selected.js'
import { readView, uiHref, type DashboardSources, type View } from './view.js'

/**
 * The dashboard (docs/behaviour.md 9): `GET /_sandbox/ui` and its live part `GET /_sandbox/ui/fragment`.
 * Server-rendered, no build step, nothing fetched from elsewhere: its stylesheet and script are
 * files served beside it (assets.ts). It takes no key: it sits behind the loopback rule, lists
 * every namespace, and the page's actions call the control API with fetch(), sending the selected
 * namespace's own key (namespaces are keys).
 */

/** The lists of the chosen namespace: the part of the page the fragment refreshes. */
const Data: FC<{ v: View; s: DashboardSources }> = ({ v, s }) => {
  if (!v.ns) {
    return (
      <div data-live="data" class="main">
        <section class="panel">
          <h2>No namespace selected</h2>
          <p class="empty">{v.unknownNs ? `There is no namespace ${v.unknownNs}.` : 'Nothing has called the sandbox yet.'}</p>
        </section>
      </div>
    )
  }
  const ns = v.ns.secret_key
  const f = v.filters
  return (
    <div data-live="data" class="main">
      <section class="panel" aria-labelledby="h-charges">
        <h2 id="h-charges">Charges</h2>
        <Charges s={s} ns={ns} f={f} />
      </section>
      <section class="panel" aria-labelledby="h-balances">
        <h2 id="h-balances">Balances</h2>
        <Balances s={s} ns={ns} />
      </section>
      <section class="panel" aria-labelledby="h-vba">
        <h2 id="h-vba">Virtual bank accounts</h2>
        <VirtualAccounts s={s} ns={ns} f={f} />
      </section>
      <section class="panel" aria-labelledby="h-payouts">
        <h2 id="h-payouts">Payouts</h2>
        <Payouts s={s} ns={ns} f={f} />
      </section>
      <section class="panel" aria-labelledby="h-preauth">
        <h2 id="h-preauth">Pre-authorizations</h2>
        <Preauths s={s} ns={ns} f={f} />
      </section>
      <section class="panel" aria-labelledby="h-refunds">
        <h2 id="h-refunds">Refunds</h2>
        <Refunds s={s} ns={ns} f={f} />
      </section>
      <section class="panel" aria-labelledby="h-dd">
        <h2 id="h-dd">Direct debit</h2>
        <Mandates s={s} ns={ns} f={f} />
        <h3>Debits</h3>
        <Debits s={s} ns={ns} f={f} />
      </section>
      <section class="panel" aria-labelledby="h-identity">
        <h2 id="h-identity">Identity checks</h2>
        <Identity s={s} ns={ns} f={f} />
      </section>
      <section class="panel" aria-labelledby="h-events">
        <h2 id="h-events">Events and deliveries</h2>
        <Events s={s} ns={ns} f={f} />
      </section>
    </div>
  )
}

/** The fragment: every `data-live` part, which dashboard.js swaps in where it changed. */
const Live: FC<{ v: View; s: DashboardSources }> = ({ v, s }) => (
  <>
    <Namespaces v={v} s={s} />
    <ClockState v={v} s={s} />
    <WebhookState v={v} />
    <Data v={v} s={s} />
  </>
)

const assetHref = (v: View, name: AssetName) => uiHref(v, `/${name}`, { v: asset(name).version })

const Page: FC<{ v: View; s: DashboardSources; version: string }> = ({ v, s, version }) => (
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
          <a href="#h-charges">Charges</a>
          <a href="#h-balances">Balances</a>
          <a href="#h-vba">Virtual accounts</a>
          <a href="#h-payouts">Payouts</a>
          <a href="#h-preauth">Pre-authorizations</a>
          <a href="#h-refunds">Refunds</a>
          <a href="#h-dd">Direct debit</a>
          <a href="#h-identity">Identity</a>
          <a href="#h-events">Events</a>
          <a href="#h-actions">Actions</a>
        </nav>
      </header>
      <p id="status" role="status" aria-live="polite">
        Actions answer here.
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
            <Data v={v} s={s} />
          </div>
        </div>
      </main>
      <script src={assetHref(v, 'dashboard.js')} />
    </body>
  </html>
)

/** What the panels read (`DashboardSources`): the services of the areas built before this one (src/areas.ts). */
type Sources = Omit<DashboardSources, 'charges' | 'checkout'> & { checkout: CheckoutService }

/** The dashboard as an area: no key, loopback only (src/app.ts); its stylesheet and script beside it. */
export const dashboardArea: Area<{ dashboard: DashboardSources }, Kit & Sources> = {
  key: 'dashboard',
  build: (built) => ({
    dashboard: {
      ...built,
      // no one service owns the charges of every kind: read where every kind stores them
      charges: {
        list: (ns) => [...built.store.col<ChargeBase>(ns, CHARGES).values()],
        count: (ns) => built.store.col(ns, CHARGES).size,
      },
      checkout: { attempts: (ns, c) => built.checkout.attempts(ns, c), isOpen, is: isCheckout },
    },
  }),
  routes: [
    {
      method: 'get', path: '/_sandbox/ui', access: 'dashboard', page: true,
      handler: (c, { dashboard, version }) => {
        c.header('cache-control', 'no-store')
        return c.html(html`<!doctype html>${<Page v={readView(dashboard, c.req.query())} s={dashboard} version={version} />}`)
      },
    },
    {
      method: 'get', path: '/_sandbox/ui/fragment', access: 'dashboard', page: true,
      handler: (c, { dashboard }) => {
        c.header('cache-control', 'no-store')
        return c.html(<Live v={readView(dashboard, c.req.query())} s={dashboard} />)
      },
    },
    ...assetRoutes,
  ],
}

import type { Context } from 'hono'
import { pageId, type Namespaces } from '../namespaces.js'
import type { Frozen } from '../store/frozen.js'
import type { Store } from '../store/store.js'
import { CHARGES, type ChargeBase, type ChargeKind } from './types.js'

/**
 * Where the customer pages are, and how their URLs name what they show (docs/behaviour.md#urls-handed-out):
 * the charge by its transaction reference, and, when the page names it, its namespace by its page
 * id (`pageId`, src/namespaces.ts), the path segment before the reference. A transaction reference
 * is the namespace's own: one snapshot restored under several keys gives each the same references
 * (docs/behaviour.md#snapshots), so the reference alone cannot say whose charge a page is for. The URLs the API answers
 * name the reference alone, as they always have (a charge made since is held by its namespace
 * only); every link a page or the dashboard writes names the namespace too (the paths below, given `ns`).
 */

const seg = encodeURIComponent
/** the path segment naming the namespace `ns`, or none */
const space = (ns: string | undefined): string => (ns === undefined ? '' : `${pageId(ns)}/`)

/**
 * The path of the page under `prefix` of a charge, naming the namespace `ns` when given: each
 * channel's page says its own (`threeDsPagePath`, src/cards/three-ds.tsx).
 */
export const customerPagePath =
  (prefix: string) =>
  (tx: string, ns?: string): string =>
    `${prefix}${space(ns)}${seg(tx)}`

/** The hosted page of a checkout (docs/behaviour.md#checkout-page), naming `ns` when given; its forms post to it, and to `cancel` for `pay`. */
export const checkoutPagePath = (tx: string, ns?: string): string => `/checkout/${space(ns)}${seg(tx)}/pay`

/**
 * A page's path as it names no namespace: what a recorded session's page call replays as, under
 * another key (docs/behaviour.md#record-to-flow). `prefix`: the customer page it is under, if any.
 */
export const barePagePath = (path: string, prefix: string | undefined): string =>
  prefix === undefined ? path : prefix + path.slice(prefix.length).replace(/^[0-9a-f]{16}\//, '')

/**
 * The two paths a page's route is served at, from its path with `:tx`: naming the namespace
 * (`/checkout/:page/:tx/pay`), and the reference alone (`/checkout/:tx/pay`).
 */
export const pageRoutePaths = (path: string): [string, string] => [path.replace(':tx', ':page/:tx'), path]

/** The merchant a customer page names: the namespace's (`Merchant` for one no longer held). */
export const merchantNameOf = (namespaces: Namespaces, ns: string): string => namespaces.get(ns)?.name ?? 'Merchant'

/** What a page says, as not found, of a reference several namespaces hold when its path names none. */
export const HELD_BY_SEVERAL = "Several merchants of this sandbox hold this reference (one snapshot restored under several keys). Open the link that names the merchant's page id before the reference."

/** What a page's request finds: the charge and its namespace, or nothing (`several`: by the reference alone, held by more than one namespace). */
export type Located<C> = { ns: string; charge: Frozen<C> } | { ns?: undefined; several: boolean }

/**
 * The charge of `kind` a page's request names: in the namespace its page id names, or without one
 * in the only namespace holding a charge of the kind with the reference (none when several do:
 * the page answers not found, saying so). No key: a page is the customer's browser.
 */
export function locateCharge<C extends ChargeBase>(store: Store, namespaces: Namespaces, c: Context, kind: ChargeKind): Located<C> {
  const tx = c.req.param('tx') ?? ''
  const page = c.req.param('page')
  const holding = (ns: string) => {
    const charge = store.col<ChargeBase>(ns, CHARGES).get(tx)
    return charge?.kind === kind ? { ns, charge: charge as Frozen<C> } : undefined
  }
  const none = { several: false }
  if (page !== undefined) {
    const ns = namespaces.ofPageId(page)
    return (ns === undefined ? undefined : holding(ns)) ?? none
  }
  let found: { ns: string; charge: Frozen<C> } | undefined
  for (const ns of store.namespaces()) {
    const here = holding(ns)
    if (!here) continue
    if (found) return { several: true }
    found = here
  }
  return found ?? none
}

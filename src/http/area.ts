import type { Context, Hono } from 'hono'
import type { Child } from 'hono/jsx'
import type { z } from 'zod'
import type { ActiveScenarios } from '../scenario/index.js'
import type { PackSettings } from '../scenario/area-settings.js'
import type { TestValuesView } from '../scenario/test-value-text.js'
import type { CollectionSpec, VariantSpec } from '../store/collection.js'
import type { AppEnv } from './context.js'
import type { JournalEntry } from './journal.js'
import type { Answer, chain } from './middleware/chain.js'

/**
 * An area of the API declared once (docs/architecture.md, "Areas"): its collections, how its
 * services are built, the table of its routes, and what the shared code reads of it in a loop over
 * the areas: its OpenAPI tags, its ledger sources, its customer pages, its outcomes, its dashboard
 * panels, its test values and its pack settings. The app mounts the routes
 * (src/app.ts), the store opens the collections, the ledger reads the sources
 * (src/engine/ledger.ts), and the OpenAPI document is derived from the same table and tags
 * (src/openapi.ts), so a route exists in one place and adding an area edits no shared file.
 */
export interface Area<S, Kit = never> {
  /** names the area in messages and the docs */
  key: string
  /**
   * the collections it owns, opened (and checked in a data file) with the store, and the fields of
   * its variant of another's records (its kind's charge record: `chargeKind`, src/engine/types.ts)
   */
  collections?: readonly (CollectionSpec | VariantSpec)[]
  /**
   * Its services, from the shared kit and the services of the areas listed before it (src/areas.ts),
   * as one record: each of them joins the wired sandbox under its own name.
   */
  build(kit: Kit): S
  /** served with what the area was built from and what it built */
  routes: readonly Route<S & Kit>[]
  /**
   * The tags its routes are grouped under in the OpenAPI document (src/openapi.ts), each with its
   * description, in the document's order; a route may use a tag an earlier area declared.
   */
  tags?: Readonly<Record<string, string>>
  /**
   * The ledger sources it posts entries under (`Ledger.post`, src/engine/ledger.ts), by name: the
   * name begins the entry's key, `<source>:<reference>:<n>`.
   */
  ledger?: Readonly<Record<string, LedgerSource>>
  /** where its customer pages are, the HTML a customer's browser opens (`CustomerPages`, src/http/html-page.tsx) */
  pages?: CustomerPage
  /** the outcomes it can produce and which a namespace met (src/control/outcomes.ts, docs/behaviour.md#readiness-report) */
  outcomes?: AreaOutcomes<S & Kit>
  /** its panels of the dashboard, in the page's order (src/control/dashboard/page.tsx) */
  panels?: readonly Panel<S & Kit>[]
  /** its test values as `sandbox magic` prints them and docs/test-values.md shows them */
  testValues?: AreaTestValues
  /** its settings of a scenario pack: their schema and their defaults (`packSettings`, src/scenario/area-settings.ts) */
  settings?: PackSettings
}

/** What the dashboard's filter form asks of a namespace's lists (docs/behaviour.md#control-api). */
export interface PanelFilters {
  kind?: string
  status?: string
  /** "reference contains" */
  q?: string
}

/**
 * A panel of the dashboard an area brings: its section (`h-` and the id), its title, its link in the
 * jump bar, its place on the page (the panels are shown by place, the dashboard's own among them:
 * charges 10, balances 20 ... events 110, the readiness report 120), and what it shows of namespace
 * `ns`, from the wired sandbox (`s`), through the panels' kit (src/http/panel/).
 */
export interface Panel<T> {
  id: string
  title: string
  jump: string
  place: number
  body: (s: T, ns: string, f: PanelFilters) => Child
}

/**
 * An area's test values, from the packs in force (`ActiveScenarios.toJSON()`, its own settings
 * among them): its part of `sandbox magic`'s text, its heading included (plain lines and tables,
 * `textTable`, src/scenario/test-value-text.ts), and its section of docs/test-values.md (markdown,
 * `markdownTable`; its title is its heading and its link in the page's contents). Both are shown
 * by place, among the parts the CLI and the page's script write themselves (src/test-values.ts,
 * scripts/test-values.mjs: direct debit 30, checkout 50, bank transfer 60) and the other areas'
 * (cards 10, wallets 20, identities 40 on the page and 25 in the text, balances 90, look-ups 100 ...).
 */
export interface AreaTestValues {
  place: number
  /** its place in `sandbox magic`'s text where it differs from the page's (identities: 25, before direct debit's 30) */
  textPlace?: number
  text?(values: TestValuesView): string
  page?: { title: string; body(values: TestValuesView): string }
}

/** An outcome of the catalogue (docs/behaviour.md#readiness-report): `card.otp`, `transfer.failed`, `checkout.cancelled`. */
export interface Outcome {
  id: string
  label: string
}

/**
 * The outcomes an area can produce, declared beside the rest of it: listed from the namespace's
 * packs (a test value with a new outcome adds one), and met as the namespace's records show it,
 * each met outcome's id with the reference of the record that met it (ids outside the list are
 * dropped by the report).
 */
export interface AreaOutcomes<T> {
  list(scenarios: ActiveScenarios): readonly Outcome[]
  met(s: T, ns: string, seen: Seen): Iterable<readonly [id: string, reference: string]>
}

/** What one report has read of a namespace, once for every area that asks: its journal's calls. */
export interface Seen {
  calls(): readonly JournalEntry[]
}

/** A ledger source an area declares (`Area.ledger`): what the ledger asks of its entries. */
export interface LedgerSource {
  /** how the balance history describes an entry of the record `reference` (docs/behaviour.md#ledger-and-balances) */
  describe(reference: string, entry: EntryFacts): string
  /** its credits are money taken in from outside, counted against the intake limit (docs/behaviour.md#ledger-and-balances): a funding, a conversion */
  intake?: boolean
  /** its debits are taken whatever the balance, so they may take it below nothing (a chargeback, docs/behaviour.md#chargebacks); no other debit can */
  overdraws?: boolean
}

/** What a ledger entry says that its description may show (the ledger's `Posting` holds these and more). */
export interface EntryFacts {
  direction: 'credit' | 'debit'
  currency: string
  /** what moved the money after the record's first entry: `settled early`, `settled`, `voided`, `returned`, a failure's reason */
  why?: string
  /** a capture's or a refund's pay-in: its payment reference */
  of?: string
}

/**
 * An area's customer pages (docs/behaviour.md#checkout-page): every path under `prefix` is served in the
 * pages' chain and refused in HTML, whatever refuses it (src/app.ts, src/http/client-error.ts).
 */
export interface CustomerPage {
  prefix: string
  /**
   * a recorded session's post to one of them replays as the same form with no key (src/flow/from-journal.ts):
   * true of a page whose form holds only the customer's choice, not of one that takes a card the
   * journal kept masked
   */
  replaysAsForm: boolean
}

/**
 * Who may call a route, which chooses the middleware around it (src/app.ts): a merchant's secret
 * key; a secret or public test key (the look-ups, docs/behaviour.md#look-ups); the control API
 * (loopback or the control token, and a key); no key at all (health, the document, the customer's
 * pages); the dashboard (loopback or the control token, no key).
 */
export type Access = 'secret key' | 'public key' | 'control' | 'open' | 'dashboard'

/** A zod schema with the component name it has in the OpenAPI document. */
export interface Named {
  name: string
  schema: z.ZodType
  /** the schema the sandbox's areas make of it, where they add to it (a scenario pack's: their settings, `packRules`) */
  ofAreas?: (areas: readonly AnyArea[]) => z.ZodType
}

interface Served<T> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** the full path, Hono form (`:param`) */
  path: string
  access: Access
  /**
   * Reads and validates the request, calls the area's service, answers with `ok()`. Called inside
   * the chain of its access with the wired sandbox (`s`: the kit and the services): one Hono handler
   * per route.
   */
  handler: (c: Context<AppEnv>, s: T) => Answer
}

/** What the OpenAPI document says of a route. */
export interface Documented {
  tag: string
  operationId: string
  summary: string
  description?: string
  /** the request body: the schema the handler validates with */
  body?: Named
  /** false: the body may be left out */
  bodyRequired?: boolean
  /**
   * the body schema lets unknown fields through only to name each one in the refusal
   * (`"<field>": "is not allowed"`): the document shows it closed, as it is enforced
   */
  closed?: boolean
  /** the query parameters: the schema the handler validates with */
  query?: z.ZodObject
  /** what `data` holds in the 200 answer */
  answer?: Named
  /** a step on a payment: 409 once the payment has ended (docs/behaviour.md#status-codes) */
  step?: boolean
  /** schemas the document shows beside the body (the card payload inside `charge_data`) */
  extensions?: Record<string, Named>
}

/** A route: served, and either documented or an HTML page for a browser (left out of the document). */
export type Route<T> = Served<T> & (Documented | { page: true })

/** An area of any services and kit, as a list of areas holds it. */
export type AnyArea = Area<any, any>

/**
 * Serves `route` of an area inside `around`, its handler given `s` (the wired sandbox): one Hono
 * handler, which Hono calls without a compose of its own.
 */
export function mount<S>(app: Hono<AppEnv>, around: ReturnType<typeof chain>, route: Route<S>, s: S): void {
  const handler = route.handler
  app.on(route.method, route.path, (c) => around(c, () => handler(c, s)))
}

/**
 * The routes of paths the pages write bare (`/api/v1/...`), served there and under `/merchant`
 * alike (CONTRACT 15): `routes` is called with each prefix and the suffix its operation ids take.
 */
export function bareAndMerchant<T>(routes: (prefix: '' | '/merchant', suffix: '' | 'Merchant') => Route<T>[]): Route<T>[] {
  return [...routes('', ''), ...routes('/merchant', 'Merchant')]
}

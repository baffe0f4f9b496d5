import type { Frozen } from '../../store/frozen.js'
import type { Kinds } from '../../engine/kinds.js'
import type { PreauthService } from '../../cards/index.js'
import type { ChargeBase, ChargeKind, ChargeStatus } from '../../engine/types.js'
import type { CheckoutCharge, CheckoutService } from '../../checkout/index.js'
import type { Clocks } from '../../clock.js'
import type { DirectDebit, DirectDebitService } from '../../direct-debit/index.js'
import type { Namespaces, NsMeta } from '../../namespaces.js'
import type { Events } from '../../webhooks/events.js'
import type { OutcomeReport } from '../report-format.js'
import { matchesRef } from '../../http/panel/list-panel.js'
import { ROW_LIMIT } from '../../http/panel/ui.js'

/**
 * What the dashboard's own panels read (the charges of every kind, the pre-authorizations, the
 * mandates, the events, the report), and nothing else: they ask these and never the store, so a
 * rule (when a capture is settled, which moves a mandate allows) stays with the service that
 * owns it. The panels an area brings read its own services (`Area.panels`).
 */
export interface DashboardSources {
  namespaces: Pick<Namespaces, 'list' | 'known'>
  clocks: Pick<Clocks, 'iso' | 'frozenAt' | 'offset' | 'pending'>
  events: Pick<Events, 'list'>
  /** the charges of every kind */
  charges: { list(ns: string): Frozen<ChargeBase>[]; count(ns: string): number }
  preauth: Pick<PreauthService, 'list' | 'operationsOf' | 'captureState'>
  directDebit: Pick<DirectDebitService, 'list' | 'movesFrom'>
  /** a checkout's attempts, and whether it still takes payment */
  checkout: Pick<CheckoutService, 'attempts'> & { isOpen(c: Frozen<CheckoutCharge>): boolean; is(c: Frozen<ChargeBase>): c is Frozen<CheckoutCharge> }
  /** what each kind of charge shows: its label, its instrument, what it waits for */
  kinds: Pick<Kinds, 'of' | 'all' | 'payBy'>
  /** the namespace's readiness report (src/control/outcomes.ts) */
  report: { of(ns: string): OutcomeReport }
}

export const STATUSES: ChargeStatus[] = ['pending', 'processing', 'success', 'failed', 'expired']

/** The filter form's choices (filters.tsx). */
export interface Filters {
  kind?: ChargeKind
  status?: ChargeStatus
  q?: string
}

/** What one request asks to see. */
export interface View {
  /** the namespaces listed: the first ROW_LIMIT of every namespace (the deployment's, with several processes on one database) */
  nsList: NsMeta[]
  /** how many namespaces there are */
  nsTotal: number
  /** those this process serves: the others' counts are their owners' to tell */
  nsHere: Set<string>
  ns: NsMeta | undefined
  /** the ns query parameter, when it names no namespace */
  unknownNs?: string
  filters: Filters
  /** the kinds a charge may be filtered by, and their names in words: every declared kind */
  kinds: [ChargeKind, string][]
  /** the control token the page was opened with (kept in links when the page is not on loopback) */
  token?: string
}

/**
 * What a request asks to see. The namespace shown is one this process serves (a page naming
 * another's by `?ns=` was forwarded to its owner: src/cluster.ts); the list names them all.
 */
export async function readView(s: DashboardSources, query: Record<string, string>): Promise<View> {
  const here = s.namespaces.list()
  const { list: nsList, total: nsTotal } = await s.namespaces.known(ROW_LIMIT)
  const wanted = query.ns
  const ns = wanted ? here.find((m) => m.secret_key === wanted) : here[0]
  const kinds = s.kinds.all().map((k): [ChargeKind, string] => [k.kind, k.label])
  const nsHere = new Set(here.map((m) => m.secret_key))
  return { nsList, nsTotal, nsHere, ns, unknownNs: wanted && !ns ? wanted : undefined, filters: parseFilters(query, kinds), kinds, token: query.token || undefined }
}

/** A dashboard address with these query parameters and the token the page was opened with. */
export function uiHref(v: View, path: string, params: Record<string, string>): string {
  const p = new URLSearchParams(params)
  if (v.token) p.set('token', v.token)
  return `/_sandbox/ui${path}?${p}`
}

/** The page for one namespace. */
export const nsHref = (v: View, ns: string) => uiHref(v, '', { ns })

function parseFilters(query: Record<string, string>, kinds: [ChargeKind, string][]): Filters {
  const f: Filters = {}
  const kind = kinds.find(([k]) => k === query.kind)
  if (kind) f.kind = kind[0]
  if ((STATUSES as string[]).includes(query.status)) f.status = query.status as ChargeStatus
  const q = query.q?.trim()
  if (q) f.q = q.slice(0, 200)
  return f
}

export { matchesRef }

export function chargeMatches(c: Frozen<ChargeBase>, f: Filters): boolean {
  if (f.kind && c.kind !== f.kind) return false
  if (f.status && c.status !== f.status) return false
  return matchesRef(f.q, c.payment_reference, c.transaction_reference, (c as DirectDebit).authorization_code)
}

import type { Kit } from '../engine/kit.js'
import { distinct } from '../engine/outcomes.js'
import type { AnyArea, Outcome, Seen } from '../http/area.js'
import type { JournalEntry } from '../http/journal.js'
import type { ActiveScenarios } from '../scenario/index.js'
import type { Frozen } from '../store/frozen.js'
import { EVENT_NAMES, type EventRecord } from '../webhooks/events.js'
import { cell, percentOf, sharesOf, type OutcomeReport, type WebhookAnswers } from './report-format.js'

/** The area the webhook events' outcomes are counted under. */
export const WEBHOOKS = 'webhooks'

/** An outcome of the catalogue with the area that declares it. */
export interface CatalogueEntry extends Outcome {
  area: string
}

/**
 * The outcome catalogue under a namespace's packs (docs/behaviour.md#readiness-report): each
 * area's outcomes as its declaration lists them (`Area.outcomes`), in the order of src/areas.ts,
 * then one per event the sandbox sends (`webhook.<event>`: the receiver answered one 2xx).
 */
export function catalogue(areas: readonly AnyArea[], scenarios: ActiveScenarios): CatalogueEntry[] {
  // one per view of the packs (namespaces without packs of their own share one), while the areas are the same
  const known = catalogues.get(scenarios)
  if (known?.areas === areas) return known.entries
  const out = distinct<CatalogueEntry>([
    ...areas.flatMap((a) => (a.outcomes?.list(scenarios) ?? []).map((o) => ({ id: o.id, label: o.label, area: a.key }))),
    ...EVENT_NAMES.map((e) => ({ id: `webhook.${e}`, label: `the receiver answered a ${e} event 2xx`, area: WEBHOOKS })),
  ])
  catalogues.set(scenarios, { areas, entries: out })
  return out
}

/** The catalogue of each view of the packs: a view is replaced, not changed, when a namespace's packs change. */
const catalogues = new WeakMap<ActiveScenarios, { areas: readonly AnyArea[]; entries: CatalogueEntry[] }>()

const answered = (a: { status_code?: number }) => a.status_code !== undefined && a.status_code >= 200 && a.status_code < 300

/** The reference an event is about, as its data names it. */
function referenceOf(e: Frozen<EventRecord>): string {
  const d = e.data as { reference?: unknown; payment_reference?: unknown }
  return String(d.reference ?? d.payment_reference ?? e.id)
}

/**
 * Which outcomes of the catalogue the namespaces met, from what they keep (their records, the
 * journal, the events and each delivery attempt), and what the receiver answered per event type.
 * An outcome is met by the first reference found; with several namespaces, by any of them.
 */
export function outcomeReport(s: Kit, namespaces: readonly string[], scope: OutcomeReport['scope']): OutcomeReport {
  const entries = new Map<string, CatalogueEntry>()
  const met = new Map<string, string>()
  const hooks = new Map<string, WebhookAnswers>(EVENT_NAMES.map((event) => [event, { event, events: 0, first_try: 0, after_retries: 0, never: 0, no_target: 0 }]))
  for (const ns of namespaces) {
    for (const o of catalogue(s.areas, s.scenarios.forNs(ns))) if (!entries.has(o.id)) entries.set(o.id, o)
    // the journal is read once for the namespace, however many areas look through it
    let calls: readonly JournalEntry[] | undefined
    const seen: Seen = { calls: () => (calls ??= s.journal.list(ns)) }
    for (const a of s.areas) for (const [id, reference] of a.outcomes?.met(s, ns, seen) ?? []) if (!met.has(id)) met.set(id, reference)
    for (const e of s.events.list(ns)) {
      const w = hooks.get(e.event)
      if (!w) continue
      w.events++
      const first = e.attempts.findIndex(answered)
      if (e.status === 'no_target') w.no_target++
      else if (first === 0) w.first_try++
      else if (first > 0) w.after_retries++
      else w.never++
      if (first >= 0 && !met.has(`webhook.${e.event}`)) met.set(`webhook.${e.event}`, referenceOf(e))
    }
  }
  const outcomes = [...entries.values()].map((o) => ({ id: o.id, area: o.area, label: o.label, met: met.has(o.id), reference: met.get(o.id) ?? null }))
  const count = outcomes.filter((o) => o.met).length
  return { scope, met: count, total: outcomes.length, percent: percentOf(count, outcomes.length), areas: sharesOf(outcomes), outcomes, webhooks: [...hooks.values()] }
}

/**
 * docs/outcomes.md: the catalogue under the shipped packs, area by area (`npm run outcomes:docs`,
 * scripts/outcomes-docs.mjs; test/outcomes-docs.test.ts fails when the page differs).
 */
export function catalogueMarkdown(entries: readonly CatalogueEntry[]): string {
  const out = [
    '# The outcome catalogue',
    '',
    '<!-- Generated from the areas\' declarations and scenarios/default.yaml by `npm run outcomes:docs`: edit those, not this page. -->',
    '',
    `Every outcome the sandbox can produce under its shipped test values (${entries.length} in all), each`,
    'declared by its area (docs/architecture.md, "Areas"). `sandbox report` says which of them your',
    'calls met and `--require` names them (docs/behaviour.md#readiness-report); a pack of your own adds the',
    'outcomes its test values bring.',
  ]
  for (const area of [...new Set(entries.map((e) => e.area))]) {
    out.push('', `## ${area}`, '', '| outcome | what |', '|---|---|')
    for (const e of entries.filter((x) => x.area === area)) out.push(`| \`${e.id}\` | ${cell(e.label)} |`)
  }
  return `${out.join('\n')}\n`
}

import type { AreaOutcomes, Outcome, Seen } from '../http/area.js'
import type { ActiveScenarios } from '../scenario/index.js'
import type { Frozen } from '../store/frozen.js'
import type { Store } from '../store/store.js'
import { CHARGES, type ChargeBase, type ChargeKind } from './types.js'

/**
 * An outcome id's part made of a text: `Insufficient funds in wallet` is `insufficient-funds-in-wallet`.
 * It takes what a record holds as it is (a restored snapshot may hold a number where a text was):
 * an id no area lists is dropped by the report.
 */
export const slug = (text: unknown): string =>
  String(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')

/** What a pack's test value says it does: its steps, its end and the failure's message. */
export interface TestValue {
  steps?: readonly string[]
  outcome: string
  message?: string
}

/** The outcomes of a test value under `prefix`: each step asked, its end, a failure by its message. */
export function valueOutcomes(prefix: string, v: TestValue): Outcome[] {
  const out: Outcome[] = (v.steps ?? []).map((step) => ({ id: `${prefix}.${slug(step)}`, label: `asked for ${step}` }))
  if (v.outcome === 'failed') {
    out.push({ id: `${prefix}.failed`, label: 'failed' })
    if (v.message) out.push({ id: `${prefix}.failed.${slug(v.message)}`, label: `failed: ${v.message}` })
  } else out.push({ id: `${prefix}.${slug(v.outcome)}`, label: v.outcome === 'processing' ? 'still processing, no answer' : v.outcome })
  return out
}

/** The outcomes once each, in the order first listed. */
export function distinct<O extends Outcome>(outcomes: Iterable<O>): O[] {
  const seen = new Map<string, O>()
  for (const o of outcomes) if (!seen.has(o.id)) seen.set(o.id, o)
  return [...seen.values()]
}

/** The charges of a kind the merchant made itself (a checkout's attempts are the checkout page's). */
export function* chargesOf<C extends ChargeBase>(store: Store, ns: string, kind: ChargeKind): Iterable<Frozen<C>> {
  for (const c of store.col<ChargeBase>(ns, CHARGES).values()) if (c.kind === kind && !c.parent) yield c as Frozen<C>
}

/** What one charge met under `prefix`, by the same ids `valueOutcomes` lists. */
export function* chargeMet(prefix: string, c: Frozen<ChargeBase & { auth_model?: string; pending_steps?: readonly string[] }>): Iterable<readonly [string, string]> {
  const ref = c.payment_reference
  const steps = new Set(c.history.map((h) => h.step))
  if (c.auth_model) steps.add(c.auth_model)
  for (const step of steps) yield [`${prefix}.${slug(step)}`, ref]
  if (c.status === 'failed') {
    yield [`${prefix}.failed`, ref]
    if (c.failure_message) yield [`${prefix}.failed.${slug(c.failure_message)}`, ref]
  } else if (c.status === 'processing' && !c.pending_steps?.length) yield [`${prefix}.processing`, ref]
  else yield [`${prefix}.${c.status}`, ref]
}

/** A customer's decline on a page (3DS, the operator's, the bank's): its failure, listed when a value asks for `step` (or always, without one). */
export interface Decline {
  step?: string
  message: string
}

/**
 * The outcomes of a kind of charge whose pack test values say its steps and end (cards, wallets,
 * banks, debit accounts, vouchers): listed from the values and the declines they allow, met by
 * the kind's charges.
 */
export function chargeOutcomes(prefix: string, kind: ChargeKind, values: (s: ActiveScenarios) => Iterable<TestValue>, declines: readonly Decline[] = []): AreaOutcomes<{ store: Store }> {
  return {
    list: (scenarios) => {
      const all = [...values(scenarios)]
      const declined = declines.filter((d) => !d.step || all.some((v) => v.steps?.includes(d.step!)))
      return distinct([{ id: `${prefix}.success`, label: 'success' }, ...[...all, ...declined.map((d) => ({ outcome: 'failed', message: d.message }))].flatMap((v) => valueOutcomes(prefix, v))])
    },
    *met(s, ns) {
      for (const c of chargesOf(s.store, ns, kind)) yield* chargeMet(prefix, c)
    },
  }
}

/** How `statusOutcomes` reads a record: the statuses it went through, its reference, a status's label. */
export interface StatusReading<R> {
  /** every status the record shows it went through (its `status` unless said): a chargeback's answer, a mandate's history */
  states?: (r: Frozen<R>) => Iterable<unknown>
  /** the record's reference in the report (its `reference` unless said) */
  reference?: (r: Frozen<R>) => string
  label?: (status: string) => string
}

/**
 * The outcomes of a collection's records by the statuses they went through (refunds, chargebacks,
 * mandates, accounts by currency): one per status listed, met by a record whose `states` hold it.
 */
export function statusOutcomes<R extends object>(prefix: string, collection: string, statuses: readonly string[], o: StatusReading<R> = {}): AreaOutcomes<{ store: Store }> {
  const states = o.states ?? ((r) => [(r as { status?: unknown }).status])
  const reference = o.reference ?? ((r) => String((r as { reference?: unknown }).reference))
  return {
    list: () => statuses.map((status) => ({ id: `${prefix}.${slug(status)}`, label: o.label ? o.label(status) : status.replace(/_/g, ' ') })),
    *met(s, ns) {
      for (const r of s.store.col<R>(ns, collection).values()) for (const st of states(r)) if (typeof st === 'string') yield [`${prefix}.${slug(st)}`, reference(r)]
    },
  }
}

/** An area's outcomes made of several declarations: listed in their order, met by any. */
export function allOutcomes<T>(...parts: readonly AreaOutcomes<T>[]): AreaOutcomes<T> {
  return {
    list: (scenarios) => distinct(parts.flatMap((p) => p.list(scenarios))),
    *met(s, ns, seen) {
      for (const p of parts) yield* p.met(s, ns, seen)
    },
  }
}

/**
 * The refusals the journal shows a merchant met: each call under `path` answered with one of
 * `messages` (an outcome's id to its text), named by the request's `reference` (else the journal
 * entry's id). A refusal changes nothing in the namespace, so the journal is its only trace.
 */
export function* refusalsMet(seen: Seen, path: string, messages: Readonly<Record<string, string>>): Iterable<readonly [string, string]> {
  const ids = new Map(Object.entries(messages).map(([id, text]) => [text, id]))
  for (const e of seen.calls()) {
    if (e.status < 400 || !e.path.startsWith(path)) continue
    const id = ids.get(String((e.response as { message?: unknown } | null)?.message))
    if (id) yield [id, String((e.request as { reference?: unknown } | null)?.reference ?? `journal ${e.id}`)]
  }
}

/** A pay-in of `kind` in each currency (a transfer into a virtual or pool account): met by its charges. */
export function creditOutcomes(prefix: string, kind: ChargeKind, currencies: readonly string[]): AreaOutcomes<{ store: Store }> {
  return {
    list: () => currencies.map((c) => ({ id: `${prefix}.${slug(c)}`, label: `a transfer received in ${c}` })),
    *met(s, ns) {
      for (const c of chargesOf(s.store, ns, kind)) yield [`${prefix}.${slug(c.currency)}`, c.payment_reference]
    },
  }
}

/** Refusals a merchant may meet (`refusalsMet`): each outcome's id to its message and label, under any of `paths`. */
export function refusalOutcomes(paths: readonly string[], refusals: Readonly<Record<string, readonly [message: string, label: string]>>): AreaOutcomes<unknown> {
  const messages = Object.fromEntries(Object.entries(refusals).map(([id, [message]]) => [id, message]))
  return {
    list: () => Object.entries(refusals).map(([id, [, label]]) => ({ id, label })),
    *met(_s, _ns, seen) {
      for (const path of paths) yield* refusalsMet(seen, path, messages)
    },
  }
}

import type { AreaOutcomes, Outcome } from '../http/area.js'
import type { ActiveScenarios } from '../scenario/index.js'
import type { Frozen } from '../store/frozen.js'
import type { Store } from '../store/store.js'
import { CHARGES, type ChargeBase, type ChargeKind } from './types.js'

/** An outcome id's part made of a text: `Insufficient funds in wallet` is `insufficient-funds-in-wallet`. */
export const slug = (text: string): string =>
  text
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
export function distinct(outcomes: Iterable<Outcome>): Outcome[] {
  const seen = new Map<string, Outcome>()
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

/**
 * The outcomes of a kind of charge whose pack test values say its steps and end (cards, wallets,
 * banks, debit accounts, vouchers): listed from the values, met by the kind's charges.
 */
export function chargeOutcomes(prefix: string, kind: ChargeKind, values: (s: ActiveScenarios) => Iterable<TestValue>, also: readonly Outcome[] = []): AreaOutcomes<{ store: Store }> {
  return {
    list: (scenarios) => distinct([{ id: `${prefix}.success`, label: 'success' }, ...[...values(scenarios)].flatMap((v) => valueOutcomes(prefix, v)), ...also]),
    *met(s, ns) {
      for (const c of chargesOf(s.store, ns, kind)) yield* chargeMet(prefix, c)
    },
  }
}

/**
 * The outcomes of a collection's records by their status (refunds, chargebacks): one per status
 * listed, met by a record whose `fields` (its status; a chargeback's answer too, which a later
 * status replaces) hold it, named by its `reference`.
 */
export function statusOutcomes(prefix: string, collection: string, statuses: readonly string[], fields: readonly string[] = ['status']): AreaOutcomes<{ store: Store }> {
  return {
    list: () => statuses.map((status) => ({ id: `${prefix}.${slug(status)}`, label: status.replace(/_/g, ' ') })),
    *met(s, ns) {
      for (const r of s.store.col<Record<string, unknown> & { reference: string }>(ns, collection).values()) {
        for (const f of fields) if (typeof r[f] === 'string') yield [`${prefix}.${slug(r[f] as string)}`, r.reference]
      }
    },
  }
}

import { Hono } from 'hono'
import type { Deps } from '../deps.js'
import type { AppEnv } from '../http/context.js'
import { okJson, sendJson } from '../http/envelope.js'
import { MSG, notFound } from '../http/errors.js'
import { chargeQueryRecord } from './query.js'
import { CHARGES, type ChargeBase, type PaymentMethod } from './types.js'

/** Finds a charge of any kind by payment reference or transaction reference. */
export function findCharge(deps: Deps, ns: string, reference: string): ChargeBase | undefined {
  const col = deps.store.col<ChargeBase>(ns, CHARGES)
  return col.findBy('payment_reference', reference) ?? col.get(reference)
}

/** GET /merchant/api/v1/charges/:reference (SPEC.md 2.8) */
export type QueryExtras = (ns: string, charge: ChargeBase) => Record<string, unknown>

export function chargeQueryRoutes(deps: Deps, extras: Partial<Record<PaymentMethod, QueryExtras>> = {}) {
  const app = new Hono<AppEnv>()
  const answers = new AnswerCache(process.env.SANDBOX_QUERY_CACHE)
  app.get('/:reference', (c) => {
    const ns = c.get('ns')
    const reference = c.req.param('reference')
    const version = deps.store.version
    const at = deps.clocks.now(ns)
    const kept = answers.get(ns, version, at, reference)
    if (kept !== undefined && !answers.check) return sendJson(c, kept)
    const charge = findCharge(deps, ns, reference)
    if (!charge) throw notFound(MSG.CHARGE_NOT_FOUND)
    // Object.assign, not spread: this is the hottest read and spreading a fresh record is slow
    const extra = extras[charge.kind]?.(ns, charge)
    const text = okJson(MSG.CHARGE_RETRIEVED, extra ? Object.assign(chargeQueryRecord(charge), extra) : chargeQueryRecord(charge))
    if (kept !== undefined && kept !== text) throw new Error(`charge query of ${reference}: the kept answer differs from the one computed now\nkept: ${kept}\nnow:  ${text}`)
    // kept when computing it changed nothing (an expiry due now may) within one millisecond: the
    // same call then gives the same answer
    if (deps.store.version === version && deps.clocks.now(ns) === at) answers.set(ns, version, at, reference, text)
    return sendJson(c, text)
  })
  return app
}

/** the most answers kept at once */
const MAX_KEPT = 256

/**
 * The answers of charge queries, kept while they cannot change. A charge query reads the stored
 * records of its namespace (the charge, its operations and ledger) and the namespace clock
 * (settlement, a pre-authorization's expiry): its answer stays the same while no record of the
 * store changed (`Store.version`) and the clock reads the same millisecond. A client polling a
 * charge asks again and again in between; the kept text spares building the record and
 * serializing it (about an eighth of a charge query's time over a socket). Kept for one
 * namespace, one moment and one store version at a time, at most MAX_KEPT answers.
 *
 * `SANDBOX_QUERY_CACHE=off` keeps nothing; `check` (the test suite's setting) computes every
 * answer anyway and fails the call when a kept one differs, which shows that nothing an answer
 * depends on escapes the version and the clock.
 */
class AnswerCache {
  readonly check: boolean
  readonly #off: boolean
  #ns = ''
  #version = -1
  #at = NaN
  #texts = new Map<string, string>()

  constructor(mode: string | undefined) {
    this.#off = mode === 'off'
    this.check = mode === 'check'
  }

  /** The answer kept for this reference at this store version and clock reading. */
  get(ns: string, version: number, at: number, reference: string): string | undefined {
    if (this.#off || ns !== this.#ns || version !== this.#version || at !== this.#at) return undefined
    return this.#texts.get(reference)
  }

  set(ns: string, version: number, at: number, reference: string, text: string): void {
    if (this.#off) return
    if (ns !== this.#ns || version !== this.#version || at !== this.#at) {
      this.#ns = ns
      this.#version = version
      this.#at = at
      this.#texts = new Map()
    }
    // a clock that stands still with nothing written would keep every charge asked for
    else if (this.#texts.size >= MAX_KEPT) this.#texts.clear()
    this.#texts.set(reference, text)
  }
}

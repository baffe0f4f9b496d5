import type { Kit } from './kit.js'
import type { Config } from '../config.js'
import { okJson } from '../http/envelope.js'
import { notFound } from '../errors.js'
import { MSG } from '../messages.js'
import type { Frozen } from '../store/frozen.js'
import type { Store } from '../store/store.js'
import { chargeQueryAnswer } from './charge-record.js'
import { CHARGES, type ChargeBase } from './types.js'

/** Finds a charge of any kind by payment reference or transaction reference. */
export function findCharge(store: Store, ns: string, reference: string): Frozen<ChargeBase> | undefined {
  const col = store.col<ChargeBase>(ns, CHARGES)
  return col.findBy('payment_reference', reference) ?? col.get(reference)
}

/** Where the customer goes back to once a payment has ended: `redirect_url?reference=<payment reference>` (docs/behaviour.md#webhooks). */
export function returnUrl(redirectUrl: string, paymentReference: string): string {
  const url = new URL(redirectUrl)
  url.searchParams.set('reference', paymentReference)
  return url.toString()
}

/**
 * GET /merchant/api/v1/charges/:reference (docs/api.md 2.8): the answer's text, kept while it
 * cannot change (`AnswerCache`).
 */
export class ChargeQuery {
  readonly #answers: AnswerCache
  /**
   * the charges a webhook probe sent events of, by namespace, then reference (payment and
   * transaction): answered while the probe runs, never stored (docs/behaviour.md#webhook-probe)
   */
  readonly #lent = new Map<string, Map<string, Frozen<ChargeBase>>>()

  constructor(private readonly kit: Pick<Kit, 'store' | 'clocks' | 'kinds' | 'config'>) {
    this.#answers = new AnswerCache(kit.config.queryCache)
  }

  /** The whole answer, as JSON text; 404 when no charge has this reference. */
  answer(ns: string, reference: string): string {
    if (this.#lent.size) {
      const lent = this.#lent.get(ns)?.get(reference)
      // a stored charge of the same reference wins; a lent answer is never kept
      if (lent && !findCharge(this.kit.store, ns, reference)) return okJson(MSG.CHARGE_RETRIEVED, chargeQueryAnswer(this.kit.kinds, ns, lent))
    }
    const { store, clocks } = this.kit
    const answers = this.#answers
    const version = store.version
    const at = clocks.now(ns)
    const kept = answers.get(ns, version, at, reference)
    if (kept !== undefined) return kept
    const text = this.computed(ns, reference)
    // kept when computing it changed nothing (an expiry due now may) within one millisecond: the
    // same call then gives the same answer
    if (store.version === version && clocks.now(ns) === at) answers.set(ns, version, at, reference, text)
    return text
  }

  /**
   * Answers these charges by their payment and transaction references, as if stored, until the
   * function returned is called: the webhook probe's transactions, which the handler it probes
   * queries (docs/behaviour.md#webhook-probe). Nothing is written: lists, balances and snapshots never see them.
   */
  lend(ns: string, charges: Frozen<ChargeBase>[]): () => void {
    let mine = this.#lent.get(ns)
    if (!mine) this.#lent.set(ns, (mine = new Map()))
    const refs = charges.flatMap((ch) => [ch.payment_reference, ch.transaction_reference])
    for (const ch of charges) for (const ref of [ch.payment_reference, ch.transaction_reference]) mine.set(ref, ch)
    return () => {
      const now = this.#lent.get(ns)
      if (!now) return
      for (const ref of refs) now.delete(ref)
      if (!now.size) this.#lent.delete(ns)
    }
  }

  /** The answer as computed now, never the kept one. */
  computed(ns: string, reference: string): string {
    const charge = findCharge(this.kit.store, ns, reference)
    if (!charge) throw notFound(MSG.CHARGE_NOT_FOUND)
    return okJson(MSG.CHARGE_RETRIEVED, chargeQueryAnswer(this.kit.kinds, ns, charge))
  }
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
 * Kept because it is felt: without it a charge query costs 10-15 % more CPU (`node bench/ab.mjs
 * --scenario query`, bench/README.md). Mode `off` keeps nothing. test/query-answer-cache.test.ts
 * checks that a kept answer is the one computed at its moment, over random operations of every
 * kind.
 */
class AnswerCache {
  readonly #off: boolean
  #ns = ''
  #version = -1
  #at = NaN
  #texts = new Map<string, string>()

  constructor(mode: Config['queryCache']) {
    this.#off = mode === 'off'
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

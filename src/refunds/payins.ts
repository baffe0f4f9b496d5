import type { PreauthService } from '../cards/preauth.js'
import { OnEngine, type Engine } from '../charges/kit.js'
import { CARD_OPS, CHARGES, isCard, type CardCharge, type CardOperation, type ChargeBase } from '../charges/types.js'
import type { Frozen } from '../store/frozen.js'

/**
 * The pay-in side of a refund (docs/behaviour.md 13.8): what was collected, what is left, whether
 * it has settled, and the refunded totals, kept where the card refund of docs/api.md reads them
 * (`refunded` on a charge, on each capture and on a pre-authorization), so neither endpoint can
 * refund more than is left.
 */

/** What a refund took from each capture of a pre-authorization, to give it back if it fails. */
export interface RefundPart {
  capture: string
  amount: number
}

/** A charge with what was refunded of it (a plain charge's own; a pre-authorization's is on its ledger). */
type Refundable = ChargeBase & { refunded?: number }

/** A pay-in as a refund sees it, minor units. */
export interface Payin {
  charge: Frozen<Refundable>
  method: string | null
  /** what a refund may return: what the customer paid less the cost they bore (a pre-authorization: what was captured, voided captures aside) */
  collected: number
  refunded: number
  /** what is left and has settled (a pre-authorization's unsettled captures are not) */
  settledLeft: number
  succeeded: boolean
}

export class Payins extends OnEngine {
  constructor(
    engine: Engine,
    private readonly preauth: PreauthService,
  ) {
    super(engine)
  }

  #ops(ns: string) {
    return this.store.col<CardOperation>(ns, CARD_OPS)
  }

  /** The pay-in of a payment reference; a checkout's attempt is not one (its checkout is). */
  find(ns: string, paymentReference: string): Payin | undefined {
    const charge = this.#charges(ns).findBy('payment_reference', paymentReference)
    if (!charge || charge.parent) return undefined
    const card = charge as Frozen<CardCharge>
    if (isCard(card) && card.preauth) {
      const live = this.#captures(ns, card)
      const settled = live.filter((op) => this.preauth.isSettled(ns, op))
      return {
        charge,
        method: 'card',
        collected: card.preauth.captured,
        refunded: card.preauth.refunded,
        settledLeft: settled.reduce((s, op) => s + op.amount - (op.refunded ?? 0), 0),
        succeeded: charge.status === 'success' && live.length > 0,
      }
    }
    const refunded = charge.refunded ?? 0
    const collected = charge.status === 'success' ? this.kinds.money(ns, charge).refundable : 0
    // the one rule of settled (docs/behaviour.md 13.4): a card charge's as any other pay-in's
    const settled = this.ledger.settled(ns, 'payin', charge.payment_reference, this.clocks.now(ns))
    return {
      charge,
      method: this.kinds.methodOf(charge),
      collected,
      refunded,
      settledLeft: settled ? collected - refunded : 0,
      succeeded: charge.status === 'success',
    }
  }

  /** Counts `amount` as refunded (the caller checked it is left and settled); what it took. */
  take(ns: string, p: Payin, amount: number): RefundPart[] {
    const card = p.charge as Frozen<CardCharge>
    if (!card.preauth) {
      this.#updateCharge(ns, card.transaction_reference, (c) => {
        c.refunded = (c.refunded ?? 0) + amount
      })
      return []
    }
    const parts: RefundPart[] = []
    let left = amount
    for (const op of this.#captures(ns, card)) {
      if (left === 0) break
      if (!this.preauth.isSettled(ns, op)) continue
      const share = Math.min(left, op.amount - (op.refunded ?? 0))
      if (share <= 0) continue
      this.#ops(ns).update(op.transaction_reference, (o) => {
        o.refunded = (o.refunded ?? 0) + share
      })
      parts.push({ capture: op.transaction_reference, amount: share })
      left -= share
    }
    this.#updateCharge(ns, card.transaction_reference, (c) => {
      ;(c as CardCharge).preauth!.refunded += amount
    })
    return parts
  }

  /** Gives back what a failed refund took. */
  giveBack(ns: string, paymentReference: string, amount: number, parts: readonly Frozen<RefundPart>[] | undefined): void {
    const charge = this.#charges(ns).findBy('payment_reference', paymentReference)
    if (!charge) return
    if ((charge as Frozen<CardCharge>).preauth) {
      for (const part of parts ?? []) {
        if (!this.#ops(ns).has(part.capture)) continue
        this.#ops(ns).update(part.capture, (o) => {
          o.refunded = Math.max(0, (o.refunded ?? 0) - part.amount)
        })
      }
    }
    this.#updateCharge(ns, charge.transaction_reference, (c) => {
      const l = (c as CardCharge).preauth
      if (l) l.refunded = Math.max(0, l.refunded - amount)
      else c.refunded = Math.max(0, (c.refunded ?? 0) - amount)
    })
  }

  #captures(ns: string, card: Frozen<CardCharge>): Frozen<CardOperation>[] {
    return card.preauth!.captures.map((r) => this.#ops(ns).get(r)).filter((op): op is Frozen<CardOperation> => op !== undefined && !op.voided)
  }

  #charges(ns: string) {
    return this.store.col<Refundable>(ns, CHARGES)
  }

  /** Changes what was refunded of a charge, which is updated now. */
  #updateCharge(ns: string, transactionReference: string, change: (charge: Refundable) => void): void {
    this.#charges(ns).update(transactionReference, (c) => {
      change(c)
      c.updated_at = this.clocks.iso(ns)
    })
  }
}

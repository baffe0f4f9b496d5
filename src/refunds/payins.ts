import type { PreauthService } from '../cards/preauth.js'
import { OnEngine, type Engine } from '../charges/kit.js'
import { CARD_OPS, CHARGES, isCard, type CardCharge, type CardOperation, type ChargeBase } from '../charges/types.js'

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

/** A pay-in as a refund sees it, minor units. */
export interface Payin {
  charge: ChargeBase & { refunded?: number }
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
    const charge = this.store.col<ChargeBase & { refunded?: number }>(ns, CHARGES).findBy('payment_reference', paymentReference)
    if (!charge || charge.parent) return undefined
    const card = charge as CardCharge
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
    const settled = isCard(card) ? this.preauth.isChargeSettled(ns, card) : this.ledger.settled(ns, 'payin', charge.payment_reference, this.clocks.now(ns))
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
    const card = p.charge as CardCharge
    if (!card.preauth) {
      p.charge.refunded = (p.charge.refunded ?? 0) + amount
      this.#saveCharge(ns, p.charge)
      return []
    }
    const parts: RefundPart[] = []
    let left = amount
    for (const op of this.#captures(ns, card)) {
      if (left === 0) break
      if (!this.preauth.isSettled(ns, op)) continue
      const share = Math.min(left, op.amount - (op.refunded ?? 0))
      if (share <= 0) continue
      op.refunded = (op.refunded ?? 0) + share
      this.#ops(ns).put(op.transaction_reference, op)
      parts.push({ capture: op.transaction_reference, amount: share })
      left -= share
    }
    card.preauth.refunded += amount
    this.#saveCharge(ns, card)
    return parts
  }

  /** Gives back what a failed refund took. */
  giveBack(ns: string, paymentReference: string, amount: number, parts: RefundPart[] | undefined): void {
    const charge = this.store.col<ChargeBase & { refunded?: number }>(ns, CHARGES).findBy('payment_reference', paymentReference)
    if (!charge) return
    const card = charge as CardCharge
    if (card.preauth) {
      for (const part of parts ?? []) {
        const op = this.#ops(ns).get(part.capture)
        if (!op) continue
        op.refunded = Math.max(0, (op.refunded ?? 0) - part.amount)
        this.#ops(ns).put(op.transaction_reference, op)
      }
      card.preauth.refunded = Math.max(0, card.preauth.refunded - amount)
    } else {
      charge.refunded = Math.max(0, (charge.refunded ?? 0) - amount)
    }
    this.#saveCharge(ns, charge)
  }

  #captures(ns: string, card: CardCharge): CardOperation[] {
    return card.preauth!.captures.map((r) => this.#ops(ns).get(r)).filter((op): op is CardOperation => !!op && !op.voided)
  }

  #saveCharge(ns: string, charge: ChargeBase): void {
    charge.updated_at = this.clocks.iso(ns)
    this.store.col<ChargeBase>(ns, CHARGES).put(charge.transaction_reference, charge)
  }
}

import { PreauthRefunds, returnedOf, type PreauthService, type RefundPart } from '../cards/index.js'
import type { Kit } from '../engine/kit.js'
import { CHARGES, type ChargeBase } from '../engine/types.js'
import type { Frozen } from '../store/frozen.js'

/**
 * The pay-in side of a refund (docs/behaviour.md#refunds): what was collected, what is left, whether
 * it has settled, and the refunded totals, kept where the card refund of docs/api.md reads them
 * (`refunded` on a charge; a pre-authorization's on each capture and its hold, which the card
 * area keeps: `PreauthRefunds`), so neither endpoint can refund more than is left.
 */

/** A charge with what was refunded of it (a plain charge's own; a pre-authorization's is on its ledger). */
type Refundable = ChargeBase & { refunded?: number }

/** A pay-in as a refund sees it, minor units. */
export interface Payin {
  charge: Frozen<Refundable>
  method: string | null
  /** what a refund may return: what the customer paid less the cost they bore (a pre-authorization: what was captured, voided captures aside) */
  collected: number
  refunded: number
  /** what is left to return: less what refunds and chargebacks hold or took (`returnedOf`) */
  left: number
  /** what is left and has settled (a pre-authorization's unsettled captures are not) */
  settledLeft: number
  succeeded: boolean
}

export class Payins {
  readonly #held: PreauthRefunds

  constructor(private readonly kit: Pick<Kit, 'store' | 'clocks' | 'ledger' | 'kinds'>, preauth: PreauthService) {
    this.#held = new PreauthRefunds(kit, preauth)
  }

  /** The pay-in of a payment reference; a checkout's attempt is not one (its checkout is). */
  find(ns: string, paymentReference: string): Payin | undefined {
    const charge = this.#charges(ns).findBy('payment_reference', paymentReference)
    if (!charge || charge.parent) return undefined
    const held = PreauthRefunds.held(charge)
    if (held) {
      const payin = this.#held.payin(ns, held)
      // what chargebacks hold is left of no capture in particular: it caps what the settled ones offer
      const left = payin.collected - returnedOf(charge)
      return { charge, method: this.kit.kinds.methodOf(charge), ...payin, left, settledLeft: Math.min(payin.settledLeft, left) }
    }
    const refunded = charge.refunded ?? 0
    const collected = charge.status === 'success' ? this.kit.kinds.money(ns, charge).refundable : 0
    const left = collected - returnedOf(charge)
    // the one rule of settled (docs/behaviour.md#ledger-and-balances): a card charge's as any other pay-in's
    const settled = this.kit.ledger.settled(ns, 'payin', charge.payment_reference, this.kit.clocks.now(ns))
    return {
      charge,
      method: this.kit.kinds.methodOf(charge),
      collected,
      refunded,
      left,
      settledLeft: settled ? left : 0,
      succeeded: charge.status === 'success',
    }
  }

  /** Counts `amount` as refunded (the caller checked it is left and settled); what it took. */
  take(ns: string, p: Payin, amount: number): RefundPart[] {
    const held = PreauthRefunds.held(p.charge)
    if (held) return this.#held.take(ns, held, amount)
    this.#updateCharge(ns, p.charge.transaction_reference, (c) => {
      c.refunded = (c.refunded ?? 0) + amount
    })
    return []
  }

  /** Counts `amount` as held by a chargeback (the caller checked it is left), or gives it back (negative). */
  dispute(ns: string, transactionReference: string, amount: number): void {
    this.#updateCharge(ns, transactionReference, (c) => {
      c.charged_back = Math.max(0, (c.charged_back ?? 0) + amount)
    })
  }

  /** Gives back what a failed refund took. */
  giveBack(ns: string, paymentReference: string, amount: number, parts: readonly Frozen<RefundPart>[] | undefined): void {
    const charge = this.#charges(ns).findBy('payment_reference', paymentReference)
    if (!charge) return
    const held = PreauthRefunds.held(charge)
    if (held) return this.#held.giveBack(ns, held, amount, parts)
    this.#updateCharge(ns, charge.transaction_reference, (c) => {
      c.refunded = Math.max(0, (c.refunded ?? 0) - amount)
    })
  }

  #charges(ns: string) {
    return this.kit.store.col<Refundable>(ns, CHARGES)
  }

  /** Changes what was refunded of a charge, which is updated now. */
  #updateCharge(ns: string, transactionReference: string, change: (charge: Refundable) => void): void {
    this.#charges(ns).update(transactionReference, (c) => {
      change(c)
      c.updated_at = this.kit.clocks.iso(ns)
    })
  }
}

import type { Kit } from '../engine/kit.js'
import { CHARGES, type ChargeBase } from '../engine/types.js'
import { CARD_OPS, isCard, type CardCharge, type CardOperation, type PreauthLedger } from './types.js'
import type { Frozen } from '../store/frozen.js'
import type { PreauthService } from './preauth.js'

/** What a refund took from each capture of a pre-authorization, to give it back if it fails. */
export interface RefundPart {
  capture: string
  amount: number
}

/** A pre-authorization as a refund sees it, minor units (the fields of the refunds area's `Payin`). */
export interface HeldPayin {
  /** what was captured, voided captures aside */
  collected: number
  refunded: number
  /** what is left of the settled captures (an unsettled one is not refundable yet) */
  settledLeft: number
  succeeded: boolean
}

/**
 * The pre-authorization side of a refund through the refunds API (docs/behaviour.md#preauth-settlement, docs/behaviour.md#refunds),
 * kept by the card area that owns pre-authorizations: a refund takes from the settled captures in
 * order, and what it took of each is counted on the capture (`refunded`) and in total on the
 * hold, where the card refund of docs/api.md reads them too.
 */
export class PreauthRefunds {
  constructor(
    private readonly kit: Pick<Kit, 'store' | 'clocks'>,
    private readonly preauth: PreauthService,
  ) {
  }

  /** The charge as a pre-authorization, when it is one. */
  static held(charge: Frozen<ChargeBase>): Frozen<CardCharge> | undefined {
    return isCard(charge) && (charge as Frozen<CardCharge>).preauth ? (charge as Frozen<CardCharge>) : undefined
  }

  payin(ns: string, card: Frozen<CardCharge>): HeldPayin {
    const live = this.#captures(ns, card)
    const settled = live.filter((op) => this.preauth.isSettled(ns, op))
    return {
      collected: card.preauth!.captured,
      refunded: card.preauth!.refunded,
      settledLeft: settled.reduce((s, op) => s + op.amount - (op.refunded ?? 0), 0),
      succeeded: card.status === 'success' && live.length > 0,
    }
  }

  /** Counts `amount` as refunded (the caller checked it is left and settled); what it took of each capture. */
  take(ns: string, card: Frozen<CardCharge>, amount: number): RefundPart[] {
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
    this.#updateHold(ns, card, (hold) => {
      hold.refunded += amount
    })
    return parts
  }

  /** Gives back what a failed refund took. */
  giveBack(ns: string, card: Frozen<CardCharge>, amount: number, parts: readonly Frozen<RefundPart>[] | undefined): void {
    for (const part of parts ?? []) {
      if (!this.#ops(ns).has(part.capture)) continue
      this.#ops(ns).update(part.capture, (o) => {
        o.refunded = Math.max(0, (o.refunded ?? 0) - part.amount)
      })
    }
    this.#updateHold(ns, card, (hold) => {
      hold.refunded = Math.max(0, hold.refunded - amount)
    })
  }

  #captures(ns: string, card: Frozen<CardCharge>): Frozen<CardOperation>[] {
    return card.preauth!.captures.map((r) => this.#ops(ns).get(r)).filter((op): op is Frozen<CardOperation> => op !== undefined && !op.voided)
  }

  #ops(ns: string) {
    return this.kit.store.col<CardOperation>(ns, CARD_OPS)
  }

  /** Changes the hold's totals; the charge is updated now. */
  #updateHold(ns: string, card: Frozen<CardCharge>, change: (hold: PreauthLedger) => void): void {
    this.kit.store.col<CardCharge>(ns, CHARGES).update(card.transaction_reference, (c) => {
      change(c.preauth!)
      c.updated_at = this.kit.clocks.iso(ns)
    })
  }
}

import type { Snapshot, CarryOver } from '../store/persistence.js'

/**
 * A data file of format 2 carried over to format 3 (docs/behaviour.md#persistence, docs/behaviour.md#checkout): a checkout now
 * keeps what its customer paid through the attempt that paid it (`amount_paid`) and the fee and
 * VAT they bore in it (`cost_borne`). Format 2 answered a paid checkout's `amount_paid` as its
 * amount, the cost the merchant's: that is what it is given, so it reads and refunds as before.
 *
 * The collection name and kind below are format 2's, fixed: they are what old files hold.
 */
export const CHECKOUT_CARRY_OVER: CarryOver = {
  to: 3,
  apply(state: Snapshot): void {
    for (const cols of Object.values(state)) {
      for (const c of Object.values(cols.charges ?? {}) as Record<string, unknown>[]) {
        if (c.kind !== 'checkout' || 'amount_paid' in c) continue
        c.amount_paid = c.status === 'success' ? c.amount : 0
        c.cost_borne = 0
      }
    }
  },
}

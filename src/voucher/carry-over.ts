import type { Snapshot, CarryOver } from '../store/persistence.js'
import { voucherDigest } from './service.js'

/**
 * A data file of format 4 carried over to format 5 (docs/behaviour.md#persistence, docs/behaviour.md#request-journal): format 4 kept a
 * voucher's PIN on its charge (`voucher.pin`) and keyed the redeemed vouchers by it (`{pin,
 * transaction_reference}`). The PIN goes from both; a redeemed voucher is keyed by its digest
 * (`voucherDigest`, with `0001`, the one provider format 4 took), so it stays used. The file is
 * then written whole, without them.
 *
 * The collection names and fields below are format 4's, fixed: they are what old files hold.
 */
export const VOUCHER_PIN_CARRY_OVER: CarryOver = {
  to: 5,
  apply(state: Snapshot): void {
    for (const cols of Object.values(state)) {
      for (const c of Object.values(cols.charges ?? {}) as { kind?: unknown; voucher?: Record<string, unknown> }[]) {
        if (c.kind === 'voucher' && c.voucher && typeof c.voucher === 'object') delete c.voucher.pin
      }
      const redeemed = cols.vouchers_redeemed
      if (!redeemed) continue
      const rekeyed: Record<string, unknown> = {}
      for (const [key, r] of Object.entries(redeemed) as [string, { pin?: unknown; transaction_reference?: unknown }][]) {
        const pin = typeof r?.pin === 'string' ? r.pin : key
        const digest = voucherDigest('0001', pin)
        rekeyed[digest] = { digest, transaction_reference: r?.transaction_reference }
      }
      cols.vouchers_redeemed = rekeyed
    }
  },
}

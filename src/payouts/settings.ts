import { z } from '../zod-messages.js'
import { amount, currencyCode, ident, packSettings, seconds, PACK_LIMITS } from '../scenario/index.js'

/** what `payouts/availability` answers of a bank (docs/behaviour.md#payouts) */
export const PAYOUT_AVAILABILITY = ['available', 'delayed', 'unavailable'] as const

/** The smallest and largest amount of one payout, major units. */
export const payoutLimitSchema = z.object({ min: amount().min(0), max: amount().positive() }).strict()

/**
 * The payouts' settings of a scenario pack (docs/behaviour.md#payouts, `Area.settings`), shown after
 * the opening balance; a later pack adds to the limits, multiples and availability key by key.
 */
export const payoutSettings = packSettings(
  {
    /** a payout stays processing this long before its outcome (docs/behaviour.md#payouts) */
    payout_delay_seconds: seconds(),
    /**
     * per-payout limits: by currency for bank accounts, by operator slug for mobile money (which
     * otherwise takes the operator list's own min and max)
     */
    payout_limits: z.record(z.string().min(1).max(PACK_LIMITS.id), payoutLimitSchema),
    /** a payout's amount in these currencies must be a whole multiple of this (XAF, XOF: 5) */
    payout_multiples: z.record(currencyCode(), z.number().int().min(1).max(1_000_000)),
    /**
     * what `payouts/availability` says of a bank, by bank code (any other: `available`); an
     * `unavailable` bank's payouts fail after the delay (docs/behaviour.md#payouts)
     */
    payout_availability: z.record(ident(), z.enum(PAYOUT_AVAILABILITY)),
  },
  // as scenarios/default.yaml sets them
  {
    payout_delay_seconds: 60,
    payout_limits: { NGN: { min: 1000, max: 10000000 }, KES: { min: 10, max: 85000 }, ZAR: { min: 10, max: 500 } },
    payout_multiples: { XAF: 5, XOF: 5 },
    payout_availability: { '470010': 'delayed', '679000': 'unavailable' },
  },
  { after: 'opening_balance', keyed: ['payout_limits', 'payout_multiples', 'payout_availability'] },
)

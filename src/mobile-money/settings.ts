import { z } from '../zod-messages.js'
import { PACK_LIMITS, packSettings, seconds } from '../scenario/index.js'

/** Mobile money's settings of a scenario pack (docs/behaviour.md#mobile-money-charge, `Area.settings`), shown after the settlement delay. */
export const mobileMoneySettings = packSettings(
  {
    /** an unanswered STK prompt completes by itself after this */
    stk_delay_seconds: seconds(),
    /** wrong OTPs a charge takes before it fails */
    otp_attempts: z.number().int().positive().max(PACK_LIMITS.otpAttempts),
  },
  // as scenarios/default.yaml sets them
  { stk_delay_seconds: 2, otp_attempts: 3 },
  { after: 'settlement_delay_hours' },
)

import { packSettings, seconds } from '../scenario/index.js'

/** The refunds' setting of a scenario pack (`Area.settings`), shown after the opening balance. */
export const refundSettings = packSettings(
  {
    /** a refund stays processing this long before its outcome (docs/behaviour.md#refunds) */
    refund_delay_seconds: seconds(),
  },
  // as scenarios/default.yaml sets it
  { refund_delay_seconds: 60 },
  { after: 'opening_balance' },
)

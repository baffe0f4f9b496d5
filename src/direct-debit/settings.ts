import { packSettings, seconds } from '../scenario/index.js'

/** Direct debit's setting of a scenario pack (docs/behaviour.md#direct-debit, `Area.settings`), shown after mobile money's. */
export const directDebitSettings = packSettings(
  {
    /** a debit completes this long after it is taken */
    debit_delay_seconds: seconds(),
  },
  // as scenarios/default.yaml sets it
  { debit_delay_seconds: 2 },
  { after: 'settlement_delay_hours' },
)

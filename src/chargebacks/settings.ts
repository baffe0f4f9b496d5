import { z } from '../zod-messages.js'
import { hours, packSettings } from '../scenario/index.js'

/** The chargebacks' settings of a scenario pack (docs/behaviour.md#chargebacks, `Area.settings`), shown after the conversion rates. */
export const chargebackSettings = packSettings(
  {
    /** a chargeback not answered this long after it opened is accepted (docs/behaviour.md#chargebacks: 24) */
    chargeback_deadline_hours: hours().positive(),
    /** a declined or partly accepted chargeback is decided this long after the answer ... */
    chargeback_decision_hours: hours().min(0),
    /** ... as this, unless a control call decides it first */
    chargeback_decision: z.enum(['won', 'lost']),
  },
  // as scenarios/default.yaml sets them
  { chargeback_deadline_hours: 24, chargeback_decision_hours: 48, chargeback_decision: 'won' },
  { after: 'conversion_rates' },
)

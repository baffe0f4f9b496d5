import { hours, packSettings } from '../scenario/index.js'

/** The cards' setting of a scenario pack (`Area.settings`), shown after the fees. */
export const cardSettings = packSettings(
  {
    /** a pre-authorization's hold lasts this long (docs/behaviour.md#preauth: `pre_auth_expiry`, 7 days) */
    pre_auth_validity_hours: hours().positive(),
  },
  // as scenarios/default.yaml sets it
  { pre_auth_validity_hours: 168 },
  { after: 'fees' },
)

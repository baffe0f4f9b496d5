import { z } from '../zod-messages.js'
import { PACK_LIMITS, packSettings } from '../scenario/index.js'

/**
 * The bank transfer's settings of a scenario pack (docs/behaviour.md#bank-transfer, `Area.settings`),
 * shown after `transfer_delay_seconds`, which direct debit reads too and so stays shared.
 */
export const bankTransferSettings = packSettings(
  {
    /** a temporary account (and its charge) expires this long after it is issued */
    transfer_account_minutes: z.number().positive().max(PACK_LIMITS.seconds / 60),
    /** what a transfer of the wrong amount does: returned (the live default) or accepted as paid */
    transfer_mismatch: z.enum(['return', 'accept_all']),
  },
  // as scenarios/default.yaml sets them
  { transfer_account_minutes: 30, transfer_mismatch: 'return' },
  { after: 'transfer_delay_seconds' },
)

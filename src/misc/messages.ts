/** The texts of the look-ups alone (docs/behaviour.md 13.5). */
export const MISC_MSG = {
  LISTED: 'Successful',
  RESOLVED: 'Request Completed',
} as const

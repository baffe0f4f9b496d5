/** The texts of the balances area alone (docs/behaviour.md 13.4). */
export const BALANCE_MSG = {
  FUNDED: 'Balance funded',
  HISTORY: 'Balance history retrieved successfully',
} as const

/** The texts of the balances area alone (docs/behaviour.md#ledger-and-balances). */
export const BALANCE_MSG = {
  FUNDED: 'Balance funded',
  HISTORY: 'Balance history retrieved successfully',
} as const

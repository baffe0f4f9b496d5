/** The texts of the virtual bank accounts area alone (docs/behaviour.md 13.3). */
export const VBA_MSG = {
  CREATED: 'Virtual bank account created successfully',
  RETRIEVED: 'Virtual bank account retrieved successfully',
  TRANSACTIONS: 'Virtual bank account transactions retrieved successfully',
  CREDITED: 'Virtual bank account credited successfully',
  NOT_FOUND: 'Virtual bank account not found',
  DUPLICATE: 'Duplicate account reference',
  LIMIT: (n: number) => `Virtual bank account limit of ${n} reached`,
  // a transfer into an account: its description and first history line
  transferFrom: (payer: string) => `Transfer from ${payer}`,
  transferInto: (accountNumber: string) => `transfer into virtual account ${accountNumber}`,
} as const

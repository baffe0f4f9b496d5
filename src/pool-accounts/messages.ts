/** The texts of the pool accounts area alone (docs/behaviour.md#pool-accounts). */
export const POOL_MSG = {
  CREATED: 'Pool account reference has been created successfully',
  RETRIEVED: 'Pool account retrieved successfully',
  CREDITED: 'Pool account has been credited successfully',
  NOT_FOUND: 'Pool account not found',
  DUPLICATE: 'A reference already exists for this customer',
  /** a transfer into the pool: its charge's description (the page's charge query) */
  transferFrom: (payer: string) => `Pool account transfer from ${payer}`,
  transferInto: (reference: string) => `transfer into pool account ${reference}`,
} as const

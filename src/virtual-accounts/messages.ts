/** The texts of the virtual bank accounts area alone (docs/behaviour.md#virtual-accounts). */
export const VBA_MSG = {
  CREATED: 'Virtual bank account created successfully',
  RETRIEVED: 'Virtual bank account retrieved successfully',
  TRANSACTIONS: 'Virtual bank account transactions retrieved successfully',
  CREDITED: 'Virtual bank account credited successfully',
  NOT_FOUND: 'Virtual bank account not found',
  DUPLICATE: 'Duplicate account reference',
  // docs/behaviour.md#virtual-accounts-usd-kes-tzs: upload URLs and account holders
  UPLOAD_URL_CREATED: 'File upload url created successfully',
  /** the sandbox's own answer to a PUT to an upload URL */
  FILE_RECEIVED: 'File received',
  HOLDER_CREATED: 'Virtual account holder creation requested successfully',
  HOLDER_RETRIEVED: 'Virtual account holder retrieved successfully',
  HOLDER_KYC_UPDATED: 'Virtual bank account holder update kyc requested successfully',
  HOLDER_NOT_FOUND: 'Virtual account holder not found',
  NOT_A_FILE: 'must be a korapay_reference from POST /api/v1/files/generate-upload-url',
  LIMIT: (n: number) => `Virtual bank account limit of ${n} reached`,
  // a transfer into an account: its description and first history line
  transferFrom: (payer: string) => `Transfer from ${payer}`,
  transferInto: (accountNumber: string) => `transfer into virtual account ${accountNumber}`,
} as const

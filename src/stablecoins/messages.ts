/**
 * The texts of the stablecoins area (docs/behaviour.md#stablecoin-wallets): the two successes and the reused
 * reference are the service's Postman samples'; no source shows an unknown wallet's text, so that
 * one is the sandbox's own.
 */
export const STABLECOIN_MSG = {
  CREATED: 'Wallet successfully created',
  RETRIEVED: 'Wallet successfully retrieved',
  NOT_FOUND: 'Wallet not found',
  duplicate: (reference: string) => `Wallet with reference ${reference} already exists`,
} as const

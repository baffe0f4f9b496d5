import { MAX_LENGTH, atMost } from '../engine/schemas.js'
import { z } from '../zod-messages.js'

/**
 * docs/behaviour.md#stablecoin-wallets: a customer's stablecoin wallet. The currencies and networks are the
 * Postman collection's (`USDT` or `USDC`; `SOL`, `ETH` or `TRX`); the network may be left out.
 */
export const STABLECOINS = ['USDT', 'USDC'] as const
export const NETWORKS = ['SOL', 'ETH', 'TRX'] as const
/** the network of a wallet whose request names none: the sandbox's own choice (every sample sends SOL) */
export const DEFAULT_NETWORK: (typeof NETWORKS)[number] = 'SOL'

const text = (max: number) => z.string().trim().min(1, 'is required').max(max, atMost(max))

export const walletSchema = z
  .object({
    reference: text(MAX_LENGTH.reference),
    currency: z.enum(STABLECOINS),
    network: z.enum(NETWORKS).optional(),
    customer: z.object({ name: text(MAX_LENGTH.name), email: z.string().email().max(MAX_LENGTH.email, atMost(MAX_LENGTH.email)) }),
  })
  .passthrough()
export type WalletInput = z.infer<typeof walletSchema>

/** The answer (written here: it is built in code, not validated). */
export const walletAnswerSchema = z.object({
  wallet_reference: z.string().describe('`tre-cry-` and 64 hexadecimal digits'),
  reference: z.string().describe("the merchant's reference"),
  address: z.string().describe("the wallet's address on its network: base58 (SOL, TRX `T...`) or `0x` and 40 hexadecimal digits (ETH)"),
  network: z.enum(NETWORKS),
  currency: z.enum(STABLECOINS),
  customer: z.object({ name: z.string(), email: z.string() }),
  status: z.literal('active'),
})

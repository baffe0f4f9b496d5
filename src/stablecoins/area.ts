import type { Kit } from '../engine/kit.js'
import type { Area } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { STABLECOIN_MSG } from './messages.js'
import { walletAnswerSchema, walletSchema } from './schemas.js'
import { StablecoinService, WALLETS, WALLETS_SPEC, walletData, type Wallet } from './service.js'
import { NETWORKS } from './schemas.js'
import { statusOutcomes } from '../engine/outcomes.js'
import { stablecoinsTestValues } from './test-values.js'

type Stablecoins = { stablecoins: StablecoinService }

/** Stablecoin wallets (docs/behaviour.md#stablecoin-wallets). */
export const stablecoinsArea: Area<Stablecoins, Kit> = {
  key: 'stablecoins',
  testValues: stablecoinsTestValues,
  // a wallet made on each network (a wallet receives nothing in the sandbox: no deposit, no event)
  outcomes: statusOutcomes<Wallet>('stablecoin.wallet', WALLETS, NETWORKS, { states: (w) => [w.network], label: (n) => `a wallet made on ${n}` }),
  tags: { stablecoins: "Stablecoin (USDT, USDC) wallets: an address on SOL, ETH or TRX made for the merchant's reference, and read back by it" },
  collections: [WALLETS_SPEC],
  build: (kit) => ({ stablecoins: new StablecoinService(kit) }),
  routes: [
    {
      method: 'post', path: '/merchant/api/v1/crypto/wallets', access: 'secret key', tag: 'stablecoins', operationId: 'createCryptoWallet', summary: "A customer's USDT or USDC wallet on SOL (the default), ETH or TRX (message `Wallet successfully created`)",
      body: { name: 'CryptoWalletRequest', schema: walletSchema }, answer: { name: 'CryptoWallet', schema: walletAnswerSchema },
      description: 'A reference the namespace has used is refused, 409 `Wallet with reference <reference> already exists`.',
      handler: async (c, { stablecoins }) => ok(c, STABLECOIN_MSG.CREATED, walletData(stablecoins.create(c.get('ns'), validate(walletSchema, await readJsonObject(c))))),
    },
    {
      method: 'get', path: '/merchant/api/v1/crypto/wallets/:reference', access: 'secret key', tag: 'stablecoins', operationId: 'getCryptoWallet', summary: "A wallet by the merchant's reference (message `Wallet successfully retrieved`; 404 `Wallet not found`)",
      answer: { name: 'CryptoWallet', schema: walletAnswerSchema },
      handler: (c, { stablecoins }) => ok(c, STABLECOIN_MSG.RETRIEVED, walletData(stablecoins.get(c.get('ns'), c.req.param('reference')!))),
    },
  ],
}

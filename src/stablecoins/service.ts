import type { Kit } from '../engine/kit.js'
import { conflict, notFound } from '../errors.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { OBJECT, STRING, oneOf } from '../store/validate.js'
import { STABLECOIN_MSG } from './messages.js'
import { DEFAULT_NETWORK, NETWORKS, STABLECOINS, type WalletInput } from './schemas.js'

/**
 * Stablecoin wallets (docs/behaviour.md#stablecoin-wallets): an address a customer pays USDT or USDC into,
 * made for the merchant's reference and read back by it. A record of `crypto_wallets`, keyed by
 * that reference; no money moves here.
 */

export const WALLETS = 'crypto_wallets'
const HEX = '0123456789abcdef'
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

export interface Wallet {
  wallet_reference: string
  reference: string
  address: string
  network: (typeof NETWORKS)[number]
  currency: (typeof STABLECOINS)[number]
  customer: { name: string; email: string }
  status: 'active'
  created_at: string
}

export const WALLETS_SPEC: CollectionSpec<Wallet> = {
  name: WALLETS,
  keyOf: 'reference',
  fields: { wallet_reference: STRING, reference: STRING, address: STRING, network: oneOf(NETWORKS), currency: oneOf(STABLECOINS), customer: OBJECT, created_at: STRING },
  // an address and the references are no card's numbers
  asWritten: ['wallet_reference', 'reference', 'address'],
}

export class StablecoinService {
  constructor(private readonly kit: Pick<Kit, 'store' | 'clocks' | 'random'>) {}

  /** POST /crypto/wallets: a new active wallet, or 409 for a reference the namespace has used. */
  create(ns: string, input: WalletInput): Frozen<Wallet> {
    const col = this.kit.store.col<Wallet>(ns, WALLETS)
    if (col.has(input.reference)) throw conflict(STABLECOIN_MSG.duplicate(input.reference))
    const network = input.network ?? DEFAULT_NETWORK
    return col.put(input.reference, {
      wallet_reference: `tre-cry-${this.kit.random.text(ns, HEX, 32)}${this.kit.random.text(ns, HEX, 32)}`,
      reference: input.reference,
      address: this.#address(ns, network),
      network,
      currency: input.currency,
      customer: { name: input.customer.name, email: input.customer.email },
      status: 'active',
      created_at: this.kit.clocks.iso(ns),
    })
  }

  /** GET /crypto/wallets/{reference}: the wallet, or 404. */
  get(ns: string, reference: string): Frozen<Wallet> {
    const wallet = this.kit.store.col<Wallet>(ns, WALLETS).get(reference)
    if (!wallet) throw notFound(STABLECOIN_MSG.NOT_FOUND)
    return wallet
  }

  /** An address as its network writes them: ETH `0x` + 40 hex digits, TRX `T` + 33 base58, SOL 44 base58. */
  #address(ns: string, network: Wallet['network']): string {
    if (network === 'ETH') return `0x${this.kit.random.text(ns, HEX, 20)}${this.kit.random.text(ns, HEX, 20)}`
    if (network === 'TRX') return `T${this.kit.random.text(ns, BASE58, 17)}${this.kit.random.text(ns, BASE58, 16)}`
    return `${this.kit.random.text(ns, BASE58, 22)}${this.kit.random.text(ns, BASE58, 22)}`
  }
}

/** What the answers show of a wallet: all of it but when it was made. */
export function walletData(w: Frozen<Wallet>) {
  return { wallet_reference: w.wallet_reference, reference: w.reference, address: w.address, network: w.network, currency: w.currency, customer: { name: w.customer.name, email: w.customer.email }, status: w.status }
}

import { SANDBOX_PAYER } from '../bank-transfer/index.js'
import type { Kit } from '../engine/kit.js'
import type { LifecycleParts } from '../engine/lifecycle.js'
import { unitIssue } from '../engine/schemas.js'
import type { ChargeBase } from '../engine/types.js'
import { ApiError, invalid, notFound } from '../errors.js'
import { toMajor } from '../money.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { NUMBER, STRING, oneOf } from '../store/validate.js'
import { AccountTransfers, transferEventHead } from '../virtual-accounts/index.js'
import { POOL_MSG } from './messages.js'
import { ACCOUNT_TYPES, POOL_CURRENCIES, sharedAccount, type CreateInput, type CreditInput, type PoolAccountType, type PoolCurrency } from './schemas.js'

/**
 * Pool accounts (docs/behaviour.md#pool-accounts): a customer's reference into Kora's shared account of a
 * currency, one per customer e-mail; every transfer the reference names is a pay-in of its own (a
 * `pool_account` charge), successful at once, credited to the merchant's ledger as any pay-in,
 * announced by charge.success. Its transfers are kept as a virtual account's are
 * (`AccountTransfers`).
 */

export interface PoolAccount {
  /** `SBKP` + 8 characters + the currency (docs/behaviour.md#pool-accounts) */
  reference: string
  customer_name: string
  /** as sent; the duplicate check compares it in lower case (the index) */
  customer_email: string
  currency: PoolCurrency
  account_type: PoolAccountType
  date_created: string
  /** how many transfers it received (each a record of AccountTransfers), and their sum, minor units */
  transfers: number
  total_received: number
}

/** A transfer into a pool account: its own charge. */
export interface PoolAccountCharge extends ChargeBase {
  kind: 'pool_account'
  pool_account: { pool_account_reference: string; account_type: PoolAccountType }
  payer_details: { payer_name: string; payer_account_number: string }
}

export const POOL_ACCOUNTS = 'pool_accounts'
export const POOL_ACCOUNTS_SPEC: CollectionSpec<PoolAccount> = {
  name: POOL_ACCOUNTS,
  indexes: { customer_email: (a) => a.customer_email.toLowerCase() },
  fields: { reference: STRING, customer_name: STRING, customer_email: STRING, currency: oneOf(POOL_CURRENCIES), account_type: oneOf(ACCOUNT_TYPES), date_created: STRING, transfers: NUMBER, total_received: NUMBER },
  asWritten: ['reference'],
}

const REF_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
/** the merchant prefix of a sandbox's pool references (the live service's is the merchant's) */
const MERCHANT_PREFIX = 'SB'

/** A time as the service reads it back: to the second (`...:55.000Z`, the collection's samples). */
const readBack = (iso: string) => `${iso.slice(0, 19)}.000Z`

export class PoolAccountService {
  readonly kind = 'pool_account'
  readonly #transfers: AccountTransfers<PoolAccountCharge>

  constructor(private readonly kit: Pick<Kit, LifecycleParts>) {
    this.#transfers = new AccountTransfers<PoolAccountCharge>(kit, 'pool_account', 'PA', (charge) => this.eventData(charge))
  }

  col(ns: string) {
    return this.kit.store.col<PoolAccount>(ns, POOL_ACCOUNTS)
  }

  /** A new reference for a customer e-mail the namespace has none for (409 with the existing one otherwise). */
  create(ns: string, o: CreateInput): Frozen<PoolAccount> {
    const col = this.col(ns)
    const existing = col.findBy('customer_email', o.customer_email.toLowerCase())
    if (existing) throw new ApiError(409, POOL_MSG.DUPLICATE, this.createData(existing, true))
    let reference: string
    do reference = `${MERCHANT_PREFIX}KP${this.kit.random.text(ns, REF_ALPHABET, 8)}${o.currency}`
    while (col.has(reference))
    return col.put(reference, {
      reference,
      customer_name: o.customer_name,
      customer_email: o.customer_email,
      currency: o.currency,
      account_type: o.account_type ?? 'bank_account',
      date_created: this.kit.clocks.iso(ns),
      transfers: 0,
      total_received: 0,
    })
  }

  /** The pool account with this reference (404 otherwise). */
  get(ns: string, reference: string): Frozen<PoolAccount> {
    const pool = this.col(ns).get(reference)
    if (!pool) throw notFound(POOL_MSG.NOT_FOUND)
    return pool
  }

  /** Every pool account of the namespace, oldest first (the dashboard). */
  list(ns: string): Frozen<PoolAccount>[] {
    return [...this.col(ns).values()]
  }

  /**
   * The test environment's credit call: `amount` (minor units) arrives for the reference, in its
   * currency, as a transfer from its customer: a pay-in, successful at once.
   */
  credit(ns: string, o: CreditInput): Frozen<PoolAccountCharge> {
    const pool = this.get(ns, o.reference)
    if (o.currency !== pool.currency) throw invalid({ currency: `must be ${pool.currency}, the pool account's currency` })
    const unit = unitIssue(o.currency, o.amount)
    if (unit) throw invalid({ amount: unit })
    return this.#transfers.receive(
      ns,
      { amount: o.amount, currency: pool.currency, description: POOL_MSG.transferFrom(pool.customer_name), customer: { name: pool.customer_name, email: pool.customer_email }, created: POOL_MSG.transferInto(pool.reference) },
      {
        pool_account: { pool_account_reference: pool.reference, account_type: pool.account_type },
        payer_details: { payer_name: pool.customer_name, payer_account_number: SANDBOX_PAYER.account_number },
      },
      { col: this.col(ns), key: pool.reference, listKey: pool.reference },
    )
  }

  /** The pool's newest transfers, newest first (the dashboard's settlement history). */
  newestTransfers(ns: string, pool: Frozen<PoolAccount>, limit: number): Frozen<PoolAccountCharge>[] {
    return this.#transfers.page(ns, pool.reference, pool.transfers, 1, limit)
  }


  /** The create answer (and the duplicate's `data`, `readBack`: its time to the second, as the samples). */
  createData(p: Frozen<PoolAccount>, readBackTime = false) {
    return {
      reference: p.reference,
      customer_name: p.customer_name,
      customer_email: p.customer_email,
      currency: p.currency,
      date_created: readBackTime ? readBack(p.date_created) : p.date_created,
      account_details: sharedAccount(p.account_type, p.currency, 'answer'),
    }
  }

  /** The get answer: the collection's newer sample, `created_at` for `date_created`. */
  readData(p: Frozen<PoolAccount>) {
    return { reference: p.reference, customer_name: p.customer_name, customer_email: p.customer_email, currency: p.currency, account_details: sharedAccount(p.account_type, p.currency, 'read'), created_at: readBack(p.date_created) }
  }

  /** The credit call's answer. */
  creditData(c: Frozen<PoolAccountCharge>) {
    return { currency: c.currency, amount_paid: toMajor(c.amount), transaction_reference: c.transaction_reference, transaction_date: c.created_at }
  }

  /** What the charge query adds for a transfer into a pool account (the page's sample). */
  queryExtras(charge: Frozen<PoolAccountCharge>): Record<string, unknown> {
    const p = charge.pool_account
    return {
      pool_account: {
        pool_account_reference: p.pool_account_reference,
        account_details: sharedAccount(p.account_type, charge.currency, 'query'),
        payer_details: charge.payer_details,
      },
    }
  }

  /** docs/behaviour.md#pool-accounts: the charge.success `data` of a transfer into a pool account, in the page's order. */
  eventData(charge: PoolAccountCharge): Record<string, unknown> {
    const p = charge.pool_account
    return {
      ...transferEventHead(charge),
      payment_method: 'pool_account',
      payment_reference: charge.payment_reference,
      pool_account: {
        payer_details: charge.payer_details,
        pool_account_reference: p.pool_account_reference,
        account_details: sharedAccount(p.account_type, charge.currency, 'answer'),
      },
      transaction_date: charge.created_at,
    }
  }
}

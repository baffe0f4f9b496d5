import type { Kit } from '../engine/kit.js'
import { ChargeLifecycle, type LifecycleParts, type NewCharge } from '../engine/lifecycle.js'
import { CHARGES, type ChargeBase } from '../engine/types.js'
import { MSG } from '../messages.js'
import { toMajor } from '../money.js'
import type { Collection, CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import type { Store } from '../store/store.js'
import { STRING } from '../store/validate.js'

/**
 * The transfers into an account that takes them again and again (a virtual account's, docs/behaviour.md#virtual-accounts; a
 * pool account's, docs/behaviour.md#pool-accounts): the n-th transfer into account `a` (from 1) is a record of its own,
 * key `<a>#<n>`, holding its charge's transaction reference. A record per transfer, not a list on
 * the account: a credit writes a few bytes, however many transfers the account already has, and
 * a page is read without the others. The account keeps their count (`transfers`).
 * Both kinds of account take a transfer the same way (`receive`): a pay-in, successful at once,
 * charged by the bank transfer's fee rule (docs/behaviour.md#pool-accounts: the merchant bearing it).
 */
export interface AccountTransfer {
  tx: string
}
export const VBA_TRANSFERS = 'vba_transfers'
export const VBA_TRANSFERS_SPEC: CollectionSpec<AccountTransfer> = { name: VBA_TRANSFERS, fields: { tx: STRING }, asWritten: ['tx'] }
/** The first keys of a transfer's charge.success `data`, as both kinds of account write them: its one reference as `reference`. */
export const transferEventHead = (charge: ChargeBase) => ({ fee: toMajor(charge.fee), amount: toMajor(charge.amount), status: charge.status, currency: charge.currency, reference: charge.transaction_reference })

const transferKey = (account: string, n: number) => `${account}#${n}`

export class AccountTransfers<C extends ChargeBase> {
  readonly #store: Store
  readonly #charges: ChargeLifecycle<C>

  /** `kind` and `prefix`: the account's charges'; `eventData`: their charge.success `data`. */
  constructor(kit: Pick<Kit, LifecycleParts>, kind: C['kind'], prefix: string, eventData: (charge: C) => Record<string, unknown>) {
    this.#store = kit.store
    this.#charges = new ChargeLifecycle<C>(kit, { kind, prefix, attempt: null, fees: 'bank_transfer', succeeded: MSG.TRANSFER_RECEIVED, eventData })
  }

  /**
   * A transfer in: its charge (the charge's one reference is both of its references, `extras` what
   * the account's kind adds) succeeds and is saved, the account (`key` of `col`) counts it and its
   * sum, and it is kept as the account's newest transfer (`listKey`: how the account names its
   * transfers). Returns the stored charge.
   */
  receive<A extends { transfers: number; total_received: number }>(
    ns: string,
    t: Pick<NewCharge, 'amount' | 'currency' | 'description' | 'customer' | 'created'>,
    extras: Omit<C, keyof ChargeBase>,
    account: { col: Collection<A>; key: string; listKey: string },
  ): Frozen<C> {
    const base = this.#charges.create(ns, {
      payment_reference: '',
      amount: t.amount,
      currency: t.currency,
      description: t.description,
      customer: t.customer,
      response_message: MSG.TRANSFER_RECEIVED,
      created: t.created,
    })
    const charge = Object.assign(base, { payment_reference: base.transaction_reference }, extras) as C
    this.#charges.succeed(ns, charge)
    const stored = this.#charges.save(ns, charge)
    const counted = account.col.update(account.key, (a) => {
      a.transfers += 1
      a.total_received += charge.amount
    })
    this.record(ns, account.listKey, counted.transfers, charge.transaction_reference)
    return stored
  }

  /** Keeps the `n`-th transfer into `account`: the charge `tx`. */
  record(ns: string, account: string, n: number, tx: string): void {
    this.#store.col<AccountTransfer>(ns, VBA_TRANSFERS).put(transferKey(account, n), { tx })
  }

  /** The charge of the `n`-th transfer into `account`. */
  nth(ns: string, account: string, n: number): Frozen<C> | undefined {
    const t = this.#store.col<AccountTransfer>(ns, VBA_TRANSFERS).get(transferKey(account, n))
    return t ? this.#store.col<C>(ns, CHARGES).get(t.tx) : undefined
  }

  /** The charges of the newest transfers of `count`, newest first: page `page` of `limit`. */
  page(ns: string, account: string, count: number, page: number, limit: number): Frozen<C>[] {
    const items: Frozen<C>[] = []
    for (let n = count - (page - 1) * limit; n > Math.max(0, count - page * limit); n--) {
      const c = this.nth(ns, account, n)
      if (c) items.push(c)
    }
    return items
  }
}

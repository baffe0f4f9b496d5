import { createHash } from 'node:crypto'
import { SANDBOX_PAYER, type BankTransferService } from '../bank-transfer/index.js'
import type { Kit } from '../engine/kit.js'
import { newTransactionReference, type LifecycleParts } from '../engine/lifecycle.js'
import type { ChargeBase } from '../engine/types.js'
import { ApiError, badRequest, invalid } from '../errors.js'
import { toDecimalString, toMajor } from '../money.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { NUMBER, OBJECT, STRING, maybe, oneOf } from '../store/validate.js'
import { VBA_MSG } from './messages.js'
import { AccountTransfers, transferEventHead } from './transfers.js'
import type { AccountHolder } from './holders.js'
import { CHOICE_BANK, PAGE_LIMIT, USD_BANK, VBA_CURRENCIES, bankName, type CreateInput, type OtherCreateInput, type TransactionsQuery, type UsdCreateInput, type VbaCurrency } from './schemas.js'

/**
 * Virtual bank accounts (docs/behaviour.md#virtual-accounts): a customer's permanent NGN account, opened once
 * per account reference; every transfer into it is a pay-in of its own (a `virtual_account`
 * charge, paid by bank transfer), successful at once, announced by charge.success. The test
 * environment's credit call also pays the temporary accounts of bank-transfer charges
 * (docs/behaviour.md#bank-transfer), which their own service handles.
 */

export interface VirtualAccount {
  account_reference: string
  /** a USD account's: its holder's name (answered as null, as the collection's sample) */
  account_name: string
  /** ten digits (a USD account's: twelve), from the namespace and the reference (docs/behaviour.md#virtual-accounts) */
  account_number: string
  /** none for the accounts of other currencies than NGN */
  bank_code: string | null
  bank_name: string
  /** the service's own id of the account */
  unique_id: string
  account_status: 'active'
  permanent: true
  currency: VbaCurrency
  customer: { name: string; email?: string }
  /** an NGN account's, kept as sent, never answered */
  kyc?: { bvn: string; nin?: string }
  /** a USD account's holder (docs/behaviour.md#virtual-accounts-usd-kes-tzs) */
  holder?: string
  created_at: string
  /** how many transfers it received (each one a record of VBA_TRANSFERS), and their sum, minor units */
  transfers: number
  total_received: number
}

/** A transfer into a virtual account: its own charge. */
export interface VirtualAccountCharge extends ChargeBase {
  kind: 'virtual_account'
  virtual_bank_account: Pick<VirtualAccount, 'account_name' | 'account_number' | 'account_reference' | 'bank_name' | 'bank_code'>
  transaction_narration: string
  payer_bank_account: typeof SANDBOX_PAYER
}

/** docs/behaviour.md#virtual-accounts: the area's refusals as the collection's samples write them, `code: null` and `data: {}` */
const refusal = (status: 404 | 409, message: string) => new ApiError(status, message, {}, undefined, null)

export const VIRTUAL_ACCOUNTS = 'virtual_accounts'
export const VIRTUAL_ACCOUNTS_SPEC: CollectionSpec<VirtualAccount> = {
  name: VIRTUAL_ACCOUNTS,
  indexes: { account_number: (a) => a.account_number },
  fields: { account_number: STRING, account_name: STRING, account_reference: STRING, bank_code: maybe(STRING), currency: oneOf(VBA_CURRENCIES), created_at: STRING, customer: OBJECT, transfers: NUMBER, total_received: NUMBER },
  asWritten: ['account_number', 'account_reference'],
}


/** The payer's account number as the service's events show it: all but the last four digits hidden. */
const masked = (n: string) => `${'*'.repeat(Math.max(0, n.length - 4))}${n.slice(-4)}`

export class VirtualAccountService {
  readonly #transfers: AccountTransfers<VirtualAccountCharge>

  constructor(
    private readonly kit: Pick<Kit, LifecycleParts | 'config'>,
    private readonly bankTransfer: BankTransferService,
  ) {
    this.#transfers = new AccountTransfers<VirtualAccountCharge>(kit, 'virtual_account', 'PAY', (charge) => this.eventData(charge))
  }

  col(ns: string) {
    return this.kit.store.col<VirtualAccount>(ns, VIRTUAL_ACCOUNTS)
  }

  /** A new permanent NGN account: its reference new in the namespace, within the namespace's limit. */
  create(ns: string, o: CreateInput): Frozen<VirtualAccount> {
    return this.#open(ns, {
      account_reference: o.account_reference,
      account_name: o.account_name,
      bank_code: o.bank_code,
      bank_name: bankName(o.bank_code),
      currency: 'NGN',
      customer: o.customer.email ? { name: o.customer.name, email: o.customer.email } : { name: o.customer.name },
      kyc: o.kyc.nin ? { bvn: o.kyc.bvn, nin: o.kyc.nin } : { bvn: o.kyc.bvn },
    })
  }

  /** docs/behaviour.md#virtual-accounts-usd-kes-tzs: a holder's USD account (`holder`: the account holder, read by the route). */
  createUsd(ns: string, o: UsdCreateInput, holder: Frozen<AccountHolder>): Frozen<VirtualAccount> {
    const name = `${holder.first_name} ${holder.last_name}`
    return this.#open(ns, { account_reference: o.account_reference, account_name: name, bank_code: null, bank_name: USD_BANK.bank_name, currency: 'USD', customer: { name, email: holder.email }, holder: holder.reference })
  }

  /** docs/behaviour.md#virtual-accounts-usd-kes-tzs: a KES or TZS account, at Choice Bank. */
  createOther(ns: string, o: OtherCreateInput): Frozen<VirtualAccount> {
    const customer = o.customer.email ? { name: o.customer.name, email: o.customer.email } : { name: o.customer.name }
    return this.#open(ns, { account_reference: o.account_reference, account_name: o.account_name, bank_code: null, bank_name: CHOICE_BANK, currency: o.currency, customer })
  }

  #open(ns: string, o: Pick<VirtualAccount, 'account_reference' | 'account_name' | 'bank_code' | 'bank_name' | 'currency' | 'customer' | 'kyc' | 'holder'>): Frozen<VirtualAccount> {
    const col = this.col(ns)
    if (col.has(o.account_reference)) throw refusal(409, VBA_MSG.DUPLICATE)
    // the accounts a namespace may open (docs/behaviour.md#virtual-accounts)
    const limit = this.kit.config.maxVirtualAccounts
    if (col.size >= limit) throw badRequest(VBA_MSG.LIMIT(limit))
    const account: VirtualAccount = {
      ...o,
      account_number: this.#accountNumber(ns, o.account_reference, o.currency === 'USD' ? 12 : 10),
      unique_id: newTransactionReference(this.kit.random, ns, 'VBA'),
      account_status: 'active',
      permanent: true,
      created_at: this.kit.clocks.iso(ns),
      transfers: 0,
      total_received: 0,
    }
    if (!o.kyc) delete account.kyc
    if (!o.holder) delete account.holder
    return col.put(account.account_reference, account)
  }

  /** The account with this reference (404 otherwise). */
  get(ns: string, reference: string): Frozen<VirtualAccount> {
    const account = this.col(ns).get(reference)
    if (!account) throw refusal(404, VBA_MSG.NOT_FOUND)
    return account
  }

  byNumber(ns: string, accountNumber: string): Frozen<VirtualAccount> | undefined {
    return this.col(ns).findBy('account_number', accountNumber)
  }

  /** Every account of the namespace, oldest first (the dashboard). */
  list(ns: string): Frozen<VirtualAccount>[] {
    return [...this.col(ns).values()]
  }

  /**
   * The test environment's credit call: `amount` (minor units) arrives at a virtual account, or at
   * a bank-transfer charge's temporary account (exact, over, under; refused once expired: docs/behaviour.md#bank-transfer);
   * 404 `Account not found` for any other number.
   */
  credit(ns: string, accountNumber: string, amount: number, currency: string): void {
    const account = this.byNumber(ns, accountNumber)
    // an unknown number is 404 whatever the currency (bankTransfer.creditAccount says so)
    const expected = account?.currency ?? (this.bankTransfer.byAccount(ns, accountNumber) ? 'NGN' : currency)
    if (currency !== expected) throw invalid({ currency: `must be ${expected}, the account's currency` })
    if (account) this.receive(ns, account, amount)
    else this.bankTransfer.creditAccount(ns, accountNumber, amount)
  }

  /** A transfer of `amount` (minor units) into the account: a pay-in, successful at once. */
  receive(ns: string, account: Frozen<VirtualAccount>, amount: number): Frozen<VirtualAccountCharge> {
    const narration = VBA_MSG.transferFrom(SANDBOX_PAYER.account_name)
    // docs/behaviour.md#virtual-accounts: the charge's one reference (KPY-PAY-...) is both of its references
    const transfer = { amount, currency: account.currency, description: narration, customer: account.customer, created: VBA_MSG.transferInto(account.account_number) }
    return this.#transfers.receive(ns, transfer, {
      virtual_bank_account: {
        account_name: account.account_name,
        account_number: account.account_number,
        account_reference: account.account_reference,
        bank_name: account.bank_name,
        bank_code: account.bank_code,
      },
      transaction_narration: narration,
      payer_bank_account: SANDBOX_PAYER,
    }, { col: this.col(ns), key: account.account_reference, listKey: account.account_number })
  }

  /** docs/behaviour.md#virtual-accounts: the account's transfers, newest first, filtered by date and paged, with their count and sum. */
  transfers(ns: string, q: TransactionsQuery) {
    const account = this.byNumber(ns, q.account_number)
    if (!account) throw refusal(404, VBA_MSG.NOT_FOUND)
    const nth = (n: number) => this.#transfers.nth(ns, account.account_number, n)
    const limit = q.limit ?? PAGE_LIMIT.default
    const page = q.page ?? 1
    let items: Frozen<VirtualAccountCharge>[] = []
    let count: number
    let total: number
    if (!q.start_date && !q.end_date) {
      // every transfer: the page's alone are read
      count = account.transfers
      total = account.total_received
      items = this.#transfers.page(ns, account.account_number, count, page, limit)
    } else {
      const matched: Frozen<VirtualAccountCharge>[] = []
      for (let n = account.transfers; n >= 1; n--) {
        const c = nth(n)
        if (!c) continue
        const day = c.created_at.slice(0, 10)
        if ((q.start_date && day < q.start_date) || (q.end_date && day > q.end_date)) continue
        matched.push(c)
      }
      count = matched.length
      total = matched.reduce((sum, c) => sum + c.amount, 0)
      items = matched.slice((page - 1) * limit, page * limit)
    }
    return { account, items, count, total, page, limit }
  }

  /**
   * The transactions list (docs/behaviour.md#virtual-accounts), written as each currency's newest source
   * writes it: a USD list as the collection's USD sample (`total_amount_received`, each transfer's
   * `transaction_date`); every other as the NGN page of 2026-07-30, which outranks the
   * collection's older NGN sample (CONTRACT 15): `total_amount_recieved`, no date per transfer.
   */
  transactions(ns: string, q: TransactionsQuery) {
    const { account, items, count, total, page, limit } = this.transfers(ns, q)
    const usd = account.currency === 'USD'
    return {
      ...(usd ? { total_amount_received: toMajor(total) } : { total_amount_recieved: toMajor(total) }),
      account_number: account.account_number,
      currency: account.currency,
      transactions: items.map((c) => ({
        reference: c.transaction_reference,
        status: c.status,
        amount: toDecimalString(c.amount),
        fee: toDecimalString(c.fee),
        currency: c.currency,
        description: c.description,
        ...(usd ? { transaction_date: c.created_at } : {}),
        payer_bank_account: { account_number: c.payer_bank_account.account_number, account_name: c.payer_bank_account.account_name, bank_name: c.payer_bank_account.bank_name },
      })),
      pagination: { page, total: count, pageCount: items.length, totalPages: Math.ceil(count / limit) },
    }
  }

  /** What the charge query adds for a transfer into a virtual account (docs/behaviour.md#virtual-accounts). */
  queryExtras(charge: Frozen<VirtualAccountCharge>): Record<string, unknown> {
    const v = charge.virtual_bank_account
    return {
      virtual_bank_account: {
        account_number: v.account_number,
        account_name: v.account_name,
        account_reference: v.account_reference,
        transaction_narration: charge.transaction_narration,
        payer_bank_account: charge.payer_bank_account,
      },
    }
  }

  /**
   * docs/behaviour.md#virtual-accounts: the charge.success `data` of a transfer into a virtual account, its
   * keys in the order of the documentation's Webhooks page (docs/behaviour.md#webhook-payloads), then the sandbox's own.
   */
  eventData(charge: VirtualAccountCharge): Record<string, unknown> {
    const v = charge.virtual_bank_account
    const payer = charge.payer_bank_account
    return {
      ...transferEventHead(charge),
      transaction_date: charge.created_at,
      payment_reference: charge.payment_reference,
      virtual_bank_account_details: {
        payer_bank_account: { bank_name: payer.bank_name, account_name: payer.account_name, account_number: masked(payer.account_number) },
        virtual_bank_account: { bank_name: v.bank_name, permanent: true, account_name: v.account_name, account_number: v.account_number, account_reference: v.account_reference },
      },
      payment_method: 'bank_transfer',
      transaction_reference: charge.transaction_reference,
      metadata: null,
    }
  }

  /**
   * Ten digits from the namespace and the reference, so the same reference gets the same number in
   * a fresh namespace; a number another account of the namespace has (a virtual one, or a
   * temporary one: those start with 8, these with 7) moves on to the next hash.
   */
  #accountNumber(ns: string, reference: string, digits: 10 | 12): string {
    for (let i = 0; ; i++) {
      const h = createHash('sha256').update(`${ns}\u0000${reference}\u0000${i}`).digest()
      const n = `7${(h.readBigUInt64BE(0) % 10n ** BigInt(digits - 1)).toString().padStart(digits - 1, '0')}`
      if (!this.byNumber(ns, n) && !this.bankTransfer.byAccount(ns, n)) return n
    }
  }
}

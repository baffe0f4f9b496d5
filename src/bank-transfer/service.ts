import type { Kit } from '../engine/kit.js'
import { DIGITS } from '../random.js'
import { ChargeLifecycle, narrationOr, requested, requireProcessing, type LifecycleParts } from '../engine/lifecycle.js'
import { CHARGES, type ChargeBase } from '../engine/types.js'
import { conflict, notFound } from '../errors.js'
import { MSG } from '../messages.js'
import { customerCost, payinMoney, toDecimalString, toMajor } from '../money.js'
import { copyOf, type Frozen } from '../store/frozen.js'
import { TRANSFER_MSG } from './messages.js'
import { isoAt } from '../time.js'
import { bankTransferSettings } from './settings.js'

/** The kind of its charges, named here only. */
const KIND = 'bank_transfer'

/**
 * Bank transfer pay-in (docs/behaviour.md#bank-transfer): the customer is shown a temporary account; the
 * charge completes when a transfer to it arrives (the sandbox is told so: a control call, the
 * checkout page's button, or by itself on the namespace clock), with the amount sent: exact, over
 * (the excess is returned, the charge succeeds) or under (all of it is returned, the charge stays
 * processing). The account expires with the charge.
 */

const COMPLETE = 'bank_transfer.complete'

/** the bank the sandbox's temporary accounts are held at */
export const TRANSFER_BANK = { bank_name: 'wema', bank_code: '035' }
/** who a transfer in the sandbox comes from (the live test environment's payer) */
export const SANDBOX_PAYER = { account_name: 'SANDBOX ACCOUNT', account_number: '0000000000', bank_name: 'KORA SANDBOX' }
/** the payer as the charge query shows it: its number masked to the last four, `******2468` in the sample */
const MASKED_PAYER = { account_number: `******${SANDBOX_PAYER.account_number.slice(-4)}`, account_name: SANDBOX_PAYER.account_name, bank_name: SANDBOX_PAYER.bank_name }


/** What arrives by itself of a transfer whose pack entry says `how` (docs/behaviour.md#bank-transfer). */
function arrival(how: 'exact' | 'short' | 'over' | 'never', expected: number): number {
  if (how === 'short') return Math.floor(expected / 2)
  if (how === 'over') return expected + Math.max(100, Math.round(expected / 10))
  return expected
}

/** One transfer that arrived, and what became of it. */
export interface Transfer {
  at: string
  amount: number
  payment_event: 'exact' | 'overpayment' | 'underpayment'
  /** what was sent back to the payer, if anything */
  reversal: { status: 'success'; amount: number; destination: 'customer'; currency: string } | null
}

export interface BankTransferCharge extends ChargeBase {
  kind: 'bank_transfer'
  bank_account: { account_name: string; account_number: string; bank_name: string; bank_code: string; expiry_date_in_utc: string }
  /** what the customer must send: the amount, plus the fee unless the merchant bears it */
  amount_expected: number
  /** the last transfer's amount, and what of it was kept */
  amount_paid: number
  amount_accepted: number
  merchant_bears_cost: boolean
  notification_url: string | null
  transfers: Transfer[]
  /** what arrives by itself (minor units; the pack's transfers by amount), when its timer fires */
  arrives_with: number
  /** the timer that completes it by itself, until the charge ends or its checkout does */
  auto_timer: string | null
}

export interface NewTransfer {
  reference: string
  /** minor units */
  amount: number
  currency: string
  customer: { email: string; name?: string }
  narration?: string | null
  account_name: string
  notification_url?: string | null
  merchant_bears_cost?: boolean
  metadata?: Record<string, unknown>
  /** false: only a credit completes it (docs/behaviour.md#bank-transfer) */
  auto_complete?: boolean
  parent?: string
}

export class BankTransferService {
  readonly #charges: ChargeLifecycle<BankTransferCharge>
  /** its kind, declared to the lifecycle above and to the kinds by `servedBy` */
  readonly kind = KIND

  constructor(private readonly kit: Pick<Kit, LifecycleParts | 'namespaces'>) {
    this.#charges = new ChargeLifecycle<BankTransferCharge>(kit, {
      kind: KIND,
      prefix: 'BT',
      succeeded: MSG.TRANSFER_RECEIVED,
      duplicateCode: MSG.DUPLICATE_REFERENCE_CODE,
      onSuccess: (ns, charge) => this.stopAutoComplete(ns, charge),
      onFailure: (ns, charge) => this.stopAutoComplete(ns, charge),
      expired: TRANSFER_MSG.EXPIRED,
      onExpire: (ns, charge) => this.stopAutoComplete(ns, charge),
    })
    this.kit.clocks.on(COMPLETE, (ns, p: { tx: string }) => {
      const charge = this.#charges.live(ns, p.tx)
      if (charge) this.#arrive(ns, charge, charge.arrives_with)
    })
  }

  /** A new charge with its temporary account, processing until a transfer arrives. */
  create(ns: string, o: NewTransfer): BankTransferCharge {
    const base = this.#charges.create(ns, requested(o, narrationOr(o.narration, this.kit.namespaces.get(ns)?.name), TRANSFER_MSG.WAITING, TRANSFER_MSG.ACCOUNT_ISSUED, o.parent))
    const bears = o.merchant_bears_cost ?? false
    const active = this.kit.scenarios.forNs(ns)
    const settings = active.settings
    const plan = active.transfer(base.amount)
    const expires = this.kit.clocks.now(ns) + Math.round(bankTransferSettings.of(active).transfer_account_minutes * 60_000)
    const expected = base.amount + customerCost(base.fee, base.vat, bears, 'fee')
    const charge: BankTransferCharge = Object.assign(base, {
      bank_account: {
        account_name: o.account_name,
        account_number: this.#newAccountNumber(ns),
        ...TRANSFER_BANK,
        expiry_date_in_utc: isoAt(expires),
      },
      amount_expected: expected,
      arrives_with: arrival(plan?.arrives ?? 'exact', expected),
      amount_paid: 0,
      amount_accepted: 0,
      merchant_bears_cost: bears,
      notification_url: o.notification_url ?? null,
      transfers: [],
      auto_timer: null as string | null,
    })
    const tx = { tx: charge.transaction_reference }
    if (o.auto_complete !== false && plan?.arrives !== 'never') {
      charge.auto_timer = this.kit.clocks.schedule(ns, (plan?.after_seconds ?? settings.transfer_delay_seconds) * 1000, COMPLETE, tx)
    }
    this.#charges.expireAt(ns, charge, expires)
    this.#charges.save(ns, charge)
    return charge
  }

  /** The charge with this transaction or payment reference. */
  find(ns: string, reference: string): Frozen<BankTransferCharge> | undefined {
    return this.#charges.find(ns, reference)
  }

  /** The charge whose temporary account has this number. */
  byAccount(ns: string, accountNumber: string): Frozen<BankTransferCharge> | undefined {
    const c = this.kit.store.col<ChargeBase>(ns, CHARGES).findBy('account_number', accountNumber)
    return c?.kind === KIND ? (c as Frozen<BankTransferCharge>) : undefined
  }

  /**
   * A transfer of `amount` (minor units; the expected amount when absent) arrived at the charge's
   * account. Refused when the charge is over: its account no longer takes money.
   */
  credit(ns: string, charge: Frozen<BankTransferCharge>, amount?: number): Frozen<BankTransferCharge> {
    if (charge.status === 'expired') throw conflict(TRANSFER_MSG.ACCOUNT_EXPIRED)
    requireProcessing(charge)
    return this.#arrive(ns, copyOf<BankTransferCharge>(charge), amount ?? charge.amount_expected)
  }

  /**
   * No transfer arrives by itself any more (its checkout ended: docs/behaviour.md#bank-transfer); the
   * account still takes one until it expires. The caller saves the charge.
   */
  stopAutoComplete(ns: string, charge: BankTransferCharge): void {
    if (!charge.auto_timer) return
    this.kit.clocks.cancel(ns, charge.auto_timer)
    charge.auto_timer = null
  }

  /** `stopAutoComplete` of a stored charge, saved: its checkout ended while it was under way (its channel's `stop`). */
  stopAutoCompleteOf(ns: string, reference: string): void {
    this.kit.store.col<BankTransferCharge>(ns, CHARGES).update(reference, (draft) => this.stopAutoComplete(ns, draft))
  }

  /** By account number, for the control call and the credit endpoint. */
  creditAccount(ns: string, accountNumber: string, amount?: number): Frozen<BankTransferCharge> {
    const charge = this.byAccount(ns, accountNumber)
    if (!charge) throw notFound(TRANSFER_MSG.ACCOUNT_NOT_FOUND)
    return this.credit(ns, charge, amount)
  }

  /** Control: finish it now (a transfer of the expected amount, or a failure with `message`). */
  complete(ns: string, reference: string, outcome: 'success' | 'failed', message?: string): Frozen<BankTransferCharge> {
    const charge = this.#charges.pending(ns, reference)
    if (outcome === 'success') return this.#arrive(ns, charge, charge.amount_expected)
    this.#charges.fail(ns, charge, message ?? MSG.TRY_AGAIN, MSG.BY_CONTROL_CALL)
    return this.#charges.save(ns, charge)
  }

  /**
   * What the customer paid for a charge that succeeded (docs/behaviour.md#bank-transfer): what was kept of
   * the transfer; of it, the fee the customer bore when the amount expected was kept, nothing when
   * a different amount was kept whole (`accept_all`: the merchant bears the fee).
   */
  paid(charge: Frozen<BankTransferCharge>): { paid: number; borne: number } {
    const kept = charge.amount_accepted
    return { paid: kept, borne: kept === charge.amount_expected ? charge.amount_expected - charge.amount : 0 }
  }

  /** docs/behaviour.md#bank-transfer: the `data` of the charge's response. */
  responseData(charge: BankTransferCharge) {
    return {
      currency: charge.currency,
      amount: toMajor(charge.amount),
      amount_expected: toMajor(charge.amount_expected),
      fee: toMajor(charge.fee),
      vat: toMajor(charge.vat),
      reference: charge.payment_reference,
      payment_reference: charge.payment_reference,
      status: charge.status,
      narration: charge.description ?? '',
      merchant_bears_cost: charge.merchant_bears_cost,
      bank_account: charge.bank_account,
      customer: { name: charge.customer?.name ?? null, email: charge.customer?.email ?? null },
    }
  }

  /** What the charge query adds for a bank transfer (docs/behaviour.md#bank-transfer). */
  queryExtras(charge: Frozen<BankTransferCharge>): Record<string, unknown> {
    const extra: Record<string, unknown> = {
      amount_expected: toDecimalString(charge.amount_expected),
      amount_paid: toDecimalString(charge.amount_paid),
      amount_accepted: toDecimalString(charge.amount_accepted),
      bank_account: charge.bank_account,
    }
    const last = charge.transfers.at(-1)
    // who paid, its number masked, as the collection's sample of a paid transfer shows (docs/behaviour.md#bank-transfer)
    if (last) extra.payer_bank_account = MASKED_PAYER
    if (last && last.payment_event !== 'exact') {
      extra.bank_transfer = {
        payer_bank_account: SANDBOX_PAYER,
        payment_event: last.payment_event,
        message: last.payment_event === 'overpayment' ? TRANSFER_MSG.EXCESS_RETURNED : TRANSFER_MSG.SHORT_RETURNED,
        reversal: last.reversal && { ...last.reversal, amount: toDecimalString(last.reversal.amount) },
      }
    }
    return extra
  }

  /**
   * A transfer arrived (docs/behaviour.md#bank-transfer, with the defaults of the live service's dashboard):
   * over, the excess goes back and the charge succeeds; under, all of it goes back and the
   * charge waits for a correct transfer.
   */
  #arrive(ns: string, charge: BankTransferCharge, amount: number): Frozen<BankTransferCharge> {
    const expected = charge.amount_expected
    const event: Transfer['payment_event'] = amount === expected ? 'exact' : amount > expected ? 'overpayment' : 'underpayment'
    // the pack's accept_all: whatever arrives is kept as paid, if the namespace can take it in (docs/behaviour.md#ledger-and-balances)
    const acceptAll = bankTransferSettings.of(this.kit.scenarios.forNs(ns)).transfer_mismatch === 'accept_all' && this.#takesWhole(ns, charge, amount)
    const returned = acceptAll ? 0 : event === 'overpayment' ? amount - expected : event === 'underpayment' ? amount : 0
    charge.transfers.push({
      at: this.kit.clocks.iso(ns),
      amount,
      payment_event: event,
      reversal: returned ? { status: 'success', amount: returned, destination: 'customer', currency: charge.currency } : null,
    })
    charge.amount_paid = amount
    this.#charges.note(ns, charge, 'transfer', TRANSFER_MSG.arrived(toDecimalString(amount), event, returned ? toDecimalString(returned) : null))
    if (event === 'underpayment' && !acceptAll) {
      charge.updated_at = this.kit.clocks.iso(ns)
    } else {
      charge.amount_accepted = acceptAll ? amount : expected
      this.#charges.succeed(ns, charge)
    }
    return this.#charges.save(ns, charge)
  }

  /**
   * Whether a transfer of `amount` may be kept whole: its credit past the charge's amount, which
   * the charge was counted in at, is counted in too (docs/behaviour.md#ledger-and-balances); otherwise the excess
   * goes back as with `return`.
   */
  #takesWhole(ns: string, charge: BankTransferCharge, amount: number): boolean {
    const beyond = payinMoney(amount, charge.fee, charge.vat, 0).credit - charge.amount
    return beyond <= 0 || this.kit.ledger.tryTakeIn(ns, charge.currency, beyond)
  }

  /** Ten digits no other charge of the namespace has. */
  #newAccountNumber(ns: string): string {
    for (;;) {
      const n = `8${this.kit.random.text(ns, DIGITS, 9)}`
      if (!this.byAccount(ns, n)) return n
    }
  }
}

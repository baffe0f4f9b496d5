import { bankPagePath } from './page.js'
import type { Kit } from '../engine/kit.js'
import { ChargeLifecycle, narrationOr, requested, type LifecycleParts } from '../engine/lifecycle.js'
import type { ChargeBase } from '../engine/types.js'
import { badRequest, invalid } from '../errors.js'
import { MSG } from '../messages.js'
import { customerCost, toDecimalString, toMajor } from '../money.js'
import type { BankScenario, Outcome } from '../scenario/schema.js'
import type { Frozen } from '../store/frozen.js'
import { PWB_MSG } from './messages.js'
import type { PayWithBankInput } from './schemas.js'

/** The kind of its charges, named here only. */
const KIND = 'pay_with_bank'

/**
 * Pay with bank (docs/behaviour.md#pay-with-bank): the charge is processing until the customer, sent to
 * the sandbox bank's page (`redirect_url`), approves or declines there, or a control call ends it.
 * Approving ends it as the bank's entry in the packs says: success, failed with its message, or
 * processing (the bank never confirms). Declining fails it.
 */

export interface PayWithBankCharge extends ChargeBase {
  kind: 'pay_with_bank'
  bank: { code: string; name: string }
  merchant_bears_cost: boolean
  redirect_url: string | null
  notification_url: string | null
  /** what the bank does once the customer approves */
  outcome: Outcome
  outcome_message: string | null
  scenario_label: string
  /** approved on the bank's page, awaiting a bank that never confirms */
  approved: boolean
}


/** The bank of a charge as its answer and its query show it. */
const bankAccount = (charge: Frozen<PayWithBankCharge>) => ({ bank_name: charge.bank.name, bank_code: charge.bank.code })

/** the country of a pay-with-bank currency, as the banks list names it */
const COUNTRY_OF = { NGN: 'NG', ZAR: 'ZA' } as const

/** a bank's slug as the collection writes them: its name in lower case, words joined by -, then the country (`african-bank-za`) */
const slugOf = (name: string, country: string) => `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${country.toLowerCase()}`

export class PayWithBankService {
  readonly #charges: ChargeLifecycle<PayWithBankCharge>
  /** its kind, declared to the lifecycle above and to the kinds by `servedBy` */
  readonly kind = KIND

  constructor(private readonly kit: Pick<Kit, LifecycleParts | 'namespaces'>) {
    this.#charges = new ChargeLifecycle<PayWithBankCharge>(kit, { kind: KIND, prefix: 'PB', succeeded: MSG.CHARGE_SUCCESSFUL, duplicateCode: MSG.DUPLICATE_REFERENCE_CODE })
  }

  /** The banks of a currency, as the packs list them. */
  banks(ns: string, currency: string): BankScenario[] {
    return [...this.kit.scenarios.forNs(ns).banks.values()].filter((b) => b.currency === currency)
  }

  /** GET /charge/pay-with-bank/banks: `{code, name, slug, country}`, the collection's sample (docs/behaviour.md#pay-with-bank). */
  bankList(ns: string, currency: string) {
    const country = COUNTRY_OF[currency as keyof typeof COUNTRY_OF]
    return this.banks(ns, currency).map((b) => ({ code: b.bank_code, name: b.name, slug: slugOf(b.name, country), country }))
  }

  /** POST /charge/pay-with-bank: a charge awaiting the customer at the bank's page. */
  charge(ns: string, input: PayWithBankInput, parent?: string): PayWithBankCharge {
    const bank = this.kit.scenarios.forNs(ns).bank(input.bank_code)
    if (!bank || bank.currency !== input.currency) throw invalid({ bank_code: PWB_MSG.unknownBank(input.currency) })
    const base = this.#charges.create(ns, requested(input, narrationOr(input.narration, this.kit.namespaces.get(ns)?.name), PWB_MSG.REDIRECT, `${bank.name}: ${bank.label}`, parent))
    const charge: PayWithBankCharge = Object.assign(base, {
      bank: { code: bank.bank_code, name: bank.name },
      merchant_bears_cost: input.merchant_bears_cost ?? false,
      redirect_url: input.redirect_url ?? null,
      notification_url: input.notification_url ?? null,
      outcome: bank.outcome,
      outcome_message: bank.message ?? null,
      scenario_label: bank.label,
      approved: false,
    })
    this.#charges.save(ns, charge)
    return charge
  }

  /** The charge with this transaction or payment reference. */
  find(ns: string, reference: string): Frozen<PayWithBankCharge> | undefined {
    return this.#charges.find(ns, reference)
  }

  /**
   * The customer's choice on the bank's page: declined, it fails; approved, it ends as the bank
   * says (or waits for a bank that never confirms). 409 once it has ended (docs/api.md 7.2).
   */
  decide(ns: string, reference: string, decision: 'approve' | 'decline'): Frozen<PayWithBankCharge> {
    const charge = this.#charges.pending(ns, reference)
    if (charge.approved) throw badRequest(PWB_MSG.ALREADY_APPROVED)
    if (decision === 'decline') {
      this.#charges.fail(ns, charge, PWB_MSG.DECLINED, 'bank page')
    } else {
      this.#charges.note(ns, charge, 'bank page', PWB_MSG.NOTE_APPROVED)
      this.#conclude(ns, charge)
    }
    return this.#charges.save(ns, charge)
  }

  /** Control: finish it now, whatever the bank would have done (`POST /_sandbox/charges/:reference/complete`). */
  complete(ns: string, reference: string, outcome: 'success' | 'failed', message?: string): Frozen<PayWithBankCharge> {
    const charge = this.#charges.pending(ns, reference)
    this.#charges.note(ns, charge, 'bank', MSG.byControlCall(outcome))
    if (outcome === 'success') this.#charges.succeed(ns, charge)
    else this.#charges.fail(ns, charge, message ?? charge.outcome_message ?? MSG.TRY_AGAIN, 'outcome')
    return this.#charges.save(ns, charge)
  }

  /** What the customer paid for a charge that succeeded: the amount, and the fee and VAT unless the merchant bore them. */
  paid(charge: Frozen<PayWithBankCharge>): { paid: number; borne: number } {
    const borne = customerCost(charge.fee, charge.vat, charge.merchant_bears_cost, 'fee and VAT')
    return { paid: charge.amount + borne, borne }
  }

  /** docs/behaviour.md#pay-with-bank: the `data` of the charge's answer; `origin` is the one the caller reached. */
  responseData(charge: Frozen<PayWithBankCharge>, origin: string) {
    const redirect = { redirect_url: `${origin}${bankPagePath(charge.transaction_reference)}` }
    // as the collection's samples, each of its currency: ZAR gives amount_expected and no message, NGN the reverse
    const zar = charge.currency === 'ZAR'
    return {
      currency: charge.currency,
      amount: toMajor(charge.amount),
      ...(zar ? { amount_expected: toMajor(this.paid(charge).paid) } : {}),
      fee: toMajor(charge.fee),
      vat: toMajor(charge.vat),
      transaction_reference: charge.transaction_reference,
      payment_reference: charge.payment_reference,
      status: charge.status,
      merchant_bears_cost: charge.merchant_bears_cost,
      customer: { name: charge.customer?.name ?? null, email: charge.customer?.email ?? null },
      narration: charge.description ?? '',
      authorization: redirect,
      // the bank's name alone, as both samples and both SDKs show it (the query adds its code)
      bank_account: { bank_name: charge.bank.name },
      ...(zar ? {} : { message: charge.response_message }),
    }
  }

  /** What the charge query adds for pay with bank. */
  queryExtras(charge: Frozen<PayWithBankCharge>): Record<string, unknown> {
    return {
      amount_expected: toDecimalString(this.paid(charge).paid),
      merchant_bears_cost: charge.merchant_bears_cost,
      bank_account: bankAccount(charge),
    }
  }

  /** Approved: the bank's outcome from the packs. */
  #conclude(ns: string, charge: PayWithBankCharge): void {
    if (charge.outcome === 'success') this.#charges.succeed(ns, charge)
    else if (charge.outcome === 'failed') this.#charges.fail(ns, charge, charge.outcome_message ?? MSG.TRY_AGAIN, 'bank')
    else {
      charge.approved = true
      charge.response_message = PWB_MSG.APPROVED_AWAITING
      charge.updated_at = this.kit.clocks.iso(ns)
    }
  }
}

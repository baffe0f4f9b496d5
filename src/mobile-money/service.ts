import type { Kit } from '../engine/kit.js'
import { walletPagePath } from './page.js'
import { StepLifecycle, requested, sha256, type LifecycleParts } from '../engine/lifecycle.js'
import type { SteppedCharge } from '../engine/types.js'
import { ApiError, invalid } from '../errors.js'
import { FAILURE, MSG } from '../messages.js'
import { customerCost, toDecimalString, toMajor } from '../money.js'
import { walletCurrency } from '../scenario/lookups.js'
import type { WalletScenario, WalletStep } from '../scenario/schema.js'
import type { Frozen } from '../store/frozen.js'
import { MM_MSG } from './messages.js'
import { walletNumberIssue, type MobileMoneyChargeInput } from './schemas.js'
import { mobileMoneySettings } from './settings.js'

/** The kind of its charges, named here only. */
const KIND = 'mobile_money'

const STK_TIMEOUT = 'mm.stk_timeout'

export interface MobileMoneyCharge extends SteppedCharge<WalletStep> {
  kind: 'mobile_money'
  wallet: { number: string }
  auth_model: WalletStep
  /** SHA-256 of the expected OTP and PIN: the values themselves are never stored */
  expect: { otp: string; pin: string }
  otp_attempts_left: number
  /** set once a wrong OTP was sent: the response then shows attempts_left */
  otp_rejected: boolean
  amount_expected: number
  merchant_bears_cost: boolean
  notification_url: string | null
  redirect_url: string | null
  message: string
  scenario_label: string
  /** the pending prompt's timer, so answering the prompt cancels it */
  stk_timer?: string | null
}

/** A wallet no pack names: its currency's steps (the fixture's), then success. */
function defaultWallet(number: string, currency: string): WalletScenario {
  return {
    number,
    currency,
    steps: [...(walletCurrency(currency)?.steps ?? ['STK_PROMPT'])],
    outcome: 'success',
    label: MM_MSG.anyOtherWallet(currency),
  }
}

/**
 * Mobile money (docs/api.md 3.3, docs/behaviour.md#mobile-money): an OTP step and/or an STK prompt, then the wallet's
 * outcome. The prompt is answered by the live sandbox's own authorize-stk call, by the control
 * call, or by itself once the prompt delay has passed on the namespace clock.
 */
export class MobileMoneyService {
  readonly #charges: StepLifecycle<MobileMoneyCharge>
  /** its kind, declared to the lifecycle above and to the kinds by `servedBy` */
  readonly kind = KIND

  constructor(private readonly kit: Pick<Kit, LifecycleParts>) {
    this.#charges = new StepLifecycle<MobileMoneyCharge>(kit, {
      kind: KIND,
      prefix: 'MO',
      succeeded: MSG.CHARGE_SUCCESSFUL,
      // the service's samples: one text for a step on an ended charge, 409 for a step not pending
      ended: MSG.TRANSACTION_COMPLETED,
      otherStepConflicts: true,
      // the OTP is sent, the customer sent to the operator's page, or the prompt pushed (with its timer)
      enter: (ns, charge, step) => {
        const to = `+${charge.wallet.number}`
        charge.auth_model = step
        if (step === 'OTP') {
          charge.message = MM_MSG.otpSent(to)
        } else if (step === 'REDIRECT') {
          charge.message = MM_MSG.REDIRECT
        } else {
          charge.message = MM_MSG.stkSent(to)
          this.#schedulePrompt(ns, charge)
        }
      },
      waiting: (_ns, charge) => {
        charge.message = MM_MSG.WAITING
      },
      onSuccess: (_ns, charge) => {
        charge.message = MM_MSG.APPROVED
      },
      onFailure: (ns, charge, message) => {
        this.#cancelPrompt(ns, charge)
        charge.message = message
      },
    })
    this.kit.clocks.on(STK_TIMEOUT, (ns, payload: { tx: string }) => {
      const charge = this.#charges.live(ns, payload.tx)
      if (charge?.pending_steps[0] !== 'STK_PROMPT') return
      charge.pending_steps = []
      this.#charges.note(ns, charge, 'STK_PROMPT', MM_MSG.PROMPT_ANSWERED)
      this.#charges.conclude(ns, charge)
      this.#charges.save(ns, charge)
    })
  }

  /** POST /charges/mobile-money (and a checkout's wallet attempt: `parent`). */
  charge(ns: string, input: MobileMoneyChargeInput, parent?: string): MobileMoneyCharge {
    const scenarios = this.kit.scenarios.forNs(ns)
    // a number not of the currency's country: the service's own 422 (docs/behaviour.md#mobile-money-charge)
    if (walletNumberIssue(input.currency, input.mobile_money.number)) throw new ApiError(422, MM_MSG.invalidPhone(input.mobile_money.number))
    const number = input.mobile_money.number.replace(/^\+/, '')
    const listed = scenarios.wallet(number)
    if (listed && listed.currency !== input.currency) {
      throw invalid({ currency: MM_MSG.walletCurrency(listed.currency, number) })
    }
    const scenario = listed ?? defaultWallet(number, input.currency)
    const base = this.#charges.create(ns, requested(input, input.description ?? null, MM_MSG.AUTH_REQUIRED, scenario.label, parent))
    const settings = scenarios.settings
    const bears = input.merchant_bears_cost ?? false
    const charge: MobileMoneyCharge = Object.assign(base, {
      wallet: { number },
      auth_model: scenario.steps[0] ?? 'STK_PROMPT',
      pending_steps: [...scenario.steps],
      outcome: scenario.outcome,
      outcome_message: scenario.message ?? null,
      expect: { otp: sha256(scenario.otp ?? settings.otp), pin: sha256(scenario.pin ?? settings.pin) },
      otp_attempts_left: mobileMoneySettings.of(scenarios).otp_attempts,
      otp_rejected: false,
      amount_expected: base.amount + customerCost(base.fee, base.vat, bears, 'fee and VAT'),
      merchant_bears_cost: bears,
      notification_url: input.notification_url ?? null,
      redirect_url: input.redirect_url ?? null,
      message: '',
      scenario_label: scenario.label,
    })
    this.#charges.advance(ns, charge)
    this.#charges.save(ns, charge)
    return charge
  }

  /**
   * POST /charges/mobile-money/authorize {reference, token}. A wrong OTP is no refusal: the charge
   * says so in its `message` and `attempts_left` (`otp_rejected`, which its answer's 409 reads:
   * docs/behaviour.md#mobile-money-otp); the last one fails it.
   */
  authorize(ns: string, reference: string, token: string): MobileMoneyCharge {
    const charge = this.#charges.current(ns, reference, 'OTP', MSG.OTP_NOT_REQUIRED)
    const now = this.kit.clocks.iso(ns)
    if (sha256(token) !== charge.expect.otp) {
      charge.otp_attempts_left = Math.max(0, charge.otp_attempts_left - 1)
      charge.otp_rejected = true
      charge.message = MM_MSG.OTP_INVALID
      charge.history.push({ at: now, step: 'OTP', result: MM_MSG.otpRejected(charge.otp_attempts_left) })
      if (charge.otp_attempts_left === 0) this.#charges.fail(ns, charge, FAILURE.OTP_ATTEMPTS_EXCEEDED, 'outcome')
      charge.updated_at = now
      this.#charges.save(ns, charge)
      return charge
    }
    charge.otp_rejected = false
    this.#charges.pass(ns, charge, 'OTP', MSG.NOTE_PASSED)
    this.#charges.save(ns, charge)
    return charge
  }

  /** POST /charges/mobile-money/sandbox/authorize-stk {reference, pin}: the customer answers the prompt. */
  authorizeStk(ns: string, reference: string, pin: string): MobileMoneyCharge {
    const charge = this.#charges.current(ns, reference, 'STK_PROMPT', MM_MSG.STK_NOT_REQUIRED)
    this.#cancelPrompt(ns, charge)
    // the prompt is the last step: answered, the wallet's outcome follows
    if (sha256(pin) !== charge.expect.pin) return this.#lastAnswered(ns, charge, 'STK_PROMPT', MM_MSG.NOTE_WRONG_PIN, MM_MSG.WRONG_PIN)
    return this.#lastAnswered(ns, charge, 'STK_PROMPT', MM_MSG.NOTE_PIN_ENTERED)
  }

  /**
   * The customer's choice on the operator's page (REDIRECT, docs/behaviour.md#mobile-money-operator-page): approved,
   * the wallet's outcome follows; declined, the charge fails.
   */
  decide(ns: string, reference: string, decision: 'approve' | 'decline'): MobileMoneyCharge {
    const charge = this.#charges.current(ns, reference, 'REDIRECT', MM_MSG.REDIRECT_NOT_PENDING)
    if (decision === 'decline') return this.#lastAnswered(ns, charge, 'REDIRECT', MM_MSG.NOTE_DECLINED, MM_MSG.DECLINED)
    return this.#lastAnswered(ns, charge, 'REDIRECT', MM_MSG.NOTE_APPROVED)
  }

  /**
   * The charge's last step is answered (`note`: its history line): it fails with `failure`, or
   * without one the wallet's outcome follows; then it is saved.
   */
  #lastAnswered(ns: string, charge: MobileMoneyCharge, step: 'STK_PROMPT' | 'REDIRECT', note: string, failure?: string): MobileMoneyCharge {
    charge.pending_steps = []
    this.#charges.note(ns, charge, step, note)
    if (failure !== undefined) this.#charges.fail(ns, charge, failure, 'outcome')
    else this.#charges.conclude(ns, charge)
    this.#charges.save(ns, charge)
    return charge
  }

  resendOtp(ns: string, reference: string): MobileMoneyCharge {
    return this.#charges.resend(ns, reference, 'OTP', MSG.OTP_NOT_REQUIRED)
  }

  resendStk(ns: string, reference: string): MobileMoneyCharge {
    const charge = this.#charges.current(ns, reference, 'STK_PROMPT', MM_MSG.STK_NOT_PENDING)
    this.#cancelPrompt(ns, charge)
    this.#charges.note(ns, charge, 'STK_PROMPT', MSG.NOTE_RESENT)
    this.#schedulePrompt(ns, charge)
    this.#charges.save(ns, charge)
    return charge
  }

  /** Control: finish a pending step as success or failed. */
  complete(ns: string, reference: string, outcome: 'success' | 'failed', message?: string): MobileMoneyCharge {
    const charge = this.#charges.pending(ns, reference)
    this.#cancelPrompt(ns, charge)
    const step = charge.pending_steps[0] ?? 'processing'
    charge.pending_steps = []
    this.#charges.note(ns, charge, step, MSG.byControlCall(outcome))
    if (outcome === 'failed') this.#charges.fail(ns, charge, message ?? charge.outcome_message ?? MSG.TRY_AGAIN, 'outcome')
    else this.#charges.succeed(ns, charge)
    this.#charges.save(ns, charge)
    return charge
  }

  /**
   * docs/api.md 2.7; `origin`, the one the caller reached, names the operator's page of a REDIRECT
   * step. 2.7 types the amounts number or decimal string: the charge's answer gives numbers, a
   * step's (authorize, authorize-stk: `step`) decimal strings, as the service's samples do
   * (docs/behaviour.md#mobile-money-charge).
   */
  responseData(charge: MobileMoneyCharge, origin = '', step = false) {
    const money = step ? toDecimalString : toMajor
    return {
      amount: money(charge.amount),
      amount_expected: money(charge.amount_expected),
      currency: charge.currency,
      fee: toMajor(charge.fee),
      vat: toMajor(charge.vat),
      auth_model: charge.auth_model,
      transaction_reference: charge.transaction_reference,
      payment_reference: charge.payment_reference,
      status: charge.status,
      narration: charge.description ?? '',
      message: charge.message,
      mobile_money: { number: `+${charge.wallet.number}` },
      customer: { name: charge.customer?.name ?? null, email: charge.customer?.email ?? null },
      ...(charge.otp_rejected ? { attempts_left: charge.otp_attempts_left } : {}),
      ...(charge.pending_steps[0] === 'REDIRECT' ? { authorization: { redirect_url: `${origin}${walletPagePath(charge.transaction_reference)}` } } : {}),
    }
  }

  /** The envelope of a response: `code: AA001` while authorization is required. */
  envelope(charge: MobileMoneyCharge): { message: string; code?: string } {
    if (charge.status === 'processing') return { message: MM_MSG.AUTH_REQUIRED, code: MM_MSG.AUTH_CODE }
    if (charge.status === 'success') return { message: MM_MSG.APPROVED }
    return { message: charge.failure_message ?? MM_MSG.FAILED }
  }

  /** What the customer paid for a charge that succeeded: the amount expected, the fee and VAT they bore in it. */
  paid(charge: Frozen<MobileMoneyCharge>): { paid: number; borne: number } {
    return { paid: charge.amount_expected, borne: charge.amount_expected - charge.amount }
  }

  /** What the charge query adds for a wallet payment. */
  queryExtras(charge: Frozen<MobileMoneyCharge>): Record<string, unknown> {
    return {
      amount_expected: toDecimalString(charge.amount_expected),
      mobile_money: { number: charge.wallet.number },
      auth_model: charge.auth_model,
    }
  }

  #schedulePrompt(ns: string, charge: MobileMoneyCharge): void {
    // a wallet that never completes never answers its prompt either
    if (charge.outcome === 'processing') return
    const delay = mobileMoneySettings.of(this.kit.scenarios.forNs(ns)).stk_delay_seconds * 1000
    charge.stk_timer = this.kit.clocks.schedule(ns, delay, STK_TIMEOUT, { tx: charge.transaction_reference })
  }

  #cancelPrompt(ns: string, charge: MobileMoneyCharge): void {
    if (charge.stk_timer) this.kit.clocks.cancel(ns, charge.stk_timer)
    charge.stk_timer = null
  }
}

import { newTransactionReference } from '../cards/service.js'
import { chargeEventData } from '../charges/query.js'
import { customerOf, newChargeBase, requireProcessing, sha256 } from '../charges/pending.js'
import { CHARGES, type ChargeBase } from '../charges/types.js'
import type { Deps } from '../deps.js'
import { ApiError, MSG, badRequest, invalid } from '../errors.js'
import { computeFee, parseAmount, toMajor } from '../money.js'
import type { WalletScenario, WalletStep } from '../scenario/schema.js'
import type { MobileMoneyChargeInput } from './schemas.js'

const STK_TIMEOUT = 'mm.stk_timeout'

export const MM_MSG = {
  AUTH_REQUIRED: 'Authorization required',
  AUTH_CODE: 'AA001',
  OTP_RESENT: 'OTP resent successfully',
  STK_RESENT: 'PIN prompt resent successfully',
  STK_NOT_PENDING: 'No PIN prompt is pending for this transaction',
  WRONG_PIN: 'The PIN entered is incorrect',
  SUCCESS: 'Charge successful',
} as const

export interface MobileMoneyCharge extends ChargeBase {
  kind: 'mobile_money'
  wallet: { number: string }
  auth_model: WalletStep
  pending_steps: WalletStep[]
  outcome: WalletScenario['outcome']
  outcome_message: string | null
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

function defaultWallet(number: string, currency: 'KES' | 'GHS'): WalletScenario {
  return {
    number,
    currency,
    steps: currency === 'GHS' ? ['OTP', 'STK_PROMPT'] : ['STK_PROMPT'],
    outcome: 'success',
    label: `any other ${currency} wallet: success`,
  }
}

/**
 * Mobile money (SPEC.md 3.3, CONTRACT.md 5): an OTP step and/or an STK prompt, then the wallet's
 * outcome. The prompt is answered by the live sandbox's own authorize-stk call, by the control
 * call, or by itself once the prompt delay has passed on the namespace clock.
 */
export class MobileMoneyService {
  constructor(readonly d: Deps) {
    d.clocks.on(STK_TIMEOUT, (ns, payload: { tx: string }) => {
      const charge = this.#col(ns).get(payload.tx)
      if (charge?.kind !== 'mobile_money' || charge.status !== 'processing' || charge.pending_steps[0] !== 'STK_PROMPT') return
      charge.history.push({ at: this.d.clocks.iso(ns), step: 'STK_PROMPT', result: 'answered by the wallet after the prompt delay' })
      charge.pending_steps = []
      this.#conclude(ns, charge)
      this.#save(ns, charge)
    })
  }

  #col(ns: string) {
    return this.d.store.col<MobileMoneyCharge>(ns, CHARGES)
  }

  find(ns: string, reference: string): MobileMoneyCharge | undefined {
    const col = this.#col(ns)
    const c = col.get(reference) ?? col.findBy('payment_reference', reference)
    return c?.kind === 'mobile_money' ? c : undefined
  }

  charge(ns: string, input: MobileMoneyChargeInput): MobileMoneyCharge {
    const scenarios = this.d.scenarios.forNs(ns)
    const number = input.mobile_money.number.replace(/^\+/, '')
    const listed = scenarios.wallet(number)
    if (listed && listed.currency !== input.currency) {
      throw invalid({ currency: `must be ${listed.currency} for wallet ${number}` })
    }
    const amount = parseAmount(input.amount)
    if (amount === null) throw invalid({ amount: 'must be a number with at most 2 decimal places' })
    const col = this.#col(ns)
    if (col.findBy('payment_reference', input.reference)) throw badRequest(MSG.DUPLICATE_REFERENCE)
    const scenario = listed ?? defaultWallet(number, input.currency)
    const settings = scenarios.settings
    const { fee, vat } = computeFee(amount, settings.fees.mobile_money, settings.vat_percent)
    const bears = input.merchant_bears_cost ?? false
    const now = this.d.clocks.iso(ns)
    const charge: MobileMoneyCharge = Object.assign(
      newChargeBase({
        kind: 'mobile_money',
        transaction_reference: newTransactionReference('MO'),
        payment_reference: input.reference,
        amount,
        currency: input.currency,
        fee,
        vat,
        description: input.description ?? null,
        customer: customerOf(input.customer),
        metadata: input.metadata,
        response_message: MM_MSG.AUTH_REQUIRED,
        created: scenario.label,
        now,
      }),
      {
        wallet: { number },
        auth_model: scenario.steps[0] ?? 'STK_PROMPT',
        pending_steps: [...scenario.steps],
        outcome: scenario.outcome,
        outcome_message: scenario.message ?? null,
        expect: { otp: sha256(scenario.otp ?? settings.otp), pin: sha256(scenario.pin ?? settings.pin) },
        otp_attempts_left: settings.otp_attempts,
        otp_rejected: false,
        amount_expected: bears ? amount : amount + fee + vat,
        merchant_bears_cost: bears,
        notification_url: input.notification_url ?? null,
        redirect_url: input.redirect_url ?? null,
        message: '',
        scenario_label: scenario.label,
      },
    )
    this.#enterStep(ns, charge)
    this.#save(ns, charge)
    return charge
  }

  /** POST /charges/mobile-money/authorize {reference, token} */
  authorize(ns: string, reference: string, token: string): MobileMoneyCharge {
    const charge = this.#pending(ns, reference)
    if (charge.pending_steps[0] !== 'OTP') throw badRequest(MSG.AUTH_NOT_REQUIRED)
    const now = this.d.clocks.iso(ns)
    if (sha256(token) !== charge.expect.otp) {
      charge.otp_attempts_left = Math.max(0, charge.otp_attempts_left - 1)
      charge.otp_rejected = true
      charge.history.push({ at: now, step: 'OTP', result: `invalid (${charge.otp_attempts_left} left)` })
      if (charge.otp_attempts_left === 0) this.#fail(ns, charge, 'Otp attempts exceeded')
      charge.updated_at = now
      this.#save(ns, charge)
      // CONTRACT.md 5: 400 with the charge, whose attempts_left says what is left
      throw new ApiError(400, MSG.MM_OTP_INVALID, this.responseData(charge))
    }
    charge.history.push({ at: now, step: 'OTP', result: 'passed' })
    charge.pending_steps.shift()
    charge.otp_rejected = false
    this.#enterStep(ns, charge)
    this.#save(ns, charge)
    return charge
  }

  /** POST /charges/mobile-money/sandbox/authorize-stk {reference, pin}: the customer answers the prompt. */
  authorizeStk(ns: string, reference: string, pin: string): MobileMoneyCharge {
    const charge = this.#pending(ns, reference)
    if (charge.pending_steps[0] !== 'STK_PROMPT') throw badRequest(MSG.AUTH_NOT_REQUIRED)
    this.#cancelPrompt(ns, charge)
    charge.pending_steps = []
    if (sha256(pin) !== charge.expect.pin) {
      charge.history.push({ at: this.d.clocks.iso(ns), step: 'STK_PROMPT', result: 'wrong PIN' })
      this.#fail(ns, charge, MM_MSG.WRONG_PIN)
    } else {
      charge.history.push({ at: this.d.clocks.iso(ns), step: 'STK_PROMPT', result: 'PIN entered' })
      this.#conclude(ns, charge)
    }
    this.#save(ns, charge)
    return charge
  }

  resendOtp(ns: string, reference: string): MobileMoneyCharge {
    const charge = this.#pending(ns, reference)
    if (charge.pending_steps[0] !== 'OTP') throw badRequest(MSG.OTP_NOT_REQUIRED)
    charge.history.push({ at: this.d.clocks.iso(ns), step: 'OTP', result: 'resent' })
    this.#save(ns, charge)
    return charge
  }

  resendStk(ns: string, reference: string): MobileMoneyCharge {
    const charge = this.#pending(ns, reference)
    if (charge.pending_steps[0] !== 'STK_PROMPT') throw badRequest(MM_MSG.STK_NOT_PENDING)
    this.#cancelPrompt(ns, charge)
    charge.history.push({ at: this.d.clocks.iso(ns), step: 'STK_PROMPT', result: 'resent' })
    this.#schedulePrompt(ns, charge)
    this.#save(ns, charge)
    return charge
  }

  /** Control: finish a pending step as success or failed. */
  complete(ns: string, reference: string, outcome: 'success' | 'failed', message?: string): MobileMoneyCharge {
    const charge = this.#pending(ns, reference)
    this.#cancelPrompt(ns, charge)
    const step = charge.pending_steps[0] ?? 'processing'
    charge.pending_steps = []
    charge.history.push({ at: this.d.clocks.iso(ns), step, result: `completed by control call: ${outcome}` })
    if (outcome === 'failed') this.#fail(ns, charge, message ?? charge.outcome_message ?? MSG.TRY_AGAIN)
    else this.#succeed(ns, charge)
    this.#save(ns, charge)
    return charge
  }

  /** SPEC.md 2.7 */
  responseData(charge: MobileMoneyCharge) {
    return {
      amount: toMajor(charge.amount),
      amount_expected: toMajor(charge.amount_expected),
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
    }
  }

  /** The envelope of a response: `code: AA001` while authorization is required. */
  envelope(charge: MobileMoneyCharge): { message: string; code?: string } {
    if (charge.status === 'processing') return { message: MM_MSG.AUTH_REQUIRED, code: MM_MSG.AUTH_CODE }
    if (charge.status === 'success') return { message: MM_MSG.SUCCESS }
    return { message: charge.failure_message ?? 'Charge failed' }
  }

  /** What the charge query adds for a wallet payment. */
  queryExtras(charge: MobileMoneyCharge): Record<string, unknown> {
    return {
      amount_paid: charge.status === 'success' ? (charge.amount_expected / 100).toFixed(2) : '0.00',
      amount_expected: (charge.amount_expected / 100).toFixed(2),
      mobile_money: { number: charge.wallet.number },
      auth_model: charge.auth_model,
    }
  }

  #pending(ns: string, reference: string): MobileMoneyCharge {
    return requireProcessing(this.find(ns, reference))
  }

  /** Makes the first pending step current: the OTP is sent, or the prompt pushed (with its timer). */
  #enterStep(ns: string, charge: MobileMoneyCharge): void {
    const step = charge.pending_steps[0]
    const to = `+${charge.wallet.number}`
    if (step === 'OTP') {
      charge.auth_model = 'OTP'
      charge.message = `An OTP has been sent to ${to}: enter it to authorize the payment`
    } else if (step === 'STK_PROMPT') {
      charge.auth_model = 'STK_PROMPT'
      charge.message = `A PIN prompt has been sent to ${to}: the customer enters the wallet PIN to approve the payment`
      this.#schedulePrompt(ns, charge)
    } else {
      this.#conclude(ns, charge)
    }
  }

  #schedulePrompt(ns: string, charge: MobileMoneyCharge): void {
    // a wallet that never completes never answers its prompt either
    if (charge.outcome === 'processing') return
    const delay = this.d.scenarios.forNs(ns).settings.stk_delay_seconds * 1000
    charge.stk_timer = this.d.clocks.schedule(ns, delay, STK_TIMEOUT, { tx: charge.transaction_reference })
  }

  #cancelPrompt(ns: string, charge: MobileMoneyCharge): void {
    if (charge.stk_timer) this.d.clocks.cancel(ns, charge.stk_timer)
    charge.stk_timer = null
  }

  /** The wallet's own outcome, once the steps are passed. */
  #conclude(ns: string, charge: MobileMoneyCharge): void {
    if (charge.outcome === 'success') this.#succeed(ns, charge)
    else if (charge.outcome === 'failed') this.#fail(ns, charge, charge.outcome_message ?? MSG.TRY_AGAIN)
    else charge.message = 'Waiting for the wallet to answer'
  }

  #succeed(ns: string, charge: MobileMoneyCharge): void {
    const now = this.d.clocks.iso(ns)
    charge.status = 'success'
    charge.completed_at = now
    charge.updated_at = now
    charge.response_message = MM_MSG.SUCCESS
    charge.message = 'Payment completed'
    this.#emit(ns, charge)
  }

  #fail(ns: string, charge: MobileMoneyCharge, message: string): void {
    const now = this.d.clocks.iso(ns)
    this.#cancelPrompt(ns, charge)
    charge.pending_steps = []
    charge.status = 'failed'
    charge.failure_message = message
    charge.response_message = message
    charge.message = message
    charge.completed_at = now
    charge.updated_at = now
    charge.attempts.push({ reference: charge.transaction_reference, status: 'failed', channel: 'mobile_money', message })
    charge.history.push({ at: now, step: 'outcome', result: `failed: ${message}` })
    this.#emit(ns, charge)
  }

  #emit(ns: string, charge: MobileMoneyCharge): void {
    this.d.events.record(ns, charge.status === 'success' ? 'charge.success' : 'charge.failed', chargeEventData(charge), {
      target: charge.notification_url,
    })
  }

  #save(ns: string, charge: MobileMoneyCharge): void {
    this.#col(ns).put(charge.transaction_reference, charge)
  }
}

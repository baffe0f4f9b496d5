import { customAlphabet } from 'nanoid'
import { chargeEventData } from '../charges/query.js'
import { customerOf, newChargeBase, requireProcessing, sha256 } from '../charges/pending.js'
import { CHARGES, type CardCharge, type ChargeStatus } from '../charges/types.js'
import type { Deps } from '../deps.js'
import { FAILURE, MSG, badRequest, invalid } from '../errors.js'
import { computeFee, parseAmount } from '../money.js'
import type { CardScenario, CardStep, Outcome } from '../scenario/schema.js'
import { cardSummary, detectScheme, luhnValid } from '../pan.js'
import type { AuthField, AuthorizeInput, CardChargeInput } from './schemas.js'

const txId = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', 14)
export const newTransactionReference = (prefix: string): string => {
  const ref = `KPY-${prefix}-${txId()}`
  // one flat string, not a concatenation: it is a key of the store's maps for the charge's life
  ref.charCodeAt(0)
  return ref
}


/** Which authorization field answers which step, and what the response asks for. */
const STEP_FIELD: Record<CardStep, AuthField | null> = { PIN: 'pin', OTP: 'otp', AVS: 'avs', CARD_ENROLL: 'phone', '3DS': null }
const REQUIRED_FIELDS: Record<CardStep, string[]> = {
  PIN: ['pin'],
  OTP: ['otp'],
  AVS: ['state', 'city', 'country', 'address', 'zip_code'],
  CARD_ENROLL: ['phone'],
  '3DS': [],
}
const STEP_PROMPT: Record<CardStep, string> = {
  PIN: 'Card PIN required',
  OTP: 'Kindly enter the OTP sent to the phone number or e-mail tied to the card',
  AVS: 'Kindly provide the billing address of the card',
  CARD_ENROLL: 'Kindly provide the phone number tied to the card to enrol it for online payment',
  '3DS': 'Kindly complete the 3DS authentication on the page at authorization.redirect_url',
}

/** The scenario a card number selects: listed ones by the packs, any other by its scheme. */
function defaultScenario(number: string, scheme: CardScenario['scheme']): CardScenario {
  return {
    number,
    scheme,
    cvv: '',
    expiry_month: '',
    expiry_year: '',
    steps: [],
    outcome: 'success',
    label: 'any other card: success, no authentication',
  }
}

export interface CardHooks {
  /** a pre-authorization passed its steps: place the hold */
  onPreauthorized?: (ns: string, charge: CardCharge) => void
}

export class CardService {
  constructor(
    readonly d: Deps,
    readonly hooks: CardHooks = {},
  ) {}

  charges(ns: string) {
    return this.d.store.col<CardCharge>(ns, CHARGES)
  }

  /** Finds a charge by its transaction reference (or, failing that, its payment reference). */
  find(ns: string, reference: string): CardCharge | undefined {
    const col = this.charges(ns)
    const c = col.get(reference) ?? col.findBy('payment_reference', reference)
    return c && c.kind === 'card' ? c : undefined
  }

  /** POST /charges/card (and the start of a pre-authorization). */
  charge(ns: string, input: CardChargeInput, operation: CardCharge['operation'] = 'charge'): CardCharge {
    const scenarios = this.d.scenarios.forNs(ns)
    const pan = input.card.number
    const listed = scenarios.card(pan)
    const scheme = listed?.scheme ?? detectScheme(pan)
    if (!scheme) throw badRequest(MSG.CARD_NOT_SUPPORTED)
    if (!listed && !luhnValid(pan)) throw invalid({ 'card.number': 'is not a valid card number' })
    this.#checkExpiry(ns, input.card.expiry_month, input.card.expiry_year)
    const amount = parseAmount(input.amount)
    if (amount === null) throw invalid({ amount: 'must be a number with at most 2 decimal places' })
    const col = this.charges(ns)
    if (col.findBy('payment_reference', input.reference)) throw badRequest(MSG.DUPLICATE_REFERENCE)

    const scenario = listed ?? defaultScenario(pan, scheme)
    const settings = scenarios.settings
    const { fee, vat } = computeFee(amount, settings.fees.card, settings.vat_percent)
    const now = this.d.clocks.iso(ns)
    const expect: CardCharge['expect'] = {}
    if (scenario.steps.includes('PIN')) expect.pin = sha256(scenario.pin ?? settings.pin)
    if (scenario.steps.includes('OTP')) expect.otp = sha256(scenario.otp ?? settings.otp)
    const charge: CardCharge = Object.assign(
      newChargeBase({
        kind: 'card',
        transaction_reference: newTransactionReference('CA'),
        payment_reference: input.reference,
        amount,
        currency: input.currency,
        fee,
        vat,
        description: input.description ?? 'Card payment',
        customer: customerOf(input.customer),
        metadata: input.metadata,
        response_message: MSG.CHARGE_IN_PROGRESS,
        created: scenario.label,
        now,
      }),
      {
        operation,
        card: cardSummary(pan, scheme, input.card.expiry_month, input.card.expiry_year),
        auth_model: 'NO_AUTH' as const,
        pending_steps: [...scenario.steps],
        outcome: scenario.outcome,
        outcome_message: scenario.message ?? null,
        expect,
        redirect_url: input.redirect_url ?? null,
        dynamic_descriptor: input.dynamic_descriptor ?? null,
        scenario_label: scenario.label,
      },
    )
    // CONTRACT.md 3: a PIN sent up front consumes the PIN step
    if (input.card.pin !== undefined && charge.pending_steps.includes('PIN')) {
      charge.pending_steps = charge.pending_steps.filter((s) => s !== 'PIN')
      if (sha256(input.card.pin) !== expect.pin) this.#fail(ns, charge, FAILURE.INCORRECT_PIN, 'PIN (up front)')
      else charge.history.push({ at: now, step: 'PIN', result: 'passed (up front)' })
    }
    if (charge.status === 'processing') this.#advance(ns, charge)
    col.put(charge.transaction_reference, charge)
    this.#emitIfFinal(ns, charge)
    return charge
  }

  /** POST /charges/card/authorize */
  authorize(ns: string, input: AuthorizeInput): CardCharge {
    const charge = this.#pendingCharge(ns, input.transaction_reference)
    const step = charge.pending_steps[0]
    const expected = step ? STEP_FIELD[step] : null
    if (!expected) throw badRequest(MSG.AUTH_NOT_REQUIRED)
    const auth = input.authorization
    if (auth[expected] === undefined) {
      const sent = (Object.keys(auth) as AuthField[]).find((k) => auth[k] !== undefined) ?? 'authorization'
      throw invalid({
        [`authorization.${expected}`]: `is required: the pending step is ${step}`,
        ...(sent !== expected ? { [`authorization.${sent}`]: `is not expected at the ${step} step` } : {}),
      })
    }
    const now = this.d.clocks.iso(ns)
    charge.pending_steps.shift()
    if (step === 'PIN' && sha256(auth.pin!) !== charge.expect.pin) {
      this.#fail(ns, charge, FAILURE.INCORRECT_PIN, 'PIN')
    } else if (step === 'OTP' && sha256(auth.otp!) !== charge.expect.otp) {
      this.#fail(ns, charge, FAILURE.OTP_INVALID, 'OTP')
    } else {
      charge.history.push({ at: now, step, result: 'passed' })
      this.#advance(ns, charge)
    }
    charge.updated_at = now
    this.charges(ns).put(charge.transaction_reference, charge)
    this.#emitIfFinal(ns, charge)
    return charge
  }

  /** POST /charges/card/resend-otp */
  resendOtp(ns: string, transactionReference: string): CardCharge {
    const charge = this.#pendingCharge(ns, transactionReference)
    if (charge.pending_steps[0] !== 'OTP') throw badRequest(MSG.OTP_NOT_REQUIRED)
    charge.history.push({ at: this.d.clocks.iso(ns), step: 'OTP', result: 'resent' })
    this.charges(ns).put(charge.transaction_reference, charge)
    return charge
  }

  /** The cardholder's choice on the 3DS page. */
  decide3ds(ns: string, transactionReference: string, decision: 'approve' | 'decline'): CardCharge {
    const charge = this.#pendingCharge(ns, transactionReference)
    if (charge.pending_steps[0] !== '3DS') throw badRequest(MSG.AUTH_NOT_REQUIRED)
    charge.pending_steps.shift()
    if (decision === 'decline') this.#fail(ns, charge, FAILURE.THREE_DS_DECLINED, '3DS')
    else {
      charge.history.push({ at: this.d.clocks.iso(ns), step: '3DS', result: 'approved' })
      this.#advance(ns, charge)
    }
    this.charges(ns).put(charge.transaction_reference, charge)
    this.#emitIfFinal(ns, charge)
    return charge
  }

  /** Control: finish a processing charge as success or failed. */
  complete(ns: string, transactionReference: string, outcome: 'success' | 'failed', message?: string): CardCharge {
    const charge = this.#pendingCharge(ns, transactionReference)
    const step = charge.pending_steps[0] ?? 'processing'
    charge.pending_steps = []
    if (outcome === 'failed') {
      this.#fail(ns, charge, message ?? (step === '3DS' ? FAILURE.THREE_DS_DECLINED : FAILURE.TRY_AGAIN), `${step} (completed by control call)`)
    } else {
      charge.history.push({ at: this.d.clocks.iso(ns), step, result: 'completed by control call' })
      this.#finish(ns, charge, 'success')
    }
    this.charges(ns).put(charge.transaction_reference, charge)
    this.#emitIfFinal(ns, charge)
    return charge
  }

  /** SPEC.md 2.3: the `data` of a card charge response. */
  responseData(charge: CardCharge, origin: string) {
    const step = charge.status === 'processing' ? charge.pending_steps[0] : undefined
    const data: Record<string, unknown> = {
      amount: charge.amount / 100,
      amount_charged: charge.status === 'success' ? charge.amount / 100 : 0,
      auth_model: charge.auth_model,
      currency: charge.currency,
      fee: charge.fee / 100,
      vat: charge.vat / 100,
      response_message: charge.response_message,
      payment_reference: charge.payment_reference,
      transaction_reference: charge.transaction_reference,
      status: charge.status,
      card: charge.card,
    }
    if (step === '3DS') data.authorization = { redirect_url: `${origin}/_sandbox/3ds/${encodeURIComponent(charge.transaction_reference)}` }
    else if (step) data.authorization = { required_fields: REQUIRED_FIELDS[step] }
    return data
  }

  /** The envelope message for a charge response. */
  envelopeMessage(charge: CardCharge): string {
    if (charge.status === 'success') return charge.preauth ? MSG.SUCCESS : MSG.CARD_CHARGED
    if (charge.status === 'failed') return charge.failure_message ?? MSG.CHARGE_IN_PROGRESS
    return MSG.CHARGE_IN_PROGRESS
  }

  #pendingCharge(ns: string, reference: string): CardCharge {
    return requireProcessing(this.find(ns, reference))
  }

  /** Moves to the next pending step, or to the scenario's outcome when none is left. */
  #advance(ns: string, charge: CardCharge): void {
    const step = charge.pending_steps[0]
    if (step) {
      charge.auth_model = step
      charge.response_message = STEP_PROMPT[step]
      return
    }
    if (charge.outcome === 'failed') this.#fail(ns, charge, charge.outcome_message ?? FAILURE.TRY_AGAIN, 'outcome')
    else this.#finish(ns, charge, charge.outcome)
  }

  #fail(ns: string, charge: CardCharge, message: string, at: string): void {
    charge.failure_message = message
    charge.attempts.push({ reference: charge.transaction_reference, status: 'failed', channel: 'card', message })
    charge.history.push({ at: this.d.clocks.iso(ns), step: at, result: `failed: ${message}` })
    charge.pending_steps = []
    this.#finish(ns, charge, 'failed')
  }

  #finish(ns: string, charge: CardCharge, outcome: Outcome): void {
    const now = this.d.clocks.iso(ns)
    charge.updated_at = now
    if (outcome === 'processing') {
      // CONTRACT.md 3: a card that stays processing forever
      charge.auth_model = 'NO_AUTH'
      charge.response_message = MSG.CHARGE_IN_PROGRESS
      return
    }
    charge.status = outcome as ChargeStatus
    charge.completed_at = now
    charge.response_message = outcome === 'success' ? MSG.CARD_CHARGED : charge.failure_message!
    if (outcome === 'success' && charge.operation === 'pre_authorization') this.hooks.onPreauthorized?.(ns, charge)
  }

  #emitIfFinal(ns: string, charge: CardCharge): void {
    if (charge.status === 'processing' || charge.operation !== 'charge') return
    this.d.events.record(ns, charge.status === 'success' ? 'charge.success' : 'charge.failed', chargeEventData(charge))
  }

  #checkExpiry(ns: string, month: string, year: string): void {
    const y = year.length === 2 ? 2000 + Number(year) : Number(year)
    const now = new Date(this.d.clocks.now(ns))
    const cy = now.getUTCFullYear()
    const cm = now.getUTCMonth() + 1
    if (y < cy || (y === cy && Number(month) < cm)) throw invalid({ 'card.expiry_year': 'the card has expired' })
  }
}


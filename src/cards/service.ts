import type { Kit } from '../engine/kit.js'
import { StepLifecycle, requested, sha256, type LifecycleParts } from '../engine/lifecycle.js'
import { threeDsPagePath } from './three-ds.js'
import type { CardCharge } from './types.js'
import { badRequest, invalid } from '../errors.js'
import { FAILURE, MSG } from '../messages.js'
import type { CardScenario, CardStep } from '../scenario/schema.js'
import { toMajor } from '../money.js'
import { cardSummary, detectScheme } from '../pan.js'
import { luhnValid } from '../store/card-numbers.js'
import { CARD_MSG } from './messages.js'
import type { AuthField, AuthorizeInput, CardChargeInput } from './schemas.js'

/** `metadata.gateway_code` beside an OTP prompt, as the collection's sample writes it */
const GATEWAY_CODE = 'T0'

/** Which authorization field answers which step, and which fields the response asks for. */
const STEP_FIELD: Record<CardStep, AuthField | null> = { PIN: 'pin', OTP: 'otp', AVS: 'avs', CARD_ENROLL: 'phone', '3DS': null }
const REQUIRED_FIELDS: Record<CardStep, string[]> = {
  PIN: ['pin'],
  OTP: ['otp'],
  AVS: ['state', 'city', 'country', 'address', 'zip_code'],
  CARD_ENROLL: ['phone'],
  '3DS': [],
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
    label: CARD_MSG.ANY_OTHER_CARD,
  }
}

export interface CardHooks {
  /** a pre-authorization passed its steps: place the hold */
  onPreauthorized?: (ns: string, charge: CardCharge) => void
}

export class CardService {
  readonly #charges: StepLifecycle<CardCharge>
  readonly #charged: ((ns: string, charge: CardCharge) => void)[] = []

  constructor(
    private readonly kit: Pick<Kit, LifecycleParts>,
    private readonly hooks: CardHooks = {},
  ) {
    this.#charges = new StepLifecycle<CardCharge>(kit, {
      kind: 'card',
      prefix: 'CA',
      succeeded: CARD_MSG.CHARGED,
      enter: (_ns, charge, step) => {
        charge.auth_model = step
        charge.response_message = CARD_MSG.STEP_PROMPT[step]
      },
      // docs/behaviour.md#card-charges: a card that stays processing forever
      waiting: (ns, charge) => {
        charge.updated_at = this.kit.clocks.iso(ns)
        charge.auth_model = 'NO_AUTH'
        charge.response_message = CARD_MSG.IN_PROGRESS
      },
      onSuccess: (ns, charge) => {
        if (charge.operation === 'pre_authorization') this.hooks.onPreauthorized?.(ns, charge)
        else if (!charge.parent) for (const heard of this.#charged) heard(ns, charge)
      },
      // a pre-authorization is not a charge: its hold has its own records (preauth.ts)
      announces: (charge) => charge.operation === 'charge',
      // a pre-authorization's hold is no money yet: its captures are (cards/capture-ledger.ts)
      payin: (charge) => charge.operation === 'charge',
    })
  }

  /**
   * Hears of each card charge of its own (not a pre-authorization, not a checkout's attempt) that
   * succeeds, before it is stored: a later area's registry (the chargebacks area, docs/behaviour.md#chargebacks).
   */
  onCharged(listener: (ns: string, charge: CardCharge) => void): void {
    this.#charged.push(listener)
  }

  /** POST /charges/card (and the start of a pre-authorization, and a checkout's card attempt: `parent`). */
  charge(ns: string, input: CardChargeInput, operation: CardCharge['operation'] = 'charge', parent?: string): CardCharge {
    const scenarios = this.kit.scenarios.forNs(ns)
    const pan = input.card.number
    const listed = scenarios.card(pan)
    const scheme = listed?.scheme ?? detectScheme(pan)
    if (!scheme) throw badRequest(CARD_MSG.NOT_SUPPORTED)
    if (!listed && !luhnValid(pan)) throw invalid({ 'card.number': CARD_MSG.NOT_LUHN })
    this.#checkExpiry(ns, input.card.expiry_month, input.card.expiry_year)
    const scenario = listed ?? defaultScenario(pan, scheme)
    const base = this.#charges.create(ns, requested(input, input.description ?? CARD_MSG.DESCRIPTION, CARD_MSG.IN_PROGRESS, scenario.label, parent))
    const settings = scenarios.settings
    const expect: CardCharge['expect'] = {}
    if (scenario.steps.includes('PIN')) expect.pin = sha256(scenario.pin ?? settings.pin)
    if (scenario.steps.includes('OTP')) expect.otp = sha256(scenario.otp ?? settings.otp)
    const charge: CardCharge = Object.assign(base, {
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
    })
    // docs/behaviour.md#card-charges: a PIN sent up front consumes the PIN step
    if (input.card.pin !== undefined && charge.pending_steps.includes('PIN')) {
      charge.pending_steps = charge.pending_steps.filter((s) => s !== 'PIN')
      if (sha256(input.card.pin) !== expect.pin) this.#charges.fail(ns, charge, FAILURE.INCORRECT_PIN, CARD_MSG.PIN_UP_FRONT)
      else charge.history.push({ at: charge.created_at, step: 'PIN', result: CARD_MSG.PIN_PASSED_UP_FRONT })
    }
    if (charge.status === 'processing') this.#charges.advance(ns, charge)
    this.#charges.save(ns, charge)
    return charge
  }

  /** POST /charges/card/authorize */
  authorize(ns: string, input: AuthorizeInput): CardCharge {
    const charge = this.#charges.pending(ns, input.transaction_reference)
    const step = charge.pending_steps[0]
    const expected = step ? STEP_FIELD[step] : null
    if (!expected) throw badRequest(MSG.AUTH_NOT_REQUIRED)
    const auth = input.authorization
    if (auth[expected] === undefined) {
      const sent = (Object.keys(auth) as AuthField[]).find((k) => auth[k] !== undefined) ?? 'authorization'
      throw invalid({
        [`authorization.${expected}`]: CARD_MSG.stepRequired(step!),
        ...(sent !== expected ? { [`authorization.${sent}`]: CARD_MSG.notExpectedAt(step!) } : {}),
      })
    }
    const now = this.kit.clocks.iso(ns)
    if (step === 'PIN' && sha256(auth.pin!) !== charge.expect.pin) {
      this.#charges.fail(ns, charge, FAILURE.INCORRECT_PIN, 'PIN')
    } else if (step === 'OTP' && sha256(auth.otp!) !== charge.expect.otp) {
      this.#charges.fail(ns, charge, FAILURE.OTP_INVALID, 'OTP')
    } else {
      this.#charges.pass(ns, charge, step!, MSG.NOTE_PASSED)
    }
    charge.updated_at = now
    this.#charges.save(ns, charge)
    return charge
  }

  /** POST /charges/card/resend-otp */
  resendOtp(ns: string, transactionReference: string): CardCharge {
    return this.#charges.resend(ns, transactionReference, 'OTP', MSG.OTP_NOT_REQUIRED)
  }

  /** The cardholder's choice on the 3DS page. */
  decide3ds(ns: string, transactionReference: string, decision: 'approve' | 'decline'): CardCharge {
    const charge = this.#charges.current(ns, transactionReference, '3DS', MSG.AUTH_NOT_REQUIRED)
    if (decision === 'decline') this.#charges.fail(ns, charge, FAILURE.THREE_DS_DECLINED, '3DS')
    else this.#charges.pass(ns, charge, '3DS', CARD_MSG.THREE_DS_APPROVED)
    this.#charges.save(ns, charge)
    return charge
  }

  /** Control: finish a processing charge as success or failed. */
  complete(ns: string, transactionReference: string, outcome: 'success' | 'failed', message?: string): CardCharge {
    const charge = this.#charges.pending(ns, transactionReference)
    const step = charge.pending_steps[0] ?? 'processing'
    charge.pending_steps = []
    if (outcome === 'failed') {
      this.#charges.fail(ns, charge, message ?? (step === '3DS' ? FAILURE.THREE_DS_DECLINED : FAILURE.TRY_AGAIN), CARD_MSG.stepByControlCall(step))
    } else {
      this.#charges.note(ns, charge, step, MSG.BY_CONTROL_CALL)
      this.#charges.succeed(ns, charge)
    }
    this.#charges.save(ns, charge)
    return charge
  }

  /** docs/api.md 2.3: the `data` of a card charge response. */
  /** `origin`: the origin the client called, asked only when the answer names the 3DS page */
  responseData(charge: CardCharge, origin: () => string) {
    const step = charge.status === 'processing' ? charge.pending_steps[0] : undefined
    const data: Record<string, unknown> = {
      amount: toMajor(charge.amount),
      amount_charged: charge.status === 'success' ? toMajor(charge.amount) : 0,
      auth_model: charge.auth_model,
      currency: charge.currency,
      fee: toMajor(charge.fee),
      vat: toMajor(charge.vat),
      response_message: charge.response_message,
      payment_reference: charge.payment_reference,
      transaction_reference: charge.transaction_reference,
      status: charge.status,
      card: charge.card,
    }
    if (step === '3DS') data.authorization = { redirect_url: `${origin()}${threeDsPagePath(charge.transaction_reference)}` }
    else if (step) data.authorization = { required_fields: REQUIRED_FIELDS[step] }
    return data
  }

  /**
   * An authorize's answer (docs/behaviour.md#card-authorize-and-resend-otp): the charge's, and when it leads to the OTP step
   * the `metadata` the collection's sample gives there: what the step allows, one attempt (a wrong
   * OTP fails a card charge) and more resends.
   */
  authorizeData(charge: CardCharge, origin: () => string) {
    const data = this.responseData(charge, origin)
    if (charge.status === 'processing' && charge.pending_steps[0] === 'OTP') {
      data.metadata = { gateway_code: GATEWAY_CODE, can_resend_otp: true, otp_attempts_left: 1, support_message: CARD_MSG.OTP_SUPPORT }
    }
    return data
  }

  /**
   * `resend-otp`'s answer (docs/behaviour.md#card-authorize-and-resend-otp), as the collection's sample: the charge's status
   * and prompt, and `metadata` with `support_message` alone (the SDKs type the rest as optional).
   */
  resendData(charge: CardCharge) {
    return { status: charge.status, response_message: charge.response_message, metadata: { support_message: CARD_MSG.OTP_SUPPORT } }
  }

  /** The envelope message for a charge response. */
  envelopeMessage(charge: CardCharge): string {
    if (charge.status === 'success') return charge.preauth ? MSG.SUCCESS : CARD_MSG.CHARGED
    if (charge.status === 'failed') return charge.failure_message ?? CARD_MSG.IN_PROGRESS
    return CARD_MSG.IN_PROGRESS
  }

  #checkExpiry(ns: string, month: string, year: string): void {
    const y = year.length === 2 ? 2000 + Number(year) : Number(year)
    const now = new Date(this.kit.clocks.now(ns))
    const cy = now.getUTCFullYear()
    const cm = now.getUTCMonth() + 1
    if (y < cy || (y === cy && Number(month) < cm)) throw invalid({ 'card.expiry_year': CARD_MSG.CARD_EXPIRED })
  }
}


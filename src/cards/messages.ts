import type { CardStep } from '../scenario/schema.js'
import { MSG } from '../messages.js'

/** The texts of the card area alone: its charges, their steps, pre-authorizations (docs/behaviour.md#card-charges, docs/behaviour.md#preauth). */
export const CARD_MSG = {
  NOT_SUPPORTED: 'Card not supported',
  DECRYPT_FAILED: 'Unable to decrypt charge data, please check encryption and try again',
  CHARGED: 'Card charged successfully',
  IN_PROGRESS: 'Charge in progress',
  /** a charge's description when the request gives none */
  DESCRIPTION: 'Card payment',
  // field refusals of a charge
  NOT_LUHN: 'is not a valid card number',
  CARD_EXPIRED: 'the card has expired',
  NOT_AN_OBJECT: 'must decrypt to a JSON object',
  currencyMustBe: (currency: string) => `must be ${currency}`,
  // its history lines and the checkout page's line for an attempt
  PIN_UP_FRONT: 'PIN (up front)',
  THREE_DS_APPROVED: 'approved',
  PIN_PASSED_UP_FRONT: 'passed (up front)',
  /** the scenario label (the first history line) of a card no pack lists */
  ANY_OTHER_CARD: 'any other card: success, no authentication',
  stepRequired: (step: string) => `is required: the pending step is ${step}`,
  notExpectedAt: (step: string) => `is not expected at the ${step} step`,
  stepByControlCall: (step: string) => `${step} (${MSG.BY_CONTROL_CALL})`,
  attempt: (cardType: string, lastFour: string) => `Card ${cardType.toUpperCase()} •••• ${lastFour}`,
  /** what the response asks for at each step */
  STEP_PROMPT: {
    PIN: 'Card PIN required',
    OTP: 'Kindly enter the OTP sent to the phone number or e-mail tied to the card',
    AVS: 'Kindly provide the billing address of the card',
    CARD_ENROLL: 'Kindly provide the phone number tied to the card to enrol it for online payment',
    '3DS': 'Kindly complete the 3DS authentication on the page at authorization.redirect_url',
  } satisfies Record<CardStep, string>,
  /** `resend-otp`'s message (the collection's sample) */
  OTP_SENT: 'Otp sent successfully',
  /** `data.metadata.support_message` of resend-otp and of an authorize that leads to the OTP step (the collection's samples) */
  OTP_SUPPORT: "Didn't get the OTP? Dial *322*0# on your phone (MTN, Etisalat, Airtel) Glo, use *805*0#.",
  // docs/api.md 4: pre-authorization, capture, void, refund
  NOT_COMPLETE: 'Pre-authorization is not complete: finish its authorization steps first',
  FAILED: 'Pre-authorization failed and holds nothing',
  EXPIRED: 'Pre-authorization has expired',
  VOIDED: 'Pre-authorization has been voided',
  NOT_A_PREAUTH: 'This payment is not a pre-authorization',
  CURRENCY_MISMATCH: 'Currency does not match the pre-authorization',
  OVER_CAPTURE: 'Amount exceeds the amount left to capture',
  CAPTURE_VOIDED: 'Capture has already been voided',
  CAPTURE_SETTLED: 'Capture has been settled and can no longer be voided',
  VOID_TOO_MANY: 'The authorization cannot be voided: more than one capture follows it',
  VOID_SETTLED_CAPTURE: 'The authorization cannot be voided: the capture that follows it has been settled',
  VOID_NOT_A_CAPTURE: 'Only a capture or the authorization itself can be voided',
  VOID_CHARGED_BACK: 'A chargeback holds what was captured: the capture cannot be voided',
  SETTLE_NOT_A_CAPTURE: 'Only a capture or a successful charge can be settled',
  NOT_SETTLED: 'Only settled transactions can be refunded',
  OVER_REFUND: 'Amount exceeds the amount left to refund',
  NOT_REFUNDABLE: 'Only a settled capture or a successful charge can be refunded',
  CAPTURE_VOIDED_OK: 'Capture voided successfully',
  AUTH_VOIDED_OK: 'Authorization voided successfully',
  REFUNDED: 'Refund successful',
  // how the balance history describes an entry of this area's ledger source (docs/behaviour.md#ledger-and-balances)
  captureEntry: (ref: string, why: string | undefined, of: string | undefined) => `Capture${why ? ` ${why}` : ''} ${ref} of ${of}`,
  /** the checkout's scripted customer (POST /_sandbox/checkouts/:reference/pay) when the packs hold no test card for the outcome asked */
  noTestCard: (want: string) => `no test card of the active packs ends as ${want}: give one`,
} as const

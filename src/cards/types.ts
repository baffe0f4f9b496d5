/** The card area's records: its charge, a pre-authorization's hold, its operations (docs/api.md 2, 3). */
import type { CardSummary } from '../pan.js'
import type { CardStep } from '../scenario/schema.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { CURRENCY } from '../scenario/lookups.js'
import { MINOR, STRING } from '../store/validate.js'
import type { ChargeBase, SteppedCharge } from '../engine/types.js'

/**
 * What has gone back of a pay-in so far: refunded (a pre-authorization's, from its captures: the
 * hold's total), and held or taken by chargebacks. The one rule of what is left to return
 * (docs/behaviour.md#preauth-refund, docs/behaviour.md#refunds, docs/behaviour.md#chargebacks): the refunds API, the card refund, a void of a capture and a
 * chargeback all ask it, so together they never return more than was paid (or captured).
 */
export function returnedOf(charge: { refunded?: number; charged_back?: number; preauth?: { refunded: number } }): number {
  return (charge.preauth ? charge.preauth.refunded : (charge.refunded ?? 0)) + (charge.charged_back ?? 0)
}

/** The kind of a card charge. */
export const CARD = 'card'

/** Whether a charge is a card charge. */
export const isCard = (c: Frozen<ChargeBase>): c is Frozen<CardCharge> => c.kind === CARD

export interface CardCharge extends SteppedCharge<CardStep> {
  kind: 'card'
  operation: 'charge' | 'pre_authorization'
  card: CardSummary
  auth_model: 'NO_AUTH' | CardStep
  /** SHA-256 of the scenario's expected PIN and OTP: the values themselves are never stored */
  expect: { pin?: string; otp?: string }
  redirect_url: string | null
  dynamic_descriptor: string | null
  scenario_label: string
  /** the hold and its ledger, on a pre-authorization */
  preauth?: PreauthLedger
  /** refunded so far, minor units (a plain charge) */
  refunded?: number
  /** refunds made against it (a plain charge) */
  refunds?: string[]
  /** settled by the control call before its time */
  settled_at?: string | null
}

/** A card charge's status as the pay-ins list shows it and filters on (docs/behaviour.md#pay-ins-list): a pre-authorization's is its hold's. */
export function payinStatus(charge: CardCharge): ChargeBase['status'] | PreauthLedger['state'] {
  const hold = charge.preauth
  return hold && charge.status === 'success' ? hold.state : charge.status
}

/** docs/api.md 3.2: a pre-authorization's hold and totals, in minor units. */
export interface PreauthLedger {
  state: 'pre_authorized' | 'voided' | 'expired'
  authorized: number
  captured: number
  refunded: number
  expires_at: number
  receipt: string
  stan: string
  zero_auth: boolean
  /** capture transaction references, oldest first */
  captures: string[]
  /** every operation's transaction reference, oldest first */
  operations: string[]
  /** the timer that expires the hold */
  expiry_timer?: string
}

/** A capture, void or refund (docs/api.md 2.5). */
export interface CardOperation {
  transaction_reference: string
  payment_reference: string
  /** the pre-authorization or charge it belongs to */
  parent: string
  charge_operation: 'capture' | 'void_authorization' | 'void_capture' | 'refund'
  amount: number
  currency: string
  fee: number
  vat: number
  status: 'success' | 'void_capture'
  target_transaction_reference: string | null
  response_message: string
  created_at: string
  /** captures: voided, refunded so far (its credit and what later moved it: cards/capture-ledger.ts) */
  voided?: boolean
  refunded?: number
}

export const CARD_OPS = 'card_ops'
/** The card operations (captures, voids, refunds), as a data file must hold them (src/store/validate.ts). */
export const CARD_OPS_SPEC: CollectionSpec<CardOperation> = {
  name: CARD_OPS,
  fields: {
    transaction_reference: STRING,
    payment_reference: STRING,
    parent: STRING,
    charge_operation: STRING,
    amount: MINOR,
    currency: CURRENCY,
    status: STRING,
    created_at: STRING,
  },
  asWritten: ['transaction_reference', 'payment_reference', 'parent', 'target_transaction_reference'],
}

import type { CardSummary } from '../pan.js'
import type { CardStep, Outcome } from '../scenario/schema.js'
import type { CollectionSpec, VariantSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { CURRENCY } from '../scenario/lookups.js'
import { MINOR, OBJECT, STRING, STRINGS, TIME, URL_TEXT, listOf, maybe, type RecordFields } from '../store/validate.js'
import { STORED_METADATA } from './schemas.js'

/**
 * `pending`: a checkout nobody has started paying (docs/behaviour.md#checkout); `expired`: a checkout
 * or a temporary bank account whose time ran out on the namespace clock.
 */
export type ChargeStatus = 'pending' | 'processing' | 'success' | 'failed' | 'expired'
/** how a charge is paid: a channel */
export type PaymentMethod = 'card' | 'mobile_money' | 'direct_debit' | 'bank_transfer' | 'pay_with_bank' | 'voucher' | 'pool_account'
/**
 * what a charge record is: a channel's charge, a checkout whose channel the customer picks, or a
 * transfer into a virtual bank account (paid by bank transfer: docs/behaviour.md#virtual-accounts)
 */
export type ChargeKind = PaymentMethod | 'checkout' | 'virtual_account'

export interface PaymentAttempt {
  reference: string
  status: ChargeStatus
  channel: 'card' | 'mobile_money' | 'bank_account' | 'bank_transfer' | 'pay_with_bank'
  message: string
}

/** A step taken on a charge, for the dashboard and the journal. */
export interface StepEvent {
  at: string
  step: string
  result: string
}

/** What every charge kind has; amounts are integer minor units. */
export interface ChargeBase {
  kind: ChargeKind
  transaction_reference: string
  /** a checkout's attempt: the checkout's transaction reference (docs/behaviour.md#checkout) */
  parent?: string
  /** the timer that expires it while it is open (`ChargeLifecycle.expireAt`) */
  expiry_timer?: string | null
  payment_reference: string
  amount: number
  currency: string
  fee: number
  vat: number
  status: ChargeStatus
  description: string | null
  customer: { email?: string; name?: string } | null
  metadata: Record<string, unknown> | null
  /** where its events go instead of the namespace's webhook URL, for the kinds that take one (docs/behaviour.md#webhooks) */
  notification_url?: string | null
  response_message: string
  failure_message: string | null
  attempts: PaymentAttempt[]
  history: StepEvent[]
  created_at: string
  updated_at: string
  completed_at: string | null
  /** what open and lost chargebacks hold or took of it, minor units (a pre-authorization's, of what was captured: docs/behaviour.md#chargebacks) */
  charged_back?: number
}

/**
 * What has gone back of a pay-in so far: refunded (a pre-authorization's, from its captures: the
 * hold's total), and held or taken by chargebacks. The one rule of what is left to return
 * (docs/behaviour.md#preauth-refund, docs/behaviour.md#refunds, docs/behaviour.md#chargebacks): the refunds API, the card refund, a void of a capture and a
 * chargeback all ask it, so together they never return more than was paid (or captured).
 */
export function returnedOf(charge: { refunded?: number; charged_back?: number; preauth?: { refunded: number } }): number {
  return (charge.preauth ? charge.preauth.refunded : (charge.refunded ?? 0)) + (charge.charged_back ?? 0)
}

/** A charge the customer takes through steps (a PIN, an OTP, a prompt) before its scenario's end. */
export interface SteppedCharge<S extends string = string> extends ChargeBase {
  /** steps still to pass, the current one first */
  pending_steps: S[]
  /** the scenario's end: what happens once the steps are passed */
  outcome: Outcome
  outcome_message: string | null
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

/** A pay-in's status as the pay-ins list shows it and filters on (docs/behaviour.md#pay-ins-list): a pre-authorization's is its hold's. */
function payinStatus(charge: ChargeBase): ChargeBase['status'] | PreauthLedger['state'] {
  const hold = (charge as CardCharge).preauth
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

export const CHARGES = 'charges'
export const CHARGES_SPEC: CollectionSpec<ChargeBase> = {
  name: CHARGES,
  keyOf: 'transaction_reference',
  // the pay-ins list's order and what it filters on (docs/behaviour.md#pay-ins-list)
  order: { by: (c) => Date.parse(c.created_at), facts: { parent: (c) => c.parent, currency: (c) => c.currency, status: payinStatus } },
  indexes: {
    payment_reference: (c) => c.payment_reference,
    // a bank transfer's temporary account (bank-transfer/service.ts)
    account_number: (c) => (c as { bank_account?: { account_number?: string } }).bank_account?.account_number,
  },
  fields: {
    kind: STRING,
    transaction_reference: STRING,
    payment_reference: STRING,
    amount: MINOR,
    currency: CURRENCY,
    fee: MINOR,
    vat: MINOR,
    status: STRING,
    created_at: TIME,
    completed_at: maybe(TIME),
    customer: maybe(OBJECT),
    metadata: maybe(STORED_METADATA),
    // where the customer is sent back to (the 3DS page, the checkout page)
    redirect_url: maybe(URL_TEXT),
    // the query, the pay-ins list and the dashboard read each attempt and step
    attempts: listOf({ reference: STRING, status: STRING, channel: STRING }),
    history: listOf({ at: STRING, step: STRING, result: STRING }),
    // what chargebacks hold or took of it, which the refund checks read (docs/behaviour.md#chargebacks)
    charged_back: maybe(MINOR),
  },
  // each kind's own fields: declared by the area serving the kind (`chargeKind`)
  // the store masks card numbers in every other field (store/card-numbers.ts): references are the
  // client's keys, the URLs are called, `expect` holds the hashes of the PIN and OTP a step
  // expects (hex, whose digits may pass Luhn), `card` the card's summary (first six, last four)
  asWritten: ['transaction_reference', 'payment_reference', 'parent', 'attempts.reference', 'notification_url', 'redirect_url', 'expect', 'card'],
}

/**
 * The fields a charge of `kind` has beyond every charge's (CHARGES_SPEC), those its area's code
 * reads: declared once, in the area's `collections` beside the kind's `kinds.declare`, and checked
 * when a data file is opened or a snapshot restored (docs/behaviour.md#persistence, docs/behaviour.md#snapshots). A charge of a
 * kind no area declares is refused.
 */
export const chargeKind = (kind: ChargeKind, fields: RecordFields, asWritten?: readonly string[]): VariantSpec => ({ name: CHARGES, variant: { by: 'kind', value: kind, fields, asWritten } })
/** The fields every charge the customer takes through steps has (`SteppedCharge`). */
export const STEPPED_FIELDS: RecordFields = { pending_steps: STRINGS, outcome: STRING, expect: OBJECT }
export const CARD_OPS = 'card_ops'
/** The card operations (captures, voids, refunds), as a data file must hold them (validate.ts). */
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

import type { Outcome } from '../scenario/schema.js'
import type { CollectionSpec, VariantSpec } from '../store/collection.js'
import type { IndexFn } from '../store/secondary-index.js'
import { CURRENCY } from '../scenario/lookups.js'
import { MINOR, OBJECT, STRING, STRINGS, TIME, URL_TEXT, listOf, maybe, type RecordFields } from '../store/validate.js'
import { STORED_METADATA } from './schemas.js'

/**
 * `pending`: a checkout nobody has started paying (docs/behaviour.md#checkout); `expired`: a checkout
 * or a temporary bank account whose time ran out on the namespace clock.
 */
export type ChargeStatus = 'pending' | 'processing' | 'success' | 'failed' | 'expired'
/**
 * The kinds of charge, each added by the area that serves it, in its area.ts beside the kind's
 * `chargeKind` and `kinds.declare` (the pattern of hono's `ContextVariableMap`): its record, the
 * payment method of its name when a charge of it is paid so, the channel its attempts name:
 *
 *     declare module '../engine/types.js' {
 *       interface ChargeKinds { card: { record: CardCharge; method: 'card'; attempt: 'card' } }
 *     }
 *
 * A charge is a channel's, a checkout whose channel the customer picks, or a transfer into a
 * virtual bank account (paid by bank transfer: docs/behaviour.md#virtual-accounts). The compiler
 * checks every kind's name against these, and no union of them is written by hand (the answers'
 * schemas list the methods for the OpenAPI document, held to these: schemas.ts).
 */
export interface ChargeKinds {}

/** What an area declares of a kind in `ChargeKinds`. */
export interface KindTypes {
  record: ChargeBase
  method?: string
  attempt?: string
}

/** The name of a kind of charge (`ChargeKinds`). */
export type ChargeKind = keyof ChargeKinds & string
/** the record of a charge of `K` */
export type ChargeOf<K extends ChargeKind> = ChargeKinds[K] extends KindTypes ? ChargeKinds[K]['record'] : never
/** what the kinds declare under `F`, as one union */
type Declared<F extends 'method' | 'attempt'> = { [K in ChargeKind]: ChargeKinds[K] extends { [f in F]: infer V extends string } ? V : never }[ChargeKind]
/** how a charge is paid: a channel (`method` in `ChargeKinds`) */
export type PaymentMethod = Declared<'method'>

export interface PaymentAttempt {
  reference: string
  status: ChargeStatus
  /** the channel its kind names (`attempt` in `ChargeKinds`) */
  channel: Declared<'attempt'>
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

/** A charge the customer takes through steps (a PIN, an OTP, a prompt) before its scenario's end. */
export interface SteppedCharge<S extends string = string> extends ChargeBase {
  /** steps still to pass, the current one first */
  pending_steps: S[]
  /** the scenario's end: what happens once the steps are passed */
  outcome: Outcome
  outcome_message: string | null
}

export const CHARGES = 'charges'
export const CHARGES_SPEC: CollectionSpec<ChargeBase> = {
  name: CHARGES,
  keyOf: 'transaction_reference',
  // the pay-ins list's order and what it filters on (docs/behaviour.md#pay-ins-list)
  order: { by: (c) => Date.parse(c.created_at), facts: { parent: (c) => c.parent, currency: (c) => c.currency, status: (c) => c.status } },
  // a kind's own indexes are its area's (`chargeKind`): a bank transfer's account number
  indexes: { payment_reference: (c) => c.payment_reference },
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
  // expects (hex, whose digits may pass Luhn: `SteppedCharge`)
  asWritten: ['transaction_reference', 'payment_reference', 'parent', 'attempts.reference', 'notification_url', 'redirect_url', 'expect'],
}

/**
 * The fields a charge of `kind` has beyond every charge's (CHARGES_SPEC), those its area's code
 * reads: declared once, in the area's `collections` beside the kind's `kinds.declare`, and checked
 * when a data file is opened or a snapshot restored (docs/behaviour.md#persistence, docs/behaviour.md#snapshots). A charge of a
 * kind no area declares is refused. Beside them, what the kind's area declares of its own fields
 * (`VariantSpec`, src/store/collection.ts): those kept as written, the indexes it finds its charges
 * by (a bank transfer's account number), and what its charge shows the pay-ins list in place of a
 * fact (a pre-authorization's status is its hold's).
 */
export const chargeKind = <K extends ChargeKind>(
  kind: K,
  fields: RecordFields,
  own: { asWritten?: readonly string[]; indexes?: Record<string, IndexFn<ChargeOf<K>>>; facts?: { status?: (charge: ChargeOf<K>) => string } } = {},
): VariantSpec => ({ name: CHARGES, variant: { by: 'kind', value: kind, fields, ...own } })
/** The fields every charge the customer takes through steps has (`SteppedCharge`). */
export const STEPPED_FIELDS: RecordFields = { pending_steps: STRINGS, outcome: STRING, expect: OBJECT }

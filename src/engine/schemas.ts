import { z } from '../zod-messages.js'
import { fieldErrors, validate } from '../http/body.js'
import { invalid } from '../errors.js'
import { parseAmount, unitOf } from '../money.js'
import { decimalsOf } from '../scenario/lookups.js'
import { depthAtMost, isObject, type Check } from '../store/validate.js'
import type { ChargeStatus, PaymentAttempt, PaymentMethod } from './types.js'

/**
 * The request fields every charge channel shares (docs/api.md 2.2, 2.6): references, amounts,
 * metadata, URLs, and the limits on free text. The quick card path (cards/quick-input.ts) checks
 * the same rules without zod.
 */

/** the longest string each free-text field takes */
export const MAX_LENGTH = { reference: 100, name: 100, email: 254, description: 255, url: 2048 }

export const REFERENCE_MIN = 8

/** The field message of a string over `n` characters. */
export const atMost = (n: number) => `must be at most ${n} characters`

/** a charge's reference: at least 8 characters (card and mobile money, docs/api.md 8; bank transfer) */
export const referenceSchema = z.string().trim().min(REFERENCE_MIN, 'must be at least 8 characters').max(MAX_LENGTH.reference, atMost(MAX_LENGTH.reference))

/** a checkout's reference (`charges/initialize`): unique and not empty, no minimum length (docs/behaviour.md#checkout) */
export const initializeReferenceSchema = z.string().trim().min(1, 'is required').max(MAX_LENGTH.reference, atMost(MAX_LENGTH.reference))

/** A metadata value is stored and echoed: it may nest, but not without bound. */
export const METADATA_DEPTH = 10

type MetadataRule = readonly [(m: Record<string, unknown>) => boolean, string]

/** the characters of a metadata key: docs/api.md 2.2's, and `_` too where the pack says `metadata_underscores` */
const KEY_CHARACTERS = { spec: /^[A-Za-z0-9-]+$/, underscores: /^[A-Za-z0-9_-]+$/ }

/**
 * metadata's rules, in the order its errors are reported (the quick path checks the same ones):
 * docs/api.md 2.2's, or with `_` taken in keys when the namespace's pack says
 * `metadata_underscores` (docs/behaviour.md#scenario-packs); the key message is the same either way.
 */
function metadataRules(underscores: boolean): readonly MetadataRule[] {
  const key = underscores ? KEY_CHARACTERS.underscores : KEY_CHARACTERS.spec
  return [
    [(m) => Object.keys(m).length > 0, 'must not be an empty object'],
    [(m) => Object.keys(m).length <= 5, 'must have at most 5 keys'],
    [(m) => Object.keys(m).every((k) => k.length <= 20), 'keys must be at most 20 characters'],
    [(m) => Object.keys(m).every((k) => key.test(k)), 'keys may only hold A-Z, a-z, 0-9 and -'],
    [(m) => Object.values(m).every((v) => depthAtMost(v, METADATA_DEPTH)), `values may nest at most ${METADATA_DEPTH} levels`],
  ]
}

export const METADATA_RULES = { spec: metadataRules(false), underscores: metadataRules(true) }

/**
 * Metadata as a stored record holds it (a snapshot's, a data file's: docs/behaviour.md#persistence, docs/behaviour.md#snapshots):
 * what a request may send, `_` in keys taken (a pack may have allowed them).
 */
export const STORED_METADATA: Check = [
  (v) => isObject(v) && METADATA_RULES.underscores.every(([rule]) => rule(v as Record<string, unknown>)),
  `metadata as a request may send it: 1 to 5 keys of at most 20 characters (A-Z, a-z, 0-9, - or _), each value nesting at most ${METADATA_DEPTH} levels`,
]

const rulesSchema = (rules: readonly MetadataRule[]) =>
  rules.reduce<z.ZodType<Record<string, unknown>>>((schema, [rule, message]) => schema.refine(rule, message), z.record(z.string(), z.unknown()))

/** docs/api.md 2.2's metadata, as every schema that takes metadata holds it */
export const metadataSchema = rulesSchema(METADATA_RULES.spec)
const underscoreMetadataSchema = rulesSchema(METADATA_RULES.underscores)

/**
 * Validates a body whose top-level `metadata` is `metadataSchema` with the namespace's pack
 * (`metadata_underscores`, docs/behaviour.md#scenario-packs): by default by the schema alone; where the pack
 * takes `_` in keys, the rest of the body by the schema and `metadata` by the same rules with `_`
 * taken, their field errors answered together.
 */
export function validateWithMetadata<S extends z.ZodType>(schema: S, body: Record<string, unknown>, underscores: boolean): z.infer<S> {
  if (!underscores || body.metadata === undefined || body.metadata === null) return validate(schema, body)
  const { metadata, ...rest } = body
  const others = schema.safeParse(rest)
  const meta = underscoreMetadataSchema.safeParse(metadata)
  if (others.success && meta.success) return { ...(others.data as object), metadata: meta.data } as z.infer<S>
  const issues = [...(others.success ? [] : others.error.issues), ...(meta.success ? [] : meta.error.issues.map((i) => ({ ...i, path: ['metadata', ...i.path] })))]
  throw invalid(fieldErrors(new z.ZodError(issues)))
}

/** Whether a string is an absolute http(s) URL. */
export function isHttpUrl(u: string): boolean {
  try {
    const p = new URL(u).protocol
    return p === 'http:' || p === 'https:'
  } catch {
    return false
  }
}

export const httpUrlSchema = z.string().max(MAX_LENGTH.url, atMost(MAX_LENGTH.url)).refine(isHttpUrl, 'must be an http(s) URL')

/**
 * What is wrong with a major-unit amount (a number, > 0 or >= 0 where zero is allowed, at most 2
 * decimals), or undefined when nothing is.
 */
export function amountIssue(v: unknown, { allowZero = false, allowString = false } = {}): string | undefined {
  if (v === undefined) return 'is required'
  if (typeof v !== 'number' && !(allowString && typeof v === 'string')) return allowString ? 'must be a number or a numeric string' : 'must be a number'
  const n = typeof v === 'number' ? v : Number(v)
  if (typeof v === 'string' && !/^\d+(\.\d+)?$/.test(v)) return 'must be a numeric string'
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) return allowZero ? 'must be zero or more' : 'must be greater than 0'
  if (!/^\d+(\.\d{1,2})?$/.test(typeof v === 'number' ? String(v) : (v as string))) return 'must have at most 2 decimal places'
  if (n > 1_000_000_000_000) return 'is too large'
  return undefined
}

/**
 * An amount (minor units) finer than its currency's unit, fixtures/lookups.json's decimals (docs/behaviour.md#money: XAF and XOF have no minor unit): `must be a whole number for XAF`; undefined when it is not.
 */
export function unitIssue(currency: string, minor: number): string | undefined {
  return minor % unitOf(decimalsOf(currency)) === 0 ? undefined : `must be a whole number for ${currency}`
}

/** `unitIssue` in a request body's refinement, reported at `path`. */
export function checkUnit(ctx: z.RefinementCtx, currency: unknown, minor: unknown, path: (string | number)[]): void {
  // a field refused already is not checked again
  if (typeof currency !== 'string' || typeof minor !== 'number') return
  const message = unitIssue(currency, minor)
  if (message) ctx.addIssue({ code: 'custom', path, message })
}

/**
 * A request's amount: sent in major units, checked (`amountIssue`, then the range `within` where
 * it has one, in major units) and handed on in minor units. Past the request schemas every amount
 * is minor units (docs/architecture.md, "Services are free of Hono").
 */
export const amountSchema = (opts: { allowZero?: boolean; allowString?: boolean; within?: { min: number; max: number } } = {}) =>
  z
    .unknown()
    .superRefine((v, ctx) => {
      const message = amountIssue(v, opts) ?? outside(Number(v), opts.within)
      if (message) ctx.addIssue({ code: 'custom', message })
    })
    .transform((v) => parseAmount(v, opts)!)

function outside(major: number, within: { min: number; max: number } | undefined): string | undefined {
  if (within && (major < within.min || major > within.max)) return `must be between ${within.min} and ${within.max}`
  return undefined
}

/** every status a charge record may have (the compiler checks the list against `ChargeStatus`) */
const STATUSES = ['pending', 'processing', 'success', 'failed', 'expired'] as const satisfies readonly ChargeStatus[]
const METHODS = ['card', 'mobile_money', 'direct_debit', 'bank_transfer', 'pay_with_bank', 'voucher', 'pool_account'] as const satisfies readonly PaymentMethod[]
const ATTEMPT_CHANNELS = ['card', 'mobile_money', 'bank_account', 'bank_transfer', 'pay_with_bank'] as const satisfies readonly PaymentAttempt['channel'][]
// and none is missing from the lists
const _all: [Exclude<ChargeStatus, (typeof STATUSES)[number]>, Exclude<PaymentMethod, (typeof METHODS)[number]>, Exclude<PaymentAttempt['channel'], (typeof ATTEMPT_CHANNELS)[number]>] extends [never, never, never] ? true : never = true
void _all

/** Whether a kind of charge is also a payment method (a card charge is paid by card). */
export const isPaymentMethod = (kind: string): kind is PaymentMethod => (METHODS as readonly string[]).includes(kind)

/** a charge's statuses and methods as the answers' schemas list them (the OpenAPI document) */
export const chargeStatusSchema = z.enum(STATUSES)
export const paymentMethodSchema = z.enum(METHODS)

export const attemptSchema = z.object({
  reference: z.string().describe("the attempt's transaction reference"),
  status: chargeStatusSchema,
  channel: z.enum(ATTEMPT_CHANNELS),
  message: z.string(),
})

/** The charge query's answer (docs/api.md 2.8, docs/behaviour.md#card-outcomes-and-query and docs/behaviour.md#checkout), written here: it is built in code, not validated. */
export const chargeRecordSchema = z
  .object({
    reference: z.string().describe("the merchant's (payment) reference"),
    status: chargeStatusSchema.describe('`pending`: a checkout nobody has started paying; `processing`: under way (a checkout tried at least once and still open, a step or a transfer awaited); `expired`: a checkout or a temporary bank account whose time ran out on the namespace clock'),
    amount: z.string(),
    amount_paid: z.string(),
    fee: z.number().describe('a number, as the newer pages write it'),
    currency: z.string(),
    description: z.string().nullable(),
    payment_attempts: z.array(attemptSchema).optional().describe('the failed tries; for a checkout, every attempt, its status as it is'),
    customer: z.object({ name: z.string().nullable().optional(), email: z.string().nullable().optional() }).optional(),
  })
  .describe('What every kind of charge answers; each kind adds its own fields (card, mobile_money, ledger, expires_at ...)')

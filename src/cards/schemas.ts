import { z } from '../http/zod-messages.js'

/** docs/api.md 2.2 and 8, with docs/behaviour.md 3's additions. */

/** the card fields' formats (the quick path in quick-input.ts checks the same) */
export const CARD_FORMAT = {
  number: /^\d{12,19}$/,
  cvv: /^\d{3,4}$/,
  expiry_month: /^(0[1-9]|1[0-2])$/,
  expiry_year: /^(\d{2}|\d{4})$/,
  pin: /^\d{4}$/,
}

/** the longest string each free-text field takes */
export const MAX_LENGTH = { reference: 100, name: 100, email: 254, description: 255, url: 2048 }

export const REFERENCE_MIN = 8

const atMost = (n: number) => `must be at most ${n} characters`

export const referenceSchema = z.string().trim().min(REFERENCE_MIN, 'must be at least 8 characters').max(MAX_LENGTH.reference, atMost(MAX_LENGTH.reference))

/** A metadata value is stored and echoed: it may nest, but not without bound. */
const METADATA_DEPTH = 10

/** Whether a JSON value nests at most `max` levels of arrays and objects (no recursion). */
function depthAtMost(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length) {
    const [v, d] = stack.pop()!
    if (!v || typeof v !== 'object') continue
    if (d >= max) return false
    for (const child of Object.values(v)) stack.push([child, d + 1])
  }
  return true
}

/** metadata's rules, in the order its errors are reported (the quick path checks the same ones) */
export const METADATA_RULES: readonly [(m: Record<string, unknown>) => boolean, string][] = [
  [(m) => Object.keys(m).length > 0, 'must not be an empty object'],
  [(m) => Object.keys(m).length <= 5, 'must have at most 5 keys'],
  [(m) => Object.keys(m).every((k) => k.length <= 20), 'keys must be at most 20 characters'],
  [(m) => Object.keys(m).every((k) => /^[A-Za-z0-9-]+$/.test(k)), 'keys may only hold A-Z, a-z, 0-9 and -'],
  [(m) => Object.values(m).every((v) => depthAtMost(v, METADATA_DEPTH)), `values may nest at most ${METADATA_DEPTH} levels`],
]

export const metadataSchema = METADATA_RULES.reduce<z.ZodType<Record<string, unknown>>>(
  (schema, [rule, message]) => schema.refine(rule, message),
  z.record(z.string(), z.unknown()),
)

export const DYNAMIC_DESCRIPTOR = /^[A-Z0-9]{1,10}$/

export const dynamicDescriptorSchema = z
  .string()
  .regex(DYNAMIC_DESCRIPTOR, 'must be 1-10 characters, only A-Z and 0-9')

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

export const amountSchema = (opts: { allowZero?: boolean; allowString?: boolean } = {}) =>
  z.unknown().superRefine((v, ctx) => {
    const message = amountIssue(v, opts)
    if (message) ctx.addIssue({ code: 'custom', message })
  })

export const cardChargeSchema = z.object({
  reference: referenceSchema,
  card: z.object({
    name: z.string().max(MAX_LENGTH.name, atMost(MAX_LENGTH.name)).optional(),
    number: z.string().regex(CARD_FORMAT.number, 'must be 12-19 digits'),
    cvv: z.string().regex(CARD_FORMAT.cvv, 'must be 3 or 4 digits'),
    expiry_month: z.string().regex(CARD_FORMAT.expiry_month, 'must be 2 digits, 01-12'),
    expiry_year: z.string().regex(CARD_FORMAT.expiry_year, 'must be 2 or 4 digits'),
    pin: z.string().regex(CARD_FORMAT.pin, 'must be 4 digits').optional(),
  }),
  amount: amountSchema(),
  currency: z.literal('NGN'),
  redirect_url: httpUrlSchema.optional(),
  customer: z.object({
    email: z.string().email().max(MAX_LENGTH.email),
    name: z.string().max(MAX_LENGTH.name, atMost(MAX_LENGTH.name)).optional(),
  }),
  metadata: metadataSchema.optional(),
  dynamic_descriptor: dynamicDescriptorSchema.optional(),
  description: z.string().max(MAX_LENGTH.description, atMost(MAX_LENGTH.description)).optional(),
})
export type CardChargeInput = z.infer<typeof cardChargeSchema>

export const chargeDataSchema = z.object({ charge_data: z.string().min(1, 'is required') })

const avsSchema = z.object({
  state: z.string().min(1, 'is required'),
  city: z.string().min(1, 'is required'),
  country: z.string().min(1, 'is required'),
  address: z.string().min(1, 'is required'),
  zip_code: z.string().min(1, 'is required'),
})

export const AUTH_FIELDS = ['pin', 'otp', 'avs', 'phone'] as const
export type AuthField = (typeof AUTH_FIELDS)[number]

export const authorizeSchema = z.object({
  transaction_reference: z.string().min(1, 'is required'),
  authorization: z
    .object({
      pin: z.string().regex(/^\d{4}$/, 'must be 4 digits').optional(),
      otp: z.string().regex(/^\d{4,8}$/, 'must be 4-8 digits').optional(),
      avs: avsSchema.optional(),
      phone: z.string().regex(/^\+?\d{7,15}$/, 'must be a phone number in international format').optional(),
    })
    .superRefine((a, ctx) => {
      const given = AUTH_FIELDS.filter((f) => a[f] !== undefined)
      if (given.length !== 1) {
        ctx.addIssue({ code: 'custom', message: 'must hold exactly one of pin, otp, avs, phone' })
      }
    }),
})
export type AuthorizeInput = z.infer<typeof authorizeSchema>

export const transactionReferenceSchema = z.object({ transaction_reference: z.string().min(1, 'is required') })

export const preauthChargeSchema = cardChargeSchema.extend({ amount: amountSchema({ allowZero: true }) })

const opReference = z.string().trim().min(1, 'is required').max(100, atMost(100))

export const captureSchema = z.object({
  amount: amountSchema({ allowString: true }),
  currency: z.string().min(1, 'is required'),
  payment_reference: opReference,
  transaction_reference: opReference,
})
export type CaptureInput = z.infer<typeof captureSchema>

export const voidSchema = z.object({
  payment_reference: opReference,
  transaction_reference: opReference,
  target_transaction_reference: opReference,
})
export type VoidInput = z.infer<typeof voidSchema>

export const refundSchema = captureSchema.extend({ target_transaction_reference: opReference })
export type RefundInput = z.infer<typeof refundSchema>

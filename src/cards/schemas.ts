import { MAX_LENGTH, amountSchema, atMost, httpUrlSchema, metadataSchema, referenceSchema } from '../engine/schemas.js'
import { z } from '../zod-messages.js'

/** docs/api.md 2.2 and 8, with docs/behaviour.md#card-charges's additions. */

/** the card fields' formats (the quick path in quick-input.ts checks the same) */
export const CARD_FORMAT = {
  number: /^\d{12,19}$/,
  cvv: /^\d{3,4}$/,
  expiry_month: /^(0[1-9]|1[0-2])$/,
  expiry_year: /^(\d{2}|\d{4})$/,
  pin: /^\d{4}$/,
}

export const DYNAMIC_DESCRIPTOR = /^[A-Z0-9]{1,10}$/

export const dynamicDescriptorSchema = z
  .string()
  .regex(DYNAMIC_DESCRIPTOR, 'must be 1-10 characters, only A-Z and 0-9')

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

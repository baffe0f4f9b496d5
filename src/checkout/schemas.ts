import { MAX_LENGTH, amountIssue, amountSchema, attemptSchema, checkUnit, chargeStatusSchema, paymentMethodSchema, atMost, httpUrlSchema, metadataSchema, initializeReferenceSchema } from '../charges/schemas.js'
import { z } from '../http/zod-messages.js'
import { parseAmount } from '../money.js'
import { WALLET_CURRENCIES } from '../scenario/lookups.js'

/** docs/behaviour.md#checkout: Checkout Standard's request, and which channel takes which currency. */

export const CHECKOUT_CHANNELS = ['card', 'bank_transfer', 'mobile_money', 'pay_with_bank'] as const
export type CheckoutChannel = (typeof CHECKOUT_CHANNELS)[number]
/** Whether a page's action names a channel (starts paying by it) rather than a step. */
export const isCheckoutChannel = (action: string): action is CheckoutChannel => (CHECKOUT_CHANNELS as readonly string[]).includes(action)

/** the currencies each channel takes in the sandbox; mobile money's are the wallet currencies of fixtures/lookups.json */
export const CHANNEL_CURRENCIES: Record<CheckoutChannel, readonly string[]> = {
  card: ['NGN', 'USD'],
  bank_transfer: ['NGN'],
  mobile_money: WALLET_CURRENCIES,
  pay_with_bank: ['NGN'],
}

/** every currency some channel takes */
export const CHECKOUT_CURRENCIES = [...new Set(Object.values(CHANNEL_CURRENCIES).flat())] as [string, ...string[]]

/**
 * What a checkout's page offers (docs/behaviour.md#checkout, CONTRACT 14): the asked channels that take
 * the currency, in the order asked; when none does, every channel that takes it. The default
 * channel falls back the same way: kept when offered, none otherwise (the page then preselects the
 * first).
 */
export function offeredChannels(currency: string, asked: readonly CheckoutChannel[] = CHECKOUT_CHANNELS, dflt?: CheckoutChannel): { channels: CheckoutChannel[]; default_channel: CheckoutChannel | null } {
  const taking = (list: readonly CheckoutChannel[]) => [...new Set(list)].filter((ch) => CHANNEL_CURRENCIES[ch].includes(currency))
  const kept = taking(asked)
  const channels = kept.length ? kept : taking(CHECKOUT_CHANNELS)
  return { channels, default_channel: channels.find((ch) => ch === dflt) ?? null }
}

/** every field the initialize call takes; any other is refused by name, as the live service does */
const FIELDS = new Set(['reference', 'amount', 'currency', 'narration', 'channels', 'default_channel', 'customer', 'redirect_url', 'notification_url', 'metadata', 'merchant_bears_cost', 'payment_currency', 'settlement_currency', 'split_reference', 'split_configuration'])

/** docs/behaviour.md#checkout-split-and-conversion: a split's accounts: a flat share (an amount, numeric strings too) or a percentage */
const splitConfigurationSchema = z
  .object({
    split_type: z.enum(['percentage', 'flat']),
    split_accounts: z
      .array(
        z.object({
          value: z.union([z.number(), z.string()]),
          split_account_reference: z.string().trim().min(1, 'is required').max(MAX_LENGTH.reference, atMost(MAX_LENGTH.reference)),
        }),
      )
      .min(1, 'must hold at least one account')
      .max(50, 'must hold at most 50 accounts'),
  })
  .superRefine((v, ctx) => {
    let percent = 0
    v.split_accounts.forEach((a, i) => {
      const issue = amountIssue(a.value, { allowString: true })
      if (issue) return ctx.addIssue({ code: 'custom', path: ['split_accounts', i, 'value'], message: issue })
      percent += Number(a.value)
    })
    if (v.split_type === 'percentage' && percent > 100) ctx.addIssue({ code: 'custom', path: ['split_accounts'], message: 'percentages must total at most 100' })
  })
export type SplitConfiguration = z.infer<typeof splitConfigurationSchema>

export const initializeSchema = z
  .object({
    reference: initializeReferenceSchema,
    // a numeric string too, as Dart, Elixir and Java clients send it (CONTRACT 14)
    amount: amountSchema({ allowString: true }),
    currency: z.enum(CHECKOUT_CURRENCIES),
    narration: z.string().max(MAX_LENGTH.description, atMost(MAX_LENGTH.description)).optional(),
    channels: z.array(z.enum(CHECKOUT_CHANNELS)).min(1, 'must hold at least one channel').optional(),
    default_channel: z.enum(CHECKOUT_CHANNELS).optional(),
    customer: z.object({
      email: z.string().email().max(MAX_LENGTH.email, atMost(MAX_LENGTH.email)),
      name: z.string().max(MAX_LENGTH.name, atMost(MAX_LENGTH.name)).optional(),
    }),
    redirect_url: httpUrlSchema.optional(),
    notification_url: httpUrlSchema.optional(),
    metadata: metadataSchema.optional(),
    merchant_bears_cost: z.boolean().optional(),
    payment_currency: z.string().optional(),
    settlement_currency: z.string().optional(),
    split_reference: z.string().trim().min(1, 'is required').max(MAX_LENGTH.reference, atMost(MAX_LENGTH.reference)).optional(),
    split_configuration: splitConfigurationSchema.optional(),
  })
  .passthrough()
  .superRefine((v, ctx) => {
    for (const key of Object.keys(v)) if (!FIELDS.has(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'is not allowed' })
    checkUnit(ctx, v.currency, v.amount, ['amount'])
    // channels the currency does not take are dropped, not refused (offeredChannels)
    const channels = v.channels ?? CHECKOUT_CHANNELS
    if (v.default_channel && !channels.includes(v.default_channel)) ctx.addIssue({ code: 'custom', path: ['default_channel'], message: 'must be one of channels' })
    // flat shares are amounts of the charge's currency; a converted checkout is not split (docs/behaviour.md#checkout-split-and-conversion)
    if (v.split_configuration?.split_type === 'flat') v.split_configuration.split_accounts.forEach((a, i) => {
      const minor = parseAmount(a.value, { allowString: true })
      if (minor !== null) checkUnit(ctx, v.currency, minor, ['split_configuration', 'split_accounts', i, 'value'])
    })
    if (v.split_reference && v.split_configuration) ctx.addIssue({ code: 'custom', path: ['split_reference'], message: 'must not be sent with split_configuration' })
    const converted = [v.payment_currency, v.settlement_currency].some((c) => c !== undefined && c !== v.currency)
    if (converted && (v.split_configuration || v.split_reference)) ctx.addIssue({ code: 'custom', path: ['split_configuration'], message: 'cannot be applied to a checkout paid or settled in another currency' })
  })
export type InitializeInput = z.infer<typeof initializeSchema>

const cardSchema = z.object({
  number: z.string().regex(/^\d{12,19}$/, 'must be 12-19 digits'),
  cvv: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
  expiry_month: z.string().regex(/^(0[1-9]|1[0-2])$/, 'must be 2 digits, 01-12'),
  expiry_year: z.string().regex(/^(\d{2}|\d{4})$/, 'must be 2 or 4 digits'),
  pin: z.string().regex(/^\d{4}$/, 'must be 4 digits').optional(),
})
export type CheckoutCard = z.infer<typeof cardSchema>

/** POST /_sandbox/checkouts/:reference/pay (docs/behaviour.md#checkout) */
export const controlPaySchema = z
  .object({
    channel: z.enum(CHECKOUT_CHANNELS),
    outcome: z.enum(['success', 'failed']).optional(),
    card: cardSchema.optional(),
    mobile_money: z.object({ number: z.string().regex(/^\+?\d{10,15}$/, 'must be the wallet number in international format, digits only') }).optional(),
    amount: amountSchema().optional(),
    /** pay with bank: the bank the customer picks (the first of the packs' that ends as `outcome` when absent) */
    bank_code: z.string().min(1).optional(),
  })
  .strict()
export type ControlPayInput = z.infer<typeof controlPaySchema>

/** What initialize answers (written here: it is built in code, not validated). */
export const initializeAnswerSchema = z.object({
  reference: z.string().describe("the merchant's reference, as sent"),
  checkout_url: z.string().describe("the hosted page on the origin the client called (`https://api.korapay.com` through the proxy or interception): `<origin>/checkout/<transaction reference>/pay`"),
})

/** What the control calls answer about a checkout. */
export const checkoutSummarySchema = z.object({
  reference: z.string(),
  transaction_reference: z.string(),
  status: chargeStatusSchema,
  payment_method: paymentMethodSchema.nullable(),
  message: z.string(),
  payment_attempts: z.array(attemptSchema),
})

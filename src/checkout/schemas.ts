import { MAX_LENGTH, amountIssue, amountSchema, attemptSchema, checkUnit, chargeStatusSchema, paymentMethodSchema, atMost, httpUrlSchema, metadataSchema, initializeReferenceSchema } from '../engine/schemas.js'
import { z } from '../zod-messages.js'
import { parseAmount } from '../money.js'
import { byChannels, checkoutChannelOf } from '../engine/checkout-channel.js'

/**
 * docs/behaviour.md#checkout: Checkout Standard's request. Its channels are those the paying areas
 * declare (`checkoutChannel`, src/engine/checkout-channel.ts), each with the currencies it takes:
 * the schemas below are made from them, again when one is declared.
 */

export type CheckoutChannel = string

/** the declared channels' names, by their place */
export const channelNames = byChannels((channels) => channels.map((ch) => ch.kind) as [string, ...string[]])

/** every currency some channel takes */
export const checkoutCurrencies = byChannels((channels) => [...new Set(channels.flatMap((ch) => ch.currencies))] as [string, ...string[]])

/** Whether a page's action names a channel (starts paying by it) rather than a step. */
export const isCheckoutChannel = (action: string): boolean => checkoutChannelOf(action) !== undefined

/**
 * What a checkout's page offers (docs/behaviour.md#checkout, CONTRACT 14): the asked channels that take
 * the currency, in the order asked; when none does, every channel that takes it. The default
 * channel falls back the same way: kept when offered, none otherwise (the page then preselects the
 * first).
 */
export function offeredChannels(currency: string, asked: readonly CheckoutChannel[] = channelNames(), dflt?: CheckoutChannel): { channels: CheckoutChannel[]; default_channel: CheckoutChannel | null } {
  const taking = (list: readonly CheckoutChannel[]) => [...new Set(list)].filter((ch) => checkoutChannelOf(ch)?.currencies.includes(currency))
  const kept = taking(asked)
  const channels = kept.length ? kept : taking(channelNames())
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

/** The initialize call's body, of the channels declared now. */
export const initializeSchema = byChannels(() => z
  .object({
    reference: initializeReferenceSchema,
    // a numeric string too, as Dart, Elixir and Java clients send it (CONTRACT 14)
    amount: amountSchema({ allowString: true }),
    currency: z.enum(checkoutCurrencies()),
    narration: z.string().max(MAX_LENGTH.description, atMost(MAX_LENGTH.description)).optional(),
    channels: z.array(z.enum(channelNames())).min(1, 'must hold at least one channel').optional(),
    default_channel: z.enum(channelNames()).optional(),
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
    const channels = v.channels ?? channelNames()
    if (v.default_channel && !channels.includes(v.default_channel)) ctx.addIssue({ code: 'custom', path: ['default_channel'], message: 'must be one of channels' })
    // flat shares are amounts of the charge's currency; a converted checkout is not split (docs/behaviour.md#checkout-split-and-conversion)
    if (v.split_configuration?.split_type === 'flat') v.split_configuration.split_accounts.forEach((a, i) => {
      const minor = parseAmount(a.value, { allowString: true })
      if (minor !== null) checkUnit(ctx, v.currency, minor, ['split_configuration', 'split_accounts', i, 'value'])
    })
    if (v.split_reference && v.split_configuration) ctx.addIssue({ code: 'custom', path: ['split_reference'], message: 'must not be sent with split_configuration' })
    const converted = [v.payment_currency, v.settlement_currency].some((c) => c !== undefined && c !== v.currency)
    if (converted && (v.split_configuration || v.split_reference)) ctx.addIssue({ code: 'custom', path: ['split_configuration'], message: 'cannot be applied to a checkout paid or settled in another currency' })
  }))
export type InitializeInput = z.infer<ReturnType<typeof initializeSchema>>

/** POST /_sandbox/checkouts/:reference/pay (docs/behaviour.md#checkout): the channel, the outcome, and each channel's own fields (`payFields`) */
export const controlPaySchema = byChannels((channels) =>
  z
    .object({
      channel: z.enum(channelNames()),
      outcome: z.enum(['success', 'failed']).optional(),
      ...Object.assign({}, ...channels.map((ch) => ch.payFields)),
    })
    .strict(),
)
export type ControlPayInput = { channel: string; outcome?: 'success' | 'failed' } & Record<string, unknown>

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

import { z } from 'zod'
import * as card from './cards/schemas.js'
import type { ChargeStatus, PaymentAttempt, PaymentMethod } from './charges/types.js'
import { CHECKOUT_CHANNELS, controlPaySchema, initializeSchema } from './checkout/schemas.js'
import { bankTransferSchema } from './bank-transfer/schemas.js'
import { fundSchema } from './balances/routes.js'
import { historyAnswerSchema, historyQuerySchema } from './balances/schemas.js'
import { payinQuerySchema, payinsAnswerSchema } from './pay-ins/schemas.js'
import { completeRefundSchema, initiateSchema as refundInitiateSchema, refundListSchema } from './refunds/schemas.js'
import { bulkItemsQuerySchema, bulkSchema, completePayoutSchema, disburseSchema, payoutListSchema, remittanceSchema } from './payouts/schemas.js'
import { advanceSchema, completeSchema, eventsQuerySchema, faultSchema, freezeSchema, requestsQuerySchema, webhookUrlSchema } from './control/schemas.js'
import { createAuthorizationSchema, debitSchema, transitionReasonSchema } from './direct-debit/schemas.js'
import { ID_TYPES, identityRequestSchema } from './identity/schemas.js'
import { countryQuerySchema, resolveSchema } from './misc/schemas.js'
import { mmAuthorizeSchema, mobileMoneyChargeSchema, resendSchema, stkAuthorizeSchema } from './mobile-money/schemas.js'
import { packSchema } from './scenario/schema.js'
import { createSchema as vbaCreateSchema, creditSchema as vbaCreditSchema, transactionsQuerySchema as vbaTransactionsSchema } from './virtual-accounts/schemas.js'

/**
 * The OpenAPI 3.1 document of the merchant, identity and control API, served at
 * `GET /_sandbox/openapi.json`. Request bodies and query parameters are converted from the very
 * zod schemas the routes validate with, so the document cannot drift from what is enforced. The
 * route table below names each route once; test/openapi.test.ts checks it against every route
 * the app registers. The 3DS page, the hosted checkout page and the dashboard are HTML for a
 * browser and are left out.
 */

type Schema = Record<string, unknown>
type Tag = 'cards' | 'mobile money' | 'bank transfer' | 'checkout' | 'virtual accounts' | 'balances' | 'refunds' | 'payouts' | 'direct debit' | 'identity' | 'charges' | 'misc' | 'control'

interface Route {
  method: 'get' | 'post' | 'put' | 'delete'
  /** Hono form, `:param` */
  path: string
  tag: Tag
  operationId: string
  summary: string
  description?: string
  /** a component name in `schemas` below */
  body?: string
  /** a component name in `schemas` below: what `data` holds in the 200 answer */
  answer?: string
  /** false: the body may be left out */
  bodyRequired?: boolean
  query?: z.ZodObject
  /** no key needed */
  public?: boolean
  /** a public test key is accepted as well as the secret key (docs/behaviour.md 13.5) */
  publicKey?: boolean
  extensions?: Record<string, unknown>
  /** a step on a payment: 409 when the payment has already finished (docs/behaviour.md 2.1) */
  step?: boolean
}

/** Request body schemas, by component name: the same objects the routes validate with. */
const BODIES: Record<string, z.ZodType> = {
  ChargeDataRequest: card.chargeDataSchema,
  CardChargePayload: card.cardChargeSchema,
  PreauthChargePayload: card.preauthChargeSchema,
  CardAuthorizeRequest: card.authorizeSchema,
  CaptureRequest: card.captureSchema,
  VoidRequest: card.voidSchema,
  RefundRequest: card.refundSchema,
  TransactionReferenceRequest: card.transactionReferenceSchema,
  DisburseRequest: disburseSchema,
  RemittanceRequest: remittanceSchema,
  CompletePayoutRequest: completePayoutSchema,
  BulkPayoutRequest: bulkSchema,
  MobileMoneyChargeRequest: mobileMoneyChargeSchema,
  MobileMoneyAuthorizeRequest: mmAuthorizeSchema,
  StkAuthorizeRequest: stkAuthorizeSchema,
  ResendRequest: resendSchema,
  DebitRequest: debitSchema,
  IdentityRequest: identityRequestSchema,
  ClockAdvanceRequest: advanceSchema,
  ClockFreezeRequest: freezeSchema,
  ScenarioPack: packSchema,
  WebhookUrlRequest: webhookUrlSchema,
  FaultRequest: faultSchema,
  CompleteChargeRequest: completeSchema,
  CreateAuthorizationRequest: createAuthorizationSchema,
  TransitionRequest: transitionReasonSchema,
  InitializeRequest: initializeSchema,
  CheckoutPayRequest: controlPaySchema,
  BankTransferRequest: bankTransferSchema,
  FundRequest: fundSchema,
  InitiateRefundRequest: refundInitiateSchema,
  CompleteRefundRequest: completeRefundSchema,
  VirtualAccountRequest: vbaCreateSchema,
  VirtualAccountCreditRequest: vbaCreditSchema,
  ResolveAccountRequest: resolveSchema,
}

/**
 * Bodies whose schema lets unknown fields through only to name each one in the refusal
 * (`"<field>": "is not allowed"`): the document shows them closed, as they are enforced.
 */
const CLOSED = new Set(['InitializeRequest'])

/** every status a charge record may have (the compiler checks the list against `ChargeStatus`) */
const STATUSES = ['pending', 'processing', 'success', 'failed', 'expired'] as const satisfies readonly ChargeStatus[]
const METHODS = ['card', 'mobile_money', 'direct_debit', 'bank_transfer'] as const satisfies readonly PaymentMethod[]
const ATTEMPT_CHANNELS = ['card', 'mobile_money', 'bank_account', 'bank_transfer'] as const satisfies readonly PaymentAttempt['channel'][]
// and none is missing from the lists
const _all: [Exclude<ChargeStatus, (typeof STATUSES)[number]>, Exclude<PaymentMethod, (typeof METHODS)[number]>, Exclude<PaymentAttempt['channel'], (typeof ATTEMPT_CHANNELS)[number]>] extends [never, never, never] ? true : never = true
void _all

const attemptSchema = z.object({
  reference: z.string().describe("the attempt's transaction reference"),
  status: z.enum(STATUSES),
  channel: z.enum(ATTEMPT_CHANNELS),
  message: z.string(),
})

/** The `data` of some answers, by component name (written here: they are built in code, not validated). */
const ANSWERS: Record<string, z.ZodType> = {
  // docs/api.md 2.8 and docs/behaviour.md 13.1
  ChargeRecord: z
    .object({
      reference: z.string().describe("the merchant's (payment) reference"),
      transaction_reference: z.string(),
      status: z.enum(STATUSES).describe('`pending`: a checkout nobody has started paying; `processing`: under way (a checkout tried at least once and still open, a step or a transfer awaited); `expired`: a checkout or a temporary bank account whose time ran out on the namespace clock'),
      amount: z.string(),
      amount_paid: z.string(),
      fee: z.string(),
      vat: z.string(),
      currency: z.string(),
      description: z.string().nullable(),
      payment_method: z.enum(METHODS).nullable().describe("the charge's channel; for a checkout, the channel of the attempt that paid it (null until then)"),
      payment_attempts: z.array(attemptSchema).optional().describe('the failed tries; for a checkout, every attempt, its status as it is'),
      created_at: z.string(),
      completed_at: z.string().nullable(),
    })
    .describe('What every kind of charge answers; each kind adds its own fields (card, ledger, wallet, bank_account, expires_at ...)'),
  InitializeAnswer: z.object({
    reference: z.string().describe("the merchant's reference, as sent"),
    checkout_url: z.string().describe("the hosted page on the sandbox's own origin: `<origin>/checkout/<transaction reference>/pay`"),
  }),
  CheckoutSummary: z.object({
    reference: z.string(),
    transaction_reference: z.string(),
    status: z.enum(STATUSES),
    payment_method: z.enum(METHODS).nullable(),
    message: z.string(),
    payment_attempts: z.array(attemptSchema),
  }),
  // docs/behaviour.md 13.3
  VirtualAccount: z.object({
    account_name: z.string(),
    account_number: z.string().describe('10 digits, from the namespace and the account reference'),
    bank_code: z.string(),
    bank_name: z.string(),
    account_reference: z.string(),
    unique_id: z.string(),
    account_status: z.literal('active'),
    created_at: z.string(),
    currency: z.literal('NGN'),
    customer: z.object({ name: z.string() }),
  }),
  VirtualAccountTransactions: z.object({
    total_amount_received: z.number().describe('the transfers the dates select, all pages, major units'),
    total_amount_recieved: z.number().describe('the same number, as the service\'s documentation spells it'),
    account_number: z.string(),
    currency: z.literal('NGN'),
    transactions: z.array(z.object({
      reference: z.string().describe('KPY-PAY-...: query it with GET /merchant/api/v1/charges/{reference}'),
      status: z.literal('success'),
      amount: z.string(),
      fee: z.string(),
      currency: z.string(),
      description: z.string(),
      transaction_date: z.string(),
      payer_bank_account: z.object({ account_number: z.string(), account_name: z.string(), bank_name: z.string() }),
    })).describe('newest first'),
    pagination: z.object({ page: z.number(), total: z.number(), pageCount: z.number().describe('transactions on this page'), totalPages: z.number() }),
  }),
  // docs/behaviour.md 13.5
  Banks: z.array(z.object({ name: z.string(), slug: z.string(), code: z.string(), nibss_bank_code: z.string().nullable().describe('NIBSS institution code; null outside Nigeria'), country: z.string() })),
  MobileMoneyOperators: z.array(z.object({ name: z.string(), slug: z.string(), code: z.string().describe("what a payout's `operator` takes"), country: z.string(), min: z.number(), max: z.number() })),
  ResolvedAccount: z.object({ bank_name: z.string(), bank_code: z.string(), account_number: z.string(), account_name: z.string() }),
  // docs/behaviour.md 13.4, 13.6, 13.9
  BalanceHistory: historyAnswerSchema,
  PayIns: payinsAnswerSchema,
}

/** docs/api.md 2.1: every JSON answer, errors included. */
const envelopeSchema = z.object({
  status: z.boolean().describe('true when the call was accepted (whatever the payment\'s own status), false on an error'),
  message: z.string(),
  code: z.string().optional().describe('mobile money only: AA001 while an authorization step is needed'),
  data: z.unknown().describe("the call's record; on `Invalid request data` one message per bad field, keyed by its dotted path; often null on other errors"),
})
const healthSchema = envelopeSchema.extend({
  data: z.object({ version: z.string(), uptime_s: z.number().int() }),
})

const TRANSITIONS = ['approve', 'decline', 'suspend', 'reactivate', 'deactivate'] as const

function routes(): Route[] {
  const r: Route[] = [
    { method: 'get', path: '/_sandbox/health', tag: 'control', operationId: 'health', summary: 'Is the sandbox up', public: true },
    { method: 'get', path: '/_sandbox/openapi.json', tag: 'control', operationId: 'openapi', summary: 'This document (raw OpenAPI 3.1 JSON, no envelope)', public: true },

    { method: 'post', path: '/merchant/api/v1/charges/card', tag: 'cards', operationId: 'chargeCard', summary: 'Charge a card', body: 'ChargeDataRequest',
      description: '`charge_data` is the card charge payload (`CardChargePayload`) as JSON, encrypted with AES-256-GCM under the namespace\'s 32-character encryption key: `hex(iv16):hex(ciphertext):hex(tag16)`.',
      extensions: { 'x-charge-data-schema': { $ref: '#/components/schemas/CardChargePayload' } } },
    { method: 'post', path: '/merchant/api/v1/charges/card/pre-authorize', tag: 'cards', operationId: 'preauthorizeCard', summary: 'Place a hold on a card', body: 'ChargeDataRequest',
      description: '`charge_data` is `PreauthChargePayload` (the card charge payload, where `amount` may be 0), encrypted as for a charge.',
      extensions: { 'x-charge-data-schema': { $ref: '#/components/schemas/PreauthChargePayload' } } },
    { method: 'post', path: '/merchant/api/v1/charges/card/authorize', tag: 'cards', operationId: 'authorizeCardCharge', step: true, summary: 'Answer the pending step of a card charge (PIN, OTP, AVS or phone)', body: 'CardAuthorizeRequest' },
    { method: 'post', path: '/merchant/api/v1/charges/card/capture', tag: 'cards', operationId: 'capturePreauthorization', summary: 'Capture from a pre-authorization', body: 'CaptureRequest' },
    { method: 'post', path: '/merchant/api/v1/charges/card/void', tag: 'cards', operationId: 'voidCapture', summary: 'Void an unsettled capture or the authorization', body: 'VoidRequest' },
    { method: 'post', path: '/merchant/api/v1/charges/card/refund', tag: 'cards', operationId: 'refundCapture', summary: 'Refund a settled capture or charge', body: 'RefundRequest' },
    { method: 'post', path: '/merchant/api/v1/charges/card/resend-otp', tag: 'cards', operationId: 'resendCardOtp', step: true, summary: 'Resend the OTP of a card charge', body: 'TransactionReferenceRequest' },

    { method: 'post', path: '/merchant/api/v1/charges/mobile-money', tag: 'mobile money', operationId: 'chargeMobileMoney', summary: 'Charge a mobile money wallet (KES or GHS)', body: 'MobileMoneyChargeRequest' },
    { method: 'post', path: '/merchant/api/v1/charges/mobile-money/authorize', tag: 'mobile money', operationId: 'authorizeMobileMoney', step: true, summary: 'Answer the OTP step', body: 'MobileMoneyAuthorizeRequest' },
    { method: 'post', path: '/merchant/api/v1/charges/mobile-money/sandbox/authorize-stk', tag: 'mobile money', operationId: 'authorizeStk', step: true, summary: 'Answer the STK prompt with the wallet PIN', body: 'StkAuthorizeRequest' },
    { method: 'post', path: '/merchant/api/v1/charges/mobile-money/resend-otp', tag: 'mobile money', operationId: 'resendMobileMoneyOtp', step: true, summary: 'Resend the OTP', body: 'ResendRequest' },
    { method: 'post', path: '/merchant/api/v1/charges/mobile-money/resend-stk', tag: 'mobile money', operationId: 'resendStk', step: true, summary: 'Send the STK prompt again', body: 'ResendRequest' },
    { method: 'post', path: '/merchant/api/v1/charges/bank-transfer', tag: 'bank transfer', operationId: 'chargeBankTransfer', summary: 'Issue a temporary account the customer transfers to (NGN)', body: 'BankTransferRequest',
      description: 'The charge is processing until a transfer arrives: by itself 120 s later on the namespace clock (unless `auto_complete` is false, or the pack says otherwise for the amount), or by the sandbox credit call. Less than expected is returned and the charge waits; more succeeds with the excess returned. The account expires after 30 minutes.' },

    { method: 'post', path: '/merchant/api/v1/charges/initialize', tag: 'checkout', operationId: 'initializeCheckout', summary: 'Initialize a charge the customer pays on the hosted checkout page', body: 'InitializeRequest', answer: 'InitializeAnswer',
      description: `Send the customer to \`checkout_url\`; the outcome comes by the \`charge.success\` webhook (to \`notification_url\` or the namespace's URL) and the charge query. \`channels\` (${CHECKOUT_CHANNELS.join(', ')}) keeps those that take the currency: card NGN and USD, bank transfer NGN, mobile money KES and GHS; pay with bank is accepted but never offered. An unpaid checkout expires after 24 hours on the namespace clock.` },

    { method: 'post', path: '/merchant/api/v1/virtual-bank-account', tag: 'virtual accounts', operationId: 'createVirtualAccount', summary: "Open a customer's permanent NGN virtual bank account", body: 'VirtualAccountRequest', answer: 'VirtualAccount', step: true,
      description: 'One account per `account_reference` (409 `Account reference already exists`); at most 50 per namespace (`--max-virtual-accounts`). `bank_code` `000` in the test environment, or a live code.' },
    { method: 'get', path: '/merchant/api/v1/virtual-bank-account/transactions', tag: 'virtual accounts', operationId: 'listVirtualAccountTransactions', summary: "A virtual account's transfers, newest first, by date and page", query: vbaTransactionsSchema, answer: 'VirtualAccountTransactions' },
    { method: 'post', path: '/merchant/api/v1/virtual-bank-account/sandbox/credit', tag: 'virtual accounts', operationId: 'creditVirtualAccount', summary: "The test environment's transfer into a virtual account or a bank-transfer charge's temporary account", body: 'VirtualAccountCreditRequest', step: true,
      description: 'NGN 100 to 10,000,000. Into a virtual account: a pay-in of its own (`KPY-PAY-...`), successful at once, announced by `charge.success`. Into a temporary account: exact, over or under as a transfer arrives (409 `Account has expired` after its 30 minutes). Unknown number: 404 `Account not found`.' },
    { method: 'get', path: '/merchant/api/v1/virtual-bank-account/:account_reference', tag: 'virtual accounts', operationId: 'getVirtualAccount', summary: 'Read a virtual bank account by its reference', answer: 'VirtualAccount' },

    { method: 'get', path: '/merchant/api/v1/misc/banks', tag: 'misc', operationId: 'listBanks', summary: "A country's banks and their codes (message `Successful`)", query: countryQuerySchema, answer: 'Banks', publicKey: true },
    { method: 'get', path: '/merchant/api/v1/misc/mobile-money', tag: 'misc', operationId: 'listMobileMoneyOperators', summary: "A country's mobile-money operators and their payout limits (message `Successful`)", query: countryQuerySchema, answer: 'MobileMoneyOperators', publicKey: true },
    { method: 'post', path: '/merchant/api/v1/misc/banks/resolve', tag: 'misc', operationId: 'resolveBankAccount', summary: "The holder's name of a Nigerian bank account (message `Request Completed`)", body: 'ResolveAccountRequest', answer: 'ResolvedAccount', publicKey: true,
      description: '`0000000000` at any bank is `SANDBOX ACCOUNT`; `9999999999` is refused with `Unable to resolve bank account.`; any other number gets a name derived from bank and number, the same every time.' },
    { method: 'get', path: '/merchant/api/v1/pay-ins', tag: 'charges', operationId: 'listPayIns', summary: "The namespace's pay-ins of every channel (a checkout once), newest first, by cursor", query: payinQuerySchema, answer: 'PayIns' },
    { method: 'get', path: '/merchant/api/v1/charges/:reference', tag: 'charges', operationId: 'getCharge', summary: 'Query a charge of any kind by payment or transaction reference', answer: 'ChargeRecord' },
  ]

  // docs/behaviour.md 6: served with and without the /merchant prefix
  for (const [prefix, suffix] of [['/merchant', 'Merchant'], ['', '']] as const) {
    r.push(
      { method: 'get', path: `${prefix}/api/v1/direct-debit/authorizations/:reference`, tag: 'direct debit', operationId: `getDirectDebitAuthorization${suffix}`, summary: 'Read a direct-debit authorization' },
      { method: 'post', path: `${prefix}/api/v1/direct-debit/authorizations/:code/debits`, tag: 'direct debit', operationId: `debitAuthorization${suffix}`, summary: 'Debit an active variable authorization', body: 'DebitRequest' },
    )
  }
  for (const [prefix, suffix] of [['', ''], ['/merchant', 'Merchant']] as const) {
    for (const [type, spec] of Object.entries(ID_TYPES)) {
      const name = type.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('')
      r.push({
        method: 'post', path: `${prefix}/api/v1/identities/${spec.path}`, tag: 'identity', operationId: `verify${name}${suffix}`,
        summary: `Verify a ${type.replace('_', ' ').toUpperCase()}: lookup, data matching, or facial matching with a selfie`, body: 'IdentityRequest',
        description: '`verification_consent` must be `true`: without it the call is refused before any other check.',
      })
    }
  }

  r.push(
    { method: 'post', path: '/_sandbox/reset', tag: 'control', operationId: 'resetNamespace', summary: "Empty the key's namespace and seed its fixtures again" },
    { method: 'get', path: '/_sandbox/clock', tag: 'control', operationId: 'getClock', summary: 'Read the namespace clock' },
    { method: 'post', path: '/_sandbox/clock/advance', tag: 'control', operationId: 'advanceClock', summary: 'Move the namespace clock forward; everything due fires in order', body: 'ClockAdvanceRequest' },
    { method: 'post', path: '/_sandbox/clock/freeze', tag: 'control', operationId: 'freezeClock', summary: 'Stop or restart the namespace clock', body: 'ClockFreezeRequest' },
    { method: 'get', path: '/_sandbox/scenarios', tag: 'control', operationId: 'getScenarios', summary: 'The active test values' },
    { method: 'post', path: '/_sandbox/scenarios', tag: 'control', operationId: 'addScenarioPack', summary: 'Add a scenario pack to this namespace (wins over the files)', body: 'ScenarioPack' },
    { method: 'delete', path: '/_sandbox/scenarios', tag: 'control', operationId: 'dropScenarioPacks', summary: 'Drop the packs added at run time' },
    { method: 'get', path: '/_sandbox/requests', tag: 'control', operationId: 'listRequests', summary: 'The request journal, PAN and CVV masked', query: requestsQuerySchema },
    { method: 'put', path: '/_sandbox/webhook-url', tag: 'control', operationId: 'setWebhookUrl', summary: "Set (or, with null, clear) the namespace's webhook URL", body: 'WebhookUrlRequest' },
    { method: 'get', path: '/_sandbox/events', tag: 'control', operationId: 'listEvents', summary: 'Events and their delivery attempts; `wait` long-polls (at most 30 s) until one matches', query: eventsQuerySchema },
    { method: 'post', path: '/_sandbox/events/:id/resend', tag: 'control', operationId: 'resendEvent', summary: 'Deliver an event again now' },
    { method: 'post', path: '/_sandbox/faults', tag: 'control', operationId: 'addFault', summary: 'Inject a fault into the next matching calls or webhook deliveries', body: 'FaultRequest' },
    { method: 'get', path: '/_sandbox/faults', tag: 'control', operationId: 'listFaults', summary: 'The active faults' },
    { method: 'delete', path: '/_sandbox/faults', tag: 'control', operationId: 'clearFaults', summary: 'Remove every fault' },
    { method: 'delete', path: '/_sandbox/faults/:id', tag: 'control', operationId: 'removeFault', summary: 'Remove one fault' },
    { method: 'post', path: '/_sandbox/captures/:reference/settle', tag: 'control', operationId: 'settleCapture', summary: 'Settle a capture (or a successful charge) now' },
    { method: 'post', path: '/_sandbox/charges/:reference/complete', tag: 'control', operationId: 'completeCharge', step: true, summary: 'Finish a processing charge (3DS step, STK prompt, processing debit) as success or failed', body: 'CompleteChargeRequest' },
    { method: 'post', path: '/_sandbox/checkouts/:reference/pay', tag: 'checkout', operationId: 'payCheckout', summary: 'Pay a checkout as a customer on the page would, by the channel given (for CI without a browser)', body: 'CheckoutPayRequest', answer: 'CheckoutSummary', step: true,
      description: "Without `card` or `mobile_money`, the active packs' first test value of the channel that ends as `outcome` (default `success`); every step is answered with the pack's values. A bank transfer arrives with `amount` (the expected amount when absent: less is returned and the checkout stays open, more is a success with the excess returned). `reference` is the merchant's or the transaction reference." },
    { method: 'get', path: '/merchant/api/v1/balances', tag: 'balances', operationId: 'getBalances', summary: 'The balances per currency: pending and available (major units)',
      description: 'Every namespace opens with the pack\'s opening_balance available in NGN, KES, GHS and USD; a pay-in adds its amount net of fee and VAT, pending until it settles (a bank transfer at once, other channels after settlement_delay_hours).' },
    { method: 'get', path: '/merchant/api/v1/balances/history', tag: 'balances', operationId: 'getBalanceHistory', summary: 'Every entry of the available balances with the balance before and after it, newest first, by cursor', query: historyQuerySchema, answer: 'BalanceHistory' },
    { method: 'post', path: '/merchant/api/v1/transactions/disburse', tag: 'payouts', operationId: 'disburse', summary: 'Pay out to a bank account or a mobile-money wallet (message `transfer initiated successfully`)', body: 'DisburseRequest',
      description: 'Amount, fee and VAT are debited from the available balance at once; the payout stays processing for payout_delay_seconds, then ends as its test account says (any other account succeeds). Refused with no record: `Insufficient funds in disbursement wallet`, `Invalid bank provided.`, `Invalid account.`, `Unable to resolve bank account.`, `Invalid mobile money operator.`, `Currency not allowed for this destination`, the limits, and 409 `Duplicate Transaction Reference. Please use a unique reference`.' },
    { method: 'post', path: '/merchant/api/v1/transactions/disburse/remittance', tag: 'payouts', operationId: 'disburseRemittance', summary: 'A payout with `remittance_data`', body: 'RemittanceRequest' },
    { method: 'get', path: '/merchant/api/v1/transactions/:reference', tag: 'payouts', operationId: 'getPayout', summary: 'Query a payout by its reference (message `Transaction retrieved successfully`)' },
    { method: 'get', path: '/merchant/api/v1/payouts', tag: 'payouts', operationId: 'listPayouts', summary: 'The payouts, newest first, by currency, status and date, a page at a time by pointer', query: payoutListSchema },
    ...(['/api/v1', '/merchant/api/v1'] as const).flatMap((prefix, i): Route[] => {
      const suffix = i === 0 ? '' : 'Merchant'
      return [
        { method: 'post', path: `${prefix}/transactions/disburse/bulk`, tag: 'payouts', operationId: `bulkDisburse${suffix}`, summary: 'Pay out 2 to 50 payouts as one batch, accepted or refused whole (message `Bulk Transfer initiated successfully`)', body: 'BulkPayoutRequest' },
        { method: 'get', path: `${prefix}/transactions/bulk/:batch`, tag: 'payouts', operationId: `getBulkPayout${suffix}`, summary: "A batch's summary and status: pending, complete or failed (message `Bulk transaction retrieved successfully`)" },
        { method: 'get', path: `${prefix}/transactions/bulk/:batch/payouts`, tag: 'payouts', operationId: `listBulkPayoutItems${suffix}`, summary: "A batch's payouts, page by page (message `Payouts retrieved successfully`)", query: bulkItemsQuerySchema },
        { method: 'get', path: `${prefix}/transactions/bulk/:batch/payout`, tag: 'payouts', operationId: `listBulkPayoutItemsSingular${suffix}`, summary: 'The same list, under the ending some SDKs call', query: bulkItemsQuerySchema },
      ]
    }),
    { method: 'post', path: '/_sandbox/payouts/:reference/complete', tag: 'payouts', operationId: 'completePayout', summary: 'End a processing payout now (as its test account says unless `outcome` is given)', body: 'CompletePayoutRequest', bodyRequired: false },
    { method: 'post', path: '/_sandbox/balances/fund', tag: 'balances', operationId: 'fundBalance', summary: 'Add to the available balance of a currency', body: 'FundRequest' },
    { method: 'post', path: '/merchant/api/v1/refunds/initiate', tag: 'refunds', operationId: 'initiateRefund', summary: 'Refund a settled pay-in, in full or in part (processing, then success or failed)', body: 'InitiateRefundRequest',
      description: 'Any successful, settled pay-in, by its payment reference (a checkout by its own). The amount is debited from the available balance at once and returned if the refund fails. Test fields: `completion_status` (`success` | `failed`) and `status_reason` pick the outcome, which comes refund_delay_seconds (60) later on the namespace clock.' },
    { method: 'get', path: '/merchant/api/v1/refunds', tag: 'refunds', operationId: 'listRefunds', summary: 'The refunds, newest first, by status, currency and date, paged by pointer', query: refundListSchema },
    { method: 'get', path: '/merchant/api/v1/refunds/:reference', tag: 'refunds', operationId: 'getRefund', summary: 'One refund, by its reference (a card refund: its transaction reference)' },
    { method: 'post', path: '/_sandbox/refunds/:reference/complete', tag: 'refunds', operationId: 'completeRefund', summary: 'Finish a processing refund now (success unless asked otherwise)', body: 'CompleteRefundRequest' },
    { method: 'post', path: '/_sandbox/checkouts/:reference/cancel', tag: 'checkout', operationId: 'cancelCheckout', summary: 'Cancel a checkout as the customer does on the page (it fails)', answer: 'CheckoutSummary', step: true },
    { method: 'get', path: '/_sandbox/direct-debit/authorizations', tag: 'direct debit', operationId: 'listDirectDebitAuthorizations', summary: "List the namespace's direct-debit authorizations" },
    { method: 'post', path: '/_sandbox/direct-debit/authorizations', tag: 'direct debit', operationId: 'createDirectDebitAuthorization', summary: 'Create a direct-debit authorization (pending)', body: 'CreateAuthorizationRequest' },
  )
  for (const move of TRANSITIONS) {
    r.push({
      method: 'post', path: `/_sandbox/direct-debit/authorizations/:reference/${move}`, tag: 'direct debit',
      operationId: `${move}DirectDebitAuthorization`, summary: `${move[0].toUpperCase()}${move.slice(1)} a direct-debit authorization`,
      body: 'TransitionRequest', bodyRequired: false,
    })
  }
  return r
}

const TAGS: { name: Tag; description: string }[] = [
  { name: 'cards', description: 'Card charges, authorization steps, pre-authorization, capture, void and refund' },
  { name: 'mobile money', description: 'Mobile money charges (KES, GHS) with OTP and STK prompt' },
  { name: 'bank transfer', description: 'Bank transfer pay-ins to a temporary account (NGN)' },
  { name: 'checkout', description: 'Checkout Standard: a charge the customer pays on the hosted page (card, bank transfer, mobile money), and the control calls that pay or cancel it without a browser' },
  { name: 'virtual accounts', description: "Customers' permanent NGN bank accounts, their transfers, and the test environment's credit call" },
  { name: 'balances', description: "The merchant's balances per currency, derived from the ledger, and the control call that funds them" },
  { name: 'refunds', description: 'Refunds of any settled pay-in, on the same ledger as the card refund, and the control call that finishes one' },
  { name: 'payouts', description: 'Payouts to bank accounts and mobile-money wallets from the available balance, their query and list, and the control call that ends one now' },
  { name: 'direct debit', description: 'Direct-debit authorizations and debits' },
  { name: 'identity', description: 'Identity verification: BVN, vNIN, Ghana passport' },
  { name: 'charges', description: 'The charge query over every payment kind, and the list of pay-ins' },
  { name: 'misc', description: 'Look-ups: banks and mobile-money operators per country, bank account resolution. A public test key (pk_test_) is accepted as well as the secret key' },
  { name: 'control', description: "The sandbox's own API: clock, scenarios, journal, events, faults. Loopback only unless --control-token is set" },
]

/** zod -> JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), as the request is sent. */
function toSchema(schema: z.ZodType): Schema {
  // refinements (amounts, URLs, calendar dates) cannot be expressed: they come out as what zod gives
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Schema
  if (JSON.stringify(rest).includes('"#/$defs/')) throw new Error('openapi: a schema with $defs refs would not resolve inside the document')
  return rest
}

const json = (ref: string) => ({ 'application/json': { schema: { $ref: ref } } })
const envelopeResponse = (description: string) => ({ description, content: json('#/components/schemas/Envelope') })
/** the envelope whose `data` is the component `answer` */
const answerResponse = (description: string, answer: string) => ({
  description,
  content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { data: { $ref: `#/components/schemas/${answer}` } } }] } } },
})

function operation(route: Route, version: string): Schema {
  const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }))
  if (route.query) {
    const q = toSchema(route.query) as { properties?: Record<string, Schema>; required?: string[] }
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      params.push({ name, in: 'query', required: q.required?.includes(name) ?? false, schema: schema as { type: string } })
    }
  }
  const op: Schema = {
    tags: [route.tag],
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(route.body
      ? { requestBody: { required: route.bodyRequired ?? true, content: json(`#/components/schemas/${route.body}`) } }
      : {}),
    ...(route.extensions ?? {}),
  }
  if (route.operationId === 'openapi') {
    op.responses = { 200: { description: `This OpenAPI document (paysandbox ${version})`, content: { 'application/json': { schema: { type: 'object' } } } } }
  } else if (route.operationId === 'health') {
    op.responses = { 200: { description: 'Running', content: json('#/components/schemas/HealthEnvelope') } }
  } else {
    op.responses = {
      200: route.answer
        ? answerResponse('Accepted, whatever the payment\'s own status (success, failed, processing)', route.answer)
        : envelopeResponse('Accepted, whatever the payment\'s own status (success, failed, processing)'),
      400: { $ref: '#/components/responses/BadRequest' },
      401: { $ref: '#/components/responses/Unauthorized' },
      403: { $ref: '#/components/responses/Forbidden' },
      ...(params.some((p) => p.in === 'path') ? { 404: { $ref: '#/components/responses/NotFound' } } : {}),
      ...(route.step ? { 409: { $ref: '#/components/responses/Conflict' } } : {}),
      ...(route.body ? { 413: { $ref: '#/components/responses/TooLarge' } } : {}),
    }
  }
  if (route.public) op.security = []
  if (route.publicKey) op.security = [{ bearerAuth: [] }, { publicKeyAuth: [] }]
  return op
}

function build(version: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {}
  for (const route of routes()) {
    const path = route.path.replace(/:(\w+)/g, '{$1}')
    paths[path] ??= {}
    paths[path][route.method] = operation(route, version)
  }
  const schemas: Record<string, Schema> = {
    Envelope: toSchema(envelopeSchema),
    HealthEnvelope: toSchema(healthSchema),
  }
  for (const [name, schema] of Object.entries(BODIES)) schemas[name] = CLOSED.has(name) ? { ...toSchema(schema), additionalProperties: false } : toSchema(schema)
  for (const [name, schema] of Object.entries(ANSWERS)) schemas[name] = toSchema(schema)

  return {
    openapi: '3.1.0',
    info: {
      title: 'paysandbox',
      version,
      description:
        'A local sandbox of the payments, direct-debit and identity-verification API. Every answer is the envelope ' +
        '`{status, message, data}`. Any `sk_test_` key is accepted and owns its own namespace. Request schemas are ' +
        'generated from the zod schemas the sandbox validates with; rules written as code (amounts with at most 2 ' +
        'decimals, http(s) URLs, calendar dates, wallet prefixes) are enforced but not all expressible here.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:4010', description: 'sandbox start (default port)' }],
    security: [{ bearerAuth: [] }],
    tags: TAGS,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A test secret key: `Authorization: Bearer sk_test_...`. Live keys (sk_live_) are refused.' },
        publicKeyAuth: { type: 'http', scheme: 'bearer', description: "The look-ups only: a test public key, `Authorization: Bearer pk_test_...`, standing for the secret key's namespace with the same suffix." },
      },
      schemas,
      responses: {
        BadRequest: envelopeResponse('`Invalid request data` (one entry per bad field in `data`) or a business-rule refusal'),
        Unauthorized: envelopeResponse('Missing, unknown or live key'),
        Forbidden: envelopeResponse('A control call from beyond loopback without the control token, or the namespace limit reached'),
        NotFound: envelopeResponse('Transaction, charge, authorization or route not found'),
        Conflict: envelopeResponse('`Payment has already been completed` or `Transaction has already been completed`: the payment has already finished (a checkout: `This checkout is no longer open for payment`; a virtual account: `Account reference already exists`; a temporary account: `Account has expired`)'),
        TooLarge: envelopeResponse('Body over the limit (1 MiB; 4 MiB on the identity endpoints)'),
      },
    },
  }
}

const cache = new Map<string, Schema>()

/** The OpenAPI 3.1 document, built on first use and cached. */
export function buildOpenApi(version: string): Schema {
  let doc = cache.get(version)
  if (!doc) {
    doc = build(version)
    cache.set(version, doc)
  }
  return doc
}

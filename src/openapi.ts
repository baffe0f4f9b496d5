import { z } from 'zod'
import * as card from './cards/schemas.js'
import type { ChargeStatus, PaymentAttempt, PaymentMethod } from './charges/types.js'
import { controlPaySchema, initializeSchema } from './checkout/schemas.js'
import { bankTransferSchema } from './bank-transfer/schemas.js'
import { fundSchema, historyAnswerSchema } from './balances/schemas.js'
import { payinsAnswerSchema } from './pay-ins/schemas.js'
import { completeRefundSchema, initiateSchema as refundInitiateSchema } from './refunds/schemas.js'
import { bulkSchema, completePayoutSchema, disburseSchema, remittanceSchema } from './payouts/schemas.js'
import { advanceSchema, completeSchema, faultSchema, freezeSchema, webhookUrlSchema } from './control/schemas.js'
import { createAuthorizationSchema, debitSchema, transitionReasonSchema } from './direct-debit/schemas.js'
import { identityRequestSchema } from './identity/schemas.js'
import { resolveSchema } from './misc/schemas.js'
import { mmAuthorizeSchema, mobileMoneyChargeSchema, resendSchema, stkAuthorizeSchema } from './mobile-money/schemas.js'
import { packSchema } from './scenario/schema.js'
import { createSchema as vbaCreateSchema, creditSchema as vbaCreditSchema } from './virtual-accounts/schemas.js'
import { routes, TAGS, type Route } from './openapi-routes.js'

/**
 * The OpenAPI 3.1 document of the merchant, identity and control API, served at
 * `GET /_sandbox/openapi.json`. Request bodies and query parameters are converted from the very
 * zod schemas the routes validate with, so the document cannot drift from what is enforced. The
 * route table (src/openapi-routes.ts) names each route once; test/openapi.test.ts checks it against every route
 * the app registers. The 3DS page, the hosted checkout page and the dashboard are HTML for a
 * browser and are left out.
 */

type Schema = Record<string, unknown>
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

import type { z } from 'zod'
import { CHECKOUT_CHANNELS } from './checkout/schemas.js'
import { historyQuerySchema } from './balances/schemas.js'
import { payinQuerySchema } from './pay-ins/schemas.js'
import { refundListSchema } from './refunds/schemas.js'
import { bulkItemsQuerySchema, payoutListSchema } from './payouts/schemas.js'
import { eventsQuerySchema, requestsQuerySchema } from './control/schemas.js'
import { ID_TYPES } from './identity/schemas.js'
import { countryQuerySchema } from './misc/schemas.js'
import { transactionsQuerySchema as vbaTransactionsSchema } from './virtual-accounts/schemas.js'

/**
 * The route table of the OpenAPI document (src/openapi.ts): each route the app serves, named once,
 * with its tag, summary, and the component names of its body and answer. test/openapi.test.ts
 * checks it against every route the app registers.
 */

export type Tag = 'cards' | 'mobile money' | 'bank transfer' | 'checkout' | 'virtual accounts' | 'balances' | 'refunds' | 'payouts' | 'direct debit' | 'identity' | 'charges' | 'misc' | 'control'

export interface Route {
  method: 'get' | 'post' | 'put' | 'delete'
  /** Hono form, `:param` */
  path: string
  tag: Tag
  operationId: string
  summary: string
  description?: string
  /** a component name of the document's schemas (src/openapi.ts) */
  body?: string
  /** a component name of the document's schemas (src/openapi.ts): what `data` holds in the 200 answer */
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

const TRANSITIONS = ['approve', 'decline', 'suspend', 'reactivate', 'deactivate'] as const

export function routes(): Route[] {
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

export const TAGS: { name: Tag; description: string }[] = [
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


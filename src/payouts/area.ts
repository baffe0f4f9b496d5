import type { Kit } from '../engine/kit.js'
import type { Area, Route } from '../http/area.js'
import { readBodyText, readJsonObject, validate } from '../http/body.js'
import { validateWithMetadata } from '../engine/schemas.js'
import { ok } from '../http/envelope.js'
import { MSG } from '../messages.js'
import { BulkPayoutService, PAYOUT_BATCHES_SPEC } from './bulk.js'
import { PAYOUT_MSG } from './messages.js'
import { payoutCurrencies } from '../scenario/lookups.js'
import { availabilitySchema, bulkItemsQuerySchema, bulkSchema, completePayoutSchema, disburseSchema, normalizeBulk, normalizeDisburse, payoutListSchema, remittanceSchema } from './schemas.js'
import { PAYOUT, PAYOUTS, PAYOUTS_SPEC, PayoutService, createdData, queryData, type Payout } from './service.js'
import { distinct, refusalsMet, slug, valueOutcomes } from '../engine/outcomes.js'
import { payoutsPanel } from './panel.js'
import { payoutsTestValues } from './test-values.js'
import { payoutSettings } from './settings.js'

type Payouts = { payouts: PayoutService; bulkPayouts: BulkPayoutService }

/**
 * docs/behaviour.md#bulk-payouts: bulk payouts, served under /merchant/api/v1/transactions only (the bare
 * /api/v1 is no API path beyond docs/api.md's, docs/behaviour.md#beyond-the-seed), the items list under both
 * `/payouts` and `/payout`.
 */
const BULK = '/merchant/api/v1/transactions'
const DISBURSE = `${BULK}/disburse`
const bulkItems = (ending: string, operationId: string, summary: string): Route<Payouts> => ({
  method: 'get', path: `${BULK}/bulk/:batch/${ending}`, access: 'secret key', tag: 'payouts', operationId, summary, query: bulkItemsQuerySchema,
  handler: (c, { bulkPayouts }) => {
    const ns = c.get('ns')
    const q = validate(bulkItemsQuerySchema, c.req.query())
    return ok(c, PAYOUT_MSG.BULK_ITEMS, bulkPayouts.itemsData(ns, bulkPayouts.get(ns, c.req.param('batch')!), q))
  },
})
const bulkRoutes: Route<Payouts>[] = [
  {
    method: 'post', path: `${BULK}/disburse/bulk`, access: 'secret key', tag: 'payouts', operationId: 'bulkDisburse', summary: 'Pay out 2 to 50 payouts as one batch, accepted or refused whole (message `Bulk Transfer initiated successfully`)',
    body: { name: 'BulkPayoutRequest', schema: bulkSchema },
    handler: async (c, { bulkPayouts }) => {
      const ns = c.get('ns')
      const input = validate(bulkSchema, normalizeBulk(await readJsonObject(c)))
      return ok(c, PAYOUT_MSG.BULK_INITIATED, bulkPayouts.createdData(ns, bulkPayouts.create(ns, input)))
    },
  },
  {
    method: 'get', path: `${BULK}/bulk/:batch`, access: 'secret key', tag: 'payouts', operationId: 'getBulkPayout', summary: "A batch's summary and status: pending, complete or failed (message `Bulk transaction retrieved successfully`)",
    handler: (c, { bulkPayouts }) => {
      const ns = c.get('ns')
      return ok(c, PAYOUT_MSG.BULK_RETRIEVED, bulkPayouts.summaryData(ns, bulkPayouts.get(ns, c.req.param('batch')!)))
    },
  },
  bulkItems('payouts', 'listBulkPayoutItems', "A batch's payouts, page by page (message `Payouts retrieved successfully`)"),
  bulkItems('payout', 'listBulkPayoutItemsSingular', 'The same list, under the ending some SDKs call'),
]

/** Payouts and bulk payouts (docs/behaviour.md#lists, docs/behaviour.md#payouts), and the control call that ends one now. */
export const payoutsArea: Area<Payouts, Kit> = {
  key: 'payouts',
  panels: [payoutsPanel],
  testValues: payoutsTestValues,
  settings: payoutSettings,
  // a payout's outcomes: as its test accounts end (`transfer.*`, the events' name), and a refusal of an invalid account as the journal shows it
  outcomes: {
    list: (s) => distinct([{ id: 'transfer.success', label: 'success' }, ...[...s.payouts.values()].flatMap((v) => valueOutcomes('transfer', v))]),
    *met(s, ns, seen) {
      for (const p of s.store.col<Payout>(ns, PAYOUTS).values()) yield* p.status === 'failed' ? [['transfer.failed', p.reference], [`transfer.failed.${slug(p.message)}`, p.reference]] as const : [[`transfer.${p.status}`, p.reference]] as const
      yield* refusalsMet(seen, DISBURSE, { 'transfer.invalid': MSG.INVALID_ACCOUNT })
    },
  },
  tags: { payouts: 'Payouts to bank accounts and mobile-money wallets from the available balance, their query and list, and the control call that ends one now' },
  ledger: { [PAYOUT]: { describe: (ref, e) => PAYOUT_MSG.entry(ref, e.why) } },
  collections: [PAYOUTS_SPEC, PAYOUT_BATCHES_SPEC],
  build(kit) {
    const payouts = new PayoutService(kit)
    return { payouts, bulkPayouts: new BulkPayoutService(kit, payouts) }
  },
  routes: [
    {
      method: 'post', path: DISBURSE, access: 'secret key', tag: 'payouts', operationId: 'disburse', summary: 'Pay out to a bank account, a mobile-money wallet or a stablecoin wallet (message `Transfer initiated successfully.`, the live text; a stablecoin payout the sample\'s `transfer initiated successfully`)',
      body: { name: 'DisburseRequest', schema: disburseSchema },
      description: `Bank accounts in ${payoutCurrencies('bank_account').join(', ')} (what each needs is fixtures/lookups.json's: ZAR with \`account_name\`; USD and GBP with the remittance-style fields instead of a bank code), wallets in ${payoutCurrencies('mobile_money').join(', ')}, stablecoin wallets in USDT and USDC (\`type: crypto\`, \`crypto: {network: ETH | TRX | SOL, destination_address}\`, paid from the USD balance one for one, fee stablecoin_payout). Amount, fee and VAT are debited from the available balance at once; the payout stays processing for payout_delay_seconds, then ends as its test account says (any other account succeeds; a bank payouts/availability calls unavailable fails with \`Destination bank is not available\`). Refused with no record: 409 \`Insufficient funds in disbursement wallet\`, 404 \`bank not found\`, 404 \`Mobile money operator is not available for this currency or does not exist\`, 409 \`Invalid account.\` (an account the pack names so, or one that does not resolve), 400 \`Currency not allowed for this destination\`, the limits (409 \`You can only transfer an amount between NGN 1000 and NGN 10000000\`; XAF and XOF amounts multiples of 5), and 409 \`Duplicate Transaction Reference. Please use a unique reference\`.`,
      handler: async (c, { payouts, scenarios }) => {
        const ns = c.get('ns')
        const input = validateWithMetadata(disburseSchema, normalizeDisburse(await readJsonObject(c)), scenarios.forNs(ns).metadataUnderscores)
        return ok(c, input.destination.type === 'crypto' ? PAYOUT_MSG.CRYPTO_INITIATED : PAYOUT_MSG.INITIATED, createdData(payouts.create(ns, input)))
      },
    },
    {
      method: 'post', path: '/merchant/api/v1/transactions/disburse/remittance', access: 'secret key', tag: 'payouts', operationId: 'disburseRemittance', summary: 'A payout with `remittance_data` (`sender_name` required), shown back by the query (message `Remittance transfer initiated successfully`)',
      body: { name: 'RemittanceRequest', schema: remittanceSchema },
      handler: async (c, { payouts, scenarios }) => {
        const ns = c.get('ns')
        const input = validateWithMetadata(remittanceSchema, normalizeDisburse(await readJsonObject(c)), scenarios.forNs(ns).metadataUnderscores)
        return ok(c, PAYOUT_MSG.REMITTANCE_INITIATED, createdData(payouts.create(ns, input)))
      },
    },
    {
      method: 'get', path: '/merchant/api/v1/transactions/:reference', access: 'secret key', tag: 'payouts', operationId: 'getPayout', summary: 'Query a payout by its reference (message `Transaction retrieved successfully`)',
      handler: (c, { payouts }) => ok(c, PAYOUT_MSG.RETRIEVED, queryData(payouts.get(c.get('ns'), c.req.param('reference')!))),
    },
    {
      method: 'get', path: '/merchant/api/v1/payouts', access: 'secret key', tag: 'payouts', operationId: 'listPayouts', summary: 'The payouts, newest first, by currency, status and date, a page at a time by pointer (message `Transactions retrieved successfully`)', query: payoutListSchema,
      handler: (c, { payouts }) => ok(c, MSG.TRANSACTIONS_RETRIEVED, payouts.list(c.get('ns'), validate(payoutListSchema, c.req.query()))),
    },
    ...bulkRoutes,
    ...(['post', 'get'] as const).map((method): Route<Payouts> => ({
      method, path: '/merchant/api/v1/payouts/availability', access: 'secret key', tag: 'payouts', operationId: method === 'post' ? 'payoutAvailability' : 'payoutAvailabilityByQuery',
      summary: method === 'post' ? "Whether each South African bank takes payouts now: available, delayed or unavailable (body {type: bank_account, currency: ZAR})" : 'The same, with type and currency in the query',
      ...(method === 'post' ? { body: { name: 'PayoutAvailabilityRequest', schema: availabilitySchema } } : { query: availabilitySchema }),
      handler: async (c, { payouts }) => {
        const input = validate(availabilitySchema, method === 'post' ? await readJsonObject(c) : c.req.query())
        return ok(c, PAYOUT_MSG.AVAILABILITY, payouts.availability(c.get('ns'), input.currency))
      },
    })),
    {
      method: 'post', path: '/_sandbox/payouts/:reference/complete', access: 'control', tag: 'payouts', operationId: 'completePayout', summary: 'End a processing payout now (as its test account says unless `outcome` is given)',
      body: { name: 'CompletePayoutRequest', schema: completePayoutSchema }, bodyRequired: false,
      handler: async (c, { payouts }) => {
        // an empty body: as the test account says
        const body = (await readBodyText(c)).trim() ? await readJsonObject(c) : {}
        const { outcome, reason } = validate(completePayoutSchema, body)
        return ok(c, PAYOUT_MSG.FINISHED, queryData(payouts.complete(c.get('ns'), c.req.param('reference')!, outcome, reason)))
      },
    },
  ],
}

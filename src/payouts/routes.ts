import { Hono } from 'hono'
import { readBodyText, readJsonObject, validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { BULK_MSG, type BulkPayoutService } from './bulk.js'
import { bulkItemsQuerySchema, bulkSchema, completePayoutSchema, disburseSchema, normalizeBulk, normalizeDisburse, payoutListSchema, remittanceSchema } from './schemas.js'
import { PAYOUT_MSG, createdData, queryData, type PayoutService } from './service.js'

/**
 * docs/behaviour.md 13.7: under /merchant/api/v1/transactions, the disburse calls and the payout
 * query.
 */
export function payoutRoutes(payouts: PayoutService) {
  const app = new Hono<AppEnv>()
  app.post('/disburse', async (c) => {
    const input = validate(disburseSchema, normalizeDisburse(await readJsonObject(c)))
    return ok(c, PAYOUT_MSG.INITIATED, createdData(payouts.create(c.get('ns'), input)))
  })
  app.post('/disburse/remittance', async (c) => {
    const input = validate(remittanceSchema, normalizeDisburse(await readJsonObject(c)))
    return ok(c, PAYOUT_MSG.INITIATED, createdData(payouts.create(c.get('ns'), input)))
  })
  app.get('/:reference', (c) => ok(c, PAYOUT_MSG.RETRIEVED, queryData(payouts.get(c.get('ns'), c.req.param('reference')))))
  return app
}

/** GET /merchant/api/v1/payouts: the list (docs/behaviour.md 13.6). */
export function payoutListRoutes(payouts: PayoutService) {
  const app = new Hono<AppEnv>()
  app.get('/', (c) => ok(c, 'success', payouts.list(c.get('ns'), validate(payoutListSchema, c.req.query()))))
  return app
}

/** POST /_sandbox/payouts/{reference}/complete */
export function payoutControlRoutes(payouts: PayoutService) {
  const app = new Hono<AppEnv>()
  app.post('/:reference/complete', async (c) => {
    // an empty body: as the test account says
    const body = (await readBodyText(c)).trim() ? await readJsonObject(c) : {}
    const { outcome, reason } = validate(completePayoutSchema, body)
    return ok(c, 'Payout completed', queryData(payouts.complete(c.get('ns'), c.req.param('reference'), outcome, reason)))
  })
  return app
}

/**
 * docs/behaviour.md 13.7.1: bulk payouts, served under /api/v1/transactions and
 * /merchant/api/v1/transactions, the items list under both `/payouts` and `/payout`.
 */
export function bulkPayoutRoutes(bulk: BulkPayoutService) {
  const app = new Hono<AppEnv>()
  app.post('/disburse/bulk', async (c) => {
    const ns = c.get('ns')
    const input = validate(bulkSchema, normalizeBulk(await readJsonObject(c)))
    return ok(c, BULK_MSG.INITIATED, bulk.createdData(ns, bulk.create(ns, input)))
  })
  app.get('/bulk/:batch', (c) => {
    const ns = c.get('ns')
    return ok(c, BULK_MSG.RETRIEVED, bulk.summaryData(ns, bulk.get(ns, c.req.param('batch'))))
  })
  for (const ending of ['payouts', 'payout']) {
    app.get(`/bulk/:batch/${ending}`, (c) => {
      const ns = c.get('ns')
      const q = validate(bulkItemsQuerySchema, c.req.query())
      return ok(c, BULK_MSG.ITEMS, bulk.itemsData(ns, bulk.get(ns, c.req.param('batch')), q))
    })
  }
  return app
}

import { Hono } from 'hono'
import { readJsonObject, validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { completeRefundSchema, initiateSchema, refundListSchema } from './schemas.js'
import { REFUND_MSG, detail, initiated, type RefundService } from './service.js'

/** /merchant/api/v1/refunds (docs/behaviour.md 13.8) */
export function refundRoutes(refunds: RefundService) {
  const app = new Hono<AppEnv>()
  app.post('/initiate', async (c) => {
    const input = validate(initiateSchema, await readJsonObject(c))
    return ok(c, REFUND_MSG.INITIATED, initiated(refunds.initiate(c.get('ns'), input)))
  })
  app.get('/', (c) => ok(c, 'success', refunds.list(c.get('ns'), validate(refundListSchema, c.req.query()))))
  app.get('/:reference', (c) => ok(c, REFUND_MSG.RETRIEVED, detail(refunds.get(c.get('ns'), c.req.param('reference')))))
  return app
}

/** POST /_sandbox/refunds/{reference}/complete `{outcome?, reason?}` */
export function refundControlRoutes(refunds: RefundService) {
  const app = new Hono<AppEnv>()
  app.post('/:reference/complete', async (c) => {
    const { outcome, reason } = validate(completeRefundSchema, await readJsonObject(c))
    return ok(c, REFUND_MSG.COMPLETED, detail(refunds.complete(c.get('ns'), c.req.param('reference'), outcome, reason)))
  })
  return app
}

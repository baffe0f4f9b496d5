import { Hono } from 'hono'
import { validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { payinQuerySchema } from './schemas.js'
import type { PayinService } from './service.js'

/** GET /merchant/api/v1/pay-ins (docs/behaviour.md 13.9) */
export function payinRoutes(payins: PayinService) {
  const app = new Hono<AppEnv>()
  app.get('/', (c) => ok(c, 'success', payins.list(c.get('ns'), validate(payinQuerySchema, c.req.query()))))
  return app
}

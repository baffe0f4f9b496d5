import { Hono } from 'hono'
import { readJsonObject, validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { parseAmount } from '../money.js'
import { fundSchema, historyQuerySchema } from './schemas.js'
import type { BalanceService } from './service.js'

/** GET /merchant/api/v1/balances and its history */
export function balanceRoutes(balances: BalanceService) {
  const app = new Hono<AppEnv>()
  app.get('/', (c) => ok(c, 'success', balances.balances(c.get('ns'))))
  app.get('/history', (c) => ok(c, 'success', balances.history(c.get('ns'), validate(historyQuerySchema, c.req.query()))))
  return app
}

/** The control call that adds to a balance. */
export function balanceControlRoutes(balances: BalanceService) {
  const app = new Hono<AppEnv>()
  app.post('/fund', async (c) => {
    const { currency, amount } = validate(fundSchema, await readJsonObject(c))
    return ok(c, 'Balance funded', balances.fund(c.get('ns'), currency, parseAmount(amount)!))
  })
  return app
}

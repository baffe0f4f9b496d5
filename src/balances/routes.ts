import { Hono } from 'hono'
import { amountSchema } from '../charges/schemas.js'
import { readJsonObject, validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { z } from '../http/zod-messages.js'
import { parseAmount } from '../money.js'
import { historyQuerySchema } from './schemas.js'
import { BALANCE_CURRENCIES, type BalanceService } from './service.js'

/** POST /_sandbox/balances/fund (docs/behaviour.md 13.4) */
export const fundSchema = z.object({ currency: z.enum(BALANCE_CURRENCIES), amount: amountSchema() })

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

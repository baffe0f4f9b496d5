import { Hono } from 'hono'
import { readJsonObject, validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { parseAmount } from '../money.js'
import { createSchema, creditSchema, transactionsQuerySchema } from './schemas.js'
import { VBA_MSG, type VirtualAccountService } from './service.js'

/** /merchant/api/v1/virtual-bank-account (docs/behaviour.md 13.3) */
export function virtualAccountRoutes(accounts: VirtualAccountService) {
  const app = new Hono<AppEnv>()
  app.post('/', async (c) => {
    const input = validate(createSchema, await readJsonObject(c))
    return ok(c, VBA_MSG.CREATED, accounts.responseData(accounts.create(c.get('ns'), input)))
  })
  // before `/:account_reference`, which would take this path otherwise
  app.get('/transactions', (c) => {
    const q = validate(transactionsQuerySchema, c.req.query())
    return ok(c, VBA_MSG.TRANSACTIONS, accounts.transactions(c.get('ns'), q))
  })
  app.post('/sandbox/credit', async (c) => {
    const input = validate(creditSchema, await readJsonObject(c))
    accounts.credit(c.get('ns'), input.account_number, parseAmount(input.amount, { allowString: true })!)
    return ok(c, VBA_MSG.CREDITED, null)
  })
  app.get('/:account_reference', (c) => ok(c, VBA_MSG.RETRIEVED, accounts.responseData(accounts.get(c.get('ns'), c.req.param('account_reference')))))
  return app
}

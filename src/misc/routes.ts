import { Hono } from 'hono'
import { readJsonObject, validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { countryQuerySchema, resolveSchema } from './schemas.js'
import { MISC_MSG, banksOf, operatorsOf, resolveAccount } from './service.js'

/** /merchant/api/v1/misc: the bank and mobile-money lists and account resolution (docs/behaviour.md 13.5) */
export function miscRoutes() {
  const app = new Hono<AppEnv>()
  app.get('/banks', (c) => ok(c, MISC_MSG.LISTED, banksOf(validate(countryQuerySchema, c.req.query()).countryCode)))
  app.get('/mobile-money', (c) => ok(c, MISC_MSG.LISTED, operatorsOf(validate(countryQuerySchema, c.req.query()).countryCode)))
  app.post('/banks/resolve', async (c) => {
    const input = validate(resolveSchema, await readJsonObject(c))
    return ok(c, MISC_MSG.RESOLVED, resolveAccount(input.bank, input.account))
  })
  return app
}

import { Hono } from 'hono'
import { readJsonObject, validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import type { Namespaces } from '../namespaces.js'
import { bankTransferSchema } from './schemas.js'
import { TRANSFER_MSG, type BankTransferService } from './service.js'

/** POST /merchant/api/v1/charges/bank-transfer (docs/behaviour.md 13.2) */
export function bankTransferRoutes({ bankTransfer, namespaces }: { bankTransfer: BankTransferService; namespaces: Namespaces }) {
  const app = new Hono<AppEnv>()
  app.post('/', async (c) => {
    const ns = c.get('ns')
    const input = validate(bankTransferSchema, await readJsonObject(c))
    const charge = bankTransfer.create(ns, {
      ...input,
      // the account is in the merchant's name unless the request names it
      account_name: input.account_name ?? namespaces.get(ns)?.name ?? 'Sandbox Merchant',
    })
    return ok(c, TRANSFER_MSG.INITIATED, bankTransfer.responseData(charge))
  })
  return app
}

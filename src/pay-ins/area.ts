import { ChargeQuery } from '../engine/charge-query.js'
import type { Kit } from '../engine/kit.js'
import { chargeRecordSchema } from '../engine/schemas.js'
import { MSG } from '../messages.js'
import type { Area } from '../http/area.js'
import { validate } from '../http/body.js'
import { ok, sendJson } from '../http/envelope.js'
import { payinQuerySchema, payinsAnswerSchema } from './schemas.js'
import { PayinService } from './service.js'

/**
 * The charge query over every kind of charge (docs/api.md 2.8) and the pay-ins list (docs/behaviour.md#pay-ins-list), which ask each charge's kind what its record adds: listed after the areas that declare the kinds
 * (src/areas.ts).
 */
export const payInsArea: Area<{ payins: PayinService; chargeQuery: ChargeQuery }, Kit> = {
  key: 'charges',
  tags: { charges: 'The charge query over every payment kind, the list of pay-ins, and the transactions list (pay-ins and payouts together)' },
  build: (kit) => ({ payins: new PayinService(kit), chargeQuery: new ChargeQuery(kit) }),
  routes: [
    {
      method: 'get', path: '/merchant/api/v1/pay-ins', access: 'secret key', tag: 'charges', operationId: 'listPayIns', summary: "The namespace's pay-ins of every channel (a checkout once), newest first, by cursor (message `Transactions retrieved successfully`)",
      query: payinQuerySchema, answer: { name: 'PayIns', schema: payinsAnswerSchema },
      handler: (c, { payins }) => ok(c, MSG.TRANSACTIONS_RETRIEVED, payins.list(c.get('ns'), validate(payinQuerySchema, c.req.query()))),
    },
    {
      method: 'get', path: '/merchant/api/v1/charges/:reference', access: 'secret key', tag: 'charges', operationId: 'getCharge', summary: 'Query a charge of any kind by payment or transaction reference',
      answer: { name: 'ChargeRecord', schema: chargeRecordSchema },
      handler: (c, { chargeQuery }) => sendJson(c, chargeQuery.answer(c.get('ns'), c.req.param('reference')!)),
    },
  ],
}

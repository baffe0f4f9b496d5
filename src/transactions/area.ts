import type { Area } from '../http/area.js'
import { validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { MSG } from '../messages.js'
import type { Kit } from '../engine/kit.js'
import { transactionsAnswerSchema, transactionsQuerySchema } from './schemas.js'
import { TransactionService } from './service.js'
import { transactionsTestValues } from './test-values.js'

/** docs/behaviour.md#transactions-list: the pay-ins and payouts as one list, as an older client reads them. */
export const transactionsArea: Area<{ transactions: TransactionService }, Pick<Kit, 'store' | 'kinds'>> = {
  key: 'transactions',
  testValues: transactionsTestValues,
  build: (kit) => ({ transactions: new TransactionService(kit) }),
  routes: [
    {
      method: 'get', path: '/merchant/api/v1/transactions', access: 'secret key', tag: 'charges', operationId: 'listTransactions', summary: "The namespace's pay-ins (`collection`) and payouts (`disbursement`) as one list, newest first, by cursor",
      query: transactionsQuerySchema, answer: { name: 'Transactions', schema: transactionsAnswerSchema },
      handler: (c, { transactions }) => ok(c, MSG.SUCCESS, transactions.list(c.get('ns'), validate(transactionsQuerySchema, c.req.query()))),
    },
  ],
}

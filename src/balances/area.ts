import type { Kit } from '../engine/kit.js'
import type { Area } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { MSG } from '../messages.js'
import { fundSchema, historyAnswerSchema, historyQuerySchema } from './schemas.js'
import { BALANCE_MSG } from './messages.js'
import { BALANCE_CURRENCIES, BalanceService } from './service.js'
import { balancesPanel } from './panel.js'
import { balancesTestValues } from './test-values.js'

/** The merchant's balances and their history (docs/behaviour.md#ledger-and-balances), and the control call that adds to one. */
export const balancesArea: Area<{ balances: BalanceService }, Kit> = {
  key: 'balances',
  testValues: balancesTestValues,
  panels: [balancesPanel],
  tags: { balances: "The merchant's balances per currency, derived from the ledger, and the control call that funds them" },
  build: (kit) => ({ balances: new BalanceService(kit) }),
  routes: [
    {
      method: 'get', path: '/merchant/api/v1/balances', access: 'secret key', tag: 'balances', operationId: 'getBalances', summary: 'The balances per currency: pending and available (major units)',
      description: `Every namespace opens with the pack's opening_balance available in ${BALANCE_CURRENCIES.join(', ')}; a pay-in adds its amount net of fee and VAT, pending until it settles (a bank transfer at once, other channels after settlement_delay_hours).`,
      handler: (c, { balances }) => ok(c, MSG.SUCCESS, balances.balances(c.get('ns'))),
    },
    {
      method: 'get', path: '/merchant/api/v1/balances/history', access: 'secret key', tag: 'balances', operationId: 'getBalanceHistory', summary: 'Every entry of the available balances with the balance before and after it, newest first, by cursor (message `Balance history retrieved successfully`)',
      query: historyQuerySchema, answer: { name: 'BalanceHistory', schema: historyAnswerSchema },
      handler: (c, { balances }) => ok(c, BALANCE_MSG.HISTORY, balances.history(c.get('ns'), validate(historyQuerySchema, c.req.query()))),
    },
    {
      method: 'post', path: '/_sandbox/balances/fund', access: 'control', tag: 'balances', operationId: 'fundBalance', summary: 'Add to the available balance of a currency', body: { name: 'FundRequest', schema: fundSchema },
      handler: async (c, { balances }) => {
        const { currency, amount } = validate(fundSchema, await readJsonObject(c))
        return ok(c, BALANCE_MSG.FUNDED, balances.fund(c.get('ns'), currency, amount))
      },
    },
  ],
}

import type { Context } from 'hono'
import { validateWithMetadata } from '../engine/schemas.js'
import type { Kit } from '../engine/kit.js'
import { servedBy } from '../engine/kinds.js'
import { chargeKind } from '../engine/types.js'
import { STRING, shape } from '../store/validate.js'
import type { DecisionPage } from '../engine/decision-page.js'
import type { Area } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { clientOrigin } from '../http/origin.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { PWB_MSG } from './messages.js'
import { pageRoutePaths } from '../engine/pages.js'
import { bankPage } from './page.js'
import { banksQuerySchema, payWithBankAnswerSchema, payWithBankBanksSchema, payWithBankSchema } from './schemas.js'
import { PayWithBankService, type PayWithBankCharge } from './service.js'
import { chargeOutcomes } from '../engine/outcomes.js'
// its checkout channel, declared beside it: the checkout offers it (src/engine/checkout-channel.ts)
import './checkout-channel.js'
import { payWithBankTestValues } from './test-values.js'

/** its kind of charge, declared to the engine (`ChargeKinds`, src/engine/types.ts) */
declare module '../engine/types.js' {
  interface ChargeKinds { pay_with_bank: { record: PayWithBankCharge; method: 'pay_with_bank'; attempt: 'pay_with_bank' } }
}

/** Both spellings public clients send, the singular most (docs/behaviour.md#pay-with-bank). */
const SPELLINGS = [
  { path: '/merchant/api/v1/charge/pay-with-bank', operationId: 'chargePayWithBank', summary: 'Pay with bank: the customer approves at their bank (NGN, ZAR)' },
  { path: '/merchant/api/v1/charges/pay-with-bank', operationId: 'chargePayWithBankPlural', summary: 'Pay with bank, as the plural spelling some clients send' },
]

const [BANK_PAGE, BANK_PAGE_BARE] = pageRoutePaths('/_sandbox/pay-with-bank/:tx')

async function charge(c: Context<AppEnv>, s: Pick<Kit, 'config' | 'scenarios'> & { payWithBank: PayWithBankService }) {
  const ns = c.get('ns')
  const input = validateWithMetadata(payWithBankSchema, await readJsonObject(c), s.scenarios.forNs(ns).metadataUnderscores)
  return ok(c, PWB_MSG.INITIATED, s.payWithBank.responseData(s.payWithBank.charge(ns, input), clientOrigin(c, s.config.interceptHosts)))
}

/** docs/behaviour.md#pay-with-bank: the charge (both spellings), its banks, and the sandbox bank's page. */
export const payWithBankArea: Area<{ payWithBank: PayWithBankService; bankPage: DecisionPage }, Kit> = {
  key: 'pay with bank',
  testValues: payWithBankTestValues,
  outcomes: chargeOutcomes('pay-with-bank', 'pay_with_bank', (s) => s.banks.values(), [{ message: PWB_MSG.DECLINED }]),
  pages: { prefix: '/_sandbox/pay-with-bank/', replaysAsForm: true },
  tags: { 'pay with bank': "Pay with bank (NGN, ZAR): the customer approves the payment on the sandbox bank's page; the banks each currency takes" },
  collections: [chargeKind('pay_with_bank', { bank: shape({ code: STRING, name: STRING }), outcome: STRING })],
  build(kit) {
    const payWithBank = new PayWithBankService(kit)
    kit.kinds.declare<PayWithBankCharge>({
      ...servedBy(payWithBank),
      attemptLine: (c) => PWB_MSG.attempt(c.bank.name),
      instrument: (c) => [`${c.bank.name} (${c.bank.code})`, `bank says ${c.outcome_message ?? c.outcome} on approval`],
      waiting: 'the customer at the bank',
    })
    return { payWithBank, bankPage: bankPage({ store: kit.store, namespaces: kit.namespaces, payWithBank, intercepted: kit.config.interceptHosts }) }
  },
  routes: [
    ...SPELLINGS.map(({ path, operationId, summary }) => ({
      method: 'post' as const, path, access: 'secret key' as const, tag: 'pay with bank', operationId, summary,
      description: 'Answers `authorization.redirect_url`: the sandbox bank\'s page, where the customer approves or declines. Approved, the charge ends as the bank\'s entry in the scenario packs says; `POST /_sandbox/charges/{reference}/complete` ends it without a browser.',
      body: { name: 'PayWithBankRequest', schema: payWithBankSchema }, answer: { name: 'PayWithBankCharge', schema: payWithBankAnswerSchema },
      handler: (c: Context<AppEnv>, s: Pick<Kit, 'config' | 'scenarios'> & { payWithBank: PayWithBankService }) => charge(c, s),
    })),
    {
      method: 'get', path: '/merchant/api/v1/charge/pay-with-bank/banks', access: 'secret key', tag: 'pay with bank', operationId: 'listPayWithBankBanks',
      summary: "The banks pay with bank takes in a currency (NGN without `currency`), as the scenario packs list them", query: banksQuerySchema, answer: { name: 'PayWithBankBanks', schema: payWithBankBanksSchema },
      handler: (c, { payWithBank }) => {
        const { currency } = validate(banksQuerySchema, c.req.query())
        return ok(c, PWB_MSG.BANKS_LISTED, payWithBank.bankList(c.get('ns'), currency))
      },
    },
    // the sandbox bank's page: no key; its namespace named, or the reference alone
    { method: 'get', path: BANK_PAGE, access: 'open', page: true, handler: (c, s) => s.bankPage.show(c) },
    { method: 'post', path: BANK_PAGE, access: 'open', page: true, handler: (c, s) => s.bankPage.decide(c) },
    { method: 'get', path: BANK_PAGE_BARE, access: 'open', page: true, handler: (c, s) => s.bankPage.show(c) },
    { method: 'post', path: BANK_PAGE_BARE, access: 'open', page: true, handler: (c, s) => s.bankPage.decide(c) },
  ],
}

import type { Kit } from '../engine/kit.js'
import { chargeKind } from '../engine/types.js'
import { allOutcomes, creditOutcomes, refusalOutcomes, statusOutcomes } from '../engine/outcomes.js'
import { bareAndMerchant, type Area, type Route } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { STRING, shape } from '../store/validate.js'
import { POOL_MSG } from './messages.js'
import { POOL_CURRENCIES, createSchema, creditSchema, poolAccountReadSchema, poolAccountSchema, poolCreditSchema } from './schemas.js'
import { POOL_ACCOUNTS, POOL_ACCOUNTS_SPEC, PoolAccountService, type PoolAccount, type PoolAccountCharge } from './service.js'
import { poolAccountsPanel } from './panel.js'
import { poolAccountsTestValues } from './test-values.js'

/** its kind of charge, declared to the engine (`ChargeKinds`, src/engine/types.ts) */
declare module '../engine/types.js' {
  interface ChargeKinds { pool_account: { record: PoolAccountCharge; method: 'pool_account' } }
}

/** the collection writes the paths bare too: served there and under `/merchant` alike (CONTRACT 15) */
const P = '/api/v1/pool-accounts'
type Pools = { poolAccounts: PoolAccountService } & Kit

/** /api/v1/pool-accounts and /merchant/api/v1/pool-accounts (docs/behaviour.md#pool-accounts) */
export const poolAccountsArea: Area<{ poolAccounts: PoolAccountService }, Kit> = {
  key: 'pool accounts',
  panels: [poolAccountsPanel],
  testValues: poolAccountsTestValues,
  // a reference made and a transfer received in each currency, a customer's second reference refused
  outcomes: allOutcomes<Kit>(
    statusOutcomes<PoolAccount>('pool-account.created', POOL_ACCOUNTS, POOL_CURRENCIES, { states: (a) => [a.currency], label: (c) => `a reference made in ${c}` }),
    creditOutcomes('pool-account.credited', 'pool_account', POOL_CURRENCIES),
    refusalOutcomes([P, `/merchant${P}`], { 'pool-account.duplicate-customer': [POOL_MSG.DUPLICATE, 'refused: the customer has a reference already'] }),
  ),
  tags: { 'pool accounts': "Customers' references into Kora's shared account of a currency (beta), and the test environment's credit call" },
  collections: [
    POOL_ACCOUNTS_SPEC,
    chargeKind('pool_account', {
      pool_account: shape({ pool_account_reference: STRING, account_type: STRING }),
      payer_details: shape({ payer_name: STRING, payer_account_number: STRING }),
    }, { asWritten: ['pool_account.pool_account_reference', 'payer_details.payer_account_number'] }),
  ],
  build(kit) {
    const poolAccounts = new PoolAccountService(kit)
    kit.kinds.declare<PoolAccountCharge>({
      kind: 'pool_account',
      // a transfer into Kora's shared account: on the balance at once, as a bank transfer (docs/behaviour.md#ledger-and-balances)
      settlesAtOnce: true,
      queryExtras: (_ns, charge) => poolAccounts.queryExtras(charge),
      // it succeeds at once: nothing is left to complete (no `complete`)
      instrument: ({ pool_account: p }) => [`pool account ${p.pool_account_reference}`],
    })
    return { poolAccounts }
  },
  routes: bareAndMerchant((prefix, suffix): Route<Pools>[] => [
    {
      method: 'post', path: `${prefix}${P}`, access: 'secret key', tag: 'pool accounts', operationId: `createPoolAccount${suffix}`, summary: "Create a customer's pool account reference",
      body: { name: 'PoolAccountRequest', schema: createSchema }, answer: { name: 'PoolAccount', schema: poolAccountSchema }, step: true,
      description: 'One reference per customer e-mail in the namespace: 409 `A reference already exists for this customer`, with the existing reference as `data`.',
      handler: async (c, { poolAccounts }) => {
        const input = validate(createSchema, await readJsonObject(c))
        return ok(c, POOL_MSG.CREATED, poolAccounts.createData(poolAccounts.create(c.get('ns'), input)))
      },
    },
    // before `/:reference`, which would take this path otherwise
    {
      method: 'post', path: `${prefix}${P}/sandbox/credit`, access: 'secret key', tag: 'pool accounts', operationId: `creditPoolAccount${suffix}`, summary: "The test environment's transfer into a pool account",
      body: { name: 'PoolAccountCreditRequest', schema: creditSchema }, answer: { name: 'PoolAccountCredit', schema: poolCreditSchema },
      description: "A pay-in of its own (`KPY-PA-...`), in the pool's currency, successful at once, on the balance at once, announced by `charge.success`. Unknown reference: 404 `Pool account not found`.",
      handler: async (c, { poolAccounts }) => {
        const input = validate(creditSchema, await readJsonObject(c))
        return ok(c, POOL_MSG.CREDITED, poolAccounts.creditData(poolAccounts.credit(c.get('ns'), input)))
      },
    },
    {
      method: 'get', path: `${prefix}${P}/:reference`, access: 'secret key', tag: 'pool accounts', operationId: `getPoolAccount${suffix}`, summary: 'Read a pool account reference',
      answer: { name: 'PoolAccountRead', schema: poolAccountReadSchema },
      handler: (c, { poolAccounts }) => ok(c, POOL_MSG.RETRIEVED, poolAccounts.readData(poolAccounts.get(c.get('ns'), c.req.param('reference')!))),
    },
  ]),
}

import type { BankTransferService } from '../bank-transfer/service.js'
import type { Kit } from '../charges/kit.js'
import { chargeKind } from '../charges/types.js'
import { STRING, shape } from '../store/validate.js'
import type { Area } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { createSchema, creditSchema, normalizeCreate, transactionsQuerySchema, virtualAccountSchema, virtualAccountTransactionsSchema } from './schemas.js'
import { VBA_MSG } from './messages.js'
import { VIRTUAL_ACCOUNTS_SPEC, VirtualAccountService, type VirtualAccountCharge } from './service.js'
import { VBA_TRANSFERS_SPEC } from './transfers.js'

const V = '/merchant/api/v1/virtual-bank-account'
const account = { name: 'VirtualAccount', schema: virtualAccountSchema }

/** /merchant/api/v1/virtual-bank-account (docs/behaviour.md 13.3) */
export const virtualAccountsArea: Area<{ virtualAccounts: VirtualAccountService }, Kit & { bankTransfer: BankTransferService }> = {
  key: 'virtual accounts',
  tags: { 'virtual accounts': "Customers' permanent NGN bank accounts, their transfers, and the test environment's credit call" },
  collections: [
    VIRTUAL_ACCOUNTS_SPEC,
    VBA_TRANSFERS_SPEC,
    chargeKind('virtual_account', {
      virtual_bank_account: shape({ account_name: STRING, account_number: STRING, account_reference: STRING, bank_name: STRING, bank_code: STRING }),
      payer_bank_account: shape({ account_name: STRING, account_number: STRING, bank_name: STRING }),
    }, ['virtual_bank_account.account_number', 'virtual_bank_account.account_reference', 'payer_bank_account.account_number']),
  ],
  build(kit) {
    // a transfer into a bank-transfer charge's temporary account goes to that channel
    const virtualAccounts = new VirtualAccountService(kit, kit.bankTransfer, kit.config.maxVirtualAccounts)
    kit.kinds.declare<VirtualAccountCharge>({
      kind: 'virtual_account',
      // a transfer into the account is a bank transfer (docs/behaviour.md 13.3)
      method: () => 'bank_transfer',
      queryExtras: (_ns, charge) => virtualAccounts.queryExtras(charge),
      // it succeeds at once: nothing is left to complete (no `complete`)
      instrument: ({ virtual_bank_account: v }) => [`virtual account ${v.account_number} (${v.account_reference})`],
    })
    return { virtualAccounts }
  },
  routes: [
    {
      method: 'post', path: V, access: 'secret key', tag: 'virtual accounts', operationId: 'createVirtualAccount', summary: "Open a customer's permanent NGN virtual bank account",
      body: { name: 'VirtualAccountRequest', schema: createSchema }, answer: account, step: true,
      description: 'One account per `account_reference` (409 `Duplicate account reference`); at most 50 per namespace (`--max-virtual-accounts`). `bank_code` `000` in the test environment, or a live code.',
      handler: async (c, { virtualAccounts }) => {
        const input = validate(createSchema, normalizeCreate(await readJsonObject(c)))
        return ok(c, VBA_MSG.CREATED, virtualAccounts.responseData(virtualAccounts.create(c.get('ns'), input)))
      },
    },
    // before `/:account_reference`, which would take this path otherwise
    {
      method: 'get', path: `${V}/transactions`, access: 'secret key', tag: 'virtual accounts', operationId: 'listVirtualAccountTransactions', summary: "A virtual account's transfers, newest first, by date and page",
      query: transactionsQuerySchema, answer: { name: 'VirtualAccountTransactions', schema: virtualAccountTransactionsSchema },
      handler: (c, { virtualAccounts }) => ok(c, VBA_MSG.TRANSACTIONS, virtualAccounts.transactions(c.get('ns'), validate(transactionsQuerySchema, c.req.query()))),
    },
    {
      method: 'post', path: `${V}/sandbox/credit`, access: 'secret key', tag: 'virtual accounts', operationId: 'creditVirtualAccount', summary: "The test environment's transfer into a virtual account or a bank-transfer charge's temporary account",
      body: { name: 'VirtualAccountCreditRequest', schema: creditSchema }, step: true,
      description: 'NGN 100 to 10,000,000. Into a virtual account: a pay-in of its own (`KPY-PAY-...`), successful at once, announced by `charge.success`. Into a temporary account: exact, over or under as a transfer arrives (409 `Account has expired` after its 30 minutes). Unknown number: 404 `Account not found`.',
      handler: async (c, { virtualAccounts }) => {
        const input = validate(creditSchema, await readJsonObject(c))
        virtualAccounts.credit(c.get('ns'), input.account_number, input.amount)
        return ok(c, VBA_MSG.CREDITED, null)
      },
    },
    {
      method: 'get', path: `${V}/:account_reference`, access: 'secret key', tag: 'virtual accounts', operationId: 'getVirtualAccount', summary: 'Read a virtual bank account by its reference', answer: account,
      handler: (c, { virtualAccounts }) => ok(c, VBA_MSG.RETRIEVED, virtualAccounts.responseData(virtualAccounts.get(c.get('ns'), c.req.param('account_reference')!), true)),
    },
  ],
}

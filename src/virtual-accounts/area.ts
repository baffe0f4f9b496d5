import type { BankTransferService } from '../bank-transfer/index.js'
import type { Kit } from '../engine/kit.js'
import { chargeKind } from '../engine/types.js'
import { allOutcomes, creditOutcomes, refusalOutcomes, statusOutcomes } from '../engine/outcomes.js'
import { STRING, maybe, shape } from '../store/validate.js'
import { bareAndMerchant, type Area, type Route } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { clientOrigin } from '../http/origin.js'
import { accountData } from './answers.js'
import { holderCreatedSchema, holderDetailsSchema, holderKycSchema, holderSchema, kycUpdateSchema, uploadUrlAnswerSchema, uploadUrlSchema } from './holder-schemas.js'
import { ACCOUNT_HOLDERS, ACCOUNT_HOLDERS_SPEC, AccountHolderService, type AccountHolder, UPLOAD_FILES_SPEC, UPLOAD_PATH } from './holders.js'
import {
  VBA_CURRENCIES, createSchema, creditSchema, currencyOfSchema, normalizeCreate, otherCreateSchema, transactionsQuerySchema, usdCreateSchema, virtualAccountSchema, virtualAccountTransactionsSchema,
} from './schemas.js'
import { VBA_MSG } from './messages.js'
import { VIRTUAL_ACCOUNTS, VIRTUAL_ACCOUNTS_SPEC, VirtualAccountService, type VirtualAccount, type VirtualAccountCharge } from './service.js'
import { VBA_TRANSFERS_SPEC } from './transfers.js'
import { virtualAccountsPanel } from './panel.js'
import { virtualAccountsTestValues } from './test-values.js'

/** its kind of charge, declared to the engine (`ChargeKinds`, src/engine/types.ts) */
declare module '../engine/types.js' {
  interface ChargeKinds { virtual_account: { record: VirtualAccountCharge } }
}

const V = '/merchant/api/v1/virtual-bank-account'
const account = { name: 'VirtualAccount', schema: virtualAccountSchema }
type VirtualAccounts = { virtualAccounts: VirtualAccountService; accountHolders: AccountHolderService }
const HOLDERS = '/api/v1/virtual-bank-account/account-holders'

/** docs/behaviour.md#virtual-accounts-usd-kes-tzs: upload URLs and account holders, whose paths the pages write bare (CONTRACT 15). */
const holderRoutes = bareAndMerchant<VirtualAccounts & Kit>((prefix, suffix): Route<VirtualAccounts & Kit>[] => [
  {
    method: 'post', path: `${prefix}/api/v1/files/generate-upload-url`, access: 'secret key', tag: 'virtual accounts', operationId: `generateUploadUrl${suffix}`,
    summary: "A file reference for an account holder's KYC document, and the URL its file is put to within the hour",
    body: { name: 'UploadUrlRequest', schema: uploadUrlSchema }, answer: { name: 'UploadUrl', schema: uploadUrlAnswerSchema },
    handler: async (c, { accountHolders, config }) => {
      const input = validate(uploadUrlSchema, await readJsonObject(c))
      return ok(c, VBA_MSG.UPLOAD_URL_CREATED, accountHolders.uploadUrl(c.get('ns'), input, clientOrigin(c, config.interceptHosts)))
    },
  },
  {
    method: 'post', path: `${prefix}${HOLDERS}`, access: 'secret key', tag: 'virtual accounts', operationId: `createAccountHolder${suffix}`,
    summary: "Create a USD account's holder (KYC), pending",
    description: 'Each document (`selfie`, `identification.document_front` ...) names a `korapay_reference` of `generate-upload-url`. The top-level `employment_status`, `employer_name` and `job_description` are refused: send `employment.{status, employer, description}`.',
    body: { name: 'AccountHolderRequest', schema: holderSchema }, answer: { name: 'AccountHolderCreated', schema: holderCreatedSchema },
    handler: async (c, { accountHolders }) => {
      const input = validate(holderSchema, await readJsonObject(c))
      return ok(c, VBA_MSG.HOLDER_CREATED, accountHolders.createdData(accountHolders.create(c.get('ns'), input)))
    },
  },
  {
    method: 'get', path: `${prefix}${HOLDERS}/:reference/details`, access: 'secret key', tag: 'virtual accounts', operationId: `getAccountHolder${suffix}`,
    summary: "An account holder's details", answer: { name: 'AccountHolder', schema: holderDetailsSchema },
    handler: (c, { accountHolders }) => ok(c, VBA_MSG.HOLDER_RETRIEVED, accountHolders.detailsData(accountHolders.get(c.get('ns'), c.req.param('reference')!))),
  },
  // the pages write PATCH, the endpoint list POST: both are served
  ...(['patch', 'post'] as const).map((method): Route<VirtualAccounts & Kit> => ({
    method, path: `${prefix}${HOLDERS}/:reference/update-kyc`, access: 'secret key', tag: 'virtual accounts', operationId: `updateAccountHolderKyc${method === 'post' ? 'Post' : ''}${suffix}`,
    summary: "Send an account holder's documents again; it is pending again",
    body: { name: 'AccountHolderKycRequest', schema: kycUpdateSchema }, answer: { name: 'AccountHolderKyc', schema: holderKycSchema },
    handler: async (c, { accountHolders }) => {
      const input = validate(kycUpdateSchema, await readJsonObject(c))
      return ok(c, VBA_MSG.HOLDER_KYC_UPDATED, accountHolders.kycData(accountHolders.updateKyc(c.get('ns'), c.req.param('reference')!, input)))
    },
  })),
])

/** /merchant/api/v1/virtual-bank-account (docs/behaviour.md#virtual-accounts, docs/behaviour.md#virtual-accounts-usd-kes-tzs) */
export const virtualAccountsArea: Area<VirtualAccounts, Kit & { bankTransfer: BankTransferService }> = {
  key: 'virtual accounts',
  panels: [virtualAccountsPanel],
  testValues: virtualAccountsTestValues,
  // an account opened and a transfer received in each currency, a USD account's holder, a reference used twice
  outcomes: allOutcomes<Kit>(
    statusOutcomes<VirtualAccount>('virtual-account.opened', VIRTUAL_ACCOUNTS, VBA_CURRENCIES, { states: (a) => [a.currency], reference: (a) => a.account_reference, label: (c) => `an account opened in ${c}` }),
    creditOutcomes('virtual-account.credited', 'virtual_account', VBA_CURRENCIES),
    statusOutcomes<AccountHolder>('virtual-account.holder', ACCOUNT_HOLDERS, ['pending'], { label: () => "a USD account's holder made, its KYC pending" }),
    refusalOutcomes([V], { 'virtual-account.duplicate-reference': [VBA_MSG.DUPLICATE, 'refused: the account reference is used already'] }),
  ),
  tags: { 'virtual accounts': "Customers' permanent virtual bank accounts (NGN; USD for an account holder; KES, TZS), their transfers, and the test environment's credit call" },
  collections: [
    VIRTUAL_ACCOUNTS_SPEC,
    VBA_TRANSFERS_SPEC,
    UPLOAD_FILES_SPEC,
    ACCOUNT_HOLDERS_SPEC,
    chargeKind('virtual_account', {
      virtual_bank_account: shape({ account_name: STRING, account_number: STRING, account_reference: STRING, bank_name: STRING, bank_code: maybe(STRING) }),
      payer_bank_account: shape({ account_name: STRING, account_number: STRING, bank_name: STRING }),
    }, { asWritten: ['virtual_bank_account.account_number', 'virtual_bank_account.account_reference', 'payer_bank_account.account_number'] }),
  ],
  build(kit) {
    // a transfer into a bank-transfer charge's temporary account goes to that channel
    const virtualAccounts = new VirtualAccountService(kit, kit.bankTransfer)
    kit.kinds.declare<VirtualAccountCharge>({
      kind: 'virtual_account',
      // a transfer into the account is a bank transfer (docs/behaviour.md#virtual-accounts)
      method: () => 'bank_transfer',
      queryExtras: (_ns, charge) => virtualAccounts.queryExtras(charge),
      // it succeeds at once: nothing is left to complete (no `complete`)
      instrument: ({ virtual_bank_account: v }) => [`virtual account ${v.account_number} (${v.account_reference})`],
    })
    return { virtualAccounts, accountHolders: new AccountHolderService(kit) }
  },
  routes: [
    {
      method: 'post', path: V, access: 'secret key', tag: 'virtual accounts', operationId: 'createVirtualAccount', summary: "Open a customer's permanent virtual bank account",
      body: { name: 'VirtualAccountRequest', schema: createSchema }, answer: account, step: true,
      description: 'NGN (no `currency`, or `NGN`): one account per `account_reference` (409 `Duplicate account reference`); at most 50 per namespace (`--max-virtual-accounts`); `bank_code` `000` in the test environment, or a live code. `currency` `USD`: `{account_holder_reference, account_reference}`, an account holder\'s account. `KES`, `TZS`: `{account_name, account_reference, permanent, customer}`, at Choice Bank.',
      handler: async (c, { virtualAccounts, accountHolders }) => {
        const body = await readJsonObject(c)
        const ns = c.get('ns')
        const { currency } = validate(currencyOfSchema, body)
        let made
        if (currency === 'USD') {
          const input = validate(usdCreateSchema, body)
          made = virtualAccounts.createUsd(ns, input, accountHolders.get(ns, input.account_holder_reference))
        } else if (currency === 'KES' || currency === 'TZS') made = virtualAccounts.createOther(ns, validate(otherCreateSchema, body))
        else made = virtualAccounts.create(ns, validate(createSchema, normalizeCreate(body)))
        return ok(c, VBA_MSG.CREATED, accountData(made, false))
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
      description: "In the account's currency (a temporary account's: NGN); NGN 100 to 10,000,000, another currency 1 to 10,000,000. Into a virtual account: a pay-in of its own (`KPY-PAY-...`), successful at once, announced by `charge.success`. Into a temporary account: exact, over or under as a transfer arrives (409 `Account has expired` after its 30 minutes). Unknown number: 404 `Account not found`.",
      handler: async (c, { virtualAccounts }) => {
        const input = validate(creditSchema, await readJsonObject(c))
        virtualAccounts.credit(c.get('ns'), input.account_number, input.amount, input.currency)
        return ok(c, VBA_MSG.CREDITED, null)
      },
    },
    {
      method: 'get', path: `${V}/:account_reference`, access: 'secret key', tag: 'virtual accounts', operationId: 'getVirtualAccount', summary: 'Read a virtual bank account by its reference', answer: account,
      handler: (c, { virtualAccounts, accountHolders }) => {
        const ns = c.get('ns')
        const a = virtualAccounts.get(ns, c.req.param('account_reference')!)
        return ok(c, VBA_MSG.RETRIEVED, accountData(a, true, a.holder ? accountHolders.get(ns, a.holder) : undefined))
      },
    },
    ...holderRoutes,
    {
      method: 'put', path: `${UPLOAD_PATH}/:reference`, access: 'open', tag: 'virtual accounts', operationId: 'uploadFile',
      summary: "Where an upload URL points: takes the file's PUT, as the storage would, and keeps nothing of it",
      handler: (c) => ok(c, VBA_MSG.FILE_RECEIVED, null),
    },
  ],
}

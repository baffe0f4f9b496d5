import type { Area } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { banksQuerySchema, banksSchema, countryQuerySchema, operatorsSchema, payoutBankCountriesSchema, payoutPurposesSchema, resolvedAccountSchema, resolvedWalletSchema, resolveSchema, walletResolveSchema } from './schemas.js'
import { LOOKUPS_MSG } from './messages.js'
import { banksOf, operatorsOf } from '../scenario/lookups.js'
import { payoutBankCountries, payoutPurposes, resolveAccount, resolveWallet } from './service.js'
import type { Scenarios } from '../scenario/index.js'
import { lookupsTestValues } from './test-values.js'

/** /merchant/api/v1/misc: the bank and mobile-money lists, bank account and wallet resolution, and the payout utilities (docs/behaviour.md#look-ups); a public key is accepted. */
export const lookupsArea: Area<object, { scenarios: Scenarios }> = {
  key: 'misc',
  testValues: lookupsTestValues,
  tags: { misc: 'Look-ups: banks and mobile-money operators per country, bank account resolution, the payment purposes and bank countries of USD and GBP payouts. A public test key (pk_test_) is accepted as well as the secret key' },
  build: () => ({}),
  routes: [
    {
      method: 'get', path: '/merchant/api/v1/misc/banks', access: 'public key', tag: 'misc', operationId: 'listBanks', summary: "A country's banks and their codes, Nigeria's without countryCode (message `Successful`)",
      query: banksQuerySchema, answer: { name: 'Banks', schema: banksSchema },
      handler: (c) => ok(c, LOOKUPS_MSG.LISTED, banksOf(validate(banksQuerySchema, c.req.query()).countryCode)),
    },
    {
      method: 'get', path: '/merchant/api/v1/misc/mobile-money', access: 'public key', tag: 'misc', operationId: 'listMobileMoneyOperators', summary: "A country's mobile-money operators and their payout limits (message `Successful`)",
      query: countryQuerySchema, answer: { name: 'MobileMoneyOperators', schema: operatorsSchema },
      handler: (c) => ok(c, LOOKUPS_MSG.LISTED, operatorsOf(validate(countryQuerySchema, c.req.query()).countryCode)),
    },
    {
      method: 'post', path: '/merchant/api/v1/misc/banks/resolve', access: 'public key', tag: 'misc', operationId: 'resolveBankAccount', summary: "The holder's name of a Nigerian bank account (message `Request Completed`)",
      body: { name: 'ResolveAccountRequest', schema: resolveSchema }, answer: { name: 'ResolvedAccount', schema: resolvedAccountSchema },
      description: '`0000000000` at any bank is `SANDBOX ACCOUNT`; `9999999999` is refused 400 with code `AA027`, `Invalid account.`; any other number gets a name derived from bank and number, the same every time.',
      handler: async (c) => {
        const input = validate(resolveSchema, await readJsonObject(c))
        return ok(c, LOOKUPS_MSG.RESOLVED, resolveAccount(input.bank, input.account))
      },
    },
    {
      method: 'get', path: '/merchant/api/v1/misc/payout-payment-purpose-by-country-code/:countryCode', access: 'public key', tag: 'misc', operationId: 'listPayoutPurposes', summary: "A country's payment purposes, what a USD or GBP payout's `purpose_of_payment` takes (message `Payment purposes retrieved successfully`)",
      answer: { name: 'PayoutPurposes', schema: payoutPurposesSchema },
      description: '`US` and `GB` (the page shows two of the US purposes; GB\'s are not shown, an empty list); any other country is refused, 400.',
      handler: (c) => ok(c, LOOKUPS_MSG.PURPOSES, payoutPurposes(c.req.param('countryCode')!)),
    },
    {
      method: 'get', path: '/merchant/api/v1/misc/payout-countries-by-currency-code/:currencyCode', access: 'public key', tag: 'misc', operationId: 'listPayoutBankCountries', summary: 'The countries with banks a currency is paid out to, what a payout\'s `destination.bank_country` takes (message `currency countries retrieved successfully`)',
      answer: { name: 'PayoutBankCountries', schema: payoutBankCountriesSchema },
      description: '`USD` (United States, United Kingdom) and `GBP` (United Kingdom); any other currency is refused, 400.',
      handler: (c) => ok(c, LOOKUPS_MSG.BANK_COUNTRIES, payoutBankCountries(c.req.param('currencyCode')!)),
    },
    {
      method: 'post', path: '/merchant/api/v1/misc/mobile-money/resolve', access: 'public key', tag: 'misc', operationId: 'resolveMobileMoneyWallet', summary: "The holder's name of a mobile-money wallet (message `Request completed`)",
      body: { name: 'ResolveWalletRequest', schema: walletResolveSchema }, answer: { name: 'ResolvedWallet', schema: resolvedWalletSchema },
      description: "`mobileMoneyCode` is an operator's `code` or `slug` of `GET /misc/mobile-money` for the currency's country, or the four digits the service's samples show (`0001` Safaricom, `0002` Airtel Kenya, `0004` MTN Ghana). A test wallet of the scenario packs answers its `name`; one with `found: false` is refused 503 with code `AA024`, `Invalid account.`; any other number gets a name derived from operator and number, the same every time.",
      handler: async (c, { scenarios }) => {
        const input = validate(walletResolveSchema, await readJsonObject(c))
        return ok(c, LOOKUPS_MSG.WALLET_RESOLVED, resolveWallet(input, scenarios.forNs(c.get('ns')).wallet(input.phoneNumber.replace(/^\+/, ''))))
      },
    },
  ],
}

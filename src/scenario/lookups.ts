import { readFileSync } from 'node:fs'

/**
 * The shipped fixtures/lookups.json, read once (docs/behaviour.md 13.5): the banks and mobile-money
 * operators of each country, the currencies mobile money is charged in (5.2: each one's country
 * code, digits and default steps) and the currencies each payout destination takes (13.7). A
 * country is added there, with no change of code. The look-ups answer these lists; the scenario
 * packs' wallets are checked against the wallet currencies; the same for every namespace.
 */

export interface Bank {
  name: string
  slug: string
  code: string
  /** the NIBSS institution code (Nigerian banks); null elsewhere */
  nibss_bank_code: string | null
  country: Country
}

export interface MobileMoneyOperator {
  name: string
  slug: string
  code: string
  country: Country
  /** the smallest and largest amount one payout may carry, major units */
  min: number
  max: number
}

/**
 * A currency mobile money is charged in (docs/behaviour.md 5.2): its country, the wallet number's
 * country code and how many digits follow it, and the steps of a wallet no pack names.
 */
export interface WalletCurrency {
  country: Country
  dial_code: string
  digits: number
  steps: ('OTP' | 'STK_PROMPT')[]
}

/** A country's code, upper case (`NG`, `KE` ...): the fixture's lists name them. */
export type Country = string

type PayoutType = 'bank_account' | 'mobile_money'

const FIXTURE = JSON.parse(readFileSync(new URL('../../fixtures/lookups.json', import.meta.url), 'utf8')) as {
  banks: Bank[]
  mobile_money: MobileMoneyOperator[]
  wallet_currencies: Record<string, WalletCurrency>
  payout_currencies: Record<PayoutType, Record<string, Country>>
}

/**
 * The countries the look-ups answer for, in the fixture's order: every country with a bank or an
 * operator (one with only the other answers an empty list, as Nigeria's operators do). A country
 * whose payouts name their bank themselves (USD's, GBP's) has no list.
 */
export const COUNTRIES = [...new Set([...FIXTURE.banks.map((b) => b.country), ...FIXTURE.mobile_money.map((o) => o.country)])] as [Country, ...Country[]]

const byCountry = <T extends { country: Country }>(items: T[]): Map<Country, readonly T[]> =>
  new Map(COUNTRIES.map((c) => [c, Object.freeze(items.filter((i) => i.country === c))]))

const BANKS = byCountry(FIXTURE.banks)
const OPERATORS = byCountry(FIXTURE.mobile_money)

/** The banks of a country, in the fixture's order (none for a country the fixture lists none of). */
export const banksOf = (country: Country): readonly Bank[] => BANKS.get(country) ?? []

/** The mobile-money operators of a country (none for NG and ZA). */
export const operatorsOf = (country: Country): readonly MobileMoneyOperator[] => OPERATORS.get(country) ?? []

/** The operator of this slug (or code) in any country, or undefined. */
export const anyOperator = (slug: string): MobileMoneyOperator | undefined => FIXTURE.mobile_money.find((o) => o.slug === slug || o.code === slug)

/** The currencies mobile money is charged in, in the fixture's order. */
export const WALLET_CURRENCIES = Object.keys(FIXTURE.wallet_currencies) as [string, ...string[]]

/** What a wallet currency needs of a number, or undefined for a currency mobile money does not take. */
export const walletCurrency = (currency: string): WalletCurrency | undefined =>
  Object.hasOwn(FIXTURE.wallet_currencies, currency) ? FIXTURE.wallet_currencies[currency] : undefined

/** The country a payout of this destination and currency goes to, or undefined when it does not take the currency. */
export const payoutCountry = (type: PayoutType, currency: string): Country | undefined =>
  Object.hasOwn(FIXTURE.payout_currencies[type], currency) ? FIXTURE.payout_currencies[type][currency] : undefined

/** The currencies a destination pays out in, in the fixture's order. */
export const payoutCurrencies = (type: PayoutType): string[] => Object.keys(FIXTURE.payout_currencies[type])

/** Every currency some payout takes. */
export const PAYOUT_CURRENCY_LIST = [...new Set([...payoutCurrencies('bank_account'), ...payoutCurrencies('mobile_money')])] as [string, ...string[]]


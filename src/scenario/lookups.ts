import { readFileSync } from 'node:fs'
import { z } from '../zod-messages.js'
import { oneOf, type Check } from '../store/validate.js'

/**
 * The shipped fixtures/lookups.json, read and checked once (docs/behaviour.md#look-ups): the currencies
 * a namespace holds a balance in (docs/behaviour.md#ledger-and-balances: each one's decimals), the banks and mobile-money operators
 * of each country, the currencies mobile money is charged in (docs/behaviour.md#mobile-money-charge: each one's country code, digits
 * and default steps) and the currencies each payout destination takes with what each needs
 * (docs/behaviour.md#payouts). A country is added there, with no change of code; a bad entry stops the process at
 * start, naming the entry and the field. The look-ups answer these lists; the scenario packs'
 * wallets are checked against the wallet currencies; the same for every namespace.
 */

export const LOOKUPS_FILE = 'lookups.json'

const country = z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code in upper case')
const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter currency code in upper case')
const named = { name: z.string().min(1), slug: z.string().regex(/^[a-z0-9-]+$/, 'must be lower case letters, digits and -'), code: z.string().min(1), country }

const bankSchema = z.object({ ...named, nibss_bank_code: z.string().regex(/^\d{6}$/, 'must be 6 digits').nullable() }).strict()

const operatorSchema = z
  // resolve_code: the four digits the service's wallet resolve takes for it, where a sample shows them (not listed)
  .object({ ...named, min: z.number().positive(), max: z.number().positive(), resolve_code: z.string().regex(/^\d{4}$/, 'must be 4 digits').optional() })
  .strict()
  .refine((o) => o.min <= o.max, { path: ['max'], message: 'must be at least min' })

const currencySchema = z.object({ decimals: z.union([z.literal(0), z.literal(2)]) }).strict()

const walletCurrencySchema = z
  .object({
    country,
    dial_code: z.string().regex(/^\d{1,4}$/, 'must be 1-4 digits'),
    digits: z.number().int().min(4).max(14),
    steps: z.array(z.enum(['OTP', 'STK_PROMPT'])).min(1),
  })
  .strict()

/** the bank-account fields a payout currency may require beyond its code and number */
export const REQUIRABLE_FIELDS = ['account_name', 'bank_name'] as const
/** how a remittance-style account is reached (the documentation's `payment_method` values) */
export const PAYMENT_METHOD_NAMES = ['AbaRouting', 'BicSwift', 'SortCode', 'IBAN'] as const

const bankPayoutSchema = z
  .object({
    country,
    /** fields the account must carry in this currency (ZAR: account_name) */
    requires: z.array(z.enum(REQUIRABLE_FIELDS)).optional(),
    /** paid by the remittance-style fields, with these payment methods, instead of a bank code (USD, GBP) */
    remittance: z.array(z.enum(PAYMENT_METHOD_NAMES)).min(1).optional(),
    /** `payouts/availability` answers for this currency's banks (ZAR) */
    availability: z.boolean().optional(),
  })
  .strict()

const walletPayoutSchema = z.object({ country }).strict()

/** a payment purpose a country's USD or GBP payouts name in `purpose_of_payment` (docs/behaviour.md#look-ups) */
const purposeSchema = z.object({ code: z.string().regex(/^[A-Z]{4,6}$/, 'must be 4-6 capital letters'), name: z.string().min(1), description: z.string().min(1) }).strict()
/** a country with banks a currency is paid out to (`destination.bank_country`) */
const bankCountrySchema = z.object({ country: z.string().min(1), countryCode: country }).strict()

const fileSchema = z
  .object({
    _about: z.string().optional(),
    currencies: z.record(currencyCode, currencySchema),
    banks: z.array(bankSchema),
    mobile_money: z.array(operatorSchema),
    wallet_currencies: z.record(currencyCode, walletCurrencySchema),
    payout_currencies: z.object({ bank_account: z.record(currencyCode, bankPayoutSchema), mobile_money: z.record(currencyCode, walletPayoutSchema) }).strict(),
    payout_purposes: z.record(country, z.array(purposeSchema)),
    payout_bank_countries: z.record(currencyCode, z.array(bankCountrySchema).min(1)),
  })
  .strict()
  .superRefine((f, ctx) => {
    const undeclared = (path: string[], code: string) => {
      if (!Object.hasOwn(f.currencies, code)) ctx.addIssue({ code: 'custom', path: [...path, code], message: `${code} must be declared in currencies` })
    }
    for (const code of Object.keys(f.wallet_currencies)) undeclared(['wallet_currencies'], code)
    for (const type of ['bank_account', 'mobile_money'] as const) for (const code of Object.keys(f.payout_currencies[type])) undeclared(['payout_currencies', type], code)
    for (const code of Object.keys(f.payout_bank_countries)) undeclared(['payout_bank_countries'], code)
    // the currencies the code's own channels take (cards NGN and USD, bank transfer NGN) hold balances too
    for (const code of ['NGN', 'USD']) undeclared(['currencies'], code)
    for (const list of ['banks', 'mobile_money'] as const) {
      const seen = new Set<string>()
      for (const [i, e] of f[list].entries()) {
        if (seen.has(e.slug)) ctx.addIssue({ code: 'custom', path: [list, i, 'slug'], message: `${e.slug} is declared twice` })
        seen.add(e.slug)
      }
    }
  })

export type LookupsFile = z.infer<typeof fileSchema>
export type Bank = LookupsFile['banks'][number]
export type MobileMoneyOperator = LookupsFile['mobile_money'][number]
/** A currency mobile money is charged in (docs/behaviour.md#mobile-money-charge): its country, the wallet number's country code and digits, the steps of a wallet no pack names. */
export type WalletCurrency = LookupsFile['wallet_currencies'][string]
/** What a bank payout in a currency needs (docs/behaviour.md#payouts). */
export type BankPayoutCurrency = LookupsFile['payout_currencies']['bank_account'][string]
/** A country's code, upper case (`NG`, `KE` ...): the fixture's lists name them. */
export type Country = string
type PayoutType = 'bank_account' | 'mobile_money'

/** A lookups file's content checked: a bad one is refused with the entry, the field and what is wrong. */
export function parseLookups(raw: unknown, source: string): LookupsFile {
  const parsed = fileSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  // a bank or an operator is named by its slug too: `banks.1 (citibank).nibss_bank_code`
  const where = (path: PropertyKey[]) => {
    const [list, i, ...rest] = path.map(String)
    const slug = (list === 'banks' || list === 'mobile_money') && rest.length ? (raw as Record<string, { slug?: unknown }[]>)[list]?.[Number(i)]?.slug : undefined
    return typeof slug === 'string' ? [`${list}.${i} (${slug})`, ...rest].join('.') : path.map(String).join('.')
  }
  throw new Error(`${source}: ${parsed.error.issues.map((i) => `${where(i.path)}: ${i.message}`).join('; ')}`)
}

const FIXTURE = parseLookups(JSON.parse(readFileSync(new URL(`../../fixtures/${LOOKUPS_FILE}`, import.meta.url), 'utf8')), `fixtures/${LOOKUPS_FILE}`)

/**
 * The currencies a namespace holds a balance in from the start, in the fixture's order: its
 * `currencies`, which declare every currency a pay-in or a payout is served in (docs/behaviour.md#ledger-and-balances).
 */
export const BALANCE_CURRENCIES = Object.keys(FIXTURE.currencies) as [string, ...string[]]

/** A record's currency (docs/behaviour.md#persistence): one the look-ups declare, as every pay-in and payout is served in. */
export const CURRENCY: Check = oneOf(BALANCE_CURRENCIES)

/** Whether a namespace holds a balance in this currency. */
export const isBalanceCurrency = (currency: string): boolean => Object.hasOwn(FIXTURE.currencies, currency)

/** How many decimals an amount in this currency may carry (XAF, XOF: none); 2 for a currency the fixture does not declare. */
export const decimalsOf = (currency: string): number => (isBalanceCurrency(currency) ? FIXTURE.currencies[currency].decimals : 2)

/**
 * The countries the look-ups answer for, in the fixture's order: every country with a bank or an
 * operator (one with only the other answers an empty list, as Nigeria's operators do). A country
 * whose payouts name their bank themselves (USD's, GBP's) has no list.
 */
export const COUNTRIES = [...new Set([...FIXTURE.banks.map((b) => b.country), ...FIXTURE.mobile_money.map((o) => o.country)])] as [Country, ...Country[]]

const byCountry = <T extends { country: Country }>(items: T[]): Map<Country, readonly T[]> =>
  new Map(COUNTRIES.map((c) => [c, Object.freeze(items.filter((i) => i.country === c))]))

const BANKS = byCountry(FIXTURE.banks)
const OPERATORS = byCountry(FIXTURE.mobile_money.map(({ resolve_code: _, ...listed }) => listed))

/** The banks of a country, in the fixture's order (none for a country the fixture lists none of). */
export const banksOf = (country: Country): readonly Bank[] => BANKS.get(country) ?? []

/** The mobile-money operators of a country (none for NG and ZA). */
export const operatorsOf = (country: Country): readonly MobileMoneyOperator[] => OPERATORS.get(country) ?? []

/** The operator of a country a wallet resolve names by its code, slug or resolve code (docs/behaviour.md#look-ups), or undefined. */
export const operatorOf = (country: Country, code: string): MobileMoneyOperator | undefined =>
  FIXTURE.mobile_money.find((o) => o.country === country && (o.code === code || o.slug === code || o.resolve_code === code))

/** The operator of this slug (or code) in any country, or undefined. */
export const anyOperator = (slug: string): MobileMoneyOperator | undefined => FIXTURE.mobile_money.find((o) => o.slug === slug || o.code === slug)

/** The currencies mobile money is charged in, in the fixture's order. */
export const WALLET_CURRENCIES = Object.keys(FIXTURE.wallet_currencies) as [string, ...string[]]

/** What a wallet currency needs of a number, or undefined for a currency mobile money does not take. */
export const walletCurrency = (currency: string): WalletCurrency | undefined =>
  Object.hasOwn(FIXTURE.wallet_currencies, currency) ? FIXTURE.wallet_currencies[currency] : undefined

/** The country a payout of this destination and currency goes to, or undefined when it does not take the currency. */
export const payoutCountry = (type: PayoutType, currency: string): Country | undefined =>
  Object.hasOwn(FIXTURE.payout_currencies[type], currency) ? FIXTURE.payout_currencies[type][currency].country : undefined

/** What a bank payout in this currency needs (its country, fields, payment methods, availability), or undefined when banks are not paid in it. */
export const bankPayoutCurrency = (currency: string): BankPayoutCurrency | undefined =>
  Object.hasOwn(FIXTURE.payout_currencies.bank_account, currency) ? FIXTURE.payout_currencies.bank_account[currency] : undefined

/** The currencies a destination pays out in, in the fixture's order. */
export const payoutCurrencies = (type: PayoutType): string[] => Object.keys(FIXTURE.payout_currencies[type])

/** Every currency some payout takes. */
export const PAYOUT_CURRENCY_LIST = [...new Set([...payoutCurrencies('bank_account'), ...payoutCurrencies('mobile_money')])] as [string, ...string[]]

/** The bank-payout currencies `payouts/availability` answers for (ZAR), in the fixture's order. */
export const AVAILABILITY_CURRENCIES = payoutCurrencies('bank_account').filter((c) => bankPayoutCurrency(c)!.availability === true)

/** A payment purpose as `payout-payment-purpose-by-country-code` answers it (docs/behaviour.md#look-ups). */
export type PayoutPurpose = { countryCode: Country; code: string; name: string; description: string }
/** A country with banks a currency is paid out to, as `payout-countries-by-currency-code` answers it. */
export type PayoutBankCountry = { country: string; countryCode: Country; currencyCode: string; metadata: null }

const PURPOSES = new Map(Object.entries(FIXTURE.payout_purposes).map(([c, list]) => [c, Object.freeze(list.map((p): PayoutPurpose => ({ countryCode: c, ...p })))]))
const BANK_COUNTRIES = new Map(Object.entries(FIXTURE.payout_bank_countries).map(([cur, list]) => [cur, Object.freeze(list.map((c): PayoutBankCountry => ({ ...c, currencyCode: cur, metadata: null })))]))

/** The payment purposes of a country, or undefined for a country the fixture does not declare (US, GB: docs/behaviour.md#look-ups). */
export const payoutPurposesOf = (country: string): readonly PayoutPurpose[] | undefined => PURPOSES.get(country)

/** The countries with banks a currency is paid out to, or undefined for a currency the fixture does not declare (USD, GBP). */
export const payoutBankCountriesOf = (currency: string): readonly PayoutBankCountry[] | undefined => BANK_COUNTRIES.get(currency)

/** The countries and currencies the payout utilities answer for, in the fixture's order (`sandbox magic` lists them). */
export const PAYOUT_PURPOSE_COUNTRIES = [...PURPOSES.keys()]
export const PAYOUT_BANK_COUNTRY_CURRENCIES = [...BANK_COUNTRIES.keys()]

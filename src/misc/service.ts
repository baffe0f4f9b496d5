import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { MSG, badRequest } from '../errors.js'

/**
 * docs/behaviour.md 13.5: the look-ups. The bank and mobile-money lists are the shipped
 * fixtures/lookups.json, read once; they are the same for every namespace, and nothing here
 * touches the store.
 */

export const COUNTRIES = ['NG', 'KE', 'GH', 'ZA'] as const
export type Country = (typeof COUNTRIES)[number]

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

const FIXTURE = JSON.parse(readFileSync(new URL('../../fixtures/lookups.json', import.meta.url), 'utf8')) as {
  banks: Bank[]
  mobile_money: MobileMoneyOperator[]
}

const byCountry = <T extends { country: Country }>(items: T[]): Map<Country, readonly T[]> =>
  new Map(COUNTRIES.map((c) => [c, Object.freeze(items.filter((i) => i.country === c))]))

const BANKS = byCountry(FIXTURE.banks)
const OPERATORS = byCountry(FIXTURE.mobile_money)
/** the banks an account is resolved at: Nigeria's, by code */
const NG_BANKS = new Map(BANKS.get('NG')!.map((b) => [b.code, b]))

/** The banks of a country, in the fixture's order. */
export const banksOf = (country: Country): readonly Bank[] => BANKS.get(country)!

/** The mobile-money operators of a country (none for NG and ZA). */
export const operatorsOf = (country: Country): readonly MobileMoneyOperator[] => OPERATORS.get(country)!

/** The Nigerian bank of a code, or undefined. */
export const nigerianBank = (code: string): Bank | undefined => NG_BANKS.get(code)

/** Account numbers with a fixed answer at any bank: a name, or null for one that never resolves. */
export const MAGIC_ACCOUNTS: ReadonlyMap<string, string | null> = new Map([
  ['0000000000', 'SANDBOX ACCOUNT'],
  ['9999999999', null],
])

const FIRST = ['ADAEZE', 'CHIDI', 'NGOZI', 'EMEKA', 'FUNMILAYO', 'TUNDE', 'AISHA', 'IBRAHIM', 'BOLANLE', 'OLUWASEUN', 'CHIOMA', 'YETUNDE', 'KELECHI', 'HAUWA', 'SEGUN', 'AMAKA']
const LAST = ['OKAFOR', 'ADEYEMI', 'BELLO', 'EZE', 'OGUNLEYE', 'MUSA', 'NWOSU', 'ABUBAKAR', 'OKONKWO', 'ADEBAYO', 'IBEKWE', 'LAWAL', 'OYELARAN', 'DANJUMA', 'UCHE', 'BALOGUN']

/** The name an ordinary account at a bank resolves to: the same for the same bank and number, always. */
export function derivedName(bank: string, account: string): string {
  const h = createHash('sha256').update(`${bank}:${account}`).digest()
  return `${FIRST[h[0] % FIRST.length]} ${LAST[h[1] % LAST.length]}`
}

/** The holder's name of an account at a Nigerian bank (code already checked), or null when it does not resolve. */
export function accountName(bank: string, account: string): string | null {
  const magic = MAGIC_ACCOUNTS.get(account)
  return magic !== undefined ? magic : derivedName(bank, account)
}

export interface ResolvedAccount {
  bank_name: string
  bank_code: string
  account_number: string
  account_name: string
}

/** POST /misc/banks/resolve: the account's holder, or 400 `Unable to resolve bank account.` */
export function resolveAccount(bank: string, account: string): ResolvedAccount {
  const name = accountName(bank, account)
  if (name === null) throw badRequest(MSG.UNRESOLVABLE_ACCOUNT)
  return { bank_name: nigerianBank(bank)!.name, bank_code: bank, account_number: account, account_name: name }
}

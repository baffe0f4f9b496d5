import { createHash } from 'node:crypto'
import { ApiError, badRequest } from '../errors.js'
import { MSG } from '../messages.js'
import { banksOf, operatorOf, payoutBankCountriesOf, payoutPurposesOf, walletCurrency, type Bank, type PayoutBankCountry, type PayoutPurpose } from '../scenario/lookups.js'
import type { WalletScenario } from '../scenario/schema.js'
import { LOOKUPS_MSG } from './messages.js'
import type { WalletResolveInput } from './schemas.js'

/**
 * docs/behaviour.md#look-ups: the look-ups. The lists are the shipped fixtures/lookups.json, read by
 * src/scenario/lookups.ts; they are the same for every namespace, and nothing here
 * touches the store.
 */

/** the banks an account is resolved at: Nigeria's, by code */
const NG_BANKS = new Map(banksOf('NG').map((b) => [b.code, b]))

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

/** POST /misc/banks/resolve: the account's holder, or 400 `Invalid account.` with code AA027, as the service's sample (docs/behaviour.md#look-ups) */
export function resolveAccount(bank: string, account: string): ResolvedAccount {
  const name = accountName(bank, account)
  if (name === null) throw new ApiError(400, MSG.INVALID_ACCOUNT, null, undefined, LOOKUPS_MSG.UNRESOLVED_BANK_ACCOUNT_CODE)
  return { bank_name: nigerianBank(bank)!.name, bank_code: bank, account_number: account, account_name: name }
}

export interface ResolvedWallet {
  mobile_money_operator: string
  mobile_money_code: string
  phone_number: string
  account_name: string
}

/**
 * POST /misc/mobile-money/resolve (docs/behaviour.md#look-ups): the holder of a wallet (its fields
 * already checked). `listed` is the active packs' wallet of the number: its `name`, or 503 with
 * code AA024 `Invalid account.` when it says `found: false`; a wallet no pack lists gets a name
 * derived from operator and number, the same every time.
 */
export function resolveWallet(input: WalletResolveInput, listed: WalletScenario | undefined): ResolvedWallet {
  if (listed?.found === false) throw new ApiError(503, MSG.INVALID_ACCOUNT, null, undefined, LOOKUPS_MSG.INVALID_ACCOUNT_CODE)
  const operator = operatorOf(walletCurrency(input.currency)!.country, input.mobileMoneyCode)!
  const number = input.phoneNumber.replace(/^\+/, '')
  return { mobile_money_operator: operator.name, mobile_money_code: input.mobileMoneyCode, phone_number: input.phoneNumber, account_name: listed?.name ?? derivedName(operator.slug, number) }
}

/** GET /misc/payout-payment-purpose-by-country-code/{countryCode}: the fixture's purposes of the country, or 400 (the page: an unsupported country is a 400). */
export function payoutPurposes(country: string): readonly PayoutPurpose[] {
  const list = payoutPurposesOf(country)
  if (!list) throw badRequest(LOOKUPS_MSG.UNSUPPORTED_COUNTRY)
  return list
}

/** GET /misc/payout-countries-by-currency-code/{currencyCode}: the fixture's bank countries of the currency, or 400. */
export function payoutBankCountries(currency: string): readonly PayoutBankCountry[] {
  const list = payoutBankCountriesOf(currency)
  if (!list) throw badRequest(LOOKUPS_MSG.UNSUPPORTED_CURRENCY)
  return list
}

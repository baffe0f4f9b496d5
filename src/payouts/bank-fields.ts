import { MAX_LENGTH, atMost } from '../engine/schemas.js'
import { z } from '../zod-messages.js'
import { PAYMENT_METHOD_NAMES, bankPayoutCurrency } from '../scenario/lookups.js'

/**
 * docs/behaviour.md#payouts: the fields a bank payout needs by its currency, the one place they are
 * decided (a single payout and a batch's item both ask `bankAccountIssues`). What each currency
 * needs is data, its `payout_currencies.bank_account` entry in fixtures/lookups.json: most take a
 * bank code and an account number, with the fields its `requires` names (ZAR: the holder's name);
 * one marked `remittance` (USD, GBP) takes the remittance-style fields of the payout documentation
 * instead of a bank code (beneficiary, account type, routing number or IBAN, address, supporting
 * documents, purpose), reached by the payment methods it lists.
 */

const text = (max: number) => z.string().trim().min(1, 'is required').max(max, atMost(max))

/** how a remittance-style account in `currency` is reached (its payment methods), or undefined when it takes a bank code */
export const remittanceMethods = (currency: string): readonly string[] | undefined => bankPayoutCurrency(currency)?.remittance

/** what a routing number looks like, by payment method (IBAN: none, the IBAN says it): a method's own format, not a currency's */
const ROUTING: Partial<Record<(typeof PAYMENT_METHOD_NAMES)[number], { pattern: RegExp; says: string }>> = {
  AbaRouting: { pattern: /^\d{9}$/, says: 'must be the 9-digit ABA routing number' },
  BicSwift: { pattern: /^[A-Z0-9]{8}([A-Z0-9]{3})?$/, says: 'must be an 8 or 11 character BIC' },
  SortCode: { pattern: /^\d{6}$/, says: 'must be the 6-digit sort code' },
}

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/

/** the fields of `bank_account` beyond its code and number (all optional here; required by currency below) */
export const bankAccountExtras = {
  account_name: text(MAX_LENGTH.name).optional(),
  bank_name: text(MAX_LENGTH.name).optional(),
  beneficiary_type: z.enum(['individual', 'corporate']).optional(),
  first_name: text(MAX_LENGTH.name).optional(),
  last_name: text(MAX_LENGTH.name).optional(),
  business_name: text(MAX_LENGTH.name).optional(),
  account_type: z.enum(['savings', 'checking']).optional(),
  account_number_type: z.enum(['account_number', 'iban']).optional(),
  payment_method: z.enum(PAYMENT_METHOD_NAMES).optional(),
  routing_number: text(34).optional(),
  intermediary_routing_number: text(34).optional(),
  address_information: z
    .object({
      country: text(2).optional(),
      city: text(MAX_LENGTH.name).optional(),
      state: text(MAX_LENGTH.name).optional(),
      zip_code: text(20).optional(),
      street: text(MAX_LENGTH.description).optional(),
      full_address: text(MAX_LENGTH.description).optional(),
    })
    .optional(),
}

/** the fields beside `bank_account` a USD or GBP payout takes */
export const destinationExtras = {
  bank_country: z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code such as US').optional(),
  supporting_documents: z.array(z.object({ title: text(MAX_LENGTH.name), file_reference: text(MAX_LENGTH.reference) })).max(10, 'must hold at most 10 documents').optional(),
  purpose_of_payment: text(MAX_LENGTH.description).optional(),
}

/**
 * The fields of a bank account beside its code and number, whichever names these two carry (the
 * disburse call's `bank` and `account`, a batch item's `bank_code` and `account_number`): the
 * functions below take the code and the number beside the account rather than a copy of it under
 * other names (spreading a parsed body cost a payout about 15 µs: bench/README.md).
 */
export type BankAccountFields = { [K in keyof typeof bankAccountExtras]?: z.infer<(typeof bankAccountExtras)[K]> }
export type Beside = { [K in keyof typeof destinationExtras]?: z.infer<(typeof destinationExtras)[K]> }

/** The names of the code and number fields: the disburse call's (`bank`, `account`) or a batch item's (`bank_code`, `account_number`). */
export type AccountNames = { code: string; number: string }

type Issue = (path: string[], message: string) => void

/** Each missing or malformed field of a bank payout in `currency`, reported through `issue` with its path. */
export function bankAccountIssues(currency: string, account: BankAccountFields, code: string | undefined, number: string, beside: Beside, names: AccountNames, issue: Issue): void {
  const at = (field: string) => ['bank_account', field]
  const methods = remittanceMethods(currency)
  if (!methods) {
    if (!code) issue(at(names.code), 'is required')
    if (!/^\d{6,20}$/.test(number)) issue(at(names.number), 'must be 6-20 digits')
    for (const field of bankPayoutCurrency(currency)?.requires ?? []) if (!account[field]) issue(at(field), `is required for ${currency}`)
    return
  }
  const need = (field: keyof BankAccountFields, why = `is required for ${currency}`) => {
    if (account[field] === undefined) issue(at(field), why)
  }
  if (!beside.bank_country) issue(['bank_country'], `is required for ${currency}`)
  need('bank_name')
  need('beneficiary_type')
  if (account.beneficiary_type === 'individual') (['first_name', 'last_name'] as const).forEach((f) => need(f, 'is required for an individual beneficiary'))
  if (account.beneficiary_type === 'corporate') need('business_name', 'is required for a corporate beneficiary')
  need('account_number_type')
  need('payment_method')
  const method = account.payment_method
  if (method && !methods.includes(method)) issue(at('payment_method'), `must be ${methods.join(' or ')} for ${currency}`)
  const byIban = account.account_number_type === 'iban'
  if (method === 'IBAN' && account.account_number_type && !byIban) issue(at('account_number_type'), 'must be iban when payment_method is IBAN')
  if (byIban ? !IBAN.test(number) : !/^\d{4,17}$/.test(number)) issue(at(names.number), byIban ? 'must be an IBAN' : 'must be 4-17 digits')
  const routing = method ? ROUTING[method] : undefined
  if (routing) {
    if (!account.routing_number) issue(at('routing_number'), `is required for ${method}`)
    else if (!routing.pattern.test(account.routing_number)) issue(at('routing_number'), routing.says)
  }
  const address = account.address_information
  if (!address) issue(at('address_information'), `is required for ${currency}`)
  else for (const f of ['country', 'city', 'street'] as const) if (!address[f]) issue([...at('address_information'), f], 'is required')
  if (!beside.supporting_documents?.length) issue(['supporting_documents'], `must hold at least one document for ${currency}`)
}

/**
 * The key of a bank account among the pack's test payouts and the banks: its code; a USD or GBP
 * account's routing number, or `IBAN` when paid by IBAN.
 */
export function bankKey(currency: string, account: BankAccountFields, code: string | undefined): string {
  if (!remittanceMethods(currency)) return code!
  return account.payment_method === 'IBAN' ? 'IBAN' : account.routing_number!
}

/** The holder's name a bank account carries, when its request names one. */
export function holderName(account: BankAccountFields): string | null {
  if (account.account_name) return account.account_name
  if (account.beneficiary_type === 'corporate') return account.business_name ?? null
  return account.first_name && account.last_name ? `${account.first_name} ${account.last_name}` : null
}

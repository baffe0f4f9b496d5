import { CARD_FORMAT } from '../cards/schemas.js'
import { maskSecrets } from '../http/mask.js'
import { walletNumberIssue } from '../mobile-money/schemas.js'
import { maskPan } from '../store/card-numbers.js'
import type { CheckoutCard } from './schemas.js'

/**
 * The hosted page's form posts (docs/behaviour.md#checkout-page): what each `action` carries, checked
 * field by field with the card and wallet APIs' formats, so a bad entry is refused with the
 * field's own message before any service is called. The journal keeps a masked copy only.
 */

/** the page's fields: the form name and the label the customer sees */
export const FIELD_LABEL = {
  card_number: 'Card number',
  expiry: 'Expiry',
  cvv: 'CVV',
  pin: 'PIN',
  otp: 'OTP',
  phone: 'Phone number',
  address: 'Address',
  city: 'City',
  state: 'State',
  zip_code: 'Postal code',
  country: 'Country',
  bank_code: 'Bank',
} as const
export type PageField = keyof typeof FIELD_LABEL
export type FormErrors = Partial<Record<PageField | 'form', string>>

export type BankAmount = 'exact' | 'less' | 'more'

export type PageAction =
  | { action: 'card'; card: CheckoutCard }
  | { action: 'pin'; pin: string }
  | { action: 'otp'; otp: string }
  | { action: 'avs'; avs: { address: string; city: string; state: string; zip_code: string; country: string } }
  | { action: 'phone'; phone: string }
  | { action: 'mobile_money'; number: string }
  | { action: 'prompt'; pin: string }
  | { action: 'bank_transfer' }
  | { action: 'pay_with_bank'; bank_code: string }
  | { action: 'sent'; amount: BankAmount }

/** What the customer typed, to fill the form again after a refusal: never the CVV, PIN or OTP. */
export type Echo = Partial<Record<'card_number' | 'expiry' | 'phone' | 'address' | 'city' | 'state' | 'zip_code' | 'country', string>>

export type Parsed = { ok: true; value: PageAction; echo: Echo } | { ok: false; errors: FormErrors; echo: Echo; action: string }

const digitsOnly = (s: string) => s.replace(/[\s-]/g, '')

/** Reads one post of the page's form. */
export function parseAction(form: URLSearchParams, currency: string): Parsed {
  const get = (k: string) => (form.get(k) ?? '').trim()
  const action = get('action')
  const errors: FormErrors = {}
  const echo: Echo = {}
  const need = (k: PageField, re: RegExp, message: string): string => {
    const v = k === 'card_number' || k === 'phone' ? digitsOnly(get(k)) : get(k)
    if (!v) errors[k] = `${FIELD_LABEL[k]} is required`
    else if (!re.test(v)) errors[k] = `${FIELD_LABEL[k]} ${message}`
    return v
  }
  let value: PageAction | undefined
  switch (action) {
    case 'card': {
      echo.card_number = get('card_number')
      echo.expiry = get('expiry')
      const number = need('card_number', CARD_FORMAT.number, 'must be 12-19 digits')
      const expiry = need('expiry', /^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, 'must be MM/YY, e.g. 09/30')
      const cvv = need('cvv', CARD_FORMAT.cvv, 'must be 3 or 4 digits')
      const [month, year] = expiry.split('/').map((s) => s.trim())
      value = { action, card: { number, cvv, expiry_month: month, expiry_year: year } }
      break
    }
    case 'pin':
    case 'prompt': {
      const pin = need('pin', /^\d{4}$/, 'must be 4 digits')
      value = { action, pin }
      break
    }
    case 'otp':
      value = { action, otp: need('otp', /^\d{4,8}$/, 'must be 4-8 digits') }
      break
    case 'avs': {
      const avs = { address: '', city: '', state: '', zip_code: '', country: '' }
      for (const k of Object.keys(avs) as (keyof typeof avs)[]) {
        echo[k] = get(k)
        avs[k] = need(k, /^.{1,100}$/, 'must be at most 100 characters')
      }
      value = { action, avs }
      break
    }
    case 'phone':
      echo.phone = get('phone')
      value = { action, phone: need('phone', /^\+?\d{7,15}$/, 'must be a phone number in international format') }
      break
    case 'mobile_money': {
      echo.phone = get('phone')
      const number = need('phone', /^\+?\d{10,15}$/, 'must be the wallet number in international format, digits only').replace(/^\+/, '')
      const issue = errors.phone ? null : walletNumberIssue(currency, number)
      if (issue) errors.phone = `Phone number ${issue}`
      value = { action, number }
      break
    }
    case 'bank_transfer':
      value = { action }
      break
    case 'pay_with_bank':
      value = { action, bank_code: need('bank_code', /^\d{3,10}$/, 'must be one of the banks listed') }
      break
    case 'sent': {
      const amount = get('amount') || 'exact'
      if (amount !== 'exact' && amount !== 'less' && amount !== 'more') errors.form = 'Choose the amount you sent'
      value = { action, amount: amount as BankAmount }
      break
    }
    default:
      errors.form = 'Unknown action: reload the page and try again'
  }
  if (Object.keys(errors).length || !value) return { ok: false, errors, echo, action }
  return { ok: true, value, echo }
}

/**
 * What the journal keeps of a post (docs/behaviour.md#request-journal): the action and its fields, the card
 * number as first six and last four digits, CVV, PIN and OTP as asterisks, and anything else
 * through the journal's masker (a card number typed into another field is masked too).
 */
export function journalNote(form: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of form) {
    if (k === 'cvv' || k === 'pin' || k === 'otp') out[k] = v ? '***' : ''
    else if (k === 'card_number' && /^\d{10,19}$/.test(digitsOnly(v))) out[k] = maskPan(digitsOnly(v))
    else out[k] = v
  }
  // every other field once, by the journal's masker
  return maskSecrets(out) as Record<string, unknown>
}

/** The page's field a service's field error is about (docs/api.md's field names). */
export const SERVICE_FIELD: Record<string, PageField> = {
  'card.number': 'card_number',
  'card.expiry_year': 'expiry',
  'card.expiry_month': 'expiry',
  'card.cvv': 'cvv',
  'authorization.pin': 'pin',
  'authorization.otp': 'otp',
  'authorization.phone': 'phone',
  'mobile_money.number': 'phone',
  currency: 'phone',
  bank_code: 'bank_code',
}

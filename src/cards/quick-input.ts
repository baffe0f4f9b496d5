import { isJsonObject } from '../http/body.js'
import { z } from '../zod-messages.js'
import { MAX_LENGTH, METADATA_RULES, REFERENCE_MIN, amountIssue, isHttpUrl } from '../engine/schemas.js'
import { parseAmount } from '../money.js'
import { CARD_FORMAT, DYNAMIC_DESCRIPTOR, type CardChargeInput } from './schemas.js'

/**
 * The card-charge payload as SDKs send it, checked without zod: the same rules as
 * `cardChargeSchema` (the same constants and predicates), answering the object zod would, or
 * `undefined` for anything it does not take, an unknown field included; zod then decides, with its
 * field errors. Only the answer for a valid payload is ever taken from here, so an error message
 * never comes from this path. Why: zod's generic walk was ~5 % of a card charge under load (its
 * own allocations and code, for a shape that is almost always the same). A property test checks
 * that whatever this accepts, zod accepts too, with the same output.
 */
export function quickCardCharge(p: Record<string, unknown>, allowZero: boolean, underscores: boolean): CardChargeInput | undefined {
  const { reference, card, amount, currency, redirect_url, customer, metadata, dynamic_descriptor, description } = p
  if (typeof reference !== 'string') return undefined
  const ref = reference.trim()
  if (ref.length < REFERENCE_MIN || ref.length > MAX_LENGTH.reference) return undefined
  const cardOut = quickCard(card)
  if (!cardOut) return undefined
  if (typeof amount !== 'number' || amountIssue(amount, { allowZero }) !== undefined) return undefined
  if (currency !== 'NGN') return undefined
  const customerOut = quickCustomer(customer)
  if (!customerOut) return undefined
  // the fields taken so far; each optional one adds itself
  let n = 5
  // in minor units, as the schema hands it on
  const out: Record<string, unknown> = { reference: ref, card: cardOut, amount: parseAmount(amount), currency }
  if (redirect_url !== undefined) {
    if (typeof redirect_url !== 'string' || redirect_url.length > MAX_LENGTH.url || !isHttpUrl(redirect_url)) return undefined
    out.redirect_url = redirect_url
    n++
  }
  out.customer = customerOut
  if (metadata !== undefined) {
    if (!isJsonObject(metadata) || !METADATA_RULES[underscores ? 'underscores' : 'spec'].every(([rule]) => rule(metadata))) return undefined
    out.metadata = Object.assign({}, metadata)
    n++
  }
  if (dynamic_descriptor !== undefined) {
    if (typeof dynamic_descriptor !== 'string' || !DYNAMIC_DESCRIPTOR.test(dynamic_descriptor)) return undefined
    out.dynamic_descriptor = dynamic_descriptor
    n++
  }
  if (description !== undefined) {
    if (typeof description !== 'string' || description.length > MAX_LENGTH.description) return undefined
    out.description = description
    n++
  }
  // a field this path does not know (or one sent as undefined): zod's turn
  if (Object.keys(p).length !== n) return undefined
  return out as CardChargeInput
}

function quickCard(card: unknown): CardChargeInput['card'] | undefined {
  if (!isJsonObject(card)) return undefined
  const { name, number, cvv, expiry_month, expiry_year, pin } = card
  if (typeof number !== 'string' || !CARD_FORMAT.number.test(number)) return undefined
  if (typeof cvv !== 'string' || !CARD_FORMAT.cvv.test(cvv)) return undefined
  if (typeof expiry_month !== 'string' || !CARD_FORMAT.expiry_month.test(expiry_month)) return undefined
  if (typeof expiry_year !== 'string' || !CARD_FORMAT.expiry_year.test(expiry_year)) return undefined
  let n = 4
  const out: Record<string, unknown> = {}
  if (name !== undefined) {
    if (typeof name !== 'string' || name.length > MAX_LENGTH.name) return undefined
    out.name = name
    n++
  }
  out.number = number
  out.cvv = cvv
  out.expiry_month = expiry_month
  out.expiry_year = expiry_year
  if (pin !== undefined) {
    if (typeof pin !== 'string' || !CARD_FORMAT.pin.test(pin)) return undefined
    out.pin = pin
    n++
  }
  return Object.keys(card).length === n ? (out as CardChargeInput['card']) : undefined
}

function quickCustomer(customer: unknown): CardChargeInput['customer'] | undefined {
  if (!isJsonObject(customer)) return undefined
  const { email, name } = customer
  if (typeof email !== 'string' || email.length > MAX_LENGTH.email || !z.regexes.email.test(email)) return undefined
  if (name === undefined) return Object.keys(customer).length === 1 ? { email } : undefined
  if (typeof name !== 'string' || name.length > MAX_LENGTH.name) return undefined
  return Object.keys(customer).length === 2 ? { email, name } : undefined
}

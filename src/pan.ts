import type { Scheme } from './scenario/schema.js'

/**
 * The scheme of a PAN by its BIN, or null when it is none of the three supported ones.
 * Verve: 5060-5061, 5078-5079 and 6500 ranges (16-19 digits); Mastercard: 51-55 and 2221-2720
 * (16 digits); Visa: 4 (13, 16 or 19 digits).
 */
export function detectScheme(pan: string): Scheme | null {
  const len = pan.length
  const p4 = Number(pan.slice(0, 4))
  const p2 = Number(pan.slice(0, 2))
  if ((p4 === 5060 || p4 === 5061 || p4 === 5078 || p4 === 5079 || p4 === 6500) && len >= 16 && len <= 19) return 'verve'
  if (((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) && len === 16) return 'mastercard'
  if (pan[0] === '4' && (len === 13 || len === 16 || len === 19)) return 'visa'
  return null
}

/** The card summary of docs/api.md 2.4: never more of the PAN than the first six and last four. */
export function cardSummary(pan: string, scheme: Scheme, expiryMonth: string, expiryYear: string) {
  return {
    card_type: scheme,
    first_six: pan.slice(0, 6),
    last_four: pan.slice(-4),
    expiry: `${expiryMonth}/${expiryYear.slice(-2)}`,
  }
}
export type CardSummary = ReturnType<typeof cardSummary>

import type { Scheme } from './scenario/schema.js'

/** Luhn (mod 10) check of a digit string. */
export function luhnValid(pan: string): boolean {
  let sum = 0
  let double = false
  for (let i = pan.length - 1; i >= 0; i--) {
    let d = pan.charCodeAt(i) - 48
    if (d < 0 || d > 9) return false
    if (double) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
    double = !double
  }
  return pan.length > 0 && sum % 10 === 0
}

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

/** 408412******2787 */
export function maskPan(pan: string): string {
  if (pan.length < 10) return '*'.repeat(pan.length)
  return `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`
}

/** Digits with at most three spaces, dashes, dots or underscores between each two. */
const DIGIT_RUN = /\d(?:[ ._-]{0,3}\d)+/g
const SEPARATORS = /([ ._-]+)/

/**
 * `s` with every card number in it masked as `maskPan` does (docs/behaviour.md 9.5): a run of 12
 * to 19 digits that passes Luhn, spaces, dashes, dots or underscores between them allowed; in a
 * longer run of groups (`order 12 4084 1278 8317 2787`), any groups that together make one.
 */
export function maskPansIn(s: string): string {
  if (s.length < 12) return s
  // most strings hold fewer than 12 digits: count before running the pattern
  let digits = 0
  for (let i = 0; i < s.length && digits < 12; i++) {
    const code = s.charCodeAt(i)
    if (code >= 48 && code <= 57) digits++
  }
  if (digits < 12) return s
  return s.replace(DIGIT_RUN, maskRun)
}

function maskRun(run: string): string {
  const all = run.replace(/\D/g, '')
  if (all.length < 12) return run
  if (all.length <= 19 && luhnValid(all)) return maskPan(all)
  // groups and the separators between them: [group, sep, group, sep, ..., group]
  const parts = run.split(SEPARATORS)
  let out = ''
  for (let i = 0; i < parts.length; i += 2) {
    let pan = ''
    let end = -1
    for (let j = i, acc = ''; j < parts.length && acc.length <= 19; j += 2) {
      acc += parts[j]
      if (acc.length >= 12 && acc.length <= 19 && luhnValid(acc)) {
        pan = acc
        end = j
      }
    }
    if (end >= 0) {
      out += maskPan(pan) + (parts[end + 1] ?? '')
      i = end
    } else out += parts[i] + (parts[i + 1] ?? '')
  }
  return out
}

/**
 * A JSON number that is a card number: an integer part of 12 to 19 digits that passes Luhn, or
 * one too large to be exact (its digits are no longer the ones sent), becomes the masked string;
 * any other number is returned as it is.
 */
export function maskPanNumber(n: number): number | string {
  const a = Math.abs(n)
  if (!(a >= 1e11 && a < 1e19)) return n
  const digits = String(Math.trunc(a))
  return !Number.isSafeInteger(Math.trunc(a)) || luhnValid(digits) ? maskPan(digits) : n
}

/**
 * A value as a record keeps it (free text: a description, a customer, metadata): every card number
 * in its strings, numbers and keys masked. The same value when there is none (the usual case).
 */
export function maskPansDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return maskPansIn(value) as T
  if (typeof value === 'number') return maskPanNumber(value) as T
  if (!value || typeof value !== 'object' || depth > 32) return value
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const m = maskPansDeep(value[i], depth + 1)
      if (m !== value[i]) (out ??= value.slice())[i] = m
    }
    return (out ?? value) as T
  }
  const obj = value as Record<string, unknown>
  const keys = Object.keys(obj)
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]
    const key = k.length >= 12 ? maskPansIn(k) : k
    const v = maskPansDeep(obj[k], depth + 1)
    if (key === k && v === obj[k]) continue
    // the first change: a copy (own properties defined, never assigned: a key may be __proto__)
    const entries: [string, unknown][] = keys.slice(0, i).map((k2) => [k2, obj[k2]])
    entries.push([key, v])
    for (const k2 of keys.slice(i + 1)) entries.push([k2.length >= 12 ? maskPansIn(k2) : k2, maskPansDeep(obj[k2], depth + 1)])
    return Object.fromEntries(entries) as T
  }
  return value
}

import { luhnValid, maskPan } from '../pan.js'

/** Keys whose values are secrets that are never stored, logged or journaled. */
const SECRET_KEYS = new Set(['cvv', 'pin', 'otp', 'token'])
const SECRET_KEY_MAX = Math.max(...[...SECRET_KEYS].map((k) => k.length))

/**
 * A deep copy with every secret masked: card numbers (and any Luhn-valid 12-19 digit string)
 * keep only their first six and last four digits; CVV, PIN and OTP values become asterisks.
 */
export function maskSecrets(value: unknown, depth = 0, parent = ''): unknown {
  if (depth > 32) return '[deep]'
  if (typeof value === 'string') return maskPansIn(value)
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1, parent))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    const obj = value as Record<string, unknown>
    for (const k of Object.keys(obj)) {
      const v = obj[k]
      // never String() an unknown value: a deeply nested array would overflow the stack
      if (isSecretKey(k) && v !== null && v !== undefined) out[k] = '*'.repeat(typeof v === 'string' ? Math.min(8, v.length || 3) : 3)
      // a wallet number is a phone number, not a card: it stays as sent
      else if (k === 'number' && parent === 'mobile_money') out[k] = v
      else if (k === 'number' && typeof v === 'string' && /^[\d\s-]{12,30}$/.test(v) && v.replace(/\D/g, '').length >= 12) out[k] = maskPan(v.replace(/\D/g, ''))
      else out[k] = maskSecrets(v, depth + 1, k)
    }
    return out
  }
  return value
}

/**
 * `maskSecrets` of a card-charge payload that `quickCardCharge` took (its known fields only, the
 * card's formats checked): the same answer without the generic walk's tests on the card's fields.
 */
export function maskCardPayload(payload: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(payload)) out[k] = k === 'card' ? maskCheckedCard(payload.card as Record<string, string>) : maskSecrets(payload[k], 1, k)
  return out
}

/** A card whose number is 12-19 digits and whose CVV and PIN are digits: every field a string. */
function maskCheckedCard(card: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k of Object.keys(card)) {
    const v = card[k]
    out[k] = k === 'number' ? maskPan(v) : k === 'cvv' || k === 'pin' ? '*'.repeat(v.length) : maskPansIn(v)
  }
  return out
}

/** Whether a key names a secret, in any case (a longer key is not lowercased to find out). */
function isSecretKey(k: string): boolean {
  return k.length <= SECRET_KEY_MAX && SECRET_KEYS.has(k.toLowerCase())
}

/** Any run of 12-19 digits (spaces or dashes between them allowed) that passes Luhn is masked. */
const DIGIT_RUN = /\d(?:[ -]?\d){11,18}/g

function maskPansIn(s: string): string {
  if (s.length < 12) return s
  // most strings hold fewer than 12 digits: count before running the pattern
  let digits = 0
  for (let i = 0; i < s.length && digits < 12; i++) {
    const code = s.charCodeAt(i)
    if (code >= 48 && code <= 57) digits++
  }
  if (digits < 12) return s
  return s.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/\D/g, '')
    return luhnValid(digits) ? maskPan(digits) : run
  })
}

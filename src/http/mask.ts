import { luhnValid, maskPan } from '../cards/pan.js'

/** Keys whose values are secrets that are never stored, logged or journaled. */
const SECRET_KEYS = new Set(['cvv', 'pin', 'otp', 'token'])

/**
 * A deep copy with every secret masked: card numbers (and any Luhn-valid 12-19 digit string)
 * keep only their first six and last four digits; CVV, PIN and OTP values become asterisks.
 */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 32) return '[deep]'
  if (typeof value === 'string') return looksLikePan(value) ? maskPan(value) : value
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_KEYS.has(k.toLowerCase()) && v !== null && v !== undefined) out[k] = '*'.repeat(Math.min(8, String(v).length || 3))
      else if (k === 'number' && typeof v === 'string' && /^\d{12,19}$/.test(v)) out[k] = maskPan(v)
      else out[k] = maskSecrets(v, depth + 1)
    }
    return out
  }
  return value
}

function looksLikePan(s: string): boolean {
  return s.length >= 12 && s.length <= 19 && /^\d+$/.test(s) && luhnValid(s)
}

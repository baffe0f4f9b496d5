import { maskPan, maskPanNumber, maskPansIn } from '../store/card-numbers.js'
import { isSecretName, isSecretValue, maskedSecret } from '../store/secrets.js'

/**
 * Keys whose values are secrets that are never stored, logged or journaled, whatever they hold;
 * beyond them, a text or number under any name the store's rule calls a secret's
 * (src/store/secrets.ts: `voucher_pin`, `Card-PIN`, `pinCode`).
 */
const SECRET_KEYS = new Set(['cvv', 'pin', 'otp', 'token'])
const SECRET_KEY_MAX = Math.max(...[...SECRET_KEYS].map((k) => k.length))

/**
 * A deep copy with every secret masked: card numbers (and any Luhn-valid run of 12-19 digits, in
 * a string with spaces, dashes, dots or underscores between them, in a JSON number, in a key)
 * keep only their first six and last four digits; CVV, PIN and OTP values become asterisks.
 */
export function maskSecrets(value: unknown, depth = 0, parent = '', budget?: Budget): unknown {
  if (depth > 32) return '[deep]'
  if (typeof value === 'string') {
    if (budget) budget.left -= value.length
    return maskPansIn(value)
  }
  if (typeof value === 'number') return maskPanNumber(value)
  if (Array.isArray(value)) {
    if (!budget) return value.map((v) => maskSecrets(v, depth + 1, parent))
    const out: unknown[] = []
    for (const v of value) {
      if (spent(budget)) break
      out.push(maskSecrets(v, depth + 1, parent, budget))
    }
    return out
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    const obj = value as Record<string, unknown>
    for (const key of Object.keys(obj)) {
      if (budget) {
        if (spent(budget)) break
        budget.left -= key.length
      }
      const v = obj[key]
      // a card number as a key is masked too
      const k = key.length >= 12 ? maskPansIn(key) : key
      if (k !== key) {
        Object.defineProperty(out, k, { value: maskSecrets(v, depth + 1, k, budget), enumerable: true, writable: true, configurable: true })
        continue
      }
      // never String() an unknown value: a deeply nested array would overflow the stack
      if ((isSecretKey(k) && v !== null && v !== undefined) || (isSecretValue(v) && isSecretName(k))) out[k] = maskedSecret(v)
      // a wallet number is a phone number, not a card: it stays as sent
      else if (k === 'number' && parent === 'mobile_money') out[k] = v
      else if ((k === 'number' || k === 'card_number') && typeof v === 'string' && /^[\d\s._-]{12,60}$/.test(v) && v.replace(/\D/g, '').length >= 12) out[k] = maskPan(v.replace(/\D/g, ''))
      else if (k === 'number' && typeof v === 'number' && Math.abs(v) >= 1e11) out[k] = maskPan(String(Math.trunc(Math.abs(v))))
      else out[k] = maskSecrets(v, depth + 1, k, budget)
    }
    return out
  }
  return value
}

/** What is left of the text `maskStart` masks; `cut` once an entry was left out. */
interface Budget {
  left: number
  cut: boolean
}

function spent(budget: Budget): boolean {
  if (budget.left > 0) return false
  budget.cut = true
  return true
}

/**
 * `maskSecrets` of a value's start only: its entries (in objects and lists, at every level) up to
 * about `chars` characters of their keys and texts, the rest left out, and whether anything was
 * (`cut`). The keys and texts are fewer characters than the JSON text they are written in, so
 * when something is left out the masked start's JSON text holds at least `chars` characters of
 * the whole masked text's, and what is left out lies after them: the journal, which keeps the
 * first bytes of a body (docs/behaviour.md#request-journal), masks those and not a 16 MiB snapshot whole.
 */
export function maskStart(value: unknown, chars: number): { masked: unknown; cut: boolean } {
  const budget: Budget = { left: chars, cut: false }
  const masked = maskSecrets(value, 0, '', budget)
  return { masked, cut: budget.cut }
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

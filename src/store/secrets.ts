/**
 * Secrets in what the sandbox keeps (docs/behaviour.md#request-journal): a PIN, a CVV or an OTP is never
 * stored, journaled, recorded or snapshotted. The rule lives here, beside the card numbers'
 * (card-numbers.ts): the store masks the value of every field whose name is a secret's, in any
 * spelling, in every record it is handed, whatever area writes it and even where the collection's
 * spec keeps the field as written; the journal and the recorders mask by the same names
 * (src/http/mask.ts). What a module may keep of a secret is a digest (node:crypto), under a name
 * of its own (a voucher's `digest`, a step's `expect`).
 *
 * A secret's name: its last word `pin`, `cvv`, `cvv2`, `cvc`, `cvc2` or `otp`, in any case, maybe
 * followed by `code` or `number`, with or without separators: `pin`, `PIN`, `voucher_pin`,
 * `voucherPin`, `Card-PIN`, `pin_code`, `pinNumber`, `cvv2`. Counters and flags named after a
 * secret (`otp_attempts_left`, `can_resend_otp: true`) are no secret: only a text or a number is
 * masked.
 */

/** the end of a secret's name; the separators (`[^a-z0-9]`, case-insensitive) never a quote */
const SECRET_END = '(?:pin|cvv2?|cvc2?|otp)(?:[^a-z0-9"\\\\]*(?:code|number))?'
const SECRET_NAME = new RegExp(`${SECRET_END}$`, 'i')

/** names already tested (the names a collection's records use come back at once); forgotten past this many */
const KNOWN = new Map<string, boolean>()
const KNOWN_MAX = 1024

/** Whether a field's name is a secret's (see above). */
export function isSecretName(name: string): boolean {
  let secret = KNOWN.get(name)
  if (secret === undefined) {
    secret = SECRET_NAME.test(name)
    if (KNOWN.size >= KNOWN_MAX) KNOWN.clear()
    KNOWN.set(name, secret)
  }
  return secret
}

/** Whether a secret-named field's value is one to mask: a text or a number (a PIN sent as digits). */
export const isSecretValue = (v: unknown): v is string | number => typeof v === 'string' || typeof v === 'number'

/** What is kept of a secret: as many asterisks as it had characters, at most 8 (3 for an empty text or any other value). */
export const maskedSecret = (v: unknown): string => '*'.repeat(typeof v === 'string' ? Math.min(8, v.length || 3) : 3)

/** A secret-named field in JSON text with its value (a string or a number). */
const SECRET_IN_JSON = new RegExp(`("[^"\\\\]*?${SECRET_END}"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|-?\\d[\\d.eE+-]*)`, 'gi')

/** a secret's name needs one of these words: a text without any holds no secret field (the usual case, found in one pass) */
const SECRET_WORD = /pin|cvv|cvc|otp/i

/**
 * JSON text with the value of every secret-named field masked (the journal's answers, kept as the
 * text sent): the same text when there is none, the usual case.
 */
export function maskSecretsInJson(text: string): string {
  if (!SECRET_WORD.test(text)) return text
  return text.replace(SECRET_IN_JSON, (_, key: string, value: string) => `${key}"${maskedSecret(value.startsWith('"') ? JSON.parse(value) : Number(value))}"`)
}

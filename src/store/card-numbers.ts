import { isSecretName, isSecretValue, maskedSecret } from './secrets.js'
import type { Check, RecordFields, RecordRules } from './validate.js'

/**
 * Card numbers in what the store keeps (docs/behaviour.md#request-journal): the rule that no record holds a
 * full card number lives here, in the store's write path (`Collection.put`), whatever area writes
 * the record. Every string of a record, every key of its objects and every number is masked as
 * `maskPan` masks a card, except the fields its collection's spec keeps as written (`asWritten`:
 * references, wallet and account numbers, an added pack's cards) and the fields it declares as
 * numbers (an amount, a moment: `NUMBER`, `EPOCH_MS`). The journal and the flows use the same
 * text rule (src/http/mask.ts). The same walk masks a PIN, CVV or OTP by its field's name (secrets.ts).
 */

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

/** 408412******2787 */
export function maskPan(pan: string): string {
  if (pan.length < 10) return '*'.repeat(pan.length)
  return `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`
}

/** Digits with at most three spaces, dashes, dots or underscores between each two. */
const DIGIT_RUN = /\d(?:[ ._-]{0,3}\d)+/g
const SEPARATORS = /([ ._-]+)/

/**
 * Whether `s` holds a run of DIGIT_RUN with 12 digits or more: one pass, no pattern. Most strings
 * a record holds have none (a moment, `2026-11-24T10:00:00.000Z`, has 17 digits in runs of 8 at
 * most), so the pattern runs only on the few that may hold a card number.
 */
function hasLongRun(s: string): boolean {
  let digits = 0
  let seps = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c <= 57 && c >= 48) {
      if (++digits === 12) return true
      seps = 0
    } else if (digits !== 0 && (c === 45 || c === 32 || c === 46 || c === 95) && ++seps <= 3) continue
    else digits = seps = 0
  }
  return false
}

/**
 * `s` with every card number in it masked as `maskPan` does (docs/behaviour.md#request-journal): a run of 12
 * to 19 digits that passes Luhn, spaces, dashes, dots or underscores between them allowed; in a
 * longer run of groups (`order 12 4084 1278 8317 2787`), any groups that together make one.
 */
export function maskPansIn(s: string): string {
  if (s.length < 12 || !hasLongRun(s)) return s
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

/** The fields kept as written, by name, each with the fields kept within it (true: the whole field). */
export type Kept = ReadonlyMap<string, Kept | true>

const MAX_DEPTH = 32

/**
 * `value` with every card number in its strings, numbers and keys masked, except within `kept`.
 * Masked in place where it may be changed (a record put is given up by its writer, so whoever
 * still holds it sees what was stored); an object or array that is frozen (a part of a stored
 * record a new one shares) and must change is copied. The same value when there is none (the usual case).
 */
export function maskPansDeep<T>(value: T, kept?: Kept): T {
  if (typeof value === 'string') return maskPansIn(value) as T
  if (typeof value === 'number') return maskPanNumber(value) as T
  return value && typeof value === 'object' ? (maskIn(value, kept, 0, undefined) as T) : value
}

/** A field's value masked, or the value itself when it holds no card number. */
function masked(v: unknown, kept: Kept | undefined, depth: number, clean: Set<string> | undefined): unknown {
  if (typeof v === 'string') return v.length < 12 || clean?.has(v) ? v : maskedText(v, clean)
  if (typeof v === 'number') return v < 1e11 && v > -1e11 ? v : maskPanNumber(v)
  return typeof v === 'object' && v !== null && depth <= MAX_DEPTH ? maskIn(v, kept, depth, clean) : v
}

/** A string masked; one found clean is remembered (a short one: a text, a moment several fields share). */
function maskedText(v: string, clean: Set<string> | undefined): string {
  const m = maskPansIn(v)
  if (m === v && clean && v.length <= CLEAN_LENGTH) remember(clean, v)
  return m
}

/** Keeps a clean text or key, forgetting them all once there are too many (the texts a collection's records share come back at once). */
function remember(clean: Set<string>, s: string): void {
  if (clean.size >= CLEAN_TEXTS) clean.clear()
  clean.add(s)
}

/** An object or array masked (see maskPansDeep); `clean`: texts and keys already found to hold no card number. */
function maskIn(value: object, kept: Kept | undefined, depth: number, clean: Set<string> | undefined): object {
  if (Array.isArray(value)) {
    const list: unknown[] = value
    let out = list
    for (let i = 0; i < list.length; i++) {
      const v = list[i]
      const m = masked(v, kept, depth + 1, clean)
      if (m === v) continue
      if (out === list && Object.isFrozen(list)) out = list.slice()
      out[i] = m
    }
    return out
  }
  const obj = value as Record<string, unknown>
  let out = obj
  // for-in, not Object.keys: no list made per object (a record's objects are plain JSON data, their prototype's keys none)
  for (const k in obj) {
    const v = obj[k]
    // a secret (secrets.ts): masked even where the spec keeps the field as written
    const secret = isSecretValue(v) && isSecretName(k)
    const inner = kept === undefined ? undefined : kept.get(k)
    if (inner === true && !secret) continue
    // a card number as a key: the object is written again, its keys in their order
    if (k.length >= 12 && !clean?.has(k)) {
      if (maskPansIn(k) !== k) return rekeyed(obj, kept, depth, clean)
      if (clean && k.length <= CLEAN_LENGTH) remember(clean, k)
    }
    const m = secret ? maskedSecret(v) : masked(v, inner === true ? undefined : inner, depth + 1, clean)
    if (m === v) continue
    if (out === obj && Object.isFrozen(obj)) out = { ...obj }
    Object.defineProperty(out, k, { value: m, writable: true, enumerable: true, configurable: true })
  }
  return out
}

/**
 * What a collection's masking remembers as clean: its fields' names and the texts its records
 * share (a charge's messages, the moment written in several of its fields), each checked once
 * rather than on every write; at most this many, of at most this length.
 */
const CLEAN_TEXTS = 1024
const CLEAN_LENGTH = 256

/** A copy of an object with every key and value masked (a key may be `__proto__`: defined, never assigned). */
function rekeyed(obj: Record<string, unknown>, kept: Kept | undefined, depth: number, clean: Set<string> | undefined): object {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(obj)) {
    const inner = kept?.get(k)
    const v = obj[k]
    const value = isSecretValue(v) && isSecretName(k) ? maskedSecret(v) : inner === true ? v : masked(v, inner, depth + 1, clean)
    Object.defineProperty(out, k.length >= 12 ? maskPansIn(k) : k, { value, writable: true, enumerable: true, configurable: true })
  }
  return out
}

/** What a collection's spec says of its card numbers: the fields its records keep as written. */
export interface KeptFields extends RecordRules {
  /** dotted paths (`wallet.number`; a list's items by the list's path, `attempts.reference`) */
  asWritten?: readonly string[]
}

/** A check that takes a number and not a string: the field is a number the engine reads (an amount, a moment). */
const isNumberCheck = ([test]: Check) => test(0) && !test('0')

/** The paths of the fields a collection's records keep as written: its `asWritten` and the fields it declares as numbers. */
export function keptPaths(spec: KeptFields): string[] {
  const paths = [...(spec.asWritten ?? [])]
  const numbers = (fields: RecordFields, prefix: string) => {
    for (const [name, check] of Object.entries(fields)) {
      if (isNumberCheck(check)) paths.push(prefix + name)
      else if (check[2]) numbers(check[2], `${prefix}${name}.`)
    }
  }
  if (spec.fields) numbers(spec.fields, '')
  for (const fields of Object.values(spec.keyed ?? {})) numbers(fields, '')
  for (const fields of Object.values(spec.variants?.of ?? {})) numbers(fields, '')
  return paths
}

/** The fields a collection's records keep as written (`keptPaths`), as the tree the masking walks beside a record. */
export function keptFields(spec: KeptFields): Kept | undefined {
  const root = new Map<string, Map<string, unknown> | true>()
  for (const path of keptPaths(spec)) {
    let node = root
    const names = path.split('.')
    for (let i = 0; i < names.length; i++) {
      const at = node.get(names[i])
      if (at === true) break
      if (i === names.length - 1) node.set(names[i], true)
      else node.set(names[i], (node = (at as typeof node | undefined) ?? new Map()))
    }
  }
  return root.size ? (root as Kept) : undefined
}

/**
 * The masking of a collection's records, once its kept fields are known. It remembers the texts
 * and keys it found clean (CLEAN_TEXTS).
 */
export function recordMasker(spec: KeptFields): <T>(record: T) => T {
  const kept = keptFields(spec)
  const clean = new Set<string>()
  return (record) => (record && typeof record === 'object' ? (maskIn(record, kept, 0, clean) as typeof record) : record)
}

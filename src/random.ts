import { createHash, randomInt, randomUUID } from 'node:crypto'
import { customAlphabet } from 'nanoid'
import type { Store } from './store/store.js'
import { NUMBER, type RecordFields } from './store/validate.js'

/**
 * The one home of chance (docs/behaviour.md#seed-and-clock-start): every reference, id, account number and code the
 * sandbox makes up, and every duration it measures, comes from here.
 *
 * Without a seed the draws are node's crypto (nanoid's alphabets, `randomUUID`, `randomInt`) and a
 * stopwatch reads the time that passed. Under a seed (`--seed N`) each namespace has a stream of
 * its own: draw n of namespace ns is SHA-512 of the seed, the namespace and n, so one namespace's
 * answers never depend on another's traffic; how many draws a namespace has made is kept in its
 * `meta` collection (the `random` record), so a restart with `--data` goes on where it stopped, a
 * reset starts the stream again, and a failed write puts it back as the file holds it. A seeded
 * sandbox measures no durations: a stopwatch reads 0.
 */

const META = 'meta'
const RANDOM_KEY = 'random'
/** the alphabet of numbers the sandbox makes up (account numbers, trace ids, receipts) */
export const DIGITS = '0123456789'
/** digits and letters of both cases (an identity check's `VR-` reference) */
export const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** the alphabet of `id`: nanoid's */
const URL_ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbhjkgqtzcfirvl'
/** the most characters one draw gives: a SHA-512 digest read two bytes per character */
const MAX_SIZE = 32

/** How many draws a seeded namespace has made, the `random` record of its `meta` collection (namespaces.ts declares the collection). */
export const RANDOM_META: Record<string, RecordFields> = { [RANDOM_KEY]: { drawn: NUMBER } }

export class Random {
  readonly seed: number | undefined
  readonly #store: Store | undefined
  /** draws made per stream, as far as read or made since */
  readonly #drawn = new Map<string, number>()
  /** nanoid's generators by alphabet, then size, made once (unseeded) */
  readonly #alphabets = new Map<string, Map<number, () => string>>()

  /**
   * `store` keeps each stream's count of draws (a sandbox); without it (a flow runner's own names)
   * the counts live as long as this object.
   */
  constructor(seed?: number, store?: Store) {
    this.seed = seed
    this.#store = store
    if (seed !== undefined && store) store.registerState({ reset: (ns) => this.#drawn.delete(ns), restored: (ns) => this.#drawn.delete(ns) })
  }

  /** `size` characters of `alphabet` (at most 32 characters). */
  text(ns: string, alphabet: string, size: number): string {
    if (size > MAX_SIZE) throw new Error(`a draw gives at most ${MAX_SIZE} characters`)
    if (this.seed === undefined) {
      let sizes = this.#alphabets.get(alphabet)
      if (!sizes) this.#alphabets.set(alphabet, (sizes = new Map()))
      let make = sizes.get(size)
      if (!make) sizes.set(size, (make = customAlphabet(alphabet, size)))
      return make()
    }
    const bytes = this.#draw(ns)
    let out = ''
    for (let i = 0; i < size; i++) out += alphabet[bytes.readUInt16BE(2 * i) % alphabet.length]
    return out
  }

  /** `size` characters of nanoid's URL-safe alphabet. */
  id(ns: string, size: number): string {
    return this.text(ns, URL_ALPHABET, size)
  }

  /** A whole number from 0 to `below` - 1. */
  int(ns: string, below: number): number {
    if (this.seed === undefined) return randomInt(below)
    return this.#draw(ns).readUInt32BE(0) % below
  }

  /** A version 4 UUID. */
  uuid(ns: string): string {
    if (this.seed === undefined) return randomUUID()
    const b = this.#draw(ns).subarray(0, 16)
    b[6] = (b[6] & 0x0f) | 0x40
    b[8] = (b[8] & 0x3f) | 0x80
    const h = b.toString('hex')
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
  }

  /** Starts measuring: the function returned gives the milliseconds since (0 under a seed). */
  stopwatch(): () => number {
    if (this.seed !== undefined) return () => 0
    const t0 = performance.now()
    return () => performance.now() - t0
  }

  #draw(ns: string): Buffer {
    const n = this.#count(ns)
    this.#drawn.set(ns, n + 1)
    this.#store?.col<{ drawn: number }>(ns, META).put(RANDOM_KEY, { drawn: n + 1 })
    return createHash('sha512').update(`${this.seed}\u0000${ns}\u0000${n}`).digest()
  }

  #count(ns: string): number {
    let n = this.#drawn.get(ns)
    if (n === undefined) {
      n = (this.#store?.hasNamespace(ns) ? this.#store.col<{ drawn: number }>(ns, META).get(RANDOM_KEY)?.drawn : undefined) ?? 0
      this.#drawn.set(ns, n)
    }
    return n
  }
}

/**
 * The order a collection keeps its records in when the module that owns it declares one
 * (`CollectionSpec.order`, docs/architecture.md "The store"): ascending by the record's order key
 * (its dates, in ms), ties by a sequence number given when a key is first written, so in the order
 * records were first written (as a `Map` keeps them, and as the data file holds them: the same
 * order comes back after a restart). It is kept as records are put, loaded and unloaded, so a list
 * reads a page by position instead of sorting the collection on each call (docs/behaviour.md 13.6).
 *
 * Beside each position it keeps the record's facts (`facts`: the few fields the list filters on),
 * taken on every put, so a filtered page passes over the records it does not show without reading
 * them (a cold record would be parsed).
 *
 * A record written with a key at or after the last one's (the usual case: dates move forward) is
 * appended; one that lands earlier is placed by a binary search and a splice.
 */

/** A record's place: its order key (one or two numbers, compared in turn) and its sequence number. */
export type OrderKey = readonly number[]

/** The fields a list filters on (or shows), by name. */
export type Facts = Readonly<Record<string, string | number | null | undefined>>

/** What a collection's spec declares of its order: the order key and the facts kept beside it. */
export interface OrderSpec<T> {
  by: (record: T) => OrderKey
  /** none: the list reads its items some other way (the balance history's rows) */
  facts?: (record: T) => Facts
}

const NO_FACTS: Facts = {}

/**
 * Kept compact, since it holds a place for every record of its collection however many there are
 * (records themselves go cold as text; their places stay): no object per record, only slots of
 * arrays. By sequence number: the key, its order key's first two parts (the ledger's has two, the
 * others one) and its facts; by position: the sequence number. A key's sequence number is found in
 * one `Map`, and its position by a binary search on (order key, sequence number). Side by side
 * with an object per place (`node bench/ab.mjs --scenario card`), this costs a card charge about
 * 1.5 % less CPU.
 */
export class RecordOrder<T> {
  /** by position, ascending: the sequence number of the record there */
  readonly #seqAt: number[] = []
  /** by sequence number */
  readonly #keyOf: (string | undefined)[] = []
  readonly #k0: number[] = []
  readonly #k1: number[] = []
  readonly #factsOf: Facts[] = []
  readonly #seqOfKey = new Map<string, number>()

  constructor(private readonly spec: OrderSpec<T>) {}

  get size(): number {
    return this.#seqAt.length
  }

  /** The key at position `i` (0 is the first in order). */
  keyAt(i: number): string {
    return this.#keyOf[this.#seqAt[i]]!
  }

  /** The first part of the order key of the record at position `i` (its date, in ms). */
  dateAt(i: number): number {
    return this.#k0[this.#seqAt[i]]
  }

  /** The order key of the record at position `i`. */
  orderKeyAt(i: number): OrderKey {
    const seq = this.#seqAt[i]
    return [this.#k0[seq], this.#k1[seq]]
  }

  /** The facts of the record at position `i`. */
  factsAt(i: number): Facts {
    return this.#factsOf[this.#seqAt[i]] ?? NO_FACTS
  }

  /** The position of a key, or undefined. */
  position(key: string): number | undefined {
    const seq = this.#seqOfKey.get(key)
    if (seq === undefined) return undefined
    const i = this.#lowerBound(this.#k0[seq], this.#k1[seq], seq)
    return this.#seqAt[i] === seq ? i : undefined
  }

  /** A record written (or loaded): placed, or moved when its order key changed. */
  set(key: string, record: T): void {
    const by = this.spec.by(record)
    const k0 = by[0]
    const k1 = by.length > 1 ? by[1] : 0
    const had = this.#seqOfKey.get(key)
    if (had !== undefined) {
      if (this.spec.facts) this.#factsOf[had] = this.spec.facts(record)
      if (this.#k0[had] === k0 && this.#k1[had] === k1) return
      this.#unplace(had)
    }
    const seq = had ?? this.#keyOf.length
    if (had === undefined) {
      this.#seqOfKey.set(key, seq)
      this.#keyOf.push(key)
      this.#k0.push(k0)
      this.#k1.push(k1)
      if (this.spec.facts) this.#factsOf.push(this.spec.facts(record))
    } else {
      this.#k0[seq] = k0
      this.#k1[seq] = k1
    }
    const n = this.#seqAt.length
    if (n === 0 || this.#before(this.#seqAt[n - 1], k0, k1, seq)) {
      this.#seqAt.push(seq)
      return
    }
    this.#seqAt.splice(this.#lowerBound(k0, k1, seq), 0, seq)
  }

  delete(key: string): void {
    const seq = this.#seqOfKey.get(key)
    if (seq === undefined) return
    this.#seqOfKey.delete(key)
    this.#unplace(seq)
    // the slots of a sequence number are never reused (a key written again takes a new one); a
    // reset drops the collection and its order whole, so they last only as long as its records would
    this.#keyOf[seq] = undefined
    if (this.spec.facts) this.#factsOf[seq] = NO_FACTS
  }

  #unplace(seq: number): void {
    const i = this.#lowerBound(this.#k0[seq], this.#k1[seq], seq)
    if (this.#seqAt[i] === seq) this.#seqAt.splice(i, 1)
  }

  /** whether the record of sequence number `a` comes before the place (k0, k1, seq) */
  #before(a: number, k0: number, k1: number, seq: number): boolean {
    const a0 = this.#k0[a]
    if (a0 !== k0) return a0 < k0
    const a1 = this.#k1[a]
    if (a1 !== k1) return a1 < k1
    return a < seq
  }

  #lowerBound(k0: number, k1: number, seq: number): number {
    let lo = 0
    let hi = this.#seqAt.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.#before(this.#seqAt[mid], k0, k1, seq)) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

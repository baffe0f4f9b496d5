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

/** A record's place: its order key (compared element by element) and its sequence number. */
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

interface Place {
  by: OrderKey
  seq: number
  facts: Facts
}

function compare(a: Place, b: Place): number {
  const n = Math.min(a.by.length, b.by.length)
  for (let i = 0; i < n; i++) if (a.by[i] !== b.by[i]) return a.by[i] - b.by[i]
  return a.by.length - b.by.length || a.seq - b.seq
}

function sameKey(a: OrderKey, b: OrderKey): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

export class RecordOrder<T> {
  /** the keys, ascending */
  readonly #keys: string[] = []
  readonly #places: Place[] = []
  readonly #placeOf = new Map<string, Place>()
  #nextSeq = 0

  constructor(private readonly spec: OrderSpec<T>) {}

  get size(): number {
    return this.#keys.length
  }

  /** The key at position `i` (0 is the first in order). */
  keyAt(i: number): string {
    return this.#keys[i]
  }

  /** The order key of the record at position `i`. */
  orderKeyAt(i: number): OrderKey {
    return this.#places[i].by
  }

  /** The facts of the record at position `i`. */
  factsAt(i: number): Facts {
    return this.#places[i].facts
  }

  /** The position of a key, or undefined. */
  position(key: string): number | undefined {
    const place = this.#placeOf.get(key)
    if (!place) return undefined
    const i = this.#lowerBound(place)
    return this.#keys[i] === key ? i : undefined
  }

  /** A record written (or loaded): placed, or moved when its order key changed. */
  set(key: string, record: T): void {
    const by = this.spec.by(record)
    const facts = this.spec.facts?.(record) ?? NO_FACTS
    const had = this.#placeOf.get(key)
    if (had) {
      if (sameKey(had.by, by)) {
        had.facts = facts
        return
      }
      this.delete(key)
    }
    const place = { by, seq: had ? had.seq : this.#nextSeq++, facts }
    this.#placeOf.set(key, place)
    const last = this.#places.length - 1
    if (last < 0 || compare(this.#places[last], place) < 0) {
      this.#keys.push(key)
      this.#places.push(place)
      return
    }
    const i = this.#lowerBound(place)
    this.#keys.splice(i, 0, key)
    this.#places.splice(i, 0, place)
  }

  delete(key: string): void {
    const place = this.#placeOf.get(key)
    if (!place) return
    this.#placeOf.delete(key)
    const i = this.#lowerBound(place)
    if (this.#keys[i] !== key) return
    this.#keys.splice(i, 1)
    this.#places.splice(i, 1)
  }

  #lowerBound(place: Place): number {
    let lo = 0
    let hi = this.#places.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compare(this.#places[mid], place) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

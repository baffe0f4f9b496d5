/**
 * The order a collection keeps its records in when the module that owns it declares one
 * (`CollectionSpec.order`, docs/architecture.md "The store"): ascending by the record's date (ms),
 * then by a second part where the spec gives one, ties by a sequence number given when a key is
 * first written, so in the order records were first written (as a `Map` keeps them, and as the
 * data file holds them: the same order comes back after a restart). It is kept as records are put,
 * loaded and unloaded, so a list reads a page by position instead of sorting the collection on
 * each call (docs/behaviour.md#lists).
 *
 * Beside each position it keeps the record's facts (`facts`: the few fields the list filters on),
 * taken on every put, so a filtered page passes over the records it does not show without reading
 * them (a cold record would be parsed).
 *
 * A record written with a place at or after the last one's (the usual case: dates move forward) is
 * appended; one that lands earlier is placed by a binary search and a splice.
 */

/** A record's place: its date, and its second part (0 where the spec gives none), compared in turn. */
export type OrderKey = readonly [number, number]

/** A field a list filters on (or shows). */
export type Fact = string | number | null | undefined

/** The facts of a record, by name. */
export type Facts = Readonly<Record<string, Fact>>

/** What a collection's spec declares of its order: the parts of a record's place, and its facts. */
export interface OrderSpec<T> {
  /** the first part: the record's date (ms) */
  by: (record: T) => number
  /** a second part, compared when dates tie (none: 0) */
  then?: (record: T) => number
  /** a reader per fact kept beside each place (none: the list reads its items some other way) */
  facts?: Readonly<Record<string, (record: T) => Fact>>
}

/** The most distinct values a fact column keeps as codes; past them it keeps the values. */
const CODES = 256

/**
 * One fact of every record, by sequence number. While the column has met at most 256 distinct
 * values (statuses, currencies, directions ...) it keeps a byte a record: a code into the table of
 * those values, each held once. Past that (amounts, references) it keeps the values themselves, a
 * slot of an array a record. Code 0 is `undefined`, so a slot not written yet reads as such.
 */
class FactColumn {
  #codes: Uint8Array | undefined = new Uint8Array(64)
  readonly #table: Fact[] = [undefined]
  readonly #codeOf = new Map<Fact, number>([[undefined, 0]])
  #values: Fact[] | undefined
  /** one past the highest sequence number set */
  #length = 0

  get(seq: number): Fact {
    return this.#codes ? this.#table[this.#codes[seq] ?? 0] : this.#values![seq]
  }

  /** Sets the fact of `seq`. */
  set(seq: number, v: Fact): void {
    if (seq >= this.#length) this.#length = seq + 1
    let codes = this.#codes
    if (!codes) {
      this.#values![seq] = v
      return
    }
    const code = this.#codeOf.get(v) ?? this.#add(v)
    if (code < 0) {
      // one distinct value too many: from now on the column keeps the values
      this.#values = Array.from({ length: this.#length }, (_, i) => this.get(i))
      this.#codes = undefined
      this.#values[seq] = v
      return
    }
    if (seq >= codes.length) {
      const grown = new Uint8Array(Math.max(codes.length * 2, seq + 1))
      grown.set(codes)
      this.#codes = codes = grown
    }
    codes[seq] = code
  }

  /** A value's new code, or -1 when the table is full. */
  #add(v: Fact): number {
    const code = this.#table.length
    if (code === CODES) return -1
    this.#table.push(v)
    this.#codeOf.set(v, code)
    return code
  }
}

/**
 * Positions, as a growable array of 32-bit integers: 4 bytes a record against 8 for a slot of a
 * JavaScript array. An insertion or a removal moves the ones after it.
 */
class Positions {
  #a = new Int32Array(64)
  length = 0

  /** the sequence number at position `i`, or -1 past the end */
  at(i: number): number {
    return i < this.length ? this.#a[i] : -1
  }

  insert(i: number, seq: number): void {
    if (this.length === this.#a.length) {
      const grown = new Int32Array(this.#a.length * 2)
      grown.set(this.#a)
      this.#a = grown
    }
    if (i < this.length) this.#a.copyWithin(i + 1, i, this.length)
    this.#a[i] = seq
    this.length++
  }

  remove(i: number): void {
    this.#a.copyWithin(i, i + 1, this.length)
    this.length--
  }
}

/**
 * Kept compact, since it holds a place for every record of its collection however many there are
 * (records themselves go cold as text; their places stay): no object per record, only slots of
 * arrays. By sequence number: the key, the place's two parts and one slot per fact (a column per
 * fact: mostly a byte a record, `FactColumn`); by position: the sequence number (`Positions`). A
 * key's sequence number is found in one `Map` (made when first needed), and its position by a
 * binary search on (place, sequence number).
 * A facts object per place cost a card charge about 100 bytes of heap more, and a JavaScript array
 * slot per fact and per position about 50 more than these columns (two ordered collections: charges
 * and the ledger; measured after 30,000 card charges, bench/README.md).
 */
export class RecordOrder<T> {
  /** by position, ascending: the sequence number of the record there */
  readonly #seqAt = new Positions()
  /** by sequence number */
  readonly #keyOf: (string | undefined)[] = []
  readonly #k0: number[] = []
  /** the second parts, where the spec gives them (a read past an array's end is slow: none is made) */
  readonly #k1: number[] = []
  readonly #twoParts: boolean
  readonly #names: string[]
  readonly #readers: ((record: T) => Fact)[]
  readonly #columns: FactColumn[]
  /**
   * A key's sequence number: made the first time a key already placed is looked up (a record
   * replaced or deleted, a list's cursor), so a collection only ever appended to (the ledger) keeps
   * none
   */
  #seqOfKey: Map<string, number> | undefined

  constructor(private readonly spec: OrderSpec<T>) {
    this.#twoParts = spec.then !== undefined
    const facts = Object.entries(spec.facts ?? {})
    this.#names = facts.map(([name]) => name)
    this.#readers = facts.map(([, read]) => read)
    this.#columns = facts.map(() => new FactColumn())
  }

  get size(): number {
    return this.#seqAt.length
  }

  /** The key at position `i` (0 is the first in order). */
  keyAt(i: number): string {
    return this.#keyOf[this.#seqAt.at(i)]!
  }

  /** The date of the record at position `i` (ms). */
  dateAt(i: number): number {
    return this.#k0[this.#seqAt.at(i)]
  }

  /** The place of the record at position `i`. */
  orderKeyAt(i: number): OrderKey {
    const seq = this.#seqAt.at(i)
    return [this.#k0[seq], this.#second(seq)]
  }

  /** The facts of the record at position `i`, as a new object. */
  factsAt(i: number): Facts {
    const seq = this.#seqAt.at(i)
    const facts: Record<string, Fact> = {}
    for (let f = 0; f < this.#names.length; f++) facts[this.#names[f]] = this.#columns[f].get(seq)
    return facts
  }

  /** The position of a key, or undefined. */
  position(key: string): number | undefined {
    const seq = this.#seqs().get(key)
    if (seq === undefined) return undefined
    const i = this.#lowerBound(this.#k0[seq], this.#second(seq), seq)
    return this.#seqAt.at(i) === seq ? i : undefined
  }

  /** A record written (or loaded): placed, or moved when its place changed; `added`: its key held no record before. */
  set(key: string, record: T, added: boolean): void {
    const k0 = this.spec.by(record)
    const k1 = this.spec.then ? this.spec.then(record) : 0
    const had = added ? undefined : this.#seqs().get(key)
    const seq = had ?? this.#keyOf.length
    this.#takeFacts(seq, record)
    if (had !== undefined) {
      if (this.#k0[had] === k0 && this.#second(had) === k1) return
      this.#unplace(had)
    } else {
      this.#seqOfKey?.set(key, seq)
      this.#keyOf.push(key)
    }
    this.#k0[seq] = k0
    if (this.#twoParts) this.#k1[seq] = k1
    const n = this.#seqAt.length
    // appended when it comes after the last (dates move forward), else placed by a binary search
    this.#seqAt.insert(n === 0 || this.#before(this.#seqAt.at(n - 1), k0, k1, seq) ? n : this.#lowerBound(k0, k1, seq), seq)
  }

  delete(key: string): void {
    const seqs = this.#seqs()
    const seq = seqs.get(key)
    if (seq === undefined) return
    seqs.delete(key)
    this.#unplace(seq)
    // the slots of a sequence number are never reused (a key written again takes a new one); a
    // reset drops the collection and its order whole, so they last only as long as its records would
    this.#keyOf[seq] = undefined
    for (const column of this.#columns) column.set(seq, undefined)
  }

  /** Keeps a record's facts in the columns at `seq`. */
  #takeFacts(seq: number, record: T): void {
    for (let f = 0; f < this.#readers.length; f++) this.#columns[f].set(seq, this.#readers[f](record))
  }

  #seqs(): Map<string, number> {
    if (!this.#seqOfKey) {
      this.#seqOfKey = new Map()
      // a deleted key's slot holds none, and a key written again took a new sequence number
      for (let seq = 0; seq < this.#keyOf.length; seq++) {
        const key = this.#keyOf[seq]
        if (key !== undefined) this.#seqOfKey.set(key, seq)
      }
    }
    return this.#seqOfKey
  }

  #second(seq: number): number {
    return this.#twoParts ? this.#k1[seq] : 0
  }

  #unplace(seq: number): void {
    const i = this.#lowerBound(this.#k0[seq], this.#second(seq), seq)
    if (this.#seqAt.at(i) === seq) this.#seqAt.remove(i)
  }

  /** whether the record of sequence number `a` comes before the place (k0, k1, seq) */
  #before(a: number, k0: number, k1: number, seq: number): boolean {
    const a0 = this.#k0[a]
    if (a0 !== k0) return a0 < k0
    const a1 = this.#second(a)
    if (a1 !== k1) return a1 < k1
    return a < seq
  }

  #lowerBound(k0: number, k1: number, seq: number): number {
    let lo = 0
    let hi = this.#seqAt.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.#before(this.#seqAt.at(mid), k0, k1, seq)) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

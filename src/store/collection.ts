import type { KeptFields } from './card-numbers.js'
import type { Frozen } from './frozen.js'
import { RecordOrder, type Fact, type OrderSpec } from './order.js'
import type { Records } from './records.js'
import { SecondaryIndex, type IndexFn } from './secondary-index.js'
import type { RecordFields } from './validate.js'

/**
 * What the module that owns a collection declares about it: its secondary indexes, a hot set
 * smaller than the store's when its records are rarely read again, the fields its records
 * must have when a data file is opened (validate.ts), and those kept as written when the store
 * masks card numbers (`asWritten`, card-numbers.ts).
 */
export interface CollectionSpec<T = any> extends KeptFields {
  name: string
  indexes?: Record<string, IndexFn<T>>
  /** records kept live (the store's hotRecords when absent; 0: none, records.ts) */
  hot?: number
  /** cold texts compressed together in one block (the store's coldBlock when absent): more where records are small */
  block?: number
  /** the order the lists read the records in, and the facts they filter on (order.ts) */
  order?: OrderSpec<T>
}

/**
 * What a module adds to a collection another owns: the fields of its own variant of the records (a
 * kind's charge record, declared by the area serving the kind beside its own collections).
 */
export interface VariantSpec {
  name: string
  /**
   * `asWritten`: the variant's fields kept as written (card-numbers.ts), added to the collection's;
   * `indexes`: indexes of its own fields, added to the collection's (a record of another variant
   * gives none); `facts`: what its records hold for a fact of the collection's order in place of
   * the owner's reading (order.ts)
   */
  variant: { by: string; value: string; fields: RecordFields; asWritten?: readonly string[]; indexes?: Record<string, IndexFn<any>>; facts?: Record<string, (record: any) => Fact> }
}

/**
 * The collections as the store opens them: each owner's spec with the variants other modules
 * declared for it. A collection declared twice, a variant of one nobody owns, or a value declared
 * twice is a wiring mistake, refused at start.
 */
export function joinCollections(declared: readonly (CollectionSpec | VariantSpec)[]): CollectionSpec[] {
  const owned = new Map<string, CollectionSpec>()
  for (const d of declared) {
    if ('variant' in d) continue
    if (owned.has(d.name)) throw new Error(`collection ${d.name} is declared twice`)
    owned.set(d.name, d)
  }
  for (const d of declared) {
    if (!('variant' in d)) continue
    const spec = owned.get(d.name)
    if (!spec) throw new Error(`a variant of collection ${d.name}, which no module declares`)
    const { by, value, fields, asWritten = [], indexes = {}, facts = {} } = d.variant
    const variants = spec.variants ?? { by, of: {} }
    if (variants.by !== by || Object.hasOwn(variants.of, value)) throw new Error(`collection ${d.name}: variant ${by} ${value} is declared twice or by another field`)
    for (const name of Object.keys(indexes)) if (Object.hasOwn(spec.indexes ?? {}, name)) throw new Error(`collection ${d.name}: index ${name} is declared twice`)
    owned.set(d.name, {
      ...spec,
      variants: { by, of: { ...variants.of, [value]: fields } },
      asWritten: [...(spec.asWritten ?? []), ...asWritten],
      indexes: { ...spec.indexes, ...indexes },
      order: spec.order && { ...spec.order, facts: variantFacts(d.name, spec.order.facts ?? {}, by, value, facts) },
    })
  }
  return [...owned.values()]
}

/** The order's facts with a variant's own readings: a record of the variant reads its own, any other the owner's. */
function variantFacts<T>(name: string, owners: NonNullable<OrderSpec<T>['facts']>, by: string, value: string, own: Record<string, (record: any) => Fact>): OrderSpec<T>['facts'] {
  const facts: Record<string, (record: T) => Fact> = { ...owners }
  for (const [fact, read] of Object.entries(own)) {
    const owner = owners[fact]
    if (!owner) throw new Error(`collection ${name}: variant ${value} reads a fact ${fact} its order does not keep`)
    facts[fact] = (r: T) => ((r as Record<string, unknown>)[by] === value ? read(r) : owner(r))
  }
  return facts
}

/** Receives every change so the store can count and persist it. */
export interface ChangeSink {
  changed(ns: string, collection: string, key: string): void
}

/**
 * Makes V8 keep a key as one string. A key built from pieces (`${source}:${reference}:${n}`, a
 * reference's prefix and its random part) is a tree of those pieces until something reads it
 * whole, and a key is kept as long as its record, in the collection's map and its block: about 50
 * bytes a card charge less once flat (bench/README.md). Reading it as a number reads it whole.
 */
function flatten(key: string): void {
  Number(key)
}

/**
 * One collection of one namespace: records by primary key, plus secondary indexes, so every
 * lookup is a Map lookup and never a scan.
 *
 * Reads (`get`, `findBy`, `values`, `entries`) give frozen records: the compiler refuses a change
 * to one and so does the run time. A record changes only by a write: `put` stores a new record
 * (the caller gives it up: what it returns is typed readonly, and the record is frozen when a read
 * first hands it out), `update` hands a function a copy to change and stores it. Whether a record
 * is kept live or as text (records.ts) changes nothing a caller sees.
 */
export class Collection<T extends object = Record<string, unknown>> {
  readonly #records: Records<T>
  readonly #indexes: SecondaryIndex<T>[] = []
  readonly #indexByName = new Map<string, SecondaryIndex<T>>()
  /** the records in their declared order (`CollectionSpec.order`), when one is declared */
  readonly ordered: RecordOrder<T> | undefined

  /** masks the card numbers of a record put (card-numbers.ts: the store's rule, whatever area writes) */
  readonly #mask: <R>(record: R) => R

  constructor(
    readonly ns: string,
    readonly name: string,
    readonly sink: ChangeSink | null,
    records: Records<T>,
    indexes: Record<string, IndexFn<T>> = {},
    order?: OrderSpec<T>,
    mask: <R>(record: R) => R = (r) => r,
  ) {
    this.#records = records
    this.#mask = mask
    this.ordered = order && new RecordOrder(order)
    for (const [indexName, fn] of Object.entries(indexes)) {
      const index = new SecondaryIndex(fn)
      this.#indexes.push(index)
      this.#indexByName.set(indexName, index)
    }
  }

  get size(): number {
    return this.#records.size
  }

  get(key: string): Frozen<T> | undefined {
    return this.#records.get(key)
  }

  has(key: string): boolean {
    return this.#records.has(key)
  }

  /**
   * A copy of the record the caller may change and `put` back, or undefined: what `update` hands
   * its function. A cold record is parsed into one without going hot or being frozen first (a
   * timer's or a step's change to an older record: read, then copied, it was parsed, frozen and
   * copied, `bench/README.md`).
   */
  draft(key: string): T | undefined {
    return this.#records.draft(key)
  }

  /** Every key, in insertion order (nothing parsed). */
  keys(): IterableIterator<string> {
    return this.#records.keys()
  }

  /** Every record, in insertion order. */
  values(): IterableIterator<Frozen<T>> {
    return this.#records.values()
  }

  entries(): IterableIterator<[string, Frozen<T>]> {
    return this.#records.entries()
  }

  /** Every record as JSON text (for the data file). */
  jsonEntries(): IterableIterator<[string, string]> {
    return this.#records.jsonEntries()
  }

  /** One record as JSON text, or undefined. */
  json(key: string): string | undefined {
    return this.#records.json(key)
  }

  /** Of the records whose index `indexName` holds `value`, the one written last (secondary-index.ts). */
  findBy(indexName: string, value: string): Frozen<T> | undefined {
    const index = this.#indexByName.get(indexName)
    if (!index) throw new Error(`no index ${indexName} on ${this.name}`)
    return index.find(value, (key) => this.#records.get(key))
  }

  /**
   * Inserts or replaces a record and records the change; returns it as stored. The caller gives
   * the record up: it is not to be changed again (a read freezes it). Its card numbers are masked
   * first (docs/behaviour.md#request-journal), in the record itself where it is not frozen: what the caller
   * still holds is what was stored.
   */
  put(key: string, given: T): Frozen<T> {
    flatten(key)
    const record = this.#mask(given)
    const replaced = this.#records.put(key, record)
    this.#index(key, record)
    this.ordered?.set(key, record, !replaced)
    this.sink?.changed(this.ns, this.name, key)
    return record as Frozen<T>
  }

  /**
   * The store's masking of card numbers (card-numbers.ts) applied to a record now, as `put` will:
   * for a record shown (an event's data made of it) before it is put. In place where it may be changed.
   */
  mask<R extends T>(record: R): R {
    return this.#mask(record)
  }

  /**
   * Changes a stored record: `change` is given a copy to change (or returns a record to store
   * instead), which is then stored as `put` does; returns it as stored. If `change` throws,
   * nothing is stored. The key must hold a record.
   */
  update(key: string, change: (draft: T) => T | void): Frozen<T> {
    const draft = this.#records.draft(key)
    if (draft === undefined) throw new Error(`no record ${key} in ${this.name}`)
    return this.put(key, change(draft) ?? draft)
  }

  delete(key: string): boolean {
    if (!this.#records.has(key)) return false
    this.unload(key)
    this.sink?.changed(this.ns, this.name, key)
    return true
  }

  /** Sets a record without recording a change: used when loading the file. It is kept cold. */
  load(key: string, record: T): void {
    const had = this.#records.has(key)
    this.#index(key, record)
    this.ordered?.set(key, record, !had)
    this.#records.load(key, record)
  }

  /** Removes a record without recording a change: used when loading the file. */
  unload(key: string): void {
    if (this.#indexes.length) this.#unindex(key)
    this.ordered?.delete(key)
    this.#records.delete(key)
  }

  /** How the records are kept (records.ts): read by the tests of the two forms, which are private to the collection. */
  coldStats(): ReturnType<Records<T>['coldStats']> {
    return this.#records.coldStats()
  }

  #index(key: string, record: T): void {
    for (const index of this.#indexes) index.add(key, record)
  }

  /** Takes the record a key holds (read as it is, hot or cold) out of the indexes. */
  #unindex(key: string): void {
    const record = this.#records.peek(key)
    if (record !== undefined) for (const index of this.#indexes) index.remove(key, record as T)
  }
}

/** Derives secondary keys of a record (for example its payment reference) for an index. */
export type IndexFn<T> = (record: T) => string | undefined | null | readonly (string | undefined | null)[]

/** Receives every change so the store can persist it. */
export interface ChangeSink {
  changed(ns: string, collection: string, key: string): void
}

/**
 * One collection of one namespace: records by primary key, plus secondary indexes, so every
 * lookup is a Map lookup and never a scan.
 */
export class Collection<T extends object = Record<string, unknown>> {
  readonly #map = new Map<string, T>()
  readonly #indexes = new Map<string, { fn: IndexFn<T>; map: Map<string, string>; keysOf: Map<string, string[]> }>()

  constructor(
    readonly ns: string,
    readonly name: string,
    readonly sink: ChangeSink | null,
    indexes: Record<string, IndexFn<T>> = {},
  ) {
    for (const [indexName, fn] of Object.entries(indexes)) {
      this.#indexes.set(indexName, { fn, map: new Map(), keysOf: new Map() })
    }
  }

  get size(): number {
    return this.#map.size
  }

  get(key: string): T | undefined {
    return this.#map.get(key)
  }

  has(key: string): boolean {
    return this.#map.has(key)
  }

  values(): IterableIterator<T> {
    return this.#map.values()
  }

  entries(): IterableIterator<[string, T]> {
    return this.#map.entries()
  }

  /** The record whose index `indexName` holds `value`. */
  findBy(indexName: string, value: string): T | undefined {
    const index = this.#indexes.get(indexName)
    if (!index) throw new Error(`no index ${indexName} on ${this.name}`)
    const key = index.map.get(value)
    return key === undefined ? undefined : this.#map.get(key)
  }

  /** Inserts or replaces a record (also after mutating it in place) and records the change. */
  put(key: string, record: T): T {
    this.load(key, record)
    this.sink?.changed(this.ns, this.name, key)
    return record
  }

  delete(key: string): boolean {
    if (!this.#map.has(key)) return false
    this.#unindex(key)
    this.#map.delete(key)
    this.sink?.changed(this.ns, this.name, key)
    return true
  }

  /** Sets a record without recording a change: used when loading the file. */
  load(key: string, record: T): void {
    if (this.#indexes.size) this.#unindex(key)
    this.#map.set(key, record)
    for (const index of this.#indexes.values()) {
      const raw = index.fn(record)
      const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string' && v !== '')
      for (const v of values) index.map.set(v, key)
      if (values.length) index.keysOf.set(key, values)
    }
  }

  unload(key: string): void {
    this.#unindex(key)
    this.#map.delete(key)
  }

  #unindex(key: string): void {
    for (const index of this.#indexes.values()) {
      const old = index.keysOf.get(key)
      if (!old) continue
      for (const v of old) if (index.map.get(v) === key) index.map.delete(v)
      index.keysOf.delete(key)
    }
  }
}

import type { Frozen } from './frozen.js'

/** Derives secondary keys of a record (for example its payment reference) for an index. */
export type IndexFn<T> = (record: T) => string | undefined | null | readonly (string | undefined | null)[]

/** An index function's answer as the values it indexes (no empty string, no absent value). */
function valuesOf(raw: ReturnType<IndexFn<unknown>>): readonly string[] {
  if (typeof raw === 'string') return raw === '' ? [] : [raw]
  return (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string' && v !== '')
}

/** Whether an index function's answer holds `value`. */
function holds(raw: ReturnType<IndexFn<unknown>>, value: string): boolean {
  return raw === value || (Array.isArray(raw) && raw.includes(value))
}

/** A value's 32-bit hash (FNV-1a over its UTF-16 code units): a small integer V8 keeps in the map's slot. */
export function indexHash(value: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193)
  return h | 0
}

/**
 * A secondary index of one collection: from a value its records are found by (a payment reference,
 * an account number) to the key of the record holding it. Of the records holding a value, `find`
 * gives the one written last.
 *
 * Kept small, since it holds an entry for every record however many there are (the records go cold
 * as text; their entries stay):
 * - an entry is keyed by a hash of the value, not the value, so the value's text is not held a
 *   second time beside the record's text (about 40 bytes a card charge);
 * - nothing maps a record back to its values (29 bytes a card charge more): an indexed value is set
 *   once, so a record replaced leaves its old entries where they are, and `find` reads each record
 *   an entry points to and gives it only if it holds the value. A delete takes its record's out.
 *
 * Two values of one hash, or two records of one value, share an entry: their keys in a list, the
 * one written last at its end. Measured in bench/README.md.
 */
export class SecondaryIndex<T> {
  readonly #map = new Map<number, string | string[]>()

  constructor(readonly fn: IndexFn<T>) {}

  /** A record written under `key`: its values now lead to it first. */
  add(key: string, record: T): void {
    const raw = this.fn(record)
    if (typeof raw === 'string') {
      if (raw !== '') this.#add(indexHash(raw), key)
    } else for (const v of valuesOf(raw)) this.#add(indexHash(v), key)
  }

  /** A record deleted: its values no longer lead to it. */
  remove(key: string, record: T): void {
    for (const v of valuesOf(this.fn(record))) {
      const h = indexHash(v)
      const held = this.#map.get(h)
      if (held === key) this.#map.delete(h)
      else if (Array.isArray(held)) {
        const rest = held.filter((k) => k !== key)
        this.#map.set(h, rest.length === 1 ? rest[0] : rest)
      }
    }
  }

  /** Of the records holding `value`, the one written last (`get` reads a record by key). */
  find(value: string, get: (key: string) => Frozen<T> | undefined): Frozen<T> | undefined {
    const held = this.#map.get(indexHash(value))
    if (held === undefined) return undefined
    if (typeof held === 'string') return this.#holding(get(held), value)
    for (let i = held.length - 1; i >= 0; i--) {
      const record = this.#holding(get(held[i]), value)
      if (record) return record
    }
    return undefined
  }

  #holding(record: Frozen<T> | undefined, value: string): Frozen<T> | undefined {
    return record !== undefined && holds(this.fn(record as T), value) ? record : undefined
  }

  #add(h: number, key: string): void {
    const held = this.#map.get(h)
    if (held === key) return
    if (held === undefined) {
      this.#map.set(h, key)
      return
    }
    const keys = typeof held === 'string' ? [held] : held.filter((k) => k !== key)
    keys.push(key)
    this.#map.set(h, keys)
  }
}

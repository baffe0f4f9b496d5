/**
 * The cold form of a record: compact JSON `[shape, value1, value2, ...]`, where the shape (a
 * number) stands for the record's list of top-level keys, kept once for all records that share
 * it. The keys are about 40 % of a charge's JSON. A record whose shape cannot be registered (past
 * MAX_SHAPES) is kept as its plain JSON object text.
 *
 * One registry per store: a cold text is only ever read back by the collection that wrote it,
 * and a store's shapes go away with it.
 */

const MAX_SHAPES = 10_000

/** What JSON.stringify leaves out of an object (and an array would turn into null). */
const omitted = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol'

export class Shapes {
  readonly #ids = new Map<string, number>()
  readonly #keys: string[][] = []
  /** by shape id: its keys as JSON text with their colons, for `json` */
  readonly #quoted: string[][] = []
  /**
   * The last shape found for a number of keys and a first key: records going cold one after another
   * mostly share one, and records of several collections written in one call (a payout, its ledger
   * entry, its timer: five keys each) each find their own
   */
  readonly #lastByCount = new Map<number, Map<string, number>>()

  /** The cold text of a record. */
  freeze(record: object): string {
    // keys and values in one go each: Object.values reads a record's own fields without a lookup
    // per key (records of several shapes make that lookup a generic one)
    let keys = Object.keys(record)
    let values: unknown[] = Object.values(record)
    // rebuilding by assignment would set a prototype: such a record stays plain JSON
    if (keys.includes('__proto__')) return plainJson(record)
    if (values.some(omitted)) {
      const kept = keys.map((_, i) => i).filter((i) => !omitted(values[i]))
      keys = kept.map((i) => keys[i])
      values = kept.map((i) => values[i])
    }
    const id = this.#shapeOf(keys)
    if (id === undefined) return plainJson(record)
    values.unshift(id)
    return flat(JSON.stringify(values))
  }

  /** The record a cold text stands for, as a new object. */
  thaw(text: string): object {
    if (text.charCodeAt(0) !== 91 /* [ */) return JSON.parse(text) as object
    const values = JSON.parse(text) as unknown[]
    const keys = this.#keys[values[0] as number]
    const record: Record<string, unknown> = {}
    for (let i = 0; i < keys.length; i++) record[keys[i]] = values[i + 1]
    return record
  }

  /**
   * The plain JSON object text of a cold record. Its values' texts are spliced in as they stand
   * beside their shape's keys, not parsed and written again: a compaction writes every record of
   * the store this way (10-15 µs per card charge parsed, which made a compaction at 50k charges
   * take about a second of CPU, bench/README.md). The text is the same: the cold text was written
   * by JSON.stringify, and the shape's keys are the record's own, in its order.
   */
  json(text: string): string {
    if (text.charCodeAt(0) !== 91 /* [ */) return text
    const end = text.indexOf(',')
    if (end < 0) return '{}' // a record with no keys: `[id]`
    const heads = this.#heads(Number(text.slice(1, end)))
    let out = '{'
    let start = end + 1
    let depth = 0
    let inString = false
    for (let i = start, f = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (inString) {
        if (c === 92 /* \ */) i++
        else if (c === 34 /* " */) inString = false
      } else if (c === 34) inString = true
      else if (c === 91 || c === 123 /* [ { */) depth++
      else if (depth > 0) {
        if (c === 93 || c === 125 /* ] } */) depth--
      } else if (c === 44 /* , */ || c === 93) {
        out += `${f === 0 ? '' : ','}${heads[f++]}${text.slice(start, i)}`
        start = i + 1
      }
    }
    return `${out}}`
  }

  /** A shape's keys as JSON text, each followed by its colon (made once a shape). */
  #heads(id: number): string[] {
    let heads = this.#quoted[id]
    if (!heads) heads = this.#quoted[id] = this.#keys[id].map((k) => `${JSON.stringify(k)}:`)
    return heads
  }

  /** The id of a shape (its keys, in order), registered if new; undefined past MAX_SHAPES. */
  #shapeOf(keys: string[]): number | undefined {
    const first = keys.length === 0 ? '' : keys[0]
    let byFirst = this.#lastByCount.get(keys.length)
    const hint = byFirst?.get(first)
    if (hint !== undefined) {
      const known = this.#keys[hint]
      let i = 0
      while (i < keys.length && known[i] === keys[i]) i++
      // same keys in the same order: no signature string to build and hash
      if (i === keys.length) return hint
    }
    // JSON text of the list: no two lists share it (a join would, [] and [''], or keys holding the separator)
    const signature = JSON.stringify(keys)
    let id = this.#ids.get(signature)
    if (id === undefined && this.#keys.length < MAX_SHAPES) {
      id = this.#keys.length
      this.#keys.push(keys)
      this.#ids.set(signature, id)
    }
    if (id !== undefined) {
      if (!byFirst) this.#lastByCount.set(keys.length, (byFirst = new Map()))
      byFirst.set(first, id)
    }
    return id
  }
}

function plainJson(record: object): string {
  return flat(JSON.stringify(record))
}

/**
 * JSON.stringify builds a long result as a tree of pieces (a rope); reading one character makes
 * V8 flatten it into one string, and the garbage collector then drops the tree.
 */
function flat(text: string): string {
  text.charCodeAt(0)
  return text
}

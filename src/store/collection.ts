import { constants, deflateRawSync, inflateRawSync } from 'node:zlib'

/** Derives secondary keys of a record (for example its payment reference) for an index. */
export type IndexFn<T> = (record: T) => string | undefined | null | readonly (string | undefined | null)[]

/** Receives every change so the store can persist it. */
export interface ChangeSink {
  changed(ns: string, collection: string, key: string): void
}

/**
 * How many records of a collection stay as live objects; the others are kept as their JSON text.
 * A record as text takes about half the memory of the object tree and costs the garbage collector
 * nothing to trace, which is what keeps a store of 100k charges small and its pauses short.
 * `SANDBOX_HOT_RECORDS` overrides it: `npm run test:cold` runs the whole suite with 1, which shows
 * that no code relies on an object staying the stored one.
 */
export const HOT_RECORDS = Math.max(1, Number(process.env.SANDBOX_HOT_RECORDS) || 128)

/** the most texts one block holds: a block slot is kept as block id * MAX_BLOCK + slot */
const MAX_BLOCK = 4096

/**
 * How many cold texts are compressed together into one block (deflate). Records of one collection
 * share most of their text, so a block of 64 charges takes ~30 bytes per charge instead of ~520,
 * for ~2 µs of CPU per record; reading a cold record back inflates its block (~50 µs, the block
 * read last is kept decoded). `SANDBOX_COLD_BLOCK` overrides it (`npm run test:cold` uses 2).
 */
export const COLD_BLOCK = Math.min(MAX_BLOCK, Math.max(1, Number(process.env.SANDBOX_COLD_BLOCK) || 64))

/**
 * A block's texts repeat one another within a record or two (a few hundred bytes), so an 8 KiB
 * window and a smaller hash table compress them as well as zlib's defaults (32 KiB, memLevel 8):
 * 1,260 bytes for 64 charge-like texts against the defaults' 1,267, with 64 KiB of state to set
 * up per call instead of 256 KiB. Inflating needs no options: its default window is the largest.
 */
const DEFLATE = { level: constants.Z_BEST_SPEED, windowBits: 13, memLevel: 6 }

/** Sizes of the hot set and of the compressed blocks (tests use tiny ones). */
export interface CollectionLimits {
  hot?: number
  block?: number
}

/** A compressed block of cold texts: their keys by slot, and how many slots are still in use. */
interface Block {
  data: string
  keys: string[]
  live: number
}

interface Index<T> {
  fn: IndexFn<T>
  map: Map<string, string>
  /** the index values of each record: one string, or several */
  keysOf: Map<string, string | string[]>
}

/**
 * One collection of one namespace: records by primary key, plus secondary indexes, so every
 * lookup is a Map lookup and never a scan.
 *
 * The records touched last (put or read, up to HOT_RECORDS) are live objects: `get` returns the
 * same object until it goes cold, and a change made to it is kept. A record that goes cold is
 * serialized as it stands then; reading it again parses it into a new object. So a change is kept
 * when it is `put`, or when it is made to the object `get` just returned (what every service does
 * within one request); `values()` and `entries()` yield copies of cold records.
 */
export class Collection<T extends object = Record<string, unknown>> {
  /**
   * a live object while hot; its cold text once cold; once that text is compressed into a
   * block, its place there: block id * MAX_BLOCK + slot
   */
  readonly #map = new Map<string, T | string | number>()
  readonly #indexes: Index<T>[] = []
  readonly #indexByName = new Map<string, Index<T>>()
  /** hot keys with the sequence number of their latest touch */
  readonly #hot = new Map<string, number>()
  /** touches in order (a ring): the oldest one goes cold when a newer one needs its place */
  readonly #ringKeys: string[] = []
  readonly #ringSeqs: number[] = []
  #ringHead = 0
  #seq = 0
  readonly #hotMax: number
  readonly #blockMax: number
  /** keys whose cold text is not yet in a block, in the order they went cold (may repeat) */
  #pending: string[] = []
  readonly #blocks = new Map<number, Block>()
  #nextBlock = 0
  /** the block decoded last: its id and its texts */
  #cacheId = -1
  #cacheTexts: string[] = []

  constructor(
    readonly ns: string,
    readonly name: string,
    readonly sink: ChangeSink | null,
    indexes: Record<string, IndexFn<T>> = {},
    limits: CollectionLimits = {},
  ) {
    this.#hotMax = Math.max(1, limits.hot ?? HOT_RECORDS)
    this.#blockMax = Math.min(MAX_BLOCK, Math.max(1, limits.block ?? COLD_BLOCK))
    for (const [indexName, fn] of Object.entries(indexes)) {
      const index = { fn, map: new Map(), keysOf: new Map() }
      this.#indexes.push(index)
      this.#indexByName.set(indexName, index)
    }
  }

  get size(): number {
    return this.#map.size
  }

  get(key: string): T | undefined {
    const v = this.#map.get(key)
    if (v === undefined) return undefined
    if (typeof v === 'object') {
      this.#touch(key)
      return v
    }
    const record = thaw(this.#coldText(v)) as T
    this.#map.set(key, record)
    if (typeof v === 'number') this.#release(v, true)
    this.#touch(key)
    return record
  }

  has(key: string): boolean {
    return this.#map.has(key)
  }

  /** Every key, in insertion order (nothing parsed). */
  keys(): IterableIterator<string> {
    return this.#map.keys()
  }

  /** Every record, in insertion order; cold ones are parsed copies. */
  *values(): IterableIterator<T> {
    for (const v of this.#map.values()) yield typeof v === 'object' ? v : (thaw(this.#coldText(v)) as T)
  }

  *entries(): IterableIterator<[string, T]> {
    for (const [k, v] of this.#map) yield [k, typeof v === 'object' ? v : (thaw(this.#coldText(v)) as T)]
  }

  /** Every record as JSON text (for the data file). */
  *jsonEntries(): IterableIterator<[string, string]> {
    for (const [k, v] of this.#map) yield [k, typeof v === 'object' ? JSON.stringify(v) : coldJson(this.#coldText(v))]
  }

  /** One record as JSON text, or undefined. */
  json(key: string): string | undefined {
    const v = this.#map.get(key)
    return v === undefined ? undefined : typeof v === 'object' ? JSON.stringify(v) : coldJson(this.#coldText(v))
  }

  /** The record whose index `indexName` holds `value`. */
  findBy(indexName: string, value: string): T | undefined {
    const index = this.#indexByName.get(indexName)
    if (!index) throw new Error(`no index ${indexName} on ${this.name}`)
    const key = index.map.get(value)
    return key === undefined ? undefined : this.get(key)
  }

  /** Inserts or replaces a record (also after mutating it in place) and records the change. */
  put(key: string, record: T): T {
    this.#set(key, record)
    this.#touch(key)
    this.sink?.changed(this.ns, this.name, key)
    return record
  }

  delete(key: string): boolean {
    if (!this.#map.has(key)) return false
    this.unload(key)
    this.sink?.changed(this.ns, this.name, key)
    return true
  }

  /** Sets a record without recording a change: used when loading the file. It is kept cold. */
  load(key: string, record: T): void {
    this.#set(key, record)
    this.#hot.delete(key)
    this.#goCold(key, freeze(record))
  }

  unload(key: string): void {
    this.#unindex(key)
    const v = this.#map.get(key)
    this.#map.delete(key)
    this.#hot.delete(key)
    if (typeof v === 'number') this.#release(v, false)
  }

  #set(key: string, record: T): void {
    const old = this.#map.get(key)
    // a new key has no index entries to take back
    if (old !== undefined && this.#indexes.length) this.#unindex(key)
    this.#map.set(key, record)
    if (typeof old === 'number') this.#release(old, true)
    for (const index of this.#indexes) {
      const raw = index.fn(record)
      if (typeof raw === 'string') {
        if (raw === '') continue
        index.map.set(raw, key)
        index.keysOf.set(key, raw)
        continue
      }
      const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string' && v !== '')
      for (const v of values) index.map.set(v, key)
      if (values.length) index.keysOf.set(key, values)
    }
  }

  #unindex(key: string): void {
    for (const index of this.#indexes) {
      const old = index.keysOf.get(key)
      if (old === undefined) continue
      if (typeof old === 'string') {
        if (index.map.get(old) === key) index.map.delete(old)
      } else {
        for (const v of old) if (index.map.get(v) === key) index.map.delete(v)
      }
      index.keysOf.delete(key)
    }
  }

  /** Marks a key as just used; the least recently used one past the bound goes cold. */
  #touch(key: string): void {
    const seq = ++this.#seq
    this.#hot.set(key, seq)
    if (this.#ringKeys.length < this.#hotMax) {
      this.#ringKeys.push(key)
      this.#ringSeqs.push(seq)
      return
    }
    // the ring is full: its oldest touch leaves; when that was the key's latest touch, the key
    // has not been used since and goes cold
    const i = this.#ringHead
    const oldKey = this.#ringKeys[i]
    const oldSeq = this.#ringSeqs[i]
    this.#ringKeys[i] = key
    this.#ringSeqs[i] = seq
    this.#ringHead = i + 1 === this.#hotMax ? 0 : i + 1
    if (this.#hot.get(oldKey) !== oldSeq) return
    const v = this.#map.get(oldKey)
    if (typeof v !== 'object') return
    let text: string
    try {
      text = freeze(v)
    } catch {
      return // cannot be serialized (validation keeps such values out): it stays an object
    }
    this.#hot.delete(oldKey)
    this.#goCold(oldKey, text)
  }

  /** How the records are kept: live objects, texts not yet packed, blocks and the texts in them. */
  coldStats(): { hot: number; texts: number; blocks: number; packed: number; blockBytes: number } {
    let hot = 0
    let texts = 0
    let packed = 0
    for (const v of this.#map.values()) {
      if (typeof v === 'object') hot++
      else if (typeof v === 'string') texts++
      else packed++
    }
    let blockBytes = 0
    for (const b of this.#blocks.values()) blockBytes += b.data.length
    return { hot, texts, blocks: this.#blocks.size, packed, blockBytes }
  }

  // ---- compressed blocks ----------------------------------------------------------------

  /** The cold text of a record kept as text or in a block. */
  #coldText(v: string | number): string {
    if (typeof v === 'string') return v
    return this.#decode(Math.floor(v / MAX_BLOCK))[v % MAX_BLOCK]
  }

  /** Keeps a record's cold text; once enough texts wait, they are compressed into one block. */
  #goCold(key: string, text: string): void {
    this.#map.set(key, text)
    this.#pending.push(key)
    if (this.#pending.length >= this.#blockMax) this.#pack()
  }

  /** Compresses the texts still waiting (a key that left the cold state since is skipped). */
  #pack(): void {
    const id = this.#nextBlock
    const keys: string[] = []
    const texts: string[] = []
    for (const key of this.#pending) {
      const v = this.#map.get(key)
      if (typeof v !== 'string') continue // hot again, deleted, or already placed (listed twice)
      // its place in the block made below (a number: a repeated key is skipped)
      this.#map.set(key, id * MAX_BLOCK + keys.length)
      keys.push(key)
      texts.push(v)
    }
    this.#pending = []
    if (keys.length === 0) return
    this.#nextBlock++
    // raw deflate at its fastest level, kept as a latin1 string (one leaf string the GC never
    // traces); a newline separates the texts: JSON text never holds one
    const data = deflateRawSync(texts.join('\n'), DEFLATE).toString('latin1')
    this.#blocks.set(id, { data, keys, live: keys.length })
  }

  /** The texts of a block, decoded (the last one decoded is kept). */
  #decode(id: number): string[] {
    if (id === this.#cacheId) return this.#cacheTexts
    const block = this.#blocks.get(id)
    if (!block) throw new Error(`cold block ${id} of ${this.name} is missing`)
    const texts = inflateRawSync(Buffer.from(block.data, 'latin1')).toString('utf8').split('\n')
    this.#cacheId = id
    this.#cacheTexts = texts
    return texts
  }

  /**
   * A slot of a block is no longer used: its record was read back or replaced (`again`: the record
   * now has a newer form too), or deleted. An empty block is dropped. A block three quarters
   * empty after reads or replacements gives its remaining texts back to be packed again, so
   * blocks of texts held twice do not pile up; deletes do not (nothing is held twice, and the
   * events of a namespace, deleted oldest first, would otherwise decode each block to pack its
   * last texts again just before deleting them).
   */
  #release(v: number, again: boolean): void {
    const id = Math.floor(v / MAX_BLOCK)
    const block = this.#blocks.get(id)
    if (!block) return
    block.live--
    if (block.live > 0 && (!again || block.live * 4 > block.keys.length)) return
    if (block.live > 0) {
      const texts = this.#decode(id)
      for (let slot = 0; slot < block.keys.length; slot++) {
        const key = block.keys[slot]
        if (this.#map.get(key) !== id * MAX_BLOCK + slot) continue
        this.#map.set(key, texts[slot])
        this.#pending.push(key)
      }
    }
    this.#blocks.delete(id)
    if (this.#cacheId === id) {
      this.#cacheId = -1
      this.#cacheTexts = []
    }
  }
}

// ---- the cold form ----------------------------------------------------------------------
//
// A cold record is kept as compact JSON: `[shape, value1, value2, ...]`, where the shape (a
// number) stands for the record's list of top-level keys, kept once for all records that share
// it. The keys are about 40 % of a charge's JSON. A record whose shape cannot be registered (past
// MAX_SHAPES) is kept as its plain JSON object text.

const MAX_SHAPES = 10_000
const shapeIds = new Map<string, number>()
const shapeKeys: string[][] = []

/** The last shape found for a number of keys: records going cold one after another mostly share one. */
const lastShapeByCount = new Map<number, number>()

/** The id of a shape (its keys, in order), registered if new; undefined past MAX_SHAPES. */
function shapeOf(keys: string[]): number | undefined {
  const hint = lastShapeByCount.get(keys.length)
  if (hint !== undefined) {
    const known = shapeKeys[hint]
    let i = 0
    while (i < keys.length && known[i] === keys[i]) i++
    // same keys in the same order: no signature string to build and hash
    if (i === keys.length) return hint
  }
  const signature = keys.join('\u0000')
  let id = shapeIds.get(signature)
  if (id === undefined && shapeKeys.length < MAX_SHAPES) {
    id = shapeKeys.length
    shapeKeys.push(keys)
    shapeIds.set(signature, id)
  }
  if (id !== undefined) lastShapeByCount.set(keys.length, id)
  return id
}

/** What JSON.stringify leaves out of an object (and an array would turn into null). */
const omitted = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol'

/** The cold text of a record. */
function freeze(record: object): string {
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
  const id = shapeOf(keys)
  if (id === undefined) return plainJson(record)
  values.unshift(id)
  return flat(JSON.stringify(values))
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

/** The record a cold text stands for, as a new object. */
function thaw(text: string): object {
  if (text.charCodeAt(0) !== 91 /* [ */) return JSON.parse(text) as object
  const values = JSON.parse(text) as unknown[]
  const keys = shapeKeys[values[0] as number]
  const record: Record<string, unknown> = {}
  for (let i = 0; i < keys.length; i++) record[keys[i]] = values[i + 1]
  return record
}

/** The plain JSON object text of a cold record. */
function coldJson(text: string): string {
  return text.charCodeAt(0) === 91 ? JSON.stringify(thaw(text)) : text
}

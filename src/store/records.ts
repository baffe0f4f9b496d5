import { constants, deflateRawSync, inflateRawSync } from 'node:zlib'
import { deepFreeze, copyOf, type Frozen } from './frozen.js'
import type { Shapes } from './shapes.js'

/**
 * The records of one collection by key, hot or cold. The ones touched last (put or read, up to
 * the collection's hot-set size) are live objects; the others are kept as their cold text (see
 * shapes.ts), compressed a block at a time. A record as text takes about half the memory of the
 * object tree and costs the garbage collector nothing to trace, which is what keeps a store of
 * 100k charges small and its pauses short; records of one collection share most of their text,
 * so a block of 64 charges takes ~30 bytes per charge instead of ~520, for ~2 µs of CPU per
 * record. Reading a cold record back inflates its block (~50 µs; the block read last is kept
 * decoded) and parses it into a new object.
 *
 * Hot or cold, what a read gives is frozen (frozen.ts): a live record the first time a read hands
 * it out, a parsed one as it is parsed. A record is only changed by a new one being put (the
 * writer gives its record up), so a hot record and its cold text never disagree, whichever a
 * caller is handed. A record is not frozen as it is put: most are never read while live (a card
 * charge goes cold unread), and freezing every one cost a mobile money charge 5-11 % of its CPU
 * and a card charge about 3 % (bench/README.md).
 */

/** the most texts one block holds: a block slot is kept as block id * MAX_BLOCK + slot */
const MAX_BLOCK = 4096

/**
 * A block's texts repeat one another within a record or two (a few hundred bytes), so an 8 KiB
 * window and a smaller hash table compress them as well as zlib's defaults (32 KiB, memLevel 8):
 * 1,260 bytes for 64 charge-like texts against the defaults' 1,267, with 64 KiB of state to set
 * up per call instead of 256 KiB. Inflating needs no options: its default window is the largest.
 */
const DEFLATE = { level: constants.Z_BEST_SPEED, windowBits: 13, memLevel: 6 }

/** A compressed block of cold texts: their keys by slot, and how many slots are still in use. */
interface Block {
  data: string
  keys: string[]
  live: number
}

export class Records<T extends object> {
  /**
   * a live object while hot (frozen once a read handed it out); its cold text once cold; once that text is compressed into a
   * block, its place there: block id * MAX_BLOCK + slot
   */
  readonly #map = new Map<string, T | string | number>()
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

  /**
   * `hot`: records kept live (0: none, a record is kept as its text from the moment it is put and
   * a read parses it, for records that are rarely read again); `block`: cold texts compressed
   * together (at most MAX_BLOCK)
   */
  constructor(
    readonly name: string,
    readonly shapes: Shapes,
    hot: number,
    block: number,
  ) {
    this.#hotMax = Math.max(0, hot)
    this.#blockMax = Math.min(MAX_BLOCK, Math.max(1, block))
  }

  get size(): number {
    return this.#map.size
  }

  has(key: string): boolean {
    return this.#map.has(key)
  }

  /** The record, made hot. */
  get(key: string): Frozen<T> | undefined {
    const v = this.#map.get(key)
    if (v === undefined) return undefined
    if (typeof v === 'object') {
      this.#touch(key)
      return deepFreeze(v)
    }
    const record = deepFreeze(this.shapes.thaw(this.#coldText(v)) as T)
    if (this.#hotMax === 0) return record
    this.#map.set(key, record as T)
    if (typeof v === 'number') this.#release(v, true)
    this.#touch(key)
    return record
  }

  /** The record as it is, hot or cold, without making it hot. */
  peek(key: string): Frozen<T> | undefined {
    const v = this.#map.get(key)
    return v === undefined ? undefined : this.#view(v)
  }

  /**
   * A copy of the record the caller may change (for an update), or undefined: a hot record is
   * copied, a cold one parsed from its text, which is a new object already.
   */
  draft(key: string): T | undefined {
    const v = this.#map.get(key)
    if (v === undefined) return undefined
    return typeof v === 'object' ? copyOf(v as Frozen<T>) : (this.shapes.thaw(this.#coldText(v)) as T)
  }

  /** Every key, in insertion order (nothing parsed). */
  keys(): IterableIterator<string> {
    return this.#map.keys()
  }

  /** Every record, in insertion order; cold ones are parsed (and frozen) without going hot. */
  *values(): IterableIterator<Frozen<T>> {
    for (const v of this.#map.values()) yield this.#view(v)
  }

  *entries(): IterableIterator<[string, Frozen<T>]> {
    for (const [k, v] of this.#map) yield [k, this.#view(v)]
  }

  /** Every record as JSON text. */
  *jsonEntries(): IterableIterator<[string, string]> {
    for (const [k, v] of this.#map) yield [k, typeof v === 'object' ? JSON.stringify(v) : this.shapes.json(this.#coldText(v))]
  }

  /** One record as JSON text, or undefined. */
  json(key: string): string | undefined {
    const v = this.#map.get(key)
    return v === undefined ? undefined : typeof v === 'object' ? JSON.stringify(v) : this.shapes.json(this.#coldText(v))
  }

  /**
   * Sets a record, hot (the caller gives it up: it is frozen when a read first hands it out), or as
   * its text at once where no record is kept live; returns whether the key held one before.
   */
  put(key: string, record: T): boolean {
    if (this.#hotMax === 0) {
      const text = this.#textOf(record)
      if (text !== undefined) {
        const old = this.#set(key, text)
        this.#goCold(key, text)
        return old
      }
    }
    const old = this.#set(key, record)
    this.#touch(key)
    return old
  }

  /** Sets a record, cold (read back from the file). */
  load(key: string, record: T): void {
    this.#set(key, record)
    this.#hot.delete(key)
    this.#goCold(key, this.shapes.freeze(record))
  }

  delete(key: string): void {
    const v = this.#map.get(key)
    this.#map.delete(key)
    this.#hot.delete(key)
    if (typeof v === 'number') this.#release(v, false)
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

  #view(v: T | string | number): Frozen<T> {
    return deepFreeze(typeof v === 'object' ? v : (this.shapes.thaw(this.#coldText(v)) as T))
  }

  /** The cold text of a record, or undefined when it cannot be serialized (validation keeps such values out: it stays an object). */
  #textOf(record: T): string | undefined {
    try {
      return this.shapes.freeze(record)
    } catch {
      return undefined
    }
  }

  #set(key: string, record: T | string): boolean {
    const old = this.#map.get(key)
    this.#map.set(key, record)
    if (typeof old === 'number') this.#release(old, true)
    return old !== undefined
  }

  /** Marks a key as just used; the least recently used one past the bound goes cold. */
  #touch(key: string): void {
    if (this.#hotMax === 0) return
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
    const text = this.#textOf(v)
    if (text === undefined) return
    this.#hot.delete(oldKey)
    this.#goCold(oldKey, text)
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

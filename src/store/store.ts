import { open, stat, type FileHandle } from 'node:fs/promises'
import { Low } from 'lowdb'
import { DataFile } from 'lowdb/node'
import { Collection, type ChangeSink, type IndexFn } from './collection.js'

/**
 * The store: namespaces of collections of records, all in memory, indexed.
 *
 * With a file (`--data FILE`) every change is also made durable before its response is sent:
 * the file is one JSON document `{"paysandbox":1,"snapshot":{...},"deltas":[...]}`. Changes are
 * appended to the `deltas` array in place (one positional write per group of changes, so the cost
 * of a write does not grow with the store), and the whole document is compacted through lowdb's
 * atomic write (temp file + rename) once the deltas outweigh the snapshot. The file is valid JSON
 * after every write, so a `kill -9` leaves it holding every acknowledged change.
 */

export interface StoreOptions {
  /** JSON file to persist to; in memory when absent. */
  file?: string
  /** Secondary indexes per collection name. */
  indexes?: Record<string, Record<string, IndexFn<any>>>
  /** Compact once the appended deltas exceed this many bytes and the snapshot's size. */
  compactMinBytes?: number
}

type Snapshot = Record<string, Record<string, Record<string, unknown>>>

interface FileDoc {
  paysandbox: number
  snapshot: Snapshot
  deltas: Delta[]
}

/** One change: a record put (`v`), deleted (`d`), or a namespace emptied (`reset`). */
interface Delta {
  n: string
  c?: string
  k?: string
  v?: unknown
  d?: 1
  reset?: string[]
}

const FORMAT = 1
const TAIL = ']}'

export class DataFileError extends Error {
  constructor(readonly file: string, reason: string) {
    super(`cannot use data file ${file}: ${reason}`)
    this.name = 'DataFileError'
  }
}

export class Store implements ChangeSink {
  readonly #namespaces = new Map<string, Map<string, Collection<any>>>()
  readonly #indexes: Record<string, Record<string, IndexFn<any>>>
  readonly file: string | undefined
  #log: DeltaLog | null = null

  private constructor(options: StoreOptions) {
    this.file = options.file
    this.#indexes = options.indexes ?? {}
  }

  /** Opens a store; with `file`, loads it (or creates it) and keeps it up to date. */
  static async open(options: StoreOptions = {}): Promise<Store> {
    const store = new Store(options)
    if (options.file) {
      store.#log = await DeltaLog.open(options.file, store, options.compactMinBytes ?? 1 << 20)
    }
    return store
  }

  get persistent(): boolean {
    return this.#log !== null
  }

  namespaces(): string[] {
    return [...this.#namespaces.keys()]
  }

  hasNamespace(ns: string): boolean {
    return this.#namespaces.has(ns)
  }

  /** The collection `name` of namespace `ns`, created on first use. */
  col<T extends object>(ns: string, name: string): Collection<T> {
    let cols = this.#namespaces.get(ns)
    if (!cols) {
      cols = new Map()
      this.#namespaces.set(ns, cols)
    }
    let col = cols.get(name)
    if (!col) {
      col = new Collection<T>(ns, name, this, this.#indexes[name] ?? {})
      cols.set(name, col)
    }
    return col as Collection<T>
  }

  /** Empties every collection of a namespace except those named in `keep`. */
  resetNamespace(ns: string, keep: string[] = []): void {
    this.#applyReset(ns, keep)
    this.#log?.reset(ns, keep)
  }

  /** Drops a namespace entirely. */
  dropNamespace(ns: string): void {
    this.resetNamespace(ns, [])
    this.#namespaces.delete(ns)
  }

  changed(ns: string, collection: string, key: string): void {
    this.#log?.changed(ns, collection, key)
  }

  /** Resolves once every change made so far is in the file (at once in memory). */
  sync(): Promise<void> {
    return this.#log ? this.#log.sync() : RESOLVED
  }

  /** Whether changes are waiting to be written. */
  get dirty(): boolean {
    return this.#log?.dirty ?? false
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    await this.#log?.close()
  }

  /** Writes the whole document now (also used by tests). */
  async compact(): Promise<void> {
    await this.#log?.compact()
  }

  // ---- used by the log -------------------------------------------------------------

  /** @internal The record as JSON text, or undefined when there is none. */
  currentJson(ns: string, collection: string, key: string): string | undefined {
    return this.#namespaces.get(ns)?.get(collection)?.json(key)
  }

  /** @internal */
  loadSnapshot(snapshot: Snapshot): void {
    for (const [ns, cols] of Object.entries(snapshot)) {
      for (const [name, records] of Object.entries(cols)) {
        const col = this.col(ns, name)
        for (const [key, value] of Object.entries(records)) col.load(key, value as object)
      }
    }
  }

  /** @internal */
  applyDelta(delta: Delta): void {
    if (delta.reset) return this.#applyReset(delta.n, delta.reset)
    if (!delta.c || delta.k === undefined) return
    const col = this.col(delta.n, delta.c)
    if (delta.d) col.unload(delta.k)
    else col.load(delta.k, delta.v as object)
  }

  /** @internal Serializes the whole store as the file's document, with no newline inside. */
  serialize(): string {
    const parts: string[] = [`{"paysandbox":${FORMAT},"snapshot":{`]
    let firstNs = true
    for (const [ns, cols] of this.#namespaces) {
      parts.push(`${firstNs ? '' : ','}${JSON.stringify(ns)}:{`)
      firstNs = false
      let firstCol = true
      for (const [name, col] of cols) {
        parts.push(`${firstCol ? '' : ','}${JSON.stringify(name)}:{`)
        firstCol = false
        let firstRec = true
        for (const [key, json] of col.jsonEntries()) {
          parts.push(`${firstRec ? '' : ','}${JSON.stringify(key)}:${json}`)
          firstRec = false
        }
        parts.push('}')
      }
      parts.push('}')
    }
    parts.push(`},"deltas":[${TAIL}`)
    return parts.join('')
  }

  #applyReset(ns: string, keep: string[]): void {
    const cols = this.#namespaces.get(ns)
    if (!cols) return
    for (const name of [...cols.keys()]) if (!keep.includes(name)) cols.delete(name)
  }
}

const RESOLVED = Promise.resolve()

/**
 * The append-and-compact writer behind a file store. One writer loop: it either appends the
 * changes gathered since its last write (group commit), or compacts; waiters are released only
 * after the write that holds their change has completed.
 */
class DeltaLog {
  #fh: FileHandle | null = null
  #size = 0
  #deltaCount = 0
  #deltaBytes = 0
  #snapshotBytes = 0
  /** pending changes in order: puts coalesced by key, resets kept in place */
  #pending: (Delta | [string, string, string])[] = []
  #dirtyKeys = new Set<string>()
  #waiters: (() => void)[] = []
  #failures: ((e: unknown) => void)[] = []
  #running = false
  #compactWanted = false
  #closed = false
  #error: unknown = null

  private constructor(
    readonly path: string,
    readonly store: Store,
    readonly compactMinBytes: number,
    readonly db: Low<Store>,
  ) {}

  static async open(path: string, store: Store, compactMinBytes: number): Promise<DeltaLog> {
    // lowdb underneath, built by hand (JSONFilePreset goes in-memory under NODE_ENV=test).
    const adapter = new DataFile<Store>(path, {
      parse: (text) => {
        const doc = parseDoc(path, text)
        store.loadSnapshot(doc.snapshot)
        for (const d of doc.deltas) store.applyDelta(d)
        return store
      },
      stringify: (s) => s.serialize(),
    })
    const db = new Low<Store>(adapter, store)
    try {
      await db.read()
    } catch (e) {
      if (e instanceof DataFileError) throw e
      throw new DataFileError(path, (e as NodeJS.ErrnoException).code ?? (e as Error).message)
    }
    const log = new DeltaLog(path, store, compactMinBytes, db)
    // Start from a freshly compacted file: it ends with the deltas array's tail, ready to append.
    try {
      await log.compact()
    } catch (e) {
      throw new DataFileError(path, `cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
    }
    return log
  }

  get dirty(): boolean {
    return this.#pending.length > 0 || this.#running
  }

  changed(ns: string, c: string, k: string): void {
    const id = `${ns}\u0000${c}\u0000${k}`
    if (this.#dirtyKeys.has(id)) return
    this.#dirtyKeys.add(id)
    this.#pending.push([ns, c, k])
    this.#kick()
  }

  reset(ns: string, keep: string[]): void {
    // later puts in this namespace must come after the reset, so forget their coalescing
    for (const id of this.#dirtyKeys) if (id.startsWith(`${ns}\u0000`)) this.#dirtyKeys.delete(id)
    this.#pending.push({ n: ns, reset: keep })
    this.#kick()
  }

  sync(): Promise<void> {
    if (this.#error) return Promise.reject(this.#error)
    if (!this.#pending.length && !this.#running) return RESOLVED
    return new Promise((resolve, reject) => {
      this.#waiters.push(resolve)
      this.#failures.push(reject)
    })
  }

  async compact(): Promise<void> {
    this.#compactWanted = true
    this.#kick()
    await this.sync()
  }

  async close(): Promise<void> {
    await this.sync().catch(() => undefined)
    this.#closed = true
    await this.#fh?.close()
    this.#fh = null
  }

  #kick(): void {
    if (this.#running || this.#closed) return
    this.#running = true
    // setImmediate lets every request of this turn of the event loop join the same write
    setImmediate(() => void this.#loop())
  }

  async #loop(): Promise<void> {
    try {
      while (this.#pending.length || this.#compactWanted) {
        const waiters = this.#waiters
        const failures = this.#failures
        this.#waiters = []
        this.#failures = []
        try {
          if (this.#compactWanted || this.#deltaBytes > Math.max(this.compactMinBytes, this.#snapshotBytes)) {
            await this.#compact()
          } else {
            await this.#append()
          }
        } catch (e) {
          this.#error = e
          for (const f of failures) f(e)
          continue
        }
        for (const w of waiters) w()
      }
    } finally {
      this.#running = false
      // a waiter may have arrived between the last check and now
      const waiters = this.#waiters
      this.#waiters = []
      this.#failures = []
      for (const w of waiters) w()
    }
  }

  async #append(): Promise<void> {
    const ops = this.#pending
    this.#pending = []
    this.#dirtyKeys.clear()
    const lines: string[] = []
    for (const op of ops) {
      let delta: string
      if (Array.isArray(op)) {
        const [n, c, k] = op
        const v = this.store.currentJson(n, c, k)
        // {n, c, k, v} or {n, c, k, d: 1}, with the record's text as the collection keeps it
        const head = `{"n":${JSON.stringify(n)},"c":${JSON.stringify(c)},"k":${JSON.stringify(k)}`
        delta = v === undefined ? `${head},"d":1}` : `${head},"v":${v}}`
      } else {
        delta = JSON.stringify(op)
      }
      // newline first: a torn write can then only ever damage its own last line
      lines.push(`\n${this.#deltaCount === 0 && lines.length === 0 ? '' : ','}${delta}`)
    }
    const text = lines.join('') + TAIL
    const buf = Buffer.from(text, 'utf8')
    if (!this.#fh) this.#fh = await open(this.path, 'r+')
    // overwrite the old tail: the file is valid JSON before and after this one write
    await this.#fh.write(buf, 0, buf.length, this.#size - TAIL.length)
    this.#size += buf.length - TAIL.length
    this.#deltaCount += ops.length
    this.#deltaBytes += buf.length - TAIL.length
  }

  async #compact(): Promise<void> {
    this.#compactWanted = false
    // the snapshot taken now holds every pending change
    this.#pending = []
    this.#dirtyKeys.clear()
    await this.#fh?.close()
    this.#fh = null
    await this.db.write()
    const { size } = await stat(this.path)
    this.#size = size
    this.#snapshotBytes = size
    this.#deltaBytes = 0
    this.#deltaCount = 0
  }
}

/** Parses the file, repairing a torn last delta (a write cut short by a crash). */
function parseDoc(path: string, text: string): FileDoc {
  if (text.trim() === '') return { paysandbox: FORMAT, snapshot: {}, deltas: [] }
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (e) {
    doc = repairTornTail(text)
    if (!doc) throw new DataFileError(path, `not valid JSON (${(e as Error).message})`)
  }
  if (!isDoc(doc)) throw new DataFileError(path, 'not a paysandbox data file')
  if (doc.paysandbox > FORMAT) throw new DataFileError(path, `written by a newer paysandbox (format ${doc.paysandbox})`)
  return doc
}

function isDoc(doc: unknown): doc is FileDoc {
  return (
    typeof doc === 'object' && doc !== null && typeof (doc as FileDoc).paysandbox === 'number' &&
    typeof (doc as FileDoc).snapshot === 'object' && (doc as FileDoc).snapshot !== null &&
    Array.isArray((doc as FileDoc).deltas)
  )
}

/** Each delta sits on its own line; a crash can only cut the last one. Drop it and close the array. */
function repairTornTail(text: string): unknown {
  if (!text.startsWith(`{"paysandbox":`)) return null
  const cut = text.lastIndexOf('\n')
  if (cut < 0) return null
  try {
    return JSON.parse(text.slice(0, cut) + TAIL)
  } catch {
    return null
  }
}

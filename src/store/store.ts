import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { Low, type Adapter } from 'lowdb'
import { TextFile } from 'lowdb/node'
import { Collection, type ChangeSink, type IndexFn } from './collection.js'
import { COLD_BLOCK, HOT_RECORDS, Records } from './records.js'
import { Shapes } from './shapes.js'

/**
 * The store: namespaces of collections of records, all in memory, indexed.
 *
 * With a file (`--data FILE`) every change is also made durable before its response is sent:
 * the file is one JSON document `{"paysandbox":1,"snapshot":{...},"deltas":[...]}`. Changes are
 * appended to the `deltas` array in place (one positional write per group of changes, so the cost
 * of a write does not grow with the store), and the whole document is compacted (lowdb's
 * `write()`, through the SnapshotFile adapter: written in pieces to a temp file, then renamed)
 * once the deltas outweigh the snapshot. The file is valid JSON after every write, so a `kill -9`
 * leaves it holding every acknowledged change.
 */

export interface StoreOptions {
  /** JSON file to persist to; in memory when absent. */
  file?: string
  /** Secondary indexes per collection name. */
  indexes?: Record<string, Record<string, IndexFn<any>>>
  /** Compact once the appended deltas exceed this many bytes and the snapshot's size. */
  compactMinBytes?: number
  /** Sizes of each collection's hot set and compressed blocks (tests use tiny ones). */
  limits?: { hot?: number; block?: number }
  /** Hot-set sizes of collections that keep fewer live records than HOT_RECORDS (`limits` wins). */
  hot?: Record<string, number>
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
  readonly #limits: { hot?: number; block?: number }
  readonly #hot: Record<string, number>
  /** the cold form's key lists, shared by every collection of this store */
  readonly #shapes = new Shapes()
  readonly file: string | undefined
  #log: DeltaLog | null = null
  #version = 0

  private constructor(options: StoreOptions) {
    this.file = options.file
    this.#indexes = options.indexes ?? {}
    this.#limits = options.limits ?? {}
    this.#hot = options.hot ?? {}
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
      const hot = this.#limits.hot ?? this.#hot[name] ?? HOT_RECORDS
      const records = new Records<T>(name, this.#shapes, hot, this.#limits.block ?? COLD_BLOCK)
      col = new Collection<T>(ns, name, this, records, this.#indexes[name])
      cols.set(name, col)
    }
    return col as Collection<T>
  }

  /**
   * A number that changes with every change to any record of any namespace (put, delete, reset,
   * a load): an answer computed from the store alone is still right while it has not moved.
   */
  get version(): number {
    return this.#version
  }

  /** Empties every collection of a namespace except those named in `keep`. */
  resetNamespace(ns: string, keep: string[] = []): void {
    this.#version++
    this.#applyReset(ns, keep)
    this.#log?.reset(ns, keep)
  }

  /** Drops a namespace entirely. */
  dropNamespace(ns: string): void {
    this.resetNamespace(ns, [])
    this.#namespaces.delete(ns)
  }

  changed(ns: string, collection: string, key: string): void {
    this.#version++
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
    this.#version++
    for (const [ns, cols] of Object.entries(snapshot)) {
      for (const [name, records] of Object.entries(cols)) {
        const col = this.col(ns, name)
        for (const [key, value] of Object.entries(records)) col.load(key, value as object)
      }
    }
  }

  /** @internal */
  applyDelta(delta: Delta): void {
    this.#version++
    if (delta.reset) return this.#applyReset(delta.n, delta.reset)
    if (!delta.c || delta.k === undefined) return
    const col = this.col(delta.n, delta.c)
    if (delta.d) col.unload(delta.k)
    else col.load(delta.k, delta.v as object)
  }

  /**
   * @internal The whole store as the file's document, in pieces (no newline inside): the
   * compaction writes them out as they come, so the document is never one string in memory.
   */
  *serializePieces(): Generator<string> {
    yield `{"paysandbox":${FORMAT},"snapshot":{`
    let firstNs = true
    for (const [ns, cols] of this.#namespaces) {
      yield `${firstNs ? '' : ','}${JSON.stringify(ns)}:{`
      firstNs = false
      let firstCol = true
      for (const [name, col] of cols) {
        yield `${firstCol ? '' : ','}${JSON.stringify(name)}:{`
        firstCol = false
        let firstRec = true
        for (const [key, json] of col.jsonEntries()) {
          yield `${firstRec ? '' : ','}${JSON.stringify(key)}:${json}`
          firstRec = false
        }
        yield '}'
      }
      yield '}'
    }
    yield `},"deltas":[${TAIL}`
  }

  /** @internal The whole document as one string (tests, and small stores). */
  serialize(): string {
    return [...this.serializePieces()].join('')
  }

  #applyReset(ns: string, keep: string[]): void {
    const cols = this.#namespaces.get(ns)
    if (!cols) return
    for (const name of [...cols.keys()]) if (!keep.includes(name)) cols.delete(name)
  }
}

const RESOLVED = Promise.resolve()

/**
 * The append-and-compact writer behind a file store. Appends (group commit) are written one at a
 * time; waiters are released only after the write that holds their change has completed. A
 * compaction runs beside them: it writes the snapshot to a temporary file while appends still go
 * to the current file (so nothing waits for it), then, in one step between two appends, copies to
 * the new file the changes appended meanwhile and renames it over the current one.
 */
class DeltaLog {
  #fh: FileHandle | null = null
  #size = 0
  #deltaCount = 0
  #deltaBytes = 0
  #snapshotBytes = 0
  /** pending changes in order: puts coalesced by key, resets kept in place */
  #pending: Op[] = []
  #dirtyKeys = new Set<string>()
  #waiters: (() => void)[] = []
  #failures: ((e: unknown) => void)[] = []
  #running = false
  #closed = false
  #error: unknown = null
  /** the compaction under way, and the changes appended since it took its snapshot */
  #compacting: Promise<void> | null = null
  #carry: Op[] | null = null
  /** file writes one at a time: appends, and the switch to a compacted file */
  #lock: Promise<unknown> = Promise.resolve()

  private constructor(
    readonly path: string,
    readonly store: Store,
    readonly compactMinBytes: number,
    readonly db: Low<Store>,
  ) {}

  static async open(path: string, store: Store, compactMinBytes: number): Promise<DeltaLog> {
    // lowdb underneath, built by hand (JSONFilePreset goes in-memory under NODE_ENV=test).
    // what was read: a file this writer can append to as it is (it parsed without repair and ends
    // with the deltas array's tail), and how many deltas it holds
    let appendable = false
    let deltasRead = 0
    const adapter = new SnapshotFile(path, (text) => {
      const doc = parseDoc(path, text)
      store.loadSnapshot(doc.snapshot)
      for (const d of doc.deltas) store.applyDelta(d)
      // our layout: these three keys in this order, the text ending with the deltas array's `]}`
      appendable = !doc.repaired && doc.paysandbox === FORMAT && Object.keys(doc).join() === 'paysandbox,snapshot,deltas,repaired' && text.endsWith(TAIL)
      deltasRead = doc.deltas.length
      return store
    })
    const db = new Low<Store>(adapter, store)
    try {
      await db.read()
    } catch (e) {
      if (e instanceof DataFileError) throw e
      throw new DataFileError(path, (e as NodeJS.ErrnoException).code ?? (e as Error).message)
    }
    const log = new DeltaLog(path, store, compactMinBytes, db)
    adapter.commit = (out, tmp, size) => log.#switchTo(out, tmp, size)
    if (appendable) {
      // appends go on where the file ends: a restart does not rewrite a large file
      const { size } = await stat(path)
      log.#size = size
      log.#snapshotBytes = size
      log.#deltaCount = deltasRead
      return log
    }
    // Otherwise (new, empty or repaired) start from a freshly compacted file: it ends with the
    // deltas array's tail, ready to append.
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

  /** Compacts now (and waits for it); a failure is thrown. */
  async compact(): Promise<void> {
    await this.sync()
    while (this.#compacting) await this.#compacting
    const run = this.#startCompaction(false)
    await run.done
    if (run.error) throw run.error
  }

  async close(): Promise<void> {
    await this.sync().catch(() => undefined)
    await this.#compacting
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
      while (this.#pending.length) {
        const waiters = this.#waiters
        const failures = this.#failures
        this.#waiters = []
        this.#failures = []
        try {
          await this.#locked(() => this.#append())
        } catch (e) {
          this.#error = e
          for (const f of failures) f(e)
          continue
        }
        for (const w of waiters) w()
        if (!this.#compacting && this.#deltaBytes > Math.max(this.compactMinBytes, this.#snapshotBytes)) this.#startCompaction()
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

  /** Runs a file write after the ones before it. */
  #locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(fn)
    this.#lock = run.catch(() => undefined)
    return run
  }

  #startCompaction(logErrors = true): { done: Promise<void>; error?: unknown } {
    const run: { done: Promise<void>; error?: unknown } = { done: RESOLVED }
    this.#carry = []
    run.done = this.#compacting = this.db
      .write()
      .catch((e) => {
        run.error = e
        // the current file still holds everything: appends go on there
        if (logErrors && !this.#closed) console.error('paysandbox: could not compact the data file:', e)
      })
      .finally(() => {
        this.#carry = null
        this.#compacting = null
      })
    return run
  }

  async #append(): Promise<void> {
    const ops = this.#pending
    this.#pending = []
    this.#dirtyKeys.clear()
    if (!ops.length) return
    this.#carry?.push(...ops)
    if (!this.#fh) this.#fh = await open(this.path, 'r+')
    const added = await writeDeltas(this.#fh, this.#size, this.#deltaLines(ops, this.#deltaCount === 0))
    this.#size += added
    this.#deltaCount += ops.length
    this.#deltaBytes += added
  }

  /** The deltas of these changes, each on its own line, with the records as they stand now. */
  #deltaLines(ops: Op[], first: boolean): string {
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
      lines.push(`\n${first && lines.length === 0 ? '' : ','}${delta}`)
    }
    return lines.join('')
  }

  /**
   * The compaction's last step, between two appends: the changes appended since its snapshot go
   * after it in the new file (replayed over the snapshot, they give every record's latest state),
   * then the new file replaces the current one and takes the appends from now on.
   */
  #switchTo(out: FileHandle, tmp: string, size: number): Promise<void> {
    return this.#locked(async () => {
      const carried = this.#carry ?? []
      const added = carried.length ? await writeDeltas(out, size, this.#deltaLines(carried, true)) : 0
      await rename(tmp, this.path)
      this.#carry = null
      const old = this.#fh
      this.#fh = out
      this.#size = size + added
      this.#snapshotBytes = size
      this.#deltaBytes = added
      this.#deltaCount = carried.length
      await old?.close().catch(() => undefined)
    })
  }
}

type Op = Delta | [string, string, string]

/**
 * Writes delta lines over the tail of a file of `size` bytes that ends with the deltas array's
 * `]}`, and the tail after them: the file is valid JSON before and after this one write. Returns
 * the bytes the file grew by. A string, not a Buffer: written from native memory, no ArrayBuffer
 * per write for the GC.
 */
async function writeDeltas(fh: FileHandle, size: number, lines: string): Promise<number> {
  const { bytesWritten } = await fh.write(lines + TAIL, size - TAIL.length, 'utf8')
  return bytesWritten - TAIL.length
}

/** Bytes of the document built between two writes of a compaction (the longest pause it makes). */
const COMPACT_CHUNK = 256 * 1024

/**
 * The lowdb adapter of the data file: it reads the document through lowdb's TextFile, and writes
 * the whole store (a compaction) to a temporary file next to it a piece at a time, with the event
 * loop free between pieces; `commit` then makes it the data file (the DeltaLog adds the changes
 * made meanwhile and renames it over the old one: atomic, like lowdb's own writer, so a crash
 * leaves the old file, which holds every change acknowledged so far). The document is never one
 * string in memory.
 */
class SnapshotFile implements Adapter<Store> {
  readonly #text: TextFile
  /** takes the written temporary file (still open) and makes it the data file */
  commit: (out: FileHandle, tmp: string, size: number) => Promise<void> = async () => {
    throw new Error('no commit step')
  }

  constructor(
    readonly file: string,
    readonly parse: (text: string) => Store,
  ) {
    this.#text = new TextFile(file)
  }

  async read(): Promise<Store | null> {
    const text = await this.#text.read()
    return text === null ? null : this.parse(text)
  }

  async write(store: Store): Promise<void> {
    const tmp = path.join(path.dirname(this.file), `.${path.basename(this.file)}.compact.tmp`)
    const out = await open(tmp, 'w')
    try {
      let size = 0
      let parts: string[] = []
      let length = 0
      // a string, not a Buffer: written from native memory, no ArrayBuffer left for the GC
      const flush = async () => {
        const text = parts.join('')
        parts = []
        length = 0
        const { bytesWritten } = await out.write(text, null, 'utf8')
        size += bytesWritten
      }
      for (const piece of store.serializePieces()) {
        parts.push(piece)
        length += piece.length
        if (length >= COMPACT_CHUNK) await flush()
      }
      await flush()
      await this.commit(out, tmp, size)
    } catch (e) {
      await out.close().catch(() => undefined)
      await rm(tmp, { force: true })
      throw e
    }
  }
}

/** Parses the file, repairing a torn last delta (a write cut short by a crash). */
function parseDoc(path: string, text: string): FileDoc & { repaired: boolean } {
  if (text.trim() === '') return { paysandbox: FORMAT, snapshot: {}, deltas: [], repaired: true }
  let doc: unknown
  let repaired = false
  try {
    doc = JSON.parse(text)
  } catch (e) {
    doc = repairTornTail(text)
    if (!doc) throw new DataFileError(path, `not valid JSON (${(e as Error).message})`)
    repaired = true
  }
  if (!isDoc(doc)) throw new DataFileError(path, 'not a paysandbox data file')
  if (doc.paysandbox > FORMAT) throw new DataFileError(path, `written by a newer paysandbox (format ${doc.paysandbox})`)
  return Object.assign(doc, { repaired })
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

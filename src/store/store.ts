import { recordMasker } from './card-numbers.js'
import { Collection, type ChangeSink, type CollectionSpec } from './collection.js'
import { FileLog } from './file-log.js'
import type { NamespaceState } from './namespace-state.js'
import { STEP_RECORDS, nextTurn, readSnapshot, readSnapshotInSteps, type NamespaceSnapshot } from './snapshot.js'
import type { Delta, Persisted, Persistence, Snapshot, CarryOver } from './persistence.js'
import { durableState } from './recovery.js'
import { Records } from './records.js'
import { Shapes } from './shapes.js'
import { validateFile } from './validate.js'

/**
 * The store: namespaces of collections of records, all in memory, indexed. With a file
 * (`--data FILE`) or PostgreSQL (`--store postgres://...`) every change is also made durable
 * before its response is sent (file-log.ts, pg-log.ts).
 */

export interface StoreOptions {
  /** JSON file to persist to; in memory when absent. */
  file?: string
  /** PostgreSQL to persist to (`--store postgres://...`, pg-log.ts); not with `file`. */
  postgres?: string
  /** with `postgres`: how long a namespace's lease lasts unrenewed (pg-lease.ts) */
  leaseMs?: number
  /**
   * What the modules that own collections declare about them (indexes, hot-set sizes, the fields
   * of their records): the store holds these collections and no other.
   */
  collections: readonly CollectionSpec[]
  /** How many records of a collection stay live objects, unless its spec says otherwise. */
  hotRecords: number
  /** How many cold texts are compressed together into one block. */
  coldBlock: number
  /** Compact once the appended deltas exceed this many bytes and the snapshot's size. */
  compactMinBytes?: number
  /** How a file of an older format is carried over, declared by the modules whose records changed shape. */
  carryOvers?: readonly CarryOver[]
}

export class Store implements ChangeSink, Persisted {
  readonly #namespaces = new Map<string, Map<string, Collection<any>>>()
  readonly #specs = new Map<string, CollectionSpec>()
  /** each collection's masking of card numbers (card-numbers.ts), made once from its spec */
  readonly #maskers = new Map<string, <T>(record: T) => T>()
  readonly #carryOvers: readonly CarryOver[]
  readonly #hotRecords: number
  readonly #coldBlock: number
  /** the cold form's key lists, shared by every collection of this store */
  readonly #shapes = new Shapes()
  #log: Persistence | null = null
  readonly #states: NamespaceState[] = []
  #version = 0

  private constructor(options: StoreOptions) {
    for (const spec of options.collections) {
      this.#specs.set(spec.name, spec)
      this.#maskers.set(spec.name, recordMasker(spec))
    }
    this.#hotRecords = options.hotRecords
    this.#coldBlock = options.coldBlock
    this.#carryOvers = [...(options.carryOvers ?? [])].sort((a, b) => a.to - b.to)
  }

  /** Opens a store; with `file`, loads it (or creates it) and keeps it up to date. */
  static async open(options: StoreOptions): Promise<Store> {
    const store = new Store(options)
    if (options.file) store.#log = await FileLog.open(options.file, store, options.compactMinBytes ?? 1 << 20)
    // loaded only for this store: the others never load the client
    else if (options.postgres) store.#log = await (await import('./pg-log.js')).PgLog.open(options.postgres, store, options.leaseMs ?? 5_000)
    return store
  }

  namespaces(): string[] {
    return [...this.#namespaces.keys()]
  }

  /**
   * The namespaces holding the record `collection`/`key` (a namespace's merchant: namespaces.ts),
   * the first `limit` of them with that record, and how many there are. This process's, in the
   * order they were made; with several processes on one database, the deployment's, by namespace
   * (those other processes serve and those none serves: pg-log.ts), this process's own records
   * given as it holds them; this process's alone while the database does not answer.
   */
  async namespacesKnown(limit: number, collection: string, key: string): Promise<{ total: number; records: [string, unknown][] }> {
    const here: [string, unknown][] = []
    for (const [ns, cols] of this.#namespaces) {
      const record = cols.get(collection)?.get(key)
      if (record) here.push([ns, record])
    }
    const known = await this.#log?.known?.(limit, collection, key).catch(() => undefined)
    if (!known) return { total: here.length, records: here.slice(0, limit) }
    const mine = new Map(here)
    return { total: known.total, records: known.rows.map(({ ns, value }) => [ns, mine.get(ns) ?? JSON.parse(value)]) }
  }

  hasNamespace(ns: string): boolean {
    return this.#namespaces.has(ns)
  }

  /** Whether the namespace holds a record (a collection read is made, empty, by the read alone). */
  holdsRecords(ns: string): boolean {
    for (const col of this.#namespaces.get(ns)?.values() ?? []) if (col.size) return true
    return false
  }

  /** The collection `name` of namespace `ns`, created on first use; only a declared one. */
  col<T extends object>(ns: string, name: string): Collection<T> {
    let cols = this.#namespaces.get(ns)
    const col = cols?.get(name)
    if (col) return col as Collection<T>
    const spec = this.#specs.get(name)
    // a collection without a spec would escape the checks on open (validate.ts)
    if (!spec) throw new Error(`no collection "${name}" was declared to the store`)
    if (!cols) {
      cols = new Map()
      this.#namespaces.set(ns, cols)
    }
    const created = this.#collection<T>(ns, name)
    cols.set(name, created)
    return created
  }

  /** A new empty collection of a declared name, in no namespace yet. */
  #collection<T extends object>(ns: string, name: string): Collection<T> {
    const spec = this.#specs.get(name)
    if (!spec) throw new Error(`no collection "${name}" was declared to the store`)
    return new Collection<T>(ns, name, this, new Records<T>(name, this.#shapes, spec.hot ?? this.#hotRecords, spec.block ?? this.#coldBlock), spec.indexes, spec.order, this.#maskers.get(name))
  }

  /**
   * A number that changes with every change to any record of any namespace (put, delete, reset,
   * a load): an answer computed from the store alone is still right while it has not moved.
   */
  get version(): number {
    return this.#version
  }

  /**
   * Registers what a part keeps of namespaces outside their records (namespace-state.ts): told of
   * every reset of a namespace and of every failed write that put its records back.
   */
  registerState(state: NamespaceState): void {
    this.#states.push(state)
  }

  /** Empties every collection of a namespace except those named in `keep`; what was registered forgets it. */
  resetNamespace(ns: string, keep: string[] = []): void {
    this.#version++
    this.#applyReset(ns, keep)
    this.#log?.reset(ns, keep)
    for (const state of this.#states) state.reset(ns)
  }

  /**
   * Replaces a namespace's records with these (a snapshot's, already read by `readSnapshot`): the
   * namespace is reset, the records put in the order given, then what was registered takes up what
   * it reads from them (namespace-state.ts). With a file, all of it is one change to make durable.
   */
  replaceNamespace(ns: string, records: NamespaceSnapshot['records']): void {
    this.resetNamespace(ns)
    for (const [name, recs] of Object.entries(records)) {
      const col = this.col(ns, name)
      for (const [key, record] of Object.entries(recs)) col.put(key, record as object)
    }
    for (const state of this.#states) state.replaced?.(ns)
  }

  /**
   * `replaceNamespace` in steps: the records are masked and put into collections aside, the event loop free
   * every STEP_RECORDS records, and those take the namespace's place in one turn, so no call ever
   * reads a namespace half replaced and other namespaces are served meanwhile. The namespace's
   * calls made meanwhile are replaced with the rest. With a file, all of it is one change.
   */
  async replaceNamespaceInSteps(ns: string, records: NamespaceSnapshot['records']): Promise<void> {
    const aside = new Map<string, Collection<any>>()
    let put = 0
    for (const [name, recs] of Object.entries(records)) {
      const col = this.#collection(ns, name)
      aside.set(name, col)
      for (const [key, record] of Object.entries(recs)) {
        // masked as a put is (card-numbers.ts): a snapshot's records are written by whoever made it
        col.load(key, col.mask(record as object))
        if (++put % STEP_RECORDS === 0) await nextTurn()
      }
    }
    this.resetNamespace(ns)
    this.#version++
    this.#namespaces.set(ns, aside)
    for (const [name, col] of aside) for (const key of col.keys()) this.#log?.changed(ns, name, key)
    for (const state of this.#states) state.replaced?.(ns)
  }

  /** A snapshot's document read and checked against this store's collections (snapshot.ts); throws SnapshotError. */
  readSnapshot(raw: unknown, source?: string): NamespaceSnapshot {
    return readSnapshot(raw, [...this.#specs.values()], this.#carryOvers, source)
  }

  /** `readSnapshot` in steps, the event loop free between them (snapshot.ts). */
  readSnapshotInSteps(raw: unknown): Promise<NamespaceSnapshot> {
    return readSnapshotInSteps(raw, [...this.#specs.values()], this.#carryOvers)
  }

  /** A namespace's records: every collection that holds one, by name, each record in the order it was first written. */
  namespaceRecords(ns: string): NamespaceSnapshot['records'] {
    const out: NamespaceSnapshot['records'] = {}
    const cols = this.#namespaces.get(ns)
    if (!cols) return out
    for (const name of [...cols.keys()].sort()) {
      const col = cols.get(name)!
      if (!col.size) continue
      const records: Record<string, unknown> = {}
      for (const [key, json] of col.jsonEntries()) records[key] = JSON.parse(json)
      out[name] = records
    }
    return out
  }

  changed(ns: string, collection: string, key: string): void {
    this.#version++
    this.#log?.changed(ns, collection, key)
  }

  /** Resolves once every change made so far is in the file (at once in memory). */
  sync(): Promise<void> {
    return this.#log ? this.#log.sync() : RESOLVED
  }

  /** Several processes on one database: which namespaces this one serves (pg-lease.ts); none otherwise. */
  get leases(): Persistence['leases'] {
    return this.#log?.leases
  }

  /** Whether changes are waiting to be written. */
  get dirty(): boolean {
    return this.#log?.dirty ?? false
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    await this.#log?.close()
  }

  /**
   * Writes the whole document now. The file log compacts on its own once the appended changes
   * outgrow the snapshot; tests call this to compact at a moment of their choosing, which a
   * helper outside the store could not do without the log being handed out.
   */
  async compact(): Promise<void> {
    await this.#log?.compact()
  }

  // ---- what the file log reads and loads (Persisted) --------------------------------------

  load(snapshot: Snapshot, deltas: readonly Delta[]): void {
    // every record checked before any is taken in: a bad file is refused whole (validate.ts)
    validateFile((name) => this.#specs.get(name), snapshot, deltas)
    this.#version++
    for (const [ns, cols] of Object.entries(snapshot)) {
      for (const [name, records] of Object.entries(cols)) {
        const col = this.col(ns, name)
        for (const [key, value] of Object.entries(records)) col.load(key, value as object)
      }
    }
    for (const delta of deltas) {
      if (delta.reset) this.#applyReset(delta.n, delta.reset)
      else if (delta.c && delta.k !== undefined) {
        const col = this.col(delta.n, delta.c)
        if (delta.d) col.unload(delta.k)
        else col.load(delta.k, delta.v as object)
      }
    }
  }

  carryOver(format: number, snapshot: Snapshot, deltas: Delta[]): Snapshot {
    // checked as a file first (objects, changes that name their records, collections kept): the
    // carry-overs read records; their fields are checked once carried over
    validateFile((name) => (this.#specs.has(name) ? {} : undefined), snapshot, deltas)
    const state = durableState({ paysandbox: format, snapshot, deltas })
    for (const u of this.#carryOvers) if (u.to > format) u.apply(state)
    return state
  }

  /**
   * Takes a namespace up as the database holds it (several processes: its lease was just taken,
   * pg-lease.ts), recording no change: what was registered forgets what it kept of it and takes
   * up what a start reads (the clock arms its timers, delivery queues the pending events).
   */
  adopt(ns: string, collections: Snapshot[string] | undefined): void {
    validateFile((name) => this.#specs.get(name), collections ? { [ns]: collections } : {}, [])
    this.restoreNamespace(ns, collections)
    for (const state of this.#states) {
      state.reset(ns)
      state.replaced?.(ns)
    }
  }

  /** Lets a namespace go (its lease is another process's), recording no change: what was registered forgets it. */
  release(ns: string): void {
    this.restoreNamespace(ns, undefined)
    for (const state of this.#states) state.reset(ns)
  }

  restored(ns: string): void {
    for (const state of this.#states) state.restored?.(ns)
  }

  restore(ns: string, collection: string, key: string, value: unknown): void {
    this.#version++
    const col = this.#namespaces.get(ns)?.get(collection)
    if (value === undefined) col?.unload(key)
    else this.col(ns, collection).load(key, value as object)
  }

  restoreNamespace(ns: string, collections: Record<string, Record<string, unknown>> | undefined): void {
    this.#version++
    this.#namespaces.delete(ns)
    for (const [name, records] of Object.entries(collections ?? {})) {
      const col = this.col(ns, name)
      for (const [key, value] of Object.entries(records)) col.load(key, value as object)
    }
  }

  recordJson(ns: string, collection: string, key: string): string | undefined {
    return this.#namespaces.get(ns)?.get(collection)?.json(key)
  }

  *snapshotPieces(): Generator<string> {
    yield '{'
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
    yield '}'
  }

  #applyReset(ns: string, keep: string[]): void {
    const cols = this.#namespaces.get(ns)
    if (!cols) return
    for (const name of [...cols.keys()]) if (!keep.includes(name)) cols.delete(name)
  }
}

const RESOLVED = Promise.resolve()

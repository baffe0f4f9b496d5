/**
 * The seam between the store, which holds everything in memory, and what keeps it durable (the
 * data file, file-log.ts). A store without one is the in-memory store: nothing else changes.
 *
 * A change is announced by its key, not handed over as a value: the log writes the record as it
 * stands when its write starts (asking the store for its JSON then), so a put costs no object and
 * no serialization, and several puts of one key before a write cost one delta.
 */

import type { Leases } from './pg-lease.js'

/** ns -> collection -> key -> record */
export type Snapshot = Record<string, Record<string, Record<string, unknown>>>

/** One change, as read back: a record put (`v`), deleted (`d`), or a namespace emptied but for the collections in `reset`. */
export interface Delta {
  n: string
  c?: string
  k?: string
  v?: unknown
  d?: 1
  reset?: string[]
}

/**
 * How a data file of an older format is carried over to this one (docs/behaviour.md#persistence): once,
 * when it is opened, its records (the snapshot with its deltas replayed) changed in place by the
 * module whose records changed shape; the file is then written whole in the current format.
 */
export interface CarryOver {
  /** the format it brings a file to */
  to: number
  apply(state: Snapshot): void
}

/** What the store calls. */
export interface Persistence {
  /** Whether changes are waiting to be written. */
  readonly dirty: boolean
  /** A record was put or deleted. */
  changed(ns: string, collection: string, key: string): void
  /** A namespace was emptied but for the collections in `keep`. */
  reset(ns: string, keep: string[]): void
  /** Resolves once every change announced so far is durable; rejects once a write has failed. */
  sync(): Promise<void>
  /** Writes everything as one snapshot now. */
  compact(): Promise<void>
  /** Writes what is pending and lets go of the file. */
  close(): Promise<void>
  /** Several processes on one database: which namespaces this one serves (pg-lease.ts). */
  readonly leases?: Leases
  /**
   * Several processes on one database: every namespace holding the record `collection`/`key`, by
   * namespace, the first `limit` of them with that record's JSON text, and how many there are.
   */
  known?(limit: number, collection: string, key: string): Promise<{ total: number; rows: { ns: string; value: string }[] }>
}

/** The store, as what keeps it sees it. */
export interface Persisted {
  /** Takes in what was read back: a snapshot, then the changes made after it, in order. */
  load(snapshot: Snapshot, deltas: readonly Delta[]): void
  /** The records of a file of an older `format`, carried over to the current one (`CarryOver`). */
  carryOver(format: number, snapshot: Snapshot, deltas: Delta[]): Snapshot
  /** Puts a record back as the file holds it (undefined: none), recording no change (a failed write's undo). */
  restore(ns: string, collection: string, key: string, value: unknown): void
  /** Puts a namespace back as the file holds it (undefined: none), recording no change. */
  restoreNamespace(ns: string, collections: Record<string, Record<string, unknown>> | undefined): void
  /** Records of this namespace were restored: what was derived from them outside the store is dropped (namespace-state.ts). */
  restored(ns: string): void
  /** A record's JSON text as it stands now, or undefined when there is none. */
  recordJson(ns: string, collection: string, key: string): string | undefined
  /** Every record, as the snapshot's JSON text in pieces (no newline inside). */
  snapshotPieces(): Iterable<string>
  /** Takes a namespace up as the database holds it (its lease taken), recording no change. */
  adopt(ns: string, collections: Snapshot[string] | undefined): void
  /** Lets a namespace go (its lease lost), recording no change. */
  release(ns: string): void
  /** Whether the namespace holds a record (a lease taken for one that holds none is given back). */
  holdsRecords(ns: string): boolean
}

import type { Clocks } from '../clock.js'
import type { Namespaces } from '../namespaces.js'
import type { Random } from '../random.js'
import type { Collection, CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import type { Store } from '../store/store.js'
import { OBJECT, STRING, listOf, maybe } from '../store/validate.js'

/** docs/behaviour.md#webhooks's events: every event the sandbox sends (the readiness report lists each, src/control/outcomes.ts). */
export const EVENT_NAMES = ['charge.success', 'charge.failed', 'refund.success', 'refund.failed', 'direct_debit.auth', 'transfer.success', 'transfer.failed', 'verification.completed',
  'chargeback.pending', 'chargeback.declined', 'chargeback.partial', 'chargeback.auto_accepted', 'chargeback.lost'] as const
export type EventName = (typeof EVENT_NAMES)[number]

export interface DeliveryAttempt {
  /** when the attempt was made, on the namespace clock */
  at: string
  /** when the schedule had it due (an attempt runs late when the clock jumped past it) */
  due: string
  status_code?: number
  error?: string
  ms: number
}

export interface EventRecord {
  id: string
  event: EventName
  data: Record<string, unknown>
  created_at: string
  /** where it is delivered; null when no URL was set (the event is still recorded) */
  target: string | null
  status: 'pending' | 'delivered' | 'failed' | 'no_target'
  attempts: DeliveryAttempt[]
  seq: number
}

export const EVENTS = 'events'
/**
 * Written once and, without a receiver, never read again: none kept live (its text from the moment
 * it is put, src/store/records.ts), so an event costs no freezing and no place among the live records.
 */
export const EVENTS_SPEC: CollectionSpec<EventRecord> = {
  name: EVENTS,
  hot: 0,
  fields: { id: STRING, event: STRING, status: STRING, created_at: STRING, data: OBJECT, attempts: listOf({ at: STRING }), target: maybe(STRING) },
  // its data is made of records the store masked as they were written (a charge announced before
  // it is saved is masked by the collection's rule first: src/engine/lifecycle.ts), their references, wallets and documents kept
  asWritten: ['data', 'target'],
}

export type EventListener = (ns: string, event: Frozen<EventRecord>) => void

/** What a long poll waits for (docs/behaviour.md#event-log): the filters of `GET /_sandbox/events`. */
export interface EventFilter {
  reference?: string
  event?: string
  status?: EventRecord['status']
}

interface Waiter {
  filter: EventFilter
  done: (matched: boolean) => void
}

/** A namespace's waiters, by the reference they wait for ('' for those waiting for any). */
type WaitersOfNs = Map<string, Set<Waiter>>

/** ids of a namespace's events by reference, and how many events were indexed since it was built */
interface RefIndex {
  refs: Map<string, string[]>
  events: number
}

/**
 * A namespace's events in arrival order, for the bound: ids from `head` on (kept in an array,
 * because iterating a Map whose front was deleted walks every deleted slot again); the events
 * whose delivery is pending; those of them the bound passed over (`held`), and those of the held
 * that have settled since (`freed`, the first to go next).
 */
interface Bound {
  order: string[]
  head: number
  pending: Set<string>
  held: Set<string>
  freed: string[]
}

/**
 * Every event is recorded in its namespace, with or without a receiver, so tests can assert on
 * events; the delivery engine listens here. At most `maxEvents` settled events are kept per
 * namespace (the oldest go); an event whose delivery is pending is not counted and never dropped
 * (docs/behaviour.md#limits).
 */
export class Events {
  readonly #listeners: EventListener[] = []
  readonly #bounds = new Map<string, Bound>()
  /** long polls by namespace, then by reference: an event wakes only its own namespace's */
  readonly #waiters = new Map<string, WaitersOfNs>()
  /**
   * Per namespace, the ids of its events by each reference they carry, so a poll by reference
   * reads its few events, not every one the namespace holds. Built on first use from the
   * collection; ids of events the bound dropped are skipped when read and go at the next rebuild.
   */
  readonly #byRef = new Map<string, RefIndex>()
  /** each namespace's latest event sequence number */
  readonly #seqs = new Map<string, number>()

  constructor(
    readonly store: Store,
    readonly clocks: Clocks,
    readonly random: Random,
    readonly namespaces: Namespaces,
    readonly maxEvents: number,
  ) {
    // the order, sequence and references of a namespace's events are read from its records: again
    // once a reset or a failed write changed them
    const forget = (ns: string) => this.#forget(ns)
    store.registerState({ reset: forget, restored: forget })
  }

  onRecord(listener: EventListener): void {
    this.#listeners.push(listener)
  }

  /** Where an event goes: its own target, else the namespace's webhook URL (docs/behaviour.md#webhooks). */
  targetOf(ns: string, own: string | null | undefined): string | null {
    return own ?? this.namespaces.get(ns)?.webhook_url ?? null
  }

  record(ns: string, event: EventName, data: Record<string, unknown>, { target }: { target?: string | null } = {}): Frozen<EventRecord> {
    const col = this.store.col<EventRecord>(ns, EVENTS)
    const seq = this.#nextSeq(ns, col)
    const url = this.targetOf(ns, target)
    const rec: EventRecord = {
      id: `evt_${this.random.id(ns, 16)}`,
      event,
      data,
      created_at: this.clocks.iso(ns),
      target: url,
      status: url ? 'pending' : 'no_target',
      attempts: [],
      seq,
    }
    const stored = col.put(rec.id, rec)
    let b = this.#bounds.get(ns)
    if (!b) {
      // the first event of this namespace since the start (or a reset): those already stored, in order
      b = { order: [], head: 0, pending: new Set(), held: new Set(), freed: [] }
      for (const e of col.values()) {
        b.order.push(e.id)
        if (e.status === 'pending') b.pending.add(e.id)
      }
      this.#bounds.set(ns, b)
    } else {
      b.order.push(rec.id)
      if (rec.status === 'pending') b.pending.add(rec.id)
    }
    this.#bound(col, b)
    this.#indexRef(ns, stored)
    for (const l of this.#listeners) l(ns, stored)
    this.#wake(ns, stored)
    return stored
  }

  /**
   * Drops the oldest settled events while more than `maxEvents` are settled: a pending one met on
   * the way is held aside, and goes first once it has settled.
   */
  #bound(col: Collection<EventRecord>, b: Bound): void {
    while (col.size - b.pending.size > this.maxEvents) {
      let id: string
      if (b.freed.length) id = b.freed.pop()!
      else if (b.head < b.order.length) id = b.order[b.head++]
      else break
      if (b.pending.has(id)) b.held.add(id)
      else col.delete(id)
    }
    if (b.head > 4096 && b.head * 2 > b.order.length) {
      b.order = b.order.slice(b.head)
      b.head = 0
    }
  }

  /** Forgets what was read of a namespace's events: their arrival order, sequence and references. */
  #forget(ns: string): void {
    this.#bounds.delete(ns)
    this.#seqs.delete(ns)
    this.#byRef.delete(ns)
  }

  /**
   * The next event's sequence number. It is kept in memory, not stored with every event: after a
   * start it goes on from the newest event kept (events keep their arrival order; the counter
   * earlier builds stored is carried over into it, carry-over.ts).
   */
  #nextSeq(ns: string, col: Collection<EventRecord>): number {
    let seq = this.#seqs.get(ns)
    if (seq === undefined) {
      let newest: string | undefined
      for (const key of col.keys()) newest = key
      seq = (newest !== undefined && col.get(newest)?.seq) || 0
    }
    this.#seqs.set(ns, ++seq)
    return seq
  }

  get(ns: string, id: string): Frozen<EventRecord> | undefined {
    return this.store.col<EventRecord>(ns, EVENTS).get(id)
  }

  /** Changes a stored event (`change` is given a copy); returns it as stored, or undefined when it is gone. */
  update(ns: string, id: string, change: (rec: EventRecord) => void): Frozen<EventRecord> | undefined {
    const col = this.store.col<EventRecord>(ns, EVENTS)
    if (!col.has(id)) return undefined
    const rec = col.update(id, change)
    const b = this.#bounds.get(ns)
    if (b) {
      if (rec.status === 'pending') b.pending.add(rec.id)
      else if (b.pending.delete(rec.id)) {
        // settled: counted again, and, held aside by the bound, the first to go
        if (b.held.delete(rec.id)) b.freed.push(rec.id)
        this.#bound(col, b)
      }
    }
    this.#wake(ns, rec)
    return rec
  }

  list(ns: string, filter: EventFilter = {}): Frozen<EventRecord>[] {
    const out: Frozen<EventRecord>[] = []
    const col = this.store.col<EventRecord>(ns, EVENTS)
    if (filter.reference) {
      // by the reference index: the namespace's other events are not read
      for (const id of this.#refIndex(ns, col).refs.get(filter.reference) ?? []) {
        const e = col.get(id)
        if (e && matches(e, filter)) out.push(e)
      }
    } else {
      for (const e of col.values()) if (matches(e, filter)) out.push(e)
    }
    return out.sort((a, b) => a.seq - b.seq)
  }

  /**
   * Resolves when an event of the namespace is recorded or changes (one matching `filter`, when
   * given), with true; or after `ms` or on `signal`, with false. Waiters are kept by namespace and
   * by the reference they wait for: an event costs a waiter nothing unless it is of the waiter's
   * namespace and, for one waiting by reference, carries that reference (docs/behaviour.md#event-log).
   */
  waitForChange(ns: string, ms: number, signal?: AbortSignal, filter: EventFilter = {}): Promise<boolean> {
    return new Promise((resolve) => {
      let byRef = this.#waiters.get(ns)
      if (!byRef) this.#waiters.set(ns, (byRef = new Map()))
      const ref = filter.reference ?? ''
      let set = byRef.get(ref)
      if (!set) byRef.set(ref, (set = new Set()))
      const waiter: Waiter = {
        filter,
        done: (matched) => {
          clearTimeout(timer)
          signal?.removeEventListener('abort', onAbort)
          set!.delete(waiter)
          if (!set!.size && byRef!.get(ref) === set) {
            byRef!.delete(ref)
            if (!byRef!.size && this.#waiters.get(ns) === byRef) this.#waiters.delete(ns)
          }
          resolve(matched)
        },
      }
      const onAbort = () => waiter.done(false)
      const timer = setTimeout(onAbort, ms)
      set.add(waiter)
      signal?.addEventListener('abort', onAbort)
    })
  }

  #wake(ns: string, rec: Frozen<EventRecord>): void {
    const byRef = this.#waiters.get(ns)
    if (!byRef) return
    const sets: Set<Waiter>[] = []
    const any = byRef.get('')
    if (any) sets.push(any)
    for (const r of refsOf(rec)) {
      const set = byRef.get(r)
      if (set) sets.push(set)
    }
    for (const set of sets) for (const w of [...set]) if (matches(rec, w.filter)) w.done(true)
  }

  #refIndex(ns: string, col: Collection<EventRecord>): RefIndex {
    let index = this.#byRef.get(ns)
    // rebuilt once the events indexed reach twice the ones kept: dropped ones' ids go then
    if (!index || stale(index, col)) {
      index = { refs: new Map(), events: 0 }
      this.#byRef.set(ns, index)
      for (const e of col.values()) addRefs(index, e)
    }
    return index
  }

  #indexRef(ns: string, rec: Frozen<EventRecord>): void {
    // none yet: built from the collection, which holds this event already, on first use
    const index = this.#byRef.get(ns)
    if (!index) return
    if (stale(index, this.store.col<EventRecord>(ns, EVENTS))) this.#byRef.delete(ns)
    else addRefs(index, rec)
  }
}

function addRefs(index: RefIndex, e: Frozen<EventRecord>): void {
  for (const r of refsOf(e)) {
    const ids = index.refs.get(r)
    if (ids) ids.push(e.id)
    else index.refs.set(r, [e.id])
  }
  index.events++
}

function stale(index: RefIndex, col: Collection<EventRecord>): boolean {
  return index.events > 2 * Math.max(col.size, 1024)
}

/** The distinct references an event carries (docs/behaviour.md#event-log). */
function refsOf(e: Frozen<EventRecord>): string[] {
  const d = e.data
  const out: string[] = []
  for (const v of [d.reference, d.payment_reference, d.transaction_reference]) if (typeof v === 'string' && v && !out.includes(v)) out.push(v)
  return out
}

function matches(e: Frozen<EventRecord>, filter: EventFilter): boolean {
  if (filter.event && e.event !== filter.event) return false
  if (filter.status && e.status !== filter.status) return false
  return !filter.reference || matchesReference(e, filter.reference)
}

function matchesReference(e: Frozen<EventRecord>, ref: string): boolean {
  const d = e.data
  return d.reference === ref || d.payment_reference === ref || d.transaction_reference === ref
}

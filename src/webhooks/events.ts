import { nanoid } from 'nanoid'
import type { Clocks } from '../clock.js'
import type { Namespaces } from '../namespaces.js'
import type { Collection, CollectionSpec } from '../store/collection.js'
import type { Store } from '../store/store.js'

/** docs/behaviour.md 8's events. */
export type EventName = 'charge.success' | 'charge.failed' | 'refund.success' | 'refund.failed' | 'direct_debit.auth'

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
/** Written once and, without a receiver, never read again: one kept live, not 128 copied by every young collection. */
export const EVENTS_SPEC: CollectionSpec<EventRecord> = { name: EVENTS, hot: 1 }
const META = 'meta'
/** where earlier builds stored the event counter, with every event (their data files still hold it) */
const LEGACY_SEQ_KEY = 'event_seq'

export type EventListener = (ns: string, event: EventRecord) => void

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
 * (docs/behaviour.md 2.4).
 */
export class Events {
  readonly #listeners: EventListener[] = []
  readonly #waiters = new Map<string, Set<() => void>>()
  readonly #bounds = new Map<string, Bound>()
  /** each namespace's latest event sequence number */
  readonly #seqs = new Map<string, number>()

  constructor(
    readonly store: Store,
    readonly clocks: Clocks,
    readonly namespaces: Namespaces,
    readonly maxEvents: number,
  ) {}

  onRecord(listener: EventListener): void {
    this.#listeners.push(listener)
  }

  record(ns: string, event: EventName, data: Record<string, unknown>, { target }: { target?: string | null } = {}): EventRecord {
    const col = this.store.col<EventRecord>(ns, EVENTS)
    const seq = this.#nextSeq(ns, col)
    const url = target ?? this.namespaces.get(ns)?.webhook_url ?? null
    const rec: EventRecord = {
      id: `evt_${nanoid(16)}`,
      event,
      data,
      created_at: this.clocks.iso(ns),
      target: url,
      status: url ? 'pending' : 'no_target',
      attempts: [],
      seq,
    }
    col.put(rec.id, rec)
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
    for (const l of this.#listeners) l(ns, rec)
    this.#wake(ns)
    return rec
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

  /** Forgets the arrival order of a namespace's events (after a reset). */
  forget(ns: string): void {
    this.#bounds.delete(ns)
    this.#seqs.delete(ns)
  }

  /**
   * The next event's sequence number. It is kept in memory, not stored with every event: after a
   * start it goes on from the newest event kept (events keep their arrival order), or from the
   * counter a data file written by an earlier build holds in `meta`.
   */
  #nextSeq(ns: string, col: Collection<EventRecord>): number {
    let seq = this.#seqs.get(ns)
    if (seq === undefined) {
      let newest: string | undefined
      for (const key of col.keys()) newest = key
      seq = Math.max(this.store.col<{ n: number }>(ns, META).get(LEGACY_SEQ_KEY)?.n ?? 0, (newest !== undefined && col.get(newest)?.seq) || 0)
    }
    this.#seqs.set(ns, ++seq)
    return seq
  }

  get(ns: string, id: string): EventRecord | undefined {
    return this.store.col<EventRecord>(ns, EVENTS).get(id)
  }

  save(ns: string, rec: EventRecord): void {
    const col = this.store.col<EventRecord>(ns, EVENTS)
    col.put(rec.id, rec)
    const b = this.#bounds.get(ns)
    if (b) {
      if (rec.status === 'pending') b.pending.add(rec.id)
      else if (b.pending.delete(rec.id)) {
        // settled: counted again, and, held aside by the bound, the first to go
        if (b.held.delete(rec.id)) b.freed.push(rec.id)
        this.#bound(col, b)
      }
    }
    this.#wake(ns)
  }

  list(ns: string, filter: { reference?: string; event?: string; status?: EventRecord['status'] } = {}): EventRecord[] {
    const out: EventRecord[] = []
    for (const e of this.store.col<EventRecord>(ns, EVENTS).values()) {
      if (filter.event && e.event !== filter.event) continue
      if (filter.status && e.status !== filter.status) continue
      if (filter.reference && !matchesReference(e, filter.reference)) continue
      out.push(e)
    }
    return out.sort((a, b) => a.seq - b.seq)
  }

  /** Resolves when something changes in the namespace's events, or after `ms`. */
  waitForChange(ns: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.#waiters.get(ns)
      if (!set) this.#waiters.set(ns, (set = new Set()))
      const done = () => {
        clearTimeout(timer)
        set!.delete(done)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      set.add(done)
      signal?.addEventListener('abort', done)
    })
  }

  #wake(ns: string): void {
    const set = this.#waiters.get(ns)
    if (!set?.size) return
    for (const w of [...set]) w()
  }
}

function matchesReference(e: EventRecord, ref: string): boolean {
  const d = e.data
  return d.reference === ref || d.payment_reference === ref || d.transaction_reference === ref
}

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
 * Every event is recorded in its namespace, with or without a receiver, so tests can assert on
 * events; the delivery engine listens here. At most `maxEvents` are kept per namespace (oldest go).
 */
export class Events {
  readonly #listeners: EventListener[] = []
  readonly #waiters = new Map<string, Set<() => void>>()
  readonly #order = new Map<string, string[] & { head: number }>()
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
    // drop the oldest past the bound; ids kept in arrival order, because iterating a Map whose
    // front was deleted walks every deleted slot again
    let order = this.#order.get(ns)
    if (!order || order.length + order.head === 0) {
      order = Object.assign([...col.keys()], { head: 0 })
      this.#order.set(ns, order)
    } else order.push(rec.id)
    while (col.size > this.maxEvents && order.head < order.length) {
      col.delete(order[order.head++])
    }
    if (order.head > 4096 && order.head * 2 > order.length) {
      const rest = Object.assign(order.slice(order.head), { head: 0 })
      this.#order.set(ns, rest)
    }
    for (const l of this.#listeners) l(ns, rec)
    this.#wake(ns)
    return rec
  }

  /** Forgets the arrival order of a namespace's events (after a reset). */
  forget(ns: string): void {
    this.#order.delete(ns)
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
    this.store.col<EventRecord>(ns, EVENTS).put(rec.id, rec)
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

import { Random } from './random.js'
import type { Store } from './store/store.js'
import type { CollectionSpec } from './store/collection.js'
import { EPOCH_MS, NUMBER, OBJECT, STRING, maybe, type RecordFields } from './store/validate.js'
import { isoAt } from './time.js'
import { invalid } from './errors.js'
import { MSG } from './messages.js'

/**
 * One virtual clock per namespace: wall-clock time plus the namespace's own offset, which
 * `advance` only ever increases. Under a seed (`frozenFrom`, docs/behaviour.md#seed-and-clock-start) a namespace's
 * clock starts frozen at the clock start instead, and a reset puts it back there. Timers are data
 * (kind + payload) kept in the store, so they survive a restart with `--data`; they fire in due
 * order, either when their time comes or when the clock is advanced past them. While a timer
 * fires, `now()` reads its due time, so whatever it stamps carries the moment it was due, not the
 * moment the clock was moved to.
 */

/** `2024-01-01 12:00:00Z` from an ISO time: how the dashboard shows a time. */
export const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '')

export interface Timer {
  id: string
  due: number
  kind: string
  payload: Record<string, unknown>
  seq: number
}

export type TimerHandler = (ns: string, payload: any, timer: Timer) => void

interface NsTimers {
  heap: Timer[]
  handle: NodeJS.Timeout | null
  handleDue: number
}

const META = 'meta'
/** the key of a namespace's clock record in its `meta` collection */
export const CLOCK_KEY = 'clock'
const TIMERS = 'timers'

/** The timers of a namespace, as a data file must hold them (src/store/validate.ts). */
export const TIMERS_SPEC: CollectionSpec<Timer> = { name: TIMERS, fields: { due: EPOCH_MS, kind: STRING, payload: OBJECT }, asWritten: ['payload'] }
/** A namespace's clock, the `clock` record of its `meta` collection (namespaces.ts declares the collection). */
export const CLOCK_META: Record<string, RecordFields> = { [CLOCK_KEY]: { offset_ms: NUMBER, frozen_at: maybe(NUMBER) } }
/** ms before the timers of a namespace whose changes a failed write undid are armed again */
const RETRY_AFTER_UNDO = 1000
/** setTimeout's largest delay; longer waits re-arm. */
const MAX_DELAY = 2_147_000_000
/** the last instant every timestamp can still be written as ISO 8601 (9999-12-31T23:59:59.999Z) */
const MAX_TIME = 253_402_300_799_999

export class Clocks {
  readonly #store: Store
  readonly #wallNow: () => number
  readonly #random: Random
  /** under a seed: where a namespace's clock stands, frozen, until a call moves it */
  readonly #frozenFrom: number | null
  readonly #handlers = new Map<string, TimerHandler>()
  readonly #timers = new Map<string, NsTimers>()
  readonly #firingAt = new Map<string, number>()
  readonly #offsets = new Map<string, number>()
  /** namespaces whose clock stands still: the time it stands at */
  readonly #frozen = new Map<string, number | null>()
  #seq = 0
  #running = true

  constructor(store: Store, { wallNow = Date.now, random = new Random(), frozenFrom = null }: { wallNow?: () => number; random?: Random; frozenFrom?: number | null } = {}) {
    this.#store = store
    this.#wallNow = wallNow
    this.#random = random
    this.#frozenFrom = frozenFrom
    // timers kept in the file come back, in due order
    for (const ns of store.namespaces()) {
      for (const t of store.col<Timer>(ns, TIMERS).values()) this.#push(ns, { ...t, seq: ++this.#seq })
    }
    // a reset empties a namespace's timers and clock; a failed write puts them back as the file
    // has them (docs/behaviour.md#persistence)
    store.registerState({
      reset: (ns) => this.#reset(ns),
      restored: (ns) => this.#reload(ns, RETRY_AFTER_UNDO),
      // a snapshot's timers are armed at once, as a start arms those of the file
      replaced: (ns) => this.#reload(ns, 0),
    })
  }

  /**
   * Forgets what this namespace's clock read from the store, and takes its timers from it again;
   * arms them `armAfter` ms later.
   */
  #reload(ns: string, armAfter: number): void {
    this.#offsets.delete(ns)
    this.#frozen.delete(ns)
    const t = this.#timers.get(ns)
    if (t) {
      t.heap = []
      if (t.handle) clearTimeout(t.handle)
      t.handle = null
      t.handleDue = Infinity
    }
    // a namespace the file does not have: nothing to read (and nothing to create)
    if (!this.#store.hasNamespace(ns)) return
    for (const timer of this.#store.col<Timer>(ns, TIMERS).values()) this.#push(ns, { ...timer, seq: ++this.#seq })
    // a timer whose firing was undone fires again, but not at once: the disk may still be full
    if (armAfter) setTimeout(() => this.#arm(ns), armAfter).unref()
    else this.#arm(ns)
  }

  /**
   * The `clock` record of a namespace whose clock is to read `now` at this moment, standing still
   * there or running on from it (a snapshot restored, docs/behaviour.md#snapshots).
   */
  recordAt(now: number, frozen: boolean): { offset_ms: number; frozen_at: number | null } {
    return frozen ? { offset_ms: 0, frozen_at: now } : { offset_ms: now - this.#wallNow(), frozen_at: null }
  }

  /** Registers what a kind of timer does. */
  on(kind: string, handler: TimerHandler): void {
    this.#handlers.set(kind, handler)
  }

  /** Arms the real-time timers of every namespace (after the handlers are registered). */
  start(): void {
    this.#running = true
    for (const ns of this.#timers.keys()) this.#arm(ns)
  }

  /** Milliseconds since the epoch on the namespace's clock. */
  now(ns: string): number {
    const firing = this.#firingAt.get(ns)
    if (firing !== undefined) return firing
    const frozen = this.frozenAt(ns)
    return frozen ?? this.#wallNow() + this.offset(ns)
  }

  /** The time a frozen clock stands at, or null when it runs. */
  frozenAt(ns: string): number | null {
    let f = this.#frozen.get(ns)
    if (f === undefined) {
      const rec = this.#store.col<{ offset_ms: number; frozen_at?: number | null }>(ns, META).get(CLOCK_KEY)
      f = rec ? (rec.frozen_at ?? null) : this.#frozenFrom
      this.#frozen.set(ns, f)
    }
    return f
  }

  /**
   * Stops (or restarts) the namespace clock: while frozen, time moves only when advanced, so a
   * test's own duration can never make a timer fire. Unfreezing resumes from where it stands.
   */
  freeze(ns: string, frozen: boolean): void {
    const now = this.now(ns)
    if (frozen) {
      this.#frozen.set(ns, now)
    } else {
      this.#frozen.set(ns, null)
      this.#offsets.set(ns, now - this.#wallNow())
    }
    this.#persist(ns)
    this.#arm(ns)
  }

  /** ISO 8601 with milliseconds and Z. */
  iso(ns: string): string {
    const t = this.now(ns)
    // several stamps per request fall on the same millisecond: format it once
    if (t !== this.#lastIsoMs) {
      this.#lastIsoMs = t
      this.#lastIso = isoAt(t)
    }
    return this.#lastIso
  }

  #lastIsoMs = NaN
  #lastIso = ''

  offset(ns: string): number {
    let off = this.#offsets.get(ns)
    if (off === undefined) {
      const rec = this.#store.col<{ offset_ms: number }>(ns, META).get(CLOCK_KEY)
      off = rec?.offset_ms ?? 0
      this.#offsets.set(ns, off)
    }
    return off
  }

  /** Schedules a timer `delayMs` from now on the namespace clock; returns its id. */
  schedule(ns: string, delayMs: number, kind: string, payload: Record<string, unknown>): string {
    return this.scheduleAt(ns, this.now(ns) + Math.max(0, delayMs), kind, payload)
  }

  scheduleAt(ns: string, due: number, kind: string, payload: Record<string, unknown>): string {
    const timer: Timer = { id: `tmr_${this.#random.id(ns, 12)}`, due, kind, payload, seq: ++this.#seq }
    this.#store.col<Timer>(ns, TIMERS).put(timer.id, timer)
    this.#push(ns, timer)
    this.#arm(ns)
    return timer.id
  }

  /**
   * Cancels a timer in O(1): it leaves the store now, and its heap entry is skipped (and
   * dropped) when it comes up, instead of rebuilding the heap on every cancel.
   */
  cancel(ns: string, id: string): void {
    this.#store.col<Timer>(ns, TIMERS).delete(id)
  }

  /** Pending timers of a namespace, in due order. */
  pending(ns: string): Timer[] {
    const live = this.#store.col<Timer>(ns, TIMERS)
    return (this.#timers.get(ns)?.heap ?? []).filter((t) => live.has(t.id)).sort(compare)
  }

  /**
   * Moves the namespace clock forward to `target` (ms since epoch), firing every timer due up to
   * it in order, including timers those timers schedule within the window.
   */
  advanceTo(ns: string, target: number): void {
    const start = this.now(ns)
    this.#advance(ns, start, Math.max(target, start))
  }

  /**
   * The control API's move (docs/behaviour.md#control-api): by `seconds`, or to `to` (ISO 8601 or ms since
   * the epoch), one of them; refuses, moving nothing, a target that cannot be read, one behind the
   * namespace's time, and any past the year 9999.
   */
  advance(ns: string, step: { seconds?: number; to?: string | number }): void {
    const now = this.now(ns)
    if (step.seconds !== undefined) {
      if (now + step.seconds * 1000 > MAX_TIME) throw invalid({ seconds: MSG.CLOCK_SECONDS_PAST_9999 })
      // by exactly this much: the offset grows by the seconds given, whatever time the call takes
      this.advanceBy(ns, Math.round(step.seconds * 1000))
      return
    }
    const target = typeof step.to === 'number' ? step.to : Date.parse(step.to!)
    if (!Number.isFinite(target)) throw invalid({ to: MSG.CLOCK_TARGET_NOT_A_TIME })
    if (target < now) throw invalid({ to: MSG.clockTargetBefore(isoAt(now)) })
    if (target > MAX_TIME) throw invalid({ to: MSG.CLOCK_TARGET_PAST_9999 })
    this.advanceTo(ns, target)
  }

  /** Moves the clock forward by exactly `ms`. */
  advanceBy(ns: string, ms: number): void {
    const start = this.now(ns)
    this.#advance(ns, start, start + Math.max(0, ms))
  }

  #advance(ns: string, start: number, target: number): void {
    const t = this.#timers.get(ns)
    try {
      while (t && t.heap.length && t.heap[0].due <= target) {
        const timer = heapPop(t.heap)
        this.#fire(ns, timer)
      }
    } finally {
      this.#firingAt.delete(ns)
    }
    if (this.frozenAt(ns) !== null) {
      this.#frozen.set(ns, target)
      this.#persist(ns)
    } else {
      // exactly the distance moved: the time spent firing timers does not eat into it
      this.#setOffset(ns, this.offset(ns) + (target - start))
    }
    this.#arm(ns)
  }

  /** Back to wall-clock time (under a seed: frozen at the clock start) and no timers (namespace reset). */
  #reset(ns: string): void {
    const t = this.#timers.get(ns)
    if (t?.handle) clearTimeout(t.handle)
    this.#timers.delete(ns)
    this.#offsets.set(ns, 0)
    this.#frozen.set(ns, this.#frozenFrom)
  }

  stop(): void {
    this.#running = false
    for (const t of this.#timers.values()) {
      if (t.handle) clearTimeout(t.handle)
      t.handle = null
    }
  }

  #setOffset(ns: string, offset: number): void {
    if (offset === this.offset(ns)) return
    this.#offsets.set(ns, offset)
    this.#persist(ns)
  }

  #persist(ns: string): void {
    this.#store.col<{ offset_ms: number; frozen_at: number | null }>(ns, META).put(CLOCK_KEY, { offset_ms: this.offset(ns), frozen_at: this.frozenAt(ns) })
  }

  #fire(ns: string, timer: Timer): void {
    // a cancelled timer is no longer in the store
    if (!this.#store.col<Timer>(ns, TIMERS).delete(timer.id)) return
    const handler = this.#handlers.get(timer.kind)
    if (!handler) return
    this.#firingAt.set(ns, Math.max(timer.due, this.#firingAt.get(ns) ?? this.frozenAt(ns) ?? this.#wallNow() + this.offset(ns)))
    try {
      handler(ns, timer.payload, timer)
    } catch (e) {
      // a timer's failure must not stop the clock or the others
      console.error(`paysandbox: timer ${timer.kind} failed:`, e)
    }
  }

  #push(ns: string, timer: Timer): void {
    let t = this.#timers.get(ns)
    if (!t) {
      t = { heap: [], handle: null, handleDue: Infinity }
      this.#timers.set(ns, t)
    }
    heapPush(t.heap, timer)
  }

  /** Keeps one real setTimeout per namespace, for its earliest timer. */
  #arm(ns: string): void {
    const t = this.#timers.get(ns)
    if (!t || !this.#running) return
    const live = this.#store.col<Timer>(ns, TIMERS)
    while (t.heap.length && !live.has(t.heap[0].id)) heapPop(t.heap)
    const next = t.heap[0]
    // a frozen clock fires its timers only when advanced (or when they are due already)
    if (!next || (this.frozenAt(ns) !== null && next.due > this.now(ns))) {
      if (t.handle) clearTimeout(t.handle)
      t.handle = null
      t.handleDue = Infinity
      return
    }
    if (t.handle && t.handleDue === next.due) return
    if (t.handle) clearTimeout(t.handle)
    const delay = Math.min(MAX_DELAY, Math.max(0, next.due - this.now(ns)))
    t.handleDue = next.due
    t.handle = setTimeout(() => {
      t.handle = null
      t.handleDue = Infinity
      this.#runDue(ns)
    }, delay)
    t.handle.unref()
  }

  #runDue(ns: string): void {
    const t = this.#timers.get(ns)
    if (!t) return
    const now = this.now(ns)
    try {
      while (t.heap.length && t.heap[0].due <= now) this.#fire(ns, heapPop(t.heap))
    } finally {
      this.#firingAt.delete(ns)
    }
    this.#arm(ns)
  }
}

function compare(a: Timer, b: Timer): number {
  return a.due - b.due || a.seq - b.seq
}

function heapPush(h: Timer[], x: Timer): void {
  h.push(x)
  let i = h.length - 1
  while (i > 0) {
    const p = (i - 1) >> 1
    if (compare(h[p], h[i]) <= 0) break
    ;[h[p], h[i]] = [h[i], h[p]]
    i = p
  }
}

function heapPop(h: Timer[]): Timer {
  const top = h[0]
  const last = h.pop()!
  if (h.length) {
    h[0] = last
    siftDown(h, 0)
  }
  return top
}

function siftDown(h: Timer[], i: number): void {
  for (;;) {
    const l = 2 * i + 1
    const r = l + 1
    let m = i
    if (l < h.length && compare(h[l], h[m]) < 0) m = l
    if (r < h.length && compare(h[r], h[m]) < 0) m = r
    if (m === i) return
    ;[h[m], h[i]] = [h[i], h[m]]
    i = m
  }
}

import type { Clocks } from '../clock.js'
import type { Faults } from '../faults.js'
import type { Frozen } from '../store/frozen.js'
import type { DeliveryAttempt, Events, EventRecord } from './events.js'
import { signWebhook } from './signature.js'
import { isoAt } from '../time.js'
import { badRequest, notFound } from '../errors.js'
import { MSG } from '../messages.js'

export const SIGNATURE_HEADER = 'x-korapay-signature'
const ATTEMPT = 'webhook.attempt'
/** how much of a receiver's answer is read: its status decides, the rest is not kept (docs/behaviour.md#webhook-delivery) */
export const ANSWER_READ_LIMIT = 64 * 1024

export interface DeliveryOptions {
  /** seconds between attempts: after the first failure wait schedule[0], and so on; then failed */
  retrySchedule: number[]
  /** a receiver must answer 2xx within this many ms: connecting, the headers and the body */
  timeoutMs: number
  /** HTTP attempts in flight at once, across namespaces */
  concurrency: number
  /** HTTP attempts of one namespace in flight at once (docs/behaviour.md#webhook-delivery) */
  namespaceConcurrency: number
  userAgent: string
  /**
   * under a seed (docs/behaviour.md#seed-and-clock-start): a namespace clock moves only once its attempts under way
   * have their answers (`beforeClockMoves`), so where a retry falls does not depend on how fast a
   * receiver answered
   */
  seeded: boolean
}

/**
 * Delivers recorded events to their target over real HTTP (docs/behaviour.md#webhooks).
 *
 * - Never on the request path: an event's first attempt is a clock timer due at once.
 * - Retries follow the schedule on the namespace clock, each due counted from the previous
 *   attempt's due time, so advancing the clock past them delivers everything due at once.
 * - Order per payment: the events of one payment form a queue; only its head is attempted, and
 *   the next one starts once the head is delivered or has failed for good.
 * - Attempts are timers and events are records in the store, so with `--data` a restart resumes
 *   the pending ones.
 */
export class WebhookDelivery {
  readonly #queues = new Map<string, string[]>()
  readonly #inFlight = new Set<AbortController>()
  /** attempts waiting for a slot, by namespace; the order of the keys is the round's order */
  readonly #waiting = new Map<string, (() => void)[]>()
  readonly #activeByNs = new Map<string, number>()
  /** under a seed, each namespace's attempts under way (taken or waiting for a slot), until their answer is recorded */
  readonly #underway = new Map<string, Set<Promise<void>>>()
  #active = 0
  #stopped = false

  /**
   * per namespace, the events whose next successful delivery is followed by a duplicate (a webhook
   * fault): state of the namespace, dropped with its events, since under `--seed` a reset or an
   * undo draws the same ids again
   */
  readonly #duplicates = new Map<string, Set<string>>()

  constructor(
    readonly events: Events,
    readonly clocks: Clocks,
    readonly faults: Faults,
    readonly options: DeliveryOptions,
  ) {
    // a reset leaves no event to deliver; a failed write may undo the event a queue waits on
    // a snapshot's pending events are queued again, as a start queues those of the file
    events.store.registerState({ reset: (ns) => this.#forget(ns), restored: (ns) => this.#restored(ns), replaced: (ns) => this.#resume(ns) })
    clocks.on(ATTEMPT, (ns, payload: { id: string; n: number }, timer) => this.#fire(ns, payload.id, payload.n, timer.due))
    events.onRecord((ns, rec) => {
      if (rec.status !== 'pending') return
      const fault = this.faults.takeWebhook(ns, rec.event)
      if (fault?.kind === 'webhook_duplicate') this.#markDuplicate(ns, rec.id)
      if (fault?.kind === 'webhook_delay') {
        // late but still in order: the payment's queue waits for it
        const isHead = this.#enqueue(ns, rec, false)
        if (isHead) this.#scheduleAttempt(ns, rec, this.clocks.now(ns) + (fault.delay_ms ?? 1000))
        return
      }
      if (fault?.kind === 'webhook_out_of_order') {
        // outside the payment's queue and late: later events of the payment overtake it
        this.#scheduleAttempt(ns, rec, this.clocks.now(ns) + (fault.delay_ms ?? 1000))
        return
      }
      this.#enqueue(ns, rec, true)
    })
  }

  /** Rebuilds the per-payment queues from the store after a restart and resumes them. */
  resume(): void {
    for (const ns of this.events.store.namespaces()) this.#resume(ns)
  }

  /** Rebuilds a namespace's queues from its records: each head keeps its attempt's timer, or is attempted now. */
  #resume(ns: string): void {
    const scheduled = new Set<string>()
    for (const t of this.clocks.pending(ns)) if (t.kind === ATTEMPT) scheduled.add((t.payload as { id: string }).id)
    for (const rec of this.events.list(ns)) {
      if (rec.status !== 'pending') continue
      const isHead = this.#enqueue(ns, rec, false)
      // an attempt that was in flight when the process stopped (or the snapshot was taken) has no timer: start it again
      if (isHead && !scheduled.has(rec.id)) this.#scheduleAttempt(ns, rec, this.clocks.now(ns))
    }
  }

  /** Forgets a namespace's queues and the duplicates its events were marked for. */
  #forget(ns: string): void {
    for (const key of [...this.#queues.keys()]) if (key.startsWith(`${ns}\u0000`)) this.#queues.delete(key)
    this.#duplicates.delete(ns)
  }

  #markDuplicate(ns: string, id: string): void {
    const marked = this.#duplicates.get(ns)
    if (marked) marked.add(id)
    else this.#duplicates.set(ns, new Set([id]))
  }

  /** Whether the event was marked for a duplicate; the mark is used up. */
  #takeDuplicate(ns: string, id: string): boolean {
    const marked = this.#duplicates.get(ns)
    if (!marked?.delete(id)) return false
    if (!marked.size) this.#duplicates.delete(ns)
    return true
  }

  /**
   * Delivers a stored event again now, outside its retry schedule (POST
   * /_sandbox/events/:id/resend), to its own target or else the namespace's webhook URL; resolves
   * with the attempt made, whether the receiver answered 2xx, and the event as stored after it
   * (unchanged, and not stored again, if its namespace was reset while the request was out).
   */
  async resendNow(ns: string, id: string): Promise<{ delivered: boolean; attempt: DeliveryAttempt; event: Frozen<EventRecord> }> {
    const rec = this.events.get(ns, id)
    if (!rec) throw notFound(MSG.EVENT_NOT_FOUND)
    const target = this.events.targetOf(ns, rec.target)
    if (!target) throw badRequest(MSG.NO_WEBHOOK_URL)
    const { attempt, ok } = await this.#post(ns, rec, target)
    // the event as stored now gets the attempt: others may have changed it while the post was out
    const cur = this.events.update(ns, rec.id, (e) => {
      e.attempts.push(attempt)
      if (ok && e.status !== 'pending') e.status = 'delivered'
    })
    return { delivered: ok, attempt, event: cur ?? rec }
  }

  stop(): void {
    this.#stopped = true
    for (const c of this.#inFlight) c.abort()
  }

  #key(ns: string, rec: Frozen<EventRecord>): string {
    const d = rec.data
    return `${ns}\u0000${String(d.payment_reference ?? d.reference ?? rec.id)}`
  }

  /** Adds an event to its payment's queue; returns whether it is the head. */
  #enqueue(ns: string, rec: Frozen<EventRecord>, schedule: boolean): boolean {
    const key = this.#key(ns, rec)
    let q = this.#queues.get(key)
    if (!q) this.#queues.set(key, (q = []))
    q.push(rec.id)
    const head = q.length === 1
    if (head && schedule) this.#scheduleAttempt(ns, rec, this.clocks.now(ns))
    return head
  }

  /** The event, when it is stored, pending and has somewhere to go. */
  #deliverable(ns: string, id: string): Frozen<EventRecord> | undefined {
    const rec = this.events.get(ns, id)
    return rec && rec.status === 'pending' && rec.target ? rec : undefined
  }

  #scheduleAttempt(ns: string, rec: Frozen<EventRecord>, due: number): void {
    this.clocks.scheduleAt(ns, due, ATTEMPT, { id: rec.id, n: rec.attempts.length + 1 })
  }

  #fire(ns: string, id: string, n: number, due: number): void {
    if (!this.#deliverable(ns, id)) return
    const at = this.clocks.iso(ns)
    const attempt = this.#slot(ns, async () => {
      // nothing is sent of a change that is not durable (docs/behaviour.md#persistence): with a data file,
      // the write that holds the event goes first, and a write that fails undid the event
      if (this.events.store.dirty) await this.events.store.sync().catch(() => undefined)
      const rec = this.#deliverable(ns, id)
      if (this.#stopped || !rec) return
      const { attempt, ok } = await this.#post(ns, rec, rec.target!, at, isoAt(due))
      const attempts = [attempt]
      if (ok && this.events.get(ns, id) && this.#takeDuplicate(ns, id)) {
        // a webhook fault: the receiver gets the same event twice, as a live service may send it
        attempts.push((await this.#post(ns, rec, rec.target!)).attempt)
      }
      const ended = ok ? 'delivered' : n > this.options.retrySchedule.length ? 'failed' : null
      // the event as stored now gets the attempts; none is left when the namespace was reset
      // while the request was out
      const cur = this.events.update(ns, id, (e) => {
        e.attempts.push(...attempts)
        if (ended) e.status = ended
      })
      if (!cur) return
      if (ended) this.#next(ns, cur)
      else if (!this.#stopped) this.#scheduleAttempt(ns, cur, due + this.options.retrySchedule[n - 1] * 1000)
    })
    if (this.options.seeded) this.#track(ns, attempt)
  }

  /**
   * What the namespace clock waits for before it moves (the control API's advance): under a seed,
   * every attempt of the namespace under way now has its answer recorded and its retry scheduled
   * (`DeliveryOptions.seeded`); otherwise nothing.
   */
  async beforeClockMoves(ns: string): Promise<void> {
    const underway = this.#underway.get(ns)
    if (underway) await Promise.all(underway)
  }

  #track(ns: string, attempt: Promise<void>): void {
    let underway = this.#underway.get(ns)
    if (!underway) this.#underway.set(ns, (underway = new Set()))
    underway.add(attempt)
    void attempt.finally(() => {
      underway.delete(attempt)
      if (underway.size === 0 && this.#underway.get(ns) === underway) this.#underway.delete(ns)
    })
  }

  /** The head is done: start the next event of the same payment. */
  #next(ns: string, rec: Frozen<EventRecord>): void {
    const key = this.#key(ns, rec)
    const q = this.#queues.get(key)
    if (!q) return
    const i = q.indexOf(rec.id)
    if (i >= 0) q.splice(i, 1)
    this.#startHead(ns, key, q)
  }

  /**
   * A failed write put the namespace's events back as the file holds them (docs/behaviour.md#persistence): a queue whose head is gone with it starts its next event, which would otherwise wait on
   * an attempt undone too (or one under way that finds no record when it ends). A head still
   * stored keeps its attempt: under way, or a timer the clock took back from the file. A duplicate
   * marked for an event undone goes with it.
   */
  #restored(ns: string): void {
    if (!this.events.store.hasNamespace(ns)) {
      this.#forget(ns)
      return
    }
    const marked = this.#duplicates.get(ns)
    if (marked) for (const id of [...marked]) if (!this.events.get(ns, id)) this.#takeDuplicate(ns, id)
    for (const [key, q] of [...this.#queues]) {
      if (!key.startsWith(`${ns}\u0000`) || this.events.get(ns, q[0])) continue
      q.shift()
      this.#startHead(ns, key, q)
    }
  }

  /** Attempts the first event of a payment's queue still pending (those before it are dropped); an empty queue goes. */
  #startHead(ns: string, key: string, q: string[]): void {
    while (q.length) {
      const next = this.events.get(ns, q[0])
      if (next && next.status === 'pending') {
        if (!this.#stopped) this.#scheduleAttempt(ns, next, this.clocks.now(ns))
        return
      }
      q.shift()
    }
    this.#queues.delete(key)
  }

  /**
   * Runs an attempt in a slot. Slots are shared fairly: a namespace holds at most
   * `namespaceConcurrency` of the `concurrency`, and a freed slot goes to the namespaces waiting in
   * turn, so a receiver that hangs in one namespace cannot hold the slots another one needs.
   */
  async #slot(ns: string, task: () => Promise<void>): Promise<void> {
    if (this.#active < this.options.concurrency && this.#running(ns) < this.options.namespaceConcurrency) this.#take(ns)
    else {
      // the slot is taken for it by the one that frees it (#dispatch)
      await new Promise<void>((resolve) => {
        const q = this.#waiting.get(ns)
        if (q) q.push(resolve)
        else this.#waiting.set(ns, [resolve])
      })
    }
    try {
      await task()
    } catch (e) {
      console.error('paysandbox: webhook delivery failed unexpectedly:', e)
    } finally {
      this.#active--
      const left = this.#running(ns) - 1
      if (left) this.#activeByNs.set(ns, left)
      else this.#activeByNs.delete(ns)
      this.#dispatch()
    }
  }

  #running(ns: string): number {
    return this.#activeByNs.get(ns) ?? 0
  }

  #take(ns: string): void {
    this.#active++
    this.#activeByNs.set(ns, this.#running(ns) + 1)
  }

  /** Hands free slots to the waiting namespaces in turn; one served goes to the back of the round. */
  #dispatch(): void {
    let served = true
    while (served && this.#active < this.options.concurrency && this.#waiting.size) {
      served = false
      for (const ns of [...this.#waiting.keys()]) {
        if (this.#active >= this.options.concurrency) return
        if (this.#running(ns) >= this.options.namespaceConcurrency) continue
        const q = this.#waiting.get(ns)!
        const resolve = q.shift()!
        this.#waiting.delete(ns)
        if (q.length) this.#waiting.set(ns, q)
        this.#take(ns)
        resolve()
        served = true
      }
    }
  }

  #post(ns: string, rec: Frozen<EventRecord>, target: string, at = this.clocks.iso(ns), due = at): Promise<{ attempt: DeliveryAttempt; ok: boolean }> {
    return this.send(ns, target, rec, { at, due })
  }

  /**
   * One delivery over HTTP, the way every attempt is made (docs/behaviour.md#webhook-signature, docs/behaviour.md#webhook-delivery): `{event,
   * data}` posted to `target`, signed with the namespace's key, cut at the timeout, at most
   * ANSWER_READ_LIMIT of the answer read. `signature` sends that value instead (`null`: no
   * signature header) and `timeoutMs` another deadline: the webhook probe's deliveries (docs/behaviour.md#webhook-probe).
   * Nothing is recorded: the caller keeps the attempt.
   */
  async send(
    ns: string,
    target: string,
    { event, data }: { event: string; data: Frozen<EventRecord['data']> },
    { at = this.clocks.iso(ns), due = at, signature = signWebhook(data, ns), timeoutMs = this.options.timeoutMs }: { at?: string; due?: string; signature?: string | null; timeoutMs?: number } = {},
  ): Promise<{ attempt: DeliveryAttempt; ok: boolean }> {
    const body = JSON.stringify({ event, data })
    const controller = new AbortController()
    this.#inFlight.add(controller)
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs)
    // under a seed, 0 (docs/behaviour.md#seed-and-clock-start)
    const elapsed = this.events.random.stopwatch()
    const ms = () => Math.round(elapsed())
    try {
      const res = await fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': this.options.userAgent,
          ...(signature !== null && { [SIGNATURE_HEADER]: signature }),
        },
        body,
        redirect: 'manual',
        signal: controller.signal,
      })
      // read the answer within the deadline, at most ANSWER_READ_LIMIT of it: a receiver that
      // streams without end is cut there (its status is what counts), never buffered whole
      await readAtMost(res, ANSWER_READ_LIMIT)
      const ok = res.status >= 200 && res.status < 300
      return { attempt: { at, due, status_code: res.status, ms: ms() }, ok }
    } catch (e) {
      return { attempt: { at, due, error: describeError(e, controller.signal, timeoutMs), ms: ms() }, ok: false }
    } finally {
      clearTimeout(timer)
      this.#inFlight.delete(controller)
    }
  }
}

/** Reads a body to its end or past `limit` bytes (then the rest is cancelled), keeping none of it. */
async function readAtMost(res: Response, limit: number): Promise<void> {
  if (!res.body) return
  const reader = res.body.getReader()
  let read = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    read += value.byteLength
    if (read > limit) {
      await reader.cancel().catch(() => undefined)
      return
    }
  }
}

const TIMED_OUT = 'timeout: '

/** Whether an attempt had no answer within its deadline (docs/behaviour.md#webhook-delivery). */
export function timedOut(attempt: { error?: string }): boolean {
  return !!attempt.error?.startsWith(TIMED_OUT)
}

function describeError(e: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return (signal.reason as Error | undefined)?.message === 'timeout' ? `${TIMED_OUT}no answer within ${timeoutMs} ms` : 'aborted'
  const err = e as Error & { cause?: { code?: string; message?: string } }
  const code = err.cause?.code
  if (code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset'
  if (code === 'ENOTFOUND') return 'host not found'
  return code ? `${code}: ${err.cause?.message ?? err.message}` : err.message
}

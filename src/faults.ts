import type { Random } from './random.js'
import { MSG } from './messages.js'

/**
 * Fault injection (docs/behaviour.md#control-api): for the next `times` matching calls (or each with a seeded
 * probability), make the API slow, fail, drop the connection, or store the change and still
 * answer an error; or make webhook deliveries duplicate, late or out of order. Faults live in
 * memory per namespace and are cleared by DELETE /_sandbox/faults or a reset.
 */

export const SERVER_ERRORS = [MSG.SERVICE_UNAVAILABLE, MSG.CONTACT_SUPPORT, MSG.TRY_AGAIN, MSG.INTERNAL] as const
export const API_KINDS = ['latency', 'error', 'drop', 'commit_then_error'] as const
export const WEBHOOK_KINDS = ['webhook_duplicate', 'webhook_delay', 'webhook_out_of_order'] as const

/** What arms a fault (the control API's `POST /_sandbox/faults` body, checked by faultSchema). */
export interface FaultInput {
  kind: (typeof API_KINDS)[number] | (typeof WEBHOOK_KINDS)[number]
  method?: string
  path?: string
  event?: string
  times?: number
  probability?: number
  seed?: number
  status?: number
  message?: (typeof SERVER_ERRORS)[number]
  delay_ms?: number
}

export interface Fault extends FaultInput {
  id: string
  /** how many more calls it affects; null = unbounded (probability without times) */
  remaining: number | null
  hits: number
  created_at: string
}

/** mulberry32: a small seeded PRNG, so probabilistic faults replay the same way. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * A path glob with `*` (any run of characters, `/` included) and nothing else, matched without
 * backtracking: the pieces between the stars are looked for once each, left to right, each at its
 * first place after the one before (the leftmost place leaves the most room to the ones after it,
 * so no other place needs trying). The cost is one pass over the path per piece, whatever the
 * number of stars; a regular expression of `.*`s can take exponential time (docs/behaviour.md#fault-injection).
 */
export class PathGlob {
  readonly #pieces: string[]

  constructor(readonly glob: string) {
    this.#pieces = glob.split('*')
  }

  test(path: string): boolean {
    const pieces = this.#pieces
    const first = pieces[0]
    if (pieces.length === 1) return path === first
    const last = pieces[pieces.length - 1]
    if (path.length < first.length + last.length || !path.startsWith(first) || !path.endsWith(last)) return false
    let at = first.length
    const end = path.length - last.length
    for (let i = 1; i < pieces.length - 1; i++) {
      const piece = pieces[i]
      if (!piece) continue
      const found = path.indexOf(piece, at)
      if (found < 0 || found + piece.length > end) return false
      at = found + piece.length
    }
    return true
  }
}

export class Faults {
  readonly #byNs = new Map<string, Fault[]>()
  readonly #rng = new Map<string, () => number>()
  /** each fault's compiled path and random source, by fault id: dropped with the fault */
  readonly #patterns = new Map<string, PathGlob>()

  constructor(private readonly random: Random) {}

  add(ns: string, input: FaultInput, now: string): Fault {
    const fault: Fault = {
      ...input,
      method: input.method?.toUpperCase(),
      id: `flt_${this.random.id(ns, 10)}`,
      remaining: input.times ?? (input.probability !== undefined ? null : 1),
      hits: 0,
      created_at: now,
    }
    const list = this.#byNs.get(ns) ?? []
    list.push(fault)
    this.#byNs.set(ns, list)
    if (input.probability !== undefined) this.#rng.set(fault.id, prng(input.seed ?? 1))
    if (input.path) this.#patterns.set(fault.id, new PathGlob(input.path))
    return fault
  }

  list(ns: string): Fault[] {
    return this.#byNs.get(ns) ?? []
  }

  remove(ns: string, id?: string): number {
    const list = this.#byNs.get(ns) ?? []
    const keep = id ? list.filter((f) => f.id !== id) : []
    const kept = new Set(keep)
    for (const f of list) if (!kept.has(f)) this.#forget(f)
    if (keep.length) this.#byNs.set(ns, keep)
    else this.#byNs.delete(ns)
    return list.length - keep.length
  }

  clear(ns: string): void {
    for (const f of this.#byNs.get(ns) ?? []) this.#forget(f)
    this.#byNs.delete(ns)
  }

  #forget(f: Fault): void {
    this.#patterns.delete(f.id)
    this.#rng.delete(f.id)
  }

  /** The fault that takes this API call, consuming one of its `times`. */
  takeApi(ns: string, method: string, path: string): Fault | undefined {
    return this.#take(ns, (f) => (API_KINDS as readonly string[]).includes(f.kind) && (!f.method || f.method === '*' || f.method === method) && !!this.#patterns.get(f.id)?.test(path))
  }

  /** The webhook fault that takes this event's first delivery. */
  takeWebhook(ns: string, event: string): Fault | undefined {
    return this.#take(ns, (f) => (WEBHOOK_KINDS as readonly string[]).includes(f.kind) && (!f.event || f.event === event))
  }

  #take(ns: string, match: (f: Fault) => boolean): Fault | undefined {
    const list = this.#byNs.get(ns)
    if (!list?.length) return undefined
    for (const f of list) {
      if (f.remaining === 0 || !match(f)) continue
      const rng = this.#rng.get(f.id)
      if (rng && rng() >= f.probability!) continue
      f.hits++
      if (f.remaining !== null) f.remaining--
      return f
    }
    return undefined
  }
}

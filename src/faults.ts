import { nanoid } from 'nanoid'
import { MSG } from './errors.js'

/**
 * Fault injection (docs/behaviour.md 9): for the next `times` matching calls (or each with a seeded
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

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`)
}

export class Faults {
  readonly #byNs = new Map<string, Fault[]>()
  readonly #rng = new Map<string, () => number>()
  readonly #patterns = new Map<string, RegExp>()

  add(ns: string, input: FaultInput, now: string): Fault {
    const fault: Fault = {
      ...input,
      method: input.method?.toUpperCase(),
      id: `flt_${nanoid(10)}`,
      remaining: input.times ?? (input.probability !== undefined ? null : 1),
      hits: 0,
      created_at: now,
    }
    const list = this.#byNs.get(ns) ?? []
    list.push(fault)
    this.#byNs.set(ns, list)
    if (input.probability !== undefined) this.#rng.set(fault.id, prng(input.seed ?? 1))
    if (input.path) this.#patterns.set(fault.id, globToRegExp(input.path))
    return fault
  }

  list(ns: string): Fault[] {
    return this.#byNs.get(ns) ?? []
  }

  remove(ns: string, id?: string): number {
    const list = this.#byNs.get(ns) ?? []
    const keep = id ? list.filter((f) => f.id !== id) : []
    this.#byNs.set(ns, keep)
    return list.length - keep.length
  }

  clear(ns: string): void {
    this.#byNs.delete(ns)
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

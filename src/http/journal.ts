import { maskSecretsInJson } from '../store/secrets.js'
import { maskStart } from './mask.js'

export interface JournalEntry {
  id: number
  at: string
  method: string
  path: string
  query: string
  status: number
  ms: number
  /** the request body, secrets masked (card charges: the decrypted payload, masked) */
  request: unknown
  /** the JSON answered */
  response: unknown
}

/** printable ASCII but `"` and `\\`: such a string is its own JSON text between quotes */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/

/** A string as JSON; most methods, paths and queries need no escaping (JSON.stringify is dearer). */
function jsonString(s: string): string {
  return PLAIN.test(s) ? `"${s}"` : JSON.stringify(s)
}

/** The first slab of a namespace's journal; each next one is twice the last, up to SLAB_MAX. */
const SLAB_MIN = 4 << 10
const SLAB_MAX = 64 << 10
/** Emptied full-size slabs a namespace keeps to write again; the others go to the garbage collector. */
const SPARE_MAX = 4

/** What the journal may hold (docs/behaviour.md#limits): bytes of JSON text, per body, per namespace, in all. */
export interface JournalLimits {
  /** a request or response body longer than this is kept cut to it (`"[cut: N bytes] ..."`) */
  bodyBytes: number
  /** a namespace's entries together; past it its oldest go */
  nsBytes: number
  /** every namespace's entries together; past it the oldest of the namespace holding most go */
  totalBytes: number
}

const UNBOUNDED: JournalLimits = { bodyBytes: Infinity, nsBytes: Infinity, totalBytes: Infinity }

/**
 * A body's JSON text, or, when it is over `max` bytes of UTF-8, a JSON string of at most `max`
 * bytes: `[cut: N bytes] ` (N the whole text's size: `sent`'s when given, the body as it was sent)
 * and the start of the text; `start`: `json` is only the start of the text (`maskStart`), cut
 * whatever its size. The text is masked already, so its start holds no secret either.
 */
export function cutBody(json: string, max: number, sent?: () => number, start = false): string {
  if (!start && json.length * 3 <= max) return json
  const bytes = Buffer.byteLength(json)
  if (!start && bytes <= max) return json
  const mark = `[cut: ${sent ? sent() : bytes} bytes] `
  // escaping may double a character of the text: start from half the room, shrink until it fits
  let n = Math.max(0, Math.floor((max - mark.length - 2) / 2))
  for (let tries = 0; tries < 4; tries++) {
    const out = JSON.stringify(mark + json.slice(0, n))
    const size = Buffer.byteLength(out)
    if (size <= max) return out
    n = Math.floor((n * (max - mark.length - 2)) / size) - 1
    if (n <= 0) break
  }
  return JSON.stringify(mark.trimEnd())
}

/** Whether a journaled request or response was cut by `cutBody`. */
export function wasCut(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('[cut: ')
}

/**
 * One namespace's entries: a ring of up to `size` slots, `count` of them live from `head` (the
 * oldest). Each entry is the UTF-8 of its JSON text, `slab[start..end)`, `bytes` in all; entries
 * are appended to the current slab, a new one taken when it is full. `live` counts the slots that point into each slab: a full-size
 * slab whose last entry is evicted is kept in `spare` and written again, so a namespace under
 * load cycles through the same few slabs instead of making a new buffer every ~60 calls (each a
 * new ArrayBuffer for the garbage collector to track, sweep and free).
 */
interface Ring {
  slabs: Buffer[]
  starts: number[]
  ends: number[]
  head: number
  count: number
  bytes: number
  seq: number
  slab: Buffer
  used: number
  live: Map<Buffer, number>
  spare: Buffer[]
}

/**
 * The request journal: a bounded ring per namespace, in memory. Bodies are masked before they
 * are kept, so no full PAN, CVV, PIN or OTP is ever held here (an answer by the names of its
 * secret fields: the others are made of records the store masked). An entry is kept as the UTF-8 of
 * its JSON text in buffers outside the JavaScript heap. Kept as strings, the journal was what the
 * garbage collector copied most under load (about half of what survived each young collection
 * under card charges, 60 % of what it promoted), work repeated on every collection for entries
 * nobody reads until the journal is listed.
 */
export class Journal {
  readonly #rings = new Map<string, Ring>()
  readonly limits: JournalLimits
  /** bytes of every namespace's entries */
  #total = 0

  constructor(
    readonly size: number,
    limits: Partial<JournalLimits> = {},
  ) {
    this.limits = { ...UNBOUNDED, ...limits }
  }

  /** Bytes of the entries kept, in all. */
  get bytes(): number {
    return this.#total
  }

  /**
   * Keeps an entry. Its request body is masked here unless `masked` says it already is; the
   * response is the JSON text that was sent (null when the answer was not JSON).
   */
  add(ns: string, head: Omit<JournalEntry, 'id' | 'request' | 'response'>, request: unknown, masked: boolean, responseJson: string | undefined, sent?: string): void {
    let ring = this.#rings.get(ns)
    if (!ring) this.#rings.set(ns, (ring = { slabs: [], starts: [], ends: [], head: 0, count: 0, bytes: 0, seq: 0, slab: Buffer.allocUnsafeSlow(SLAB_MIN), used: 0, live: new Map(), spare: [] }))
    const { bodyBytes } = this.limits
    let requestJson = 'null'
    if (request !== null && request !== undefined) {
      try {
        // only what is kept is masked: a body past the limit is its masked start, cut, named with the size of the whole as sent
        const start = masked ? { masked: request, cut: false } : maskStart(request, bodyBytes)
        requestJson = JSON.stringify(start.masked ?? null)
        const size = sent !== undefined ? () => Buffer.byteLength(sent) : start.cut ? () => Buffer.byteLength(JSON.stringify(request)) : undefined
        requestJson = cutBody(requestJson, bodyBytes, size, start.cut)
      } catch {
        // deeper than JSON.stringify goes (the masker itself stops at 32 levels)
        requestJson = '"[not journaled: too deep]"'
      }
    }
    // an answer may echo a secret the caller sent (a voucher's PIN): masked by name, as the store masks it (src/store/secrets.ts)
    // (of a longer one, only the start that is kept)
    let responseText = 'null'
    if (responseJson !== undefined) {
      const whole = responseJson.length * 3 <= bodyBytes || Buffer.byteLength(responseJson) <= bodyBytes
      responseText = whole ? maskSecretsInJson(responseJson) : cutBody(maskSecretsInJson(responseJson.slice(0, bodyBytes)), bodyBytes, () => Buffer.byteLength(responseJson), true)
    }
    const { at, method, path, query, status, ms } = head
    // written out: at (ISO), status and ms (numbers) need no escaping
    const text = `{"id":${++ring.seq},"at":"${at}","method":${jsonString(method)},"path":${jsonString(path)},"query":${jsonString(query)},"status":${status},"ms":${ms},"request":${requestJson},"response":${responseText}}`
    // a UTF-16 unit is at most 3 bytes of UTF-8: the exact size is only needed near a slab's end
    if (text.length * 3 > ring.slab.length - ring.used) {
      const bytes = Buffer.byteLength(text)
      if (bytes > ring.slab.length - ring.used) {
        const size = Math.max(bytes, Math.min(SLAB_MAX, ring.slab.length * 2))
        ring.slab = size === SLAB_MAX && ring.spare.length ? ring.spare.pop()! : Buffer.allocUnsafeSlow(size)
        ring.used = 0
      }
    }
    const { slab } = ring
    const start = ring.used
    const end = start + slab.write(text, start)
    ring.used = end
    ring.live.set(slab, (ring.live.get(slab) ?? 0) + 1)
    if (ring.count === this.size) this.#evict(ring)
    const i = (ring.head + ring.count) % this.size
    if (i === ring.slabs.length) {
      ring.slabs.push(slab)
      ring.starts.push(start)
      ring.ends.push(end)
    } else {
      ring.slabs[i] = slab
      ring.starts[i] = start
      ring.ends[i] = end
    }
    ring.count++
    ring.bytes += end - start
    this.#total += end - start
    // the byte budgets: the newest entry always stays
    while (ring.bytes > this.limits.nsBytes && ring.count > 1) this.#evict(ring)
    if (this.#total > this.limits.totalBytes) this.#trim()
  }

  /** Drops a namespace's oldest entry. */
  #evict(ring: Ring): void {
    const i = ring.head
    const bytes = ring.ends[i] - ring.starts[i]
    ring.bytes -= bytes
    this.#total -= bytes
    this.#release(ring, ring.slabs[i])
    ring.head = i + 1 === this.size ? 0 : i + 1
    ring.count--
  }

  /**
   * Over the total budget: the oldest entries of the namespace holding the most bytes go, down to
   * 15/16 of the budget, so that the namespaces are looked through once per so many bytes.
   */
  #trim(): void {
    const goal = this.limits.totalBytes - this.limits.totalBytes / 16
    while (this.#total > goal) {
      let largest: Ring | undefined
      for (const ring of this.#rings.values()) if (ring.count > 1 && (!largest || ring.bytes > largest.bytes)) largest = ring
      if (!largest) return
      const floor = Math.max(0, largest.bytes - (this.#total - goal))
      while (largest.bytes > floor && largest.count > 1) this.#evict(largest)
    }
  }

  /** An entry of `slab` was evicted: once none is left, a full-size slab is kept to be written again. */
  #release(ring: Ring, slab: Buffer): void {
    const n = ring.live.get(slab)! - 1
    if (n > 0) {
      ring.live.set(slab, n)
      return
    }
    ring.live.delete(slab)
    if (slab !== ring.slab && slab.length === SLAB_MAX && ring.spare.length < SPARE_MAX) ring.spare.push(slab)
  }

  /** Entries oldest first, filtered; `limit` keeps the newest. */
  list(ns: string, filter: { method?: string; path?: string; limit?: number } = {}): JournalEntry[] {
    const ring = this.#rings.get(ns)
    if (!ring) return []
    const ordered: JournalEntry[] = []
    for (let k = 0; k < ring.count; k++) {
      const i = (ring.head + k) % this.size
      ordered.push(JSON.parse(ring.slabs[i].toString('utf8', ring.starts[i], ring.ends[i])) as JournalEntry)
    }
    let out = ordered.filter(
      (e) =>
        (!filter.method || e.method === filter.method.toUpperCase()) &&
        (!filter.path || e.path === filter.path || e.path.startsWith(filter.path.endsWith('/') ? filter.path : `${filter.path}/`) || e.path.includes(filter.path)),
    )
    if (filter.limit !== undefined) out = out.slice(-filter.limit)
    return out
  }

  clear(ns: string): void {
    const ring = this.#rings.get(ns)
    if (!ring) return
    this.#total -= ring.bytes
    this.#rings.delete(ns)
  }
}

import { maskSecrets } from './mask.js'

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

/**
 * The request journal: a bounded ring per namespace, in memory. Bodies are masked before they
 * are kept, so no full PAN, CVV, PIN or OTP is ever held here. Each entry is kept as its JSON
 * text: one string per request instead of a tree of small objects that outlives the young
 * generation (the journal was most of what the garbage collector copied under load).
 */
export class Journal {
  readonly #rings = new Map<string, { entries: string[]; next: number; seq: number }>()

  constructor(readonly size: number) {}

  /**
   * Keeps an entry. Its request body is masked here unless `masked` says it already is; the
   * response is the JSON text that was sent (null when the answer was not JSON).
   */
  add(ns: string, head: Omit<JournalEntry, 'id' | 'request' | 'response'>, request: unknown, masked: boolean, responseJson: string | undefined): void {
    let ring = this.#rings.get(ns)
    if (!ring) this.#rings.set(ns, (ring = { entries: [], next: 0, seq: 0 }))
    let requestJson: string
    try {
      requestJson = JSON.stringify((masked ? request : maskSecrets(request)) ?? null)
    } catch {
      // deeper than JSON.stringify goes (the masker itself stops at 32 levels)
      requestJson = '"[not journaled: too deep]"'
    }
    const { at, method, path, query, status, ms } = head
    // written out: at (ISO), method (a token), status and ms (numbers) need no escaping
    const text = `{"id":${++ring.seq},"at":"${at}","method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"query":${JSON.stringify(query)},"status":${status},"ms":${ms},"request":${requestJson},"response":${responseJson ?? 'null'}}`
    // one flat string: the pieces of the template would otherwise all outlive the young generation
    text.charCodeAt(0)
    if (ring.entries.length < this.size) ring.entries.push(text)
    else {
      ring.entries[ring.next] = text
      ring.next = (ring.next + 1) % this.size
    }
  }

  /** Entries oldest first, filtered; `limit` keeps the newest. */
  list(ns: string, filter: { method?: string; path?: string; limit?: number } = {}): JournalEntry[] {
    const ring = this.#rings.get(ns)
    if (!ring) return []
    const ordered = [...ring.entries.slice(ring.next), ...ring.entries.slice(0, ring.next)].map((t) => JSON.parse(t) as JournalEntry)
    let out = ordered.filter(
      (e) =>
        (!filter.method || e.method === filter.method.toUpperCase()) &&
        (!filter.path || e.path === filter.path || e.path.startsWith(filter.path.endsWith('/') ? filter.path : `${filter.path}/`) || e.path.includes(filter.path)),
    )
    if (filter.limit !== undefined) out = out.slice(-filter.limit)
    return out
  }

  clear(ns: string): void {
    this.#rings.delete(ns)
  }
}

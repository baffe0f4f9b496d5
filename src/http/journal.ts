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
 * are kept, so no full PAN, CVV, PIN or OTP is ever held here.
 */
export class Journal {
  readonly #rings = new Map<string, { entries: JournalEntry[]; next: number; seq: number }>()

  constructor(readonly size: number) {}

  /** Keeps an entry; its request body is masked here unless `masked` says it already is. */
  add(ns: string, entry: Omit<JournalEntry, 'id'>, masked = false): void {
    let ring = this.#rings.get(ns)
    if (!ring) this.#rings.set(ns, (ring = { entries: [], next: 0, seq: 0 }))
    const full = entry as JournalEntry
    full.id = ++ring.seq
    if (!masked) full.request = maskSecrets(entry.request)
    if (ring.entries.length < this.size) ring.entries.push(full)
    else {
      ring.entries[ring.next] = full
      ring.next = (ring.next + 1) % this.size
    }
  }

  /** Entries oldest first, filtered; `limit` keeps the newest. */
  list(ns: string, filter: { method?: string; path?: string; limit?: number } = {}): JournalEntry[] {
    const ring = this.#rings.get(ns)
    if (!ring) return []
    const ordered = [...ring.entries.slice(ring.next), ...ring.entries.slice(0, ring.next)]
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

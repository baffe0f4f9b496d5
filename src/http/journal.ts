import { packTexts, unpackTexts } from '../store/pack.js'
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

/** One namespace's entries: compressed blocks, oldest first, then the newest as texts. */
interface Ring {
  blocks: string[]
  blockCounts: number[]
  /** entries in blocks */
  packed: number
  texts: string[]
  seq: number
}

/**
 * The request journal: a bounded ring per namespace, in memory. Bodies are masked before they
 * are kept, so no full PAN, CVV, PIN or OTP is ever held here. Each entry is its JSON text, and
 * every 64 texts are compressed into one block (packTexts): an entry lives for the next
 * `size` requests, long enough to outlive the young generation, and the journal was most of what
 * the garbage collector copied and promoted under load; a block is a tenth of the texts' size.
 */
export class Journal {
  readonly #rings = new Map<string, Ring>()

  constructor(
    readonly size: number,
    readonly blockSize = 64,
  ) {}

  /**
   * Keeps an entry. Its request body is masked here unless `masked` says it already is; the
   * response is the JSON text that was sent (null when the answer was not JSON).
   */
  add(ns: string, head: Omit<JournalEntry, 'id' | 'request' | 'response'>, request: unknown, masked: boolean, responseJson: string | undefined): void {
    let ring = this.#rings.get(ns)
    if (!ring) this.#rings.set(ns, (ring = { blocks: [], blockCounts: [], packed: 0, texts: [], seq: 0 }))
    let requestJson: string
    try {
      requestJson = JSON.stringify((masked ? request : maskSecrets(request)) ?? null)
    } catch {
      // deeper than JSON.stringify goes (the masker itself stops at 32 levels)
      requestJson = '"[not journaled: too deep]"'
    }
    const { at, method, path, query, status, ms } = head
    // written out: at (ISO), method (a token), status and ms (numbers) need no escaping
    ring.texts.push(`{"id":${++ring.seq},"at":"${at}","method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"query":${JSON.stringify(query)},"status":${status},"ms":${ms},"request":${requestJson},"response":${responseJson ?? 'null'}}`)
    if (ring.texts.length >= this.blockSize) {
      ring.blocks.push(packTexts(ring.texts))
      ring.blockCounts.push(ring.texts.length)
      ring.packed += ring.texts.length
      ring.texts = []
    }
    // drop the oldest block once the others hold `size` entries; texts beyond `size` with no block
    while (ring.blocks.length > 0 && ring.packed - ring.blockCounts[0] + ring.texts.length >= this.size) {
      ring.blocks.shift()
      ring.packed -= ring.blockCounts.shift()!
    }
    if (ring.blocks.length === 0 && ring.texts.length > this.size) ring.texts.splice(0, ring.texts.length - this.size)
  }

  /** Entries oldest first, filtered; `limit` keeps the newest. */
  list(ns: string, filter: { method?: string; path?: string; limit?: number } = {}): JournalEntry[] {
    const ring = this.#rings.get(ns)
    if (!ring) return []
    const texts = [...ring.blocks.flatMap(unpackTexts), ...ring.texts]
    const ordered = texts.slice(Math.max(0, texts.length - this.size)).map((t) => JSON.parse(t) as JournalEntry)
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

import { createHash } from 'node:crypto'
import { invalid } from './errors.js'
import { CLOCK_KEY, CLOCK_META, type Clocks } from './clock.js'
import { RANDOM_META } from './random.js'
import type { Config, Merchant } from './config.js'
import type { CollectionSpec } from './store/collection.js'
import type { Frozen } from './store/frozen.js'
import type { Store } from './store/store.js'
import { FORMAT } from './store/recovery.js'
import { recordCounts, SnapshotError, type NamespaceSnapshot, type SnapshotIssues } from './store/snapshot.js'
import { STRING, TIME, maybe } from './store/validate.js'
import { isoAt } from './time.js'

/** What a namespace knows of its merchant (docs/behaviour.md#keys-and-namespaces). The namespace id is the secret key. */
export interface NsMeta {
  secret_key: string
  public_key: string
  name: string
  email: string
  encryption_key: string
  webhook_url: string | null
  created_at: string
}

const META = 'meta'
const KEY = 'ns'

/** The `meta` collection: one record per key, each as a data file must hold it (src/store/validate.ts). */
export const META_SPEC: CollectionSpec = {
  name: META,
  keyed: { [KEY]: { secret_key: STRING, public_key: STRING, name: STRING, email: STRING, encryption_key: STRING, webhook_url: maybe(STRING), created_at: TIME }, ...CLOCK_META, ...RANDOM_META },
  asWritten: ['secret_key', 'public_key', 'encryption_key', 'webhook_url'],
}

/**
 * What a snapshot restored under `key` must hold beyond what the store checks of its records
 * (docs/behaviour.md#snapshots): its merchant, of its own key; no clock record (the document's `clock`
 * is the clock); a configured key under --strict-keys.
 */
export function snapshotIssues(snap: NamespaceSnapshot, key: string, config: Pick<Config, 'strictKeys' | 'merchants'>): SnapshotIssues {
  const issues: SnapshotIssues = {}
  const meta = snap.records[META] ?? {}
  const merchant = meta[KEY] as Record<string, unknown> | undefined
  if (!merchant) issues[`records.${META}.${KEY}`] = "is required: the namespace's merchant (its keys, encryption key, webhook URL)"
  else if (merchant.secret_key !== snap.key) issues[`records.${META}.${KEY}.secret_key`] = `must be the snapshot's key (${snap.key})`
  if (CLOCK_KEY in meta) issues[`records.${META}.${CLOCK_KEY}`] = 'is not allowed: the namespace clock is the snapshot\'s "clock"'
  if (config.strictKeys && !config.merchants.some((m) => m.secret_key === key)) issues.key = `${key} is not a configured key (--strict-keys)`
  return issues
}

export type Seeder = (ns: string) => void

/** A check of a snapshot a part above the store makes once its records passed theirs (the ledger's balances): each bad path -> what. */
export type SnapshotCheck = (snap: NamespaceSnapshot) => SnapshotIssues

export class NamespaceLimitError extends Error {}

/**
 * The name a namespace goes by in the customer pages' URLs (docs/behaviour.md#urls-handed-out): the first 16
 * hex digits of the SHA-256 of its secret key. A test that restored a snapshot can work it out
 * from its key; the URL does not give the key back (a guessable key is guessable all the same).
 * The same in every sandbox and every run, so a URL handed out stays good across a restart with
 * `--data`.
 */
export function pageId(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16)
}

export class Namespaces {
  readonly #store: Store
  /** the namespaces by their page id, as found (a key's page id never changes) */
  readonly #byPageId = new Map<string, string>()
  readonly #hashed = new Set<string>()
  readonly #config: Config
  readonly #clocks: Clocks
  readonly #seeders: Seeder[] = []
  readonly #checks: SnapshotCheck[] = []
  readonly #configured: Map<string, Merchant>

  constructor(store: Store, config: Config, clocks: Clocks) {
    this.#store = store
    this.#config = config
    this.#clocks = clocks
    this.#configured = new Map(config.merchants.map((m) => [m.secret_key, m]))
  }

  /** Registers a check every snapshot restored must pass beyond its records' (docs/behaviour.md#snapshots). */
  onCheck(check: SnapshotCheck): void {
    this.#checks.push(check)
  }

  /** Registers fixture seeding, run when a namespace is created or reset. */
  onSeed(seeder: Seeder): void {
    this.#seeders.push(seeder)
  }

  /**
   * The namespace a public key stands for (docs/behaviour.md#look-ups), or null: a configured
   * merchant's public key is its secret key's; any other `pk_test_` key the secret key with the
   * same suffix, unless that key is a configured merchant's whose public key is another.
   */
  publicKeyNamespace(publicKey: string): string | null {
    for (const m of this.#configured.values()) if (m.public_key === publicKey) return m.secret_key
    if (!/^pk_test_[A-Za-z0-9_-]{1,200}$/.test(publicKey)) return null
    const secret = `sk_${publicKey.slice(3)}`
    return this.#configured.has(secret) ? null : secret
  }

  /**
   * The namespace a customer page's URL names by its page id (`pageId`), if it holds one: the
   * namespaces are hashed once each, when an id is not found among those hashed already.
   */
  ofPageId(id: string): string | undefined {
    let ns = this.#byPageId.get(id)
    if (ns === undefined && /^[0-9a-f]{16}$/.test(id)) {
      for (const key of this.#store.namespaces()) {
        if (this.#hashed.has(key)) continue
        this.#hashed.add(key)
        this.#byPageId.set(pageId(key), key)
      }
      ns = this.#byPageId.get(id)
    }
    return ns !== undefined && this.#store.hasNamespace(ns) ? ns : undefined
  }

  isConfigured(key: string): boolean {
    return this.#configured.has(key)
  }

  /** The namespace of a secret key, created (and seeded) on first use. */
  resolve(key: string): Frozen<NsMeta> {
    // look without creating: a refused key must leave nothing behind
    const existing = this.#store.hasNamespace(key) ? this.#store.col<NsMeta>(key, META).get(KEY) : undefined
    if (existing) return existing
    if (this.list().length >= this.#config.maxNamespaces) {
      throw new NamespaceLimitError(`at most ${this.#config.maxNamespaces} namespaces are kept`)
    }
    const meta = this.#store.col<NsMeta>(key, META).put(KEY, this.#fresh(key))
    this.#seed(key)
    return meta
  }

  get(ns: string): Frozen<NsMeta> | undefined {
    return this.#store.hasNamespace(ns) ? this.#store.col<NsMeta>(ns, META).get(KEY) : undefined
  }

  list(): Frozen<NsMeta>[] {
    const out: Frozen<NsMeta>[] = []
    for (const ns of this.#store.namespaces()) {
      const m = this.#store.col<NsMeta>(ns, META).get(KEY)
      if (m) out.push(m)
    }
    return out
  }

  /**
   * The namespaces a list shows (the dashboard's), the first `limit` and how many there are: this
   * process's, or with several processes on one database every namespace of the deployment
   * (`Store.namespacesKnown`), its page forwarded to its owner by its key.
   */
  async known(limit: number): Promise<{ list: Frozen<NsMeta>[]; total: number }> {
    const { total, records } = await this.#store.namespacesKnown(limit, META, KEY)
    return { total, list: records.map(([, meta]) => meta as Frozen<NsMeta>) }
  }

  update(ns: string, patch: Partial<Pick<NsMeta, 'webhook_url'>>): Frozen<NsMeta> {
    this.resolve(ns)
    return this.#store.col<NsMeta>(ns, META).update(KEY, (meta) => Object.assign(meta, patch))
  }

  /**
   * Empties the namespace (its records, and what every part registered with
   * `Store.registerState` keeps of it: the clock, cached packs, the journal, armed faults,
   * deliveries) and seeds it again: the control API's `POST /_sandbox/reset`.
   */
  reset(ns: string): Frozen<NsMeta> {
    this.#store.resetNamespace(ns)
    const meta = this.#store.col<NsMeta>(ns, META).put(KEY, this.#fresh(ns))
    this.#seed(ns)
    return meta
  }

  /**
   * The namespace whole as one document (docs/behaviour.md#snapshots): its key, its clock as it reads
   * now, and every record of it; the clock's own record is the document's `clock`.
   */
  snapshot(ns: string): NamespaceSnapshot {
    this.resolve(ns)
    const now = this.#clocks.now(ns)
    const records = this.#store.namespaceRecords(ns)
    const { [CLOCK_KEY]: _clock, ...meta } = records[META]
    return { paysandbox: FORMAT, key: ns, clock: { now: isoAt(now), frozen: this.#clocks.frozenAt(ns) !== null }, records: { ...records, [META]: meta } }
  }

  /**
   * Replaces the namespace `key` (the snapshot's own when absent) with a snapshot's document
   * (docs/behaviour.md#snapshots, POST /_sandbox/snapshot), or refuses it with 400 naming each bad
   * field and changes nothing.
   */
  async restore(raw: unknown, key?: string): Promise<Frozen<NsMeta>> {
    // in steps, the event loop free between them: a 16 MiB snapshot stops no other namespace's calls (docs/behaviour.md#snapshots)
    let snap: NamespaceSnapshot
    try {
      snap = await this.#store.readSnapshotInSteps(raw)
      this.#check([{ snap, key }])
    } catch (e) {
      if (e instanceof SnapshotError) throw invalid(e.issues)
      throw e
    }
    const ns = key ?? snap.key
    await this.#store.replaceNamespaceInSteps(ns, this.#records(snap, ns))
    return this.get(ns)!
  }

  /**
   * Replaces each namespace with its snapshot (read by `Store.readSnapshot` or `readSnapshot`),
   * under `key` or else the snapshot's own, once all of them passed; otherwise throws
   * SnapshotError for the first that did not, and changes nothing. A snapshot of another key
   * takes this key's merchant (its keys, name, encryption key) and keeps the rest. What every part
   * keeps of a namespace is rebuilt through `Store.registerState`.
   */
  restoreAll(list: readonly { snap: NamespaceSnapshot; key?: string; source?: string }[]): Frozen<NsMeta>[] {
    this.#check(list)
    return list.map(({ snap, key = snap.key, source }) => {
      this.#store.replaceNamespace(key, this.#records(snap, key))
      this.loaded.push({ source, key, records: recordCounts(snap) })
      return this.get(key)!
    })
  }

  /** what `restoreAll` put (--load): each file, the namespace it went under, and its records by collection (the start's banner says them) */
  readonly loaded: { source?: string; key: string; records: Record<string, number> }[] = []

  /** Throws SnapshotError for the first snapshot that may not replace its namespace (`snapshotIssues`, the registered checks, --max-namespaces). */
  #check(list: readonly { snap: NamespaceSnapshot; key?: string; source?: string }[]): void {
    const known = new Set(this.#store.namespaces())
    for (const { snap, key = snap.key, source } of list) {
      const issues = snapshotIssues(snap, key, this.#config)
      if (!Object.keys(issues).length) for (const check of this.#checks) Object.assign(issues, check(snap))
      if (!known.has(key)) {
        known.add(key)
        if (known.size > this.#config.maxNamespaces) issues.key ??= `at most ${this.#config.maxNamespaces} namespaces are kept (--max-namespaces)`
      }
      if (Object.keys(issues).length) throw new SnapshotError(issues, source)
    }
  }

  /** The records a snapshot puts under `key`: its own, with `key`'s merchant and the snapshot's clock as the clock's record. */
  #records(snap: NamespaceSnapshot, key: string): NamespaceSnapshot['records'] {
    const meta = snap.records[META]
    const merchant = meta[KEY] as NsMeta
    // another key's snapshot: this key's merchant, with the snapshot's webhook URL and date
    const own = key === snap.key ? merchant : { ...this.#fresh(key), webhook_url: merchant.webhook_url ?? null, ...(typeof merchant.created_at === 'string' && { created_at: merchant.created_at }) }
    const clock = this.#clocks.recordAt(Date.parse(snap.clock.now), snap.clock.frozen)
    return { ...snap.records, [META]: { ...meta, [KEY]: own, [CLOCK_KEY]: clock } }
  }

  #fresh(key: string): NsMeta {
    const m = this.#configured.get(key)
    return {
      secret_key: key,
      public_key: m?.public_key ?? key.replace(/^sk_/, 'pk_'),
      name: m?.name ?? 'Sandbox Merchant',
      email: m?.email ?? 'merchant@sandbox.test',
      encryption_key: m?.encryption_key ?? this.#config.encryptionKey,
      webhook_url: m?.webhook_url ?? null,
      created_at: this.#clocks.iso(key),
    }
  }

  #seed(ns: string): void {
    for (const s of this.#seeders) s(ns)
  }
}

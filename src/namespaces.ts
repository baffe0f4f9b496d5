import { CLOCK_META, type Clocks } from './clock.js'
import { RANDOM_META } from './random.js'
import type { Config, Merchant } from './config.js'
import type { CollectionSpec } from './store/collection.js'
import type { Frozen } from './store/frozen.js'
import type { Store } from './store/store.js'
import { STRING, maybe } from './store/validate.js'

/** What a namespace knows of its merchant (docs/behaviour.md 1). The namespace id is the secret key. */
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

/** The `meta` collection: one record per key, each as a data file must hold it (validate.ts). */
export const META_SPEC: CollectionSpec = {
  name: META,
  keyed: { [KEY]: { secret_key: STRING, encryption_key: STRING, webhook_url: maybe(STRING) }, ...CLOCK_META, ...RANDOM_META },
}

export type Seeder = (ns: string) => void

export class NamespaceLimitError extends Error {}

export class Namespaces {
  readonly #store: Store
  readonly #config: Config
  readonly #clocks: Clocks
  readonly #seeders: Seeder[] = []
  readonly #configured: Map<string, Merchant>

  constructor(store: Store, config: Config, clocks: Clocks) {
    this.#store = store
    this.#config = config
    this.#clocks = clocks
    this.#configured = new Map(config.merchants.map((m) => [m.secret_key, m]))
  }

  /** Registers fixture seeding, run when a namespace is created or reset. */
  onSeed(seeder: Seeder): void {
    this.#seeders.push(seeder)
  }

  /**
   * The namespace a public key stands for (docs/behaviour.md 13.5), or null: a configured
   * merchant's public key is its secret key's; any other `pk_test_` key the secret key with the
   * same suffix, unless that key is a configured merchant's whose public key is another.
   */
  publicKeyNamespace(publicKey: string): string | null {
    for (const m of this.#configured.values()) if (m.public_key === publicKey) return m.secret_key
    if (!/^pk_test_[A-Za-z0-9_-]{1,200}$/.test(publicKey)) return null
    const secret = `sk_${publicKey.slice(3)}`
    return this.#configured.has(secret) ? null : secret
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

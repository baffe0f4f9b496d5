import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type pg from 'pg'
import type { Snapshot } from './persistence.js'

/**
 * Several processes on one database (docs/architecture.md, "Several processes, one database"): a
 * namespace is served by one process at a time, the owner of its lease (a row of `sandbox_leases`
 * with a deadline on the database's clock). The owner holds the namespace in memory and runs its
 * clock, timers and webhook deliveries; any other process forwards its calls to the owner's URL.
 * The owner renews its leases every third of their length; a namespace whose lease ran out (its
 * owner died, or lost the database) is taken over by the first process that asks for it, or that
 * sweeps for expired leases, which reads its records from the database and takes up its timers
 * and pending deliveries.
 *
 * Fenced: every transaction of the owner checks, in the transaction, that its leases on the
 * namespaces it writes still hold (`FOR SHARE`, so a takeover waits for it to commit), so a process
 * that lost a lease without knowing it can never write over the new owner.
 */

/** What the leases need of the store: take a namespace up as the database holds it, or let it go. */
export interface Holder {
  adopt(ns: string, collections: Snapshot[string] | undefined): void
  release(ns: string): void
  holdsRecords(ns: string): boolean
}

export type Claim = { mine: true } | { mine: false; url: string; leftMs: number }

export class LeaseLost extends Error {
  constructor(readonly namespaces: string[]) {
    super(`the lease of ${namespaces.join(', ')} is another process's now`)
    this.name = 'LeaseLost'
  }
}

export class Leases {
  /** this process, as the lease rows name it */
  readonly id = `${hostname()}:${process.pid}:${Date.now().toString(36)}`
  /** the URL other processes reach this one at; set once it listens */
  url = ''
  /** the namespaces held, each with the moment (this process's clock) its lease ends at the latest */
  readonly #held = new Map<string, number>()
  readonly #claims = new Map<string, Promise<Claim>>()
  /** leases being given back (giveBack): a claim of the namespace waits for its row to be gone */
  readonly #giving = new Map<string, Promise<void>>()
  /** another process's namespaces, each with its owner's URL until the deadline read (a forward asks no query) */
  readonly #others = new Map<string, { url: string; until: number }>()
  #timer: NodeJS.Timeout | null = null
  #closed = false
  #swept = false

  constructor(
    readonly pool: pg.Pool,
    readonly ms: number,
    readonly holder: Holder,
    readonly read: (namespaces: string[]) => Promise<Snapshot>,
    /** what a call forwarded by a process of this deployment carries (`peerSecret`), and a client's does not */
    readonly secret: string,
  ) {}

  /** Whether this process serves the namespace now (its lease held, by this process's clock). */
  owns(ns: string): boolean {
    const until = this.#held.get(ns)
    return until !== undefined && until > Date.now()
  }

  /** Takes the namespace's lease if it is free or expired (reading its records), or says who holds it. */
  claim(ns: string): Promise<Claim> {
    if (this.owns(ns)) return Promise.resolve({ mine: true })
    const other = this.#others.get(ns)
    if (other && other.until > Date.now()) return Promise.resolve({ mine: false, url: other.url, leftMs: other.until - Date.now() })
    let claim = this.#claims.get(ns)
    if (!claim) {
      const giving = this.#giving.get(ns)
      claim = (giving ? giving.then(() => this.#claim(ns)) : this.#claim(ns)).finally(() => this.#claims.delete(ns))
      this.#claims.set(ns, claim)
    }
    return claim
  }

  async #claim(ns: string): Promise<Claim> {
    const asked = Date.now()
    const taken = await this.pool.query(TAKE, [ns, this.id, this.url, this.ms])
    if (taken.rowCount) {
      // its records as they are now: a previous owner's last commit came before this lease
      const state = await this.read([ns])
      if (!this.#held.has(ns)) this.holder.adopt(ns, state[ns])
      this.#held.set(ns, asked + this.ms)
      this.#others.delete(ns)
      return { mine: true }
    }
    const held = await this.pool.query<{ url: string; left: number }>(HOLDER, [ns])
    if (!held.rowCount) return this.#claim(ns)
    const leftMs = Math.max(0, Number(held.rows[0].left))
    this.#others.delete(ns)
    if (this.#others.size < 10_000) this.#others.set(ns, { url: held.rows[0].url, until: asked + leftMs })
    return { mine: false, url: held.rows[0].url, leftMs }
  }

  /**
   * Gives back the lease of a namespace that holds nothing: the call it was taken for was refused
   * before the namespace was made (--max-namespaces), a dashboard named no namespace there is, or a
   * sweep took over one that held nothing. Its row is deleted, so none is left behind, renewed for
   * nothing; a claim meanwhile waits for that.
   */
  giveBack(ns: string): Promise<void> {
    if (!this.#held.has(ns) || this.holder.holdsRecords(ns)) return Promise.resolve()
    this.#let(ns)
    const done: Promise<void> = this.pool.query(GIVE_BACK, [ns, this.id]).then(
      () => undefined,
      // the row stays until its deadline; the sweep that takes it over gives it back again
      () => undefined,
    )
    this.#giving.set(ns, done)
    void done.then(() => {
      if (this.#giving.get(ns) === done) this.#giving.delete(ns)
    })
    return done
  }

  /** The namespaces holding a charge of this transaction reference (a customer page names no key). */
  async holdersOfCharge(reference: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ ns: string }>("SELECT ns FROM sandbox_records WHERE collection = 'charges' AND key = $1", [reference])
    return rows.map((r) => r.ns)
  }

  /** Forgets who owns the namespace (its owner could not be reached): the next claim asks the database. */
  forget(ns: string): void {
    this.#others.delete(ns)
  }

  /** Checks, in a writing transaction, that these namespaces are still ours; throws LeaseLost. */
  readonly fence = async (client: pg.ClientBase, namespaces: string[]): Promise<void> => {
    const { rows } = await client.query<{ ns: string }>(FENCE, [namespaces, this.id])
    if (rows.length === namespaces.length) return
    const ours = new Set(rows.map((r) => r.ns))
    const lost = namespaces.filter((ns) => !ours.has(ns))
    for (const ns of lost) this.#let(ns)
    throw new LeaseLost(lost)
  }

  /** Renews the leases every third of their length, and takes over those that ran out. */
  start(url: string): void {
    this.url = url
    const tick = () => {
      void this.#renew().finally(() => {
        if (!this.#closed) this.#timer = setTimeout(tick, this.ms / 3).unref()
      })
    }
    tick()
  }

  async #renew(): Promise<void> {
    const asked = Date.now()
    try {
      if (this.#held.size) {
        // only the namespaces asked for: one taken while the renewal was on its way is not in its answer, and is ours
        const asking = [...this.#held.keys()]
        const { rows } = await this.pool.query<{ ns: string }>(RENEW, [asking, this.id, this.url, this.ms])
        const renewed = new Set(rows.map((r) => r.ns))
        for (const ns of asking) {
          if (!this.#held.has(ns)) continue
          if (renewed.has(ns)) this.#held.set(ns, Math.max(this.#held.get(ns) ?? 0, asked + this.ms))
          else this.#let(ns)
        }
      }
      // the namespaces nobody holds any more (an owner died); at the first tick also those no
      // process ever held (a database written before leases): that one reads every record's key
      const { rows } = await this.pool.query<{ ns: string }>(this.#swept ? EXPIRED : `${EXPIRED} UNION ${UNHELD}`)
      this.#swept = true
      for (const { ns } of rows) {
        const claim = await this.claim(ns).catch(() => undefined)
        if (claim?.mine) await this.giveBack(ns)
      }
    } catch {
      // the database does not answer: what can no longer be held is let go (the deadline stands)
      for (const [ns, until] of this.#held) if (until <= Date.now()) this.#let(ns)
    }
  }

  /** Told first when a namespace is let go: its changes not yet written must fail, never be written after (pg-log.ts). */
  onLet: (ns: string) => void = () => undefined

  #let(ns: string): void {
    if (!this.#held.delete(ns)) return
    this.onLet(ns)
    this.holder.release(ns)
  }

  /**
   * Stops renewing and gives every lease back: expired now, so another process takes each over at
   * its next call, or its next sweep (timers and deliveries go on there).
   */
  async close(): Promise<void> {
    this.#closed = true
    if (this.#timer) clearTimeout(this.#timer)
    const namespaces = [...this.#held.keys()]
    this.#held.clear()
    if (namespaces.length) await this.pool.query("UPDATE sandbox_leases SET deadline = now() - interval '1 second' WHERE owner = $1", [this.id]).catch(() => undefined)
  }
}

/**
 * The deployment's forwarding secret: what a process sends with a call it forwards to another
 * (src/cluster.ts), so that a client cannot pass its call off as forwarded. Made once, by the first
 * process to start on the database (a row of `sandbox_meta`), and read by every process at start:
 * whoever can read the database is of the deployment.
 */
export async function peerSecret(client: pg.ClientBase): Promise<string> {
  await client.query("INSERT INTO sandbox_meta (name, value) VALUES ('forward_secret', $1) ON CONFLICT (name) DO NOTHING", [randomBytes(32).toString('base64url')])
  return (await client.query<{ value: string }>("SELECT value FROM sandbox_meta WHERE name = 'forward_secret'")).rows[0].value
}

/** Takes the lease when free, expired, or already ours; a row returned is the lease taken. */
const TAKE = `INSERT INTO sandbox_leases (ns, owner, url, deadline) VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
  ON CONFLICT (ns) DO UPDATE SET owner = excluded.owner, url = excluded.url, deadline = excluded.deadline
  WHERE sandbox_leases.owner = excluded.owner OR sandbox_leases.deadline < now()
  RETURNING ns`

const HOLDER = `SELECT url, extract(epoch FROM deadline - now()) * 1000 AS left FROM sandbox_leases WHERE ns = $1`

const RENEW = `UPDATE sandbox_leases SET deadline = now() + $4 * interval '1 millisecond', url = $3
  WHERE ns = ANY($1) AND owner = $2 AND deadline > now() RETURNING ns`

const FENCE = `SELECT ns FROM sandbox_leases WHERE ns = ANY($1) AND owner = $2 AND deadline > now() FOR SHARE`

const GIVE_BACK = 'DELETE FROM sandbox_leases WHERE ns = $1 AND owner = $2'

const EXPIRED = 'SELECT ns FROM sandbox_leases WHERE deadline < now()'

/** namespaces with records and no lease row */
const UNHELD = 'SELECT DISTINCT ns FROM sandbox_records r WHERE NOT EXISTS (SELECT 1 FROM sandbox_leases l WHERE l.ns = r.ns)'

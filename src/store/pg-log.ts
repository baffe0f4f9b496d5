import pg from 'pg'
import { GroupCommit, nsOf, type Op } from './group-commit.js'
import { LeaseLost, Leases, peerSecret } from './pg-lease.js'
import type { Persisted, Persistence } from './persistence.js'
import { redactUrl as redact } from '../config-options.js'
import { inTransaction, prepare, readRecords, StoreError } from './pg-schema.js'

/**
 * The PostgreSQL store (`--store postgres://...`, docs/behaviour.md#persistence), the data file's sibling
 * behind the same seam (persistence.ts): the store still holds everything in memory, and every
 * change is committed in the database before the answer that reports it leaves (the durability
 * middleware waits on `sync`, as with a file). Changes are written as the file log writes them: the
 * changes of one moment together (one transaction), one transaction at a time, a record written as
 * it stands when its transaction starts.
 *
 * A transaction that fails (the database stopped, unreachable, restarting) is never acknowledged:
 * its callers, and every call until the store is whole again, are answered 503. The namespaces its
 * changes touched (and those touched meanwhile) are read back from the database once it answers
 * again and put back as it holds them, so nothing unacknowledged stays; then the store takes
 * writes again by itself.
 */

/** How long to wait before reading the database again while it does not answer. */
const RETRY_MS = 250

export class PgLog implements Persistence {
  /** pending changes in order (group-commit.ts), held while the store is put back (#undo) */
  #queue = new GroupCommit(
    async (ops, failures) => {
      try {
        await this.#write(ops)
        return true
      } catch (e) {
        this.#fail(ops, failures, e)
        return false
      }
    },
    () => this.#undo !== null,
  )
  /** namespaces that may hold changes the database does not: put back before any call is answered again */
  #undo: Set<string> | null = null
  #recovering: Promise<void> | null = null
  /** which namespaces this process serves, each read from the database when its lease is taken */
  readonly leases: Leases

  private constructor(
    readonly url: string,
    readonly pool: pg.Pool,
    readonly store: Persisted,
    leaseMs: number,
    secret: string,
  ) {
    this.leases = new Leases(pool, leaseMs, store, (namespaces) => this.read(namespaces), secret)
    // a namespace let go with changes waiting: they would be written from a store that no longer
    // holds it (as deletes), or after it was read again; they fail instead, with those beside them
    this.leases.onLet = (ns) => {
      if (this.#queue.touches(ns)) this.#fail([], [], new LeaseLost([ns]))
    }
  }

  /**
   * Migrates the database (carrying its records over from an older format) and keeps the store's
   * namespaces up to date in it from then on; a namespace is read when its lease is taken.
   */
  static async open(url: string, store: Persisted, leaseMs: number): Promise<PgLog> {
    // a connection that stalls is given up, so a call waits at most this long for an answer
    const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000, query_timeout: 10_000, keepAlive: true })
    // an idle connection the server closed (a restart) is dropped by the pool: not a crash
    pool.on('error', () => undefined)
    let client: pg.PoolClient | undefined
    let secret: string
    try {
      client = await pool.connect()
      await prepare(client, url, store)
      secret = await peerSecret(client)
    } catch (e) {
      client?.release(true)
      client = undefined
      await pool.end().catch(() => undefined)
      if (e instanceof StoreError) throw e
      throw new StoreError(url, (e as Error).message || String((e as { code?: string }).code))
    } finally {
      client?.release()
    }
    return new PgLog(url, pool, store, leaseMs, secret)
  }

  get dirty(): boolean {
    return this.#undo !== null || this.#queue.busy
  }

  changed(ns: string, c: string, k: string): void {
    if (this.#undo) return void this.#undo.add(ns)
    this.#queue.changed(ns, c, k)
  }

  reset(ns: string, keep: string[]): void {
    if (this.#undo) return void this.#undo.add(ns)
    this.#queue.reset(ns, keep)
  }

  sync(): Promise<void> {
    if (this.#undo) return Promise.reject(new Error('the store is being put back as the database holds it'))
    return this.#queue.sync()
  }

  /** Nothing to compact: the database keeps one row per record. */
  async compact(): Promise<void> {
    await this.sync()
  }

  async close(): Promise<void> {
    await this.sync().catch(() => undefined)
    await this.#recovering?.catch(() => undefined)
    this.#queue.closed = true
    await this.leases.close()
    await this.pool.end().catch(() => undefined)
  }

  /** Every namespace of the deployment holding this record (migration 5 indexes the merchant's), by namespace: the first `limit` and how many. */
  async known(limit: number, collection: string, key: string): Promise<{ total: number; rows: { ns: string; value: string }[] }> {
    const { rows } = await this.pool.query<{ ns: string; value: string; total: string }>(KNOWN, [collection, key, limit])
    return { total: rows.length ? Number(rows[0].total) : 0, rows }
  }

  /** Reads these namespaces as the database holds them (a lease taken over: pg-lease.ts). */
  async read(namespaces: string[]): ReturnType<typeof readRecords> {
    const client = await this.pool.connect()
    try {
      return await readRecords(client, namespaces)
    } finally {
      client.release()
    }
  }

  /**
   * One transaction. Without a reset (nearly always): one call of `sandbox_write`
   * (migrations/003_write.sql), the fence, the puts and the deletes in one round trip. With one:
   * the fence, then the puts and deletes between two resets as one statement each, in order.
   */
  async #write(ops: Op[]): Promise<void> {
    const namespaces = [...new Set(ops.map(nsOf))]
    if (ops.every((op) => Array.isArray(op))) {
      const puts: string[][] = [[], [], [], []]
      const dels: string[][] = [[], [], []]
      for (const op of ops as [string, string, string][]) this.#collect(op, puts, dels)
      const { rows } = await this.pool.query<{ ok: boolean }>(WRITE, [this.leases.id, namespaces, ...puts, ...dels])
      if (rows[0].ok) return
      // a lease is gone: the transaction below names which, and lets them go
    }
    const client = await this.pool.connect()
    let broken = false
    try {
      await inTransaction(client, async () => {
        await this.leases.fence(client, namespaces)
        let puts: [string[], string[], string[], string[]] = [[], [], [], []]
        let dels: [string[], string[], string[]] = [[], [], []]
        const flush = async () => {
          if (puts[0].length) await client.query(UPSERT, puts)
          if (dels[0].length) await client.query(DELETE, dels)
          puts = [[], [], [], []]
          dels = [[], [], []]
        }
        for (const op of ops) {
          if (!Array.isArray(op)) {
            await flush()
            await client.query('DELETE FROM sandbox_records WHERE ns = $1 AND NOT (collection = ANY($2))', [op.n, op.reset])
            continue
          }
          this.#collect(op, puts, dels)
        }
        await flush()
      })
    } catch (e) {
      broken = true
      throw e
    } finally {
      client.release(broken)
    }
  }

  /** A record's key, as a put (columns ns, collection, key, value) or a delete (ns, collection, key). */
  #collect([n, c, k]: [string, string, string], puts: string[][], dels: string[][]): void {
    const v = this.store.recordJson(n, c, k)
    const into = v === undefined ? dels : puts
    into[0].push(n)
    into[1].push(c)
    into[2].push(k)
    if (v !== undefined) puts[3].push(v)
  }

  /**
   * A transaction failed: its callers fail, and so does every call until the namespaces it (and
   * anything since) touched are put back as the database holds them (#recover).
   */
  #fail(ops: Op[], failures: ((e: unknown) => void)[], error: unknown): void {
    if (!this.#undo) console.error(`paysandbox: could not write to the store ${redact(this.url)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): changes not in the database are undone and answered 503 until it takes writes again`)
    const undo = (this.#undo ??= new Set())
    for (const op of [...ops, ...this.#queue.drop(failures)]) undo.add(nsOf(op))
    for (const f of failures) f(error)
    this.#recovering ??= this.#recover().finally(() => (this.#recovering = null))
  }

  /** Reads the touched namespaces back until the database answers, and puts them back as it holds them. */
  async #recover(): Promise<void> {
    while (this.#undo && !this.#queue.closed) {
      const namespaces = [...this.#undo]
      let state: Awaited<ReturnType<typeof readRecords>>
      try {
        state = await this.read(namespaces)
      } catch {
        await new Promise((r) => setTimeout(r, RETRY_MS))
        continue
      }
      // from here on synchronous: a change made while reading touched a namespace read again below
      for (const ns of namespaces) this.#undo.delete(ns)
      if (!this.#undo.size) this.#undo = null
      // a namespace whose lease went meanwhile is let go, not put back
      const kept = namespaces.filter((ns) => this.leases.owns(ns))
      for (const ns of namespaces) if (!kept.includes(ns)) this.store.release(ns)
      for (const ns of kept) this.store.restoreNamespace(ns, state[ns])
      for (const ns of kept) this.store.restored(ns)
    }
    if (!this.#queue.closed) console.error(`paysandbox: the store ${redact(this.url)} takes writes again`)
  }
}

const KNOWN = 'SELECT ns, value, count(*) OVER () AS total FROM sandbox_records WHERE collection = $1 AND key = $2 ORDER BY ns LIMIT $3'

const WRITE = 'SELECT sandbox_write($1, $2, $3, $4, $5, $6, $7, $8, $9) AS ok'

const UPSERT = `INSERT INTO sandbox_records (ns, collection, key, value)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
  ON CONFLICT (ns, collection, key) DO UPDATE SET value = excluded.value`

const DELETE = `DELETE FROM sandbox_records WHERE (ns, collection, key) IN
  (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))`

import { readdirSync, readFileSync } from 'node:fs'
import type pg from 'pg'
import { redactUrl as redact } from '../config-options.js'
import type { Persisted, Snapshot } from './persistence.js'
import { FORMAT } from './recovery.js'

/**
 * The PostgreSQL store's schema (`--store postgres://...`, docs/behaviour.md#persistence): the versioned SQL
 * files of `migrations/` applied at start, and the records carried over from an older
 * format by the data file's own steps (`Persisted.carryOver`). Both run under one advisory lock, so
 * processes starting together apply each migration once and carry the records over once.
 */

export class StoreError extends Error {
  constructor(url: string, reason: string) {
    super(`cannot use store ${redact(url)}: ${reason}`)
    this.name = 'StoreError'
  }
}


/** The advisory lock the start holds while it migrates and carries over: `paysandbox` as a number. */
const START_LOCK = 0x70617973

export interface Migration {
  version: number
  name: string
  sql: string
}

/** The files of `migrations/` (`NNN_name.sql`), in order. */
export function migrations(): Migration[] {
  const dir = new URL('./migrations/', import.meta.url)
  return readdirSync(dir)
    .flatMap((file) => {
      const m = /^(\d+)_([\w-]+)\.sql$/.exec(file)
      return m ? [{ version: Number(m[1]), name: m[2], sql: readFileSync(new URL(file, dir), 'utf8') }] : []
    })
    .sort((a, b) => a.version - b.version)
}

/**
 * Applies the migrations this database lacks, each in a transaction with its row in
 * `sandbox_migrations`, then carries the records over when they are of an older format (written
 * back in this one). No record is read into the store here: each namespace is read when its lease
 * is taken (pg-lease.ts). Under the start's advisory lock: a second process
 * starting now waits, then finds everything applied. Returns the versions it applied.
 */
export async function prepare(client: pg.ClientBase, url: string, store: Persisted): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [START_LOCK])
  try {
    const applied = await migrate(client, url)
    await carryOver(client, url, store)
    return applied
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [START_LOCK]).catch(() => undefined)
  }
}

async function migrate(client: pg.ClientBase, url: string): Promise<number[]> {
  await client.query('CREATE TABLE IF NOT EXISTS sandbox_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
  const done = new Set((await client.query<{ version: number }>('SELECT version FROM sandbox_migrations')).rows.map((r) => r.version))
  const known = migrations()
  const newest = Math.max(0, ...known.map((m) => m.version))
  const ahead = [...done].filter((v) => v > newest)
  if (ahead.length) throw new StoreError(url, `migrated by a newer paysandbox (migration ${Math.max(...ahead)})`)
  const applied: number[] = []
  for (const m of known) {
    if (done.has(m.version)) continue
    await inTransaction(client, async () => {
      await client.query(m.sql)
      await client.query('INSERT INTO sandbox_migrations (version, name) VALUES ($1, $2)', [m.version, m.name])
    })
    console.error(`paysandbox: store: applied migration ${m.version} (${m.name})`)
    applied.push(m.version)
  }
  return applied
}

/** ns -> collection -> key -> record, in the order each key was first written. */
export async function readRecords(client: pg.ClientBase, namespaces?: readonly string[]): Promise<Snapshot> {
  const { rows } = namespaces
    ? await client.query<Row>('SELECT ns, collection, key, value FROM sandbox_records WHERE ns = ANY($1) ORDER BY seq', [namespaces])
    : await client.query<Row>('SELECT ns, collection, key, value FROM sandbox_records ORDER BY seq')
  const state: Snapshot = {}
  for (const r of rows) ((state[r.ns] ??= {})[r.collection] ??= {})[r.key] = JSON.parse(r.value) as Record<string, unknown>
  return state
}

interface Row {
  ns: string
  collection: string
  key: string
  value: string
}

async function carryOver(client: pg.ClientBase, url: string, store: Persisted): Promise<void> {
  await client.query("INSERT INTO sandbox_meta (name, value) VALUES ('format', $1) ON CONFLICT (name) DO NOTHING", [String(FORMAT)])
  const format = Number((await client.query<{ value: string }>("SELECT value FROM sandbox_meta WHERE name = 'format'")).rows[0].value)
  if (!(format >= 1)) throw new StoreError(url, `its format is not a number (${format})`)
  if (format > FORMAT) throw new StoreError(url, `written by a newer paysandbox (format ${format})`)
  if (format === FORMAT) return
  const read = await readRecords(client)
  try {
    // carried over once, as a data file is (docs/behaviour.md#persistence), and written back in this format
    const state = store.carryOver(format, read, [])
    await inTransaction(client, async () => {
      await client.query('DELETE FROM sandbox_records')
      const cols: [string[], string[], string[], string[]] = [[], [], [], []]
      for (const [ns, collections] of Object.entries(state)) {
        for (const [c, records] of Object.entries(collections)) {
          for (const [k, v] of Object.entries(records)) {
            cols[0].push(ns)
            cols[1].push(c)
            cols[2].push(k)
            cols[3].push(JSON.stringify(v))
          }
        }
      }
      await client.query('INSERT INTO sandbox_records (ns, collection, key, value) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])', cols)
      await client.query("UPDATE sandbox_meta SET value = $1 WHERE name = 'format'", [String(FORMAT)])
    })
    console.error(`paysandbox: store: records of format ${format} carried over to format ${FORMAT}`)
  } catch (e) {
    if (e instanceof StoreError) throw e
    throw new StoreError(url, (e as Error).message)
  }
}

export async function inTransaction(client: pg.ClientBase, fn: () => Promise<void>): Promise<void> {
  await client.query('BEGIN')
  try {
    await fn()
    await client.query('COMMIT')
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw e
  }
}

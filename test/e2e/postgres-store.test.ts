import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { FORMAT, durableState } from '../../src/store/recovery.js'
import { ENC_KEY, SECRET, cardPayload, tempFile } from '../helpers/sandbox.js'
// @ts-expect-error: plain JavaScript shared with make.mjs, which runs with the old build
import { KEY } from '../fixtures/ledger-v1/probes.mjs'
import { answers, readAsThen } from '../helpers/ledger-v1.js'
import { NO_AUTH_CARD } from '../helpers/cards.js'
import { clusterPerFile, queryDb } from './postgres.js'
import { api, freePort, killedAfterEach, runCli, startCli, type RunningCli } from './process.js'

/**
 * `--store postgres://...` (docs/behaviour.md#persistence) through the real CLI against a throwaway cluster
 * of the test's own (test/e2e/postgres.ts): a charge acknowledged is committed before its answer
 * (kill -9 under load, restart, every one there); two processes started together apply the
 * migrations once; the database stopped under traffic answers 503 in the envelope, undoes what it
 * did not commit, and serves again by itself once the database is back; a database of an older
 * record format is carried over as a data file is.
 */


const { running } = killedAfterEach()
const cluster = clusterPerFile()
const freshDatabase = cluster.fresh

async function start(url: string, args: string[] = [], env: Record<string, string> = {}): Promise<RunningCli> {
  const r = await startCli(['--store', url, ...args], env)
  running.push(r)
  return r
}

function charge(base: string, payload: unknown, key = SECRET) {
  return fetch(`${base}/merchant/api/v1/charges/card`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ charge_data: encryptChargeData(payload, ENC_KEY) }),
  })
}

describe('--store postgres:// (a real cluster, the real CLI)', () => {
  it('keeps every acknowledged charge through a kill -9 under load, and a restart serves them', async () => {
    const url = await freshDatabase()
    const child = await start(url)
    const acknowledged: string[] = []
    let killed = false
    const loop = async () => {
      while (!killed) {
        const p = cardPayload(NO_AUTH_CARD)
        try {
          const res = await charge(child.url, p)
          const body = JSON.parse(await res.text())
          if (res.status === 200 && body.data.payment_reference === p.reference) acknowledged.push(p.reference)
          else throw new Error(`${res.status} ${JSON.stringify(body)}`)
        } catch (e) {
          if (!killed) throw e
          return
        }
        if (!killed && acknowledged.length >= 100) {
          killed = true
          child.child.kill('SIGKILL')
        }
      }
    }
    await Promise.all(Array.from({ length: 8 }, loop))
    await child.exited
    expect(child.child.signalCode).toBe('SIGKILL')

    const again = await start(url)
    expect(again.stdout()).toMatch(/store: +postgres postgres:\/\/postgres@127\.0\.0\.1/)
    const lost: string[] = []
    for (const reference of acknowledged) {
      const q = await api(again.url, SECRET, 'GET', `/merchant/api/v1/charges/${encodeURIComponent(reference)}`)
      if (q.status !== 200 || q.body.data.status !== 'success') lost.push(`${reference}: ${q.status}`)
    }
    expect(lost).toEqual([])
    // no migration applied twice: the restart found them all
    expect(again.stderr()).not.toContain('applied migration')
  }, 90_000)

  it('applies the migrations once when two processes start together', async () => {
    const url = await freshDatabase()
    // both made to read what is applied at the same moment: the test holds the table locked until
    // both wait on a lock (the table, or the start's advisory lock), then lets go
    const { default: pgClient } = await import('pg')
    const holder = new pgClient.Client({ connectionString: url })
    await holder.connect()
    await holder.query('CREATE TABLE sandbox_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
    await holder.query('BEGIN')
    await holder.query('LOCK TABLE sandbox_migrations IN ACCESS EXCLUSIVE MODE')
    const both = Promise.all([start(url), start(url)])
    const deadline = Date.now() + 20_000
    // (inside a transaction the activity view is read once: its snapshot is cleared before each look)
    while ((await holder.query('SELECT pg_stat_clear_snapshot()')) && (await holder.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")).rows[0].n < 2) {
      if (Date.now() > deadline) throw new Error('the two processes never both waited')
    }
    await holder.query('COMMIT')
    await holder.end()
    const [a, b] = await both
    const rows = await queryDb(url, 'SELECT version FROM sandbox_migrations ORDER BY version')
    expect(rows.map((r) => r.version)).toEqual([1, 2, 3, 4, 5])
    const said = (a.stderr() + b.stderr()).match(/applied migration \d+/g) ?? []
    expect(said.sort()).toEqual(['applied migration 1', 'applied migration 2', 'applied migration 3', 'applied migration 4', 'applied migration 5'])
  })

  it('takes no lease for a key --strict-keys refuses: made-up keys leave no row behind', async () => {
    const url = await freshDatabase()
    const r = await start(url, ['--strict-keys'])
    const refused = await fetch(`${r.url}/merchant/api/v1/charges/whatever`, { headers: { authorization: 'Bearer sk_test_madeup' } })
    expect(refused.status).toBe(401)
    const served = await fetch(`${r.url}/merchant/api/v1/charges/whatever`, { headers: { authorization: `Bearer ${SECRET}` } })
    expect(served.status).toBe(404)
    const rows = await queryDb(url, 'SELECT ns FROM sandbox_leases ORDER BY ns')
    expect(rows.map((row) => row.ns)).toEqual([SECRET])
  })

  it('writes no voucher PIN into the database, in any spelling: the store masks what it commits as it masks a data file', async () => {
    const url = await freshDatabase()
    const r = await start(url)
    const pins: Record<string, string> = { PIN: '7391046682', 'voucher-pin': '5820417736', pinCode: '6604918273', 'Card-PIN': '9048172635' }
    const res = await api(r.url, SECRET, 'POST', '/merchant/api/v1/charge/voucher', {
      amount: 100, currency: 'ZAR', reference: 'pg-pin-1', metadata: pins,
      voucher: { pin: '1168648096792943', phone_number: '+270576847568', provider_code: '0001' },
      customer: { email: 'johndoe@example.com', name: 'John Doe' },
    })
    expect(res.status).toBe(200)
    const rows = (await queryDb(url, 'SELECT value FROM sandbox_records')).map((row) => row.value as string).join('\n')
    for (const pin of ['1168648096792943', ...Object.values(pins)]) expect(rows, pin).not.toContain(pin)
    expect(rows).toContain('"voucher-pin":"********"')
  })

  it('answers 503 in the envelope while PostgreSQL is stopped, keeps nothing it did not commit, and serves again once it is back', async () => {
    const url = await freshDatabase()
    const child = await start(url)
    const before = cardPayload(NO_AUTH_CARD)
    expect((await charge(child.url, before)).status).toBe(200)

    await cluster.pg.stop()
    const during = cardPayload(NO_AUTH_CARD)
    const refused = await charge(child.url, during)
    expect(refused.status).toBe(503)
    expect(await refused.json()).toEqual({ status: false, message: 'Service currently unavailable', data: null })
    // no call is answered from a store that may hold what the database does not
    const read = await api(child.url, SECRET, 'GET', `/merchant/api/v1/charges/${during.reference}`)
    expect(read.status).toBe(503)
    expect(child.stderr()).toContain('could not write to the store postgres://postgres@127.0.0.1')

    await cluster.pg.start()
    // back by itself: each try is a real call, bounded, no timer of the test's
    const deadline = Date.now() + 20_000
    let after = cardPayload(NO_AUTH_CARD)
    for (;;) {
      const res = await charge(child.url, after)
      if (res.status === 200) break
      expect(res.status).toBe(503)
      if (Date.now() > deadline) throw new Error('the store never took writes again')
      after = cardPayload(NO_AUTH_CARD)
    }
    expect(child.stderr()).toContain('takes writes again')
    expect((await api(child.url, SECRET, 'GET', `/merchant/api/v1/charges/${before.reference}`)).status).toBe(200)
    expect((await api(child.url, SECRET, 'GET', `/merchant/api/v1/charges/${after.reference}`)).status).toBe(200)
    // the refused charge was undone, and is not in the database either
    expect((await api(child.url, SECRET, 'GET', `/merchant/api/v1/charges/${during.reference}`)).status).toBe(404)
    const stored = await queryDb(url, `SELECT count(*)::int AS n FROM sandbox_records WHERE collection = 'charges' AND value LIKE $1`, [`%${during.reference}%`])
    expect(stored[0].n).toBe(0)
  }, 60_000)

  it('carries the records of an older format over as a data file is, once', async () => {
    const url = await freshDatabase()
    // the schema made by a first start, then the format-1 fixture written into it as that build would have
    const first = await start(url)
    first.child.kill('SIGTERM')
    await first.exited
    const doc = JSON.parse(readFileSync(new URL('../fixtures/ledger-v1/data.json', import.meta.url), 'utf8'))
    expect(doc.paysandbox).toBe(1)
    const state = durableState(doc)
    for (const [ns, cols] of Object.entries(state)) {
      for (const [c, records] of Object.entries(cols)) {
        for (const [k, v] of Object.entries(records)) await queryDb(url, 'INSERT INTO sandbox_records (ns, collection, key, value) VALUES ($1, $2, $3, $4)', [ns, c, k, JSON.stringify(v)])
      }
    }
    await queryDb(url, "UPDATE sandbox_meta SET value = '1' WHERE name = 'format'")
    const sb = await start(url)
    expect(sb.stderr()).toContain(`records of format 1 carried over to format ${FORMAT}`)
    expect(await readAsThen((method, path, body) => api(sb.url, KEY, method, path, body))).toEqual(answers.before)
    sb.child.kill('SIGTERM')
    await sb.exited
    expect((await queryDb(url, "SELECT value FROM sandbox_meta WHERE name = 'format'"))[0].value).toBe(String(FORMAT))
    // no record keeps an entry of its own, every entry is one record
    for (const r of await queryDb(url, "SELECT value FROM sandbox_records WHERE collection IN ('charges', 'card_ops', 'refunds', 'payouts')")) {
      expect(Object.keys(JSON.parse(r.value))).not.toContain('ledger')
      expect(Object.keys(JSON.parse(r.value))).not.toContain('settled_early')
    }
    expect((await queryDb(url, "SELECT count(*)::int AS n FROM sandbox_records WHERE collection = 'ledger' AND ns = $1", [KEY]))[0].n).toBe(24)
    const again = await start(url)
    expect(again.stderr()).not.toContain('carried over')
    expect(await readAsThen((method, path, body) => api(again.url, KEY, method, path, body))).toEqual(answers.before)
  })
})

describe('--store postgres:// at start', () => {
  it('refuses a database it cannot reach with one line, the password hidden (exit 2)', async () => {
    const port = await freePort()
    const r = await runCli(['start', '--port', '0', '--store', `postgres://sandbox:s3cret@127.0.0.1:${port}/x`])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(new RegExp(`^sandbox: cannot use store postgres://sandbox:\\*\\*\\*@127\\.0\\.0\\.1:${port}/x: .+\\n$`))
    expect(r.stderr).not.toContain('s3cret')
  })

  it('restores a snapshot of --load into the database, and a restart serves it', async () => {
    const first = await start(await freshDatabase())
    const p = cardPayload(NO_AUTH_CARD)
    expect((await charge(first.url, p)).status).toBe(200)
    const snap = await api(first.url, SECRET, 'GET', '/_sandbox/snapshot')
    const file = tempFile('snap.json')
    writeFileSync(file, JSON.stringify(snap.body.data))
    const url = await freshDatabase()
    const loaded = await start(url, ['--load', file])
    expect((await api(loaded.url, SECRET, 'GET', `/merchant/api/v1/charges/${p.reference}`)).status).toBe(200)
    loaded.child.kill('SIGKILL')
    await loaded.exited
    const again = await start(url)
    expect((await api(again.url, SECRET, 'GET', `/merchant/api/v1/charges/${p.reference}`)).status).toBe(200)
  }, 60_000)
})

import { once } from 'node:events'
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { FORMAT } from '../../src/store/recovery.js'
import { ENC_KEY, SECRET, cardPayload, openStore, tempFile } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { killedAfterEach, runCli, startCli, type RunningCli } from './process.js'
import { NO_AUTH_CARD } from '../helpers/cards.js'

/**
 * The durability promise of --data (docs/behaviour.md#product, docs/behaviour.md#webhooks; issue 9, 4) against a real child process
 * (`npm run build` first: the CLI runs from dist/):
 *
 * - under load from 10 concurrent clients, SIGKILL while requests are in flight: the file parses,
 *   holds every acknowledged charge, and a restart on it answers each one;
 * - a webhook delivery pending at the kill resumes after the restart;
 * - a corrupt data file (damaged inside the snapshot, not only at the tail) is refused at start
 *   with exit code 2 and a message naming it, and is left byte for byte as it was.
 */

const HOOKS_KEY = 'sk_test_durability_hooks'
/** long retries: the pending delivery must still be pending when the process is killed */
const RETRIES = ['--webhook-retry-schedule', '30,30,30']

const { running, cleanups } = killedAfterEach()

async function start(args: string[], env: Record<string, string> = {}): Promise<RunningCli> {
  const r = await startCli(args, env)
  running.push(r)
  return r
}

const headers = (key = SECRET) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' })

async function api(url: string, method: string, path: string, body?: unknown, key = SECRET): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, { method, headers: headers(key), body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, body: await res.json() }
}

function charge(url: string, payload: unknown, key = SECRET) {
  return fetch(`${url}/merchant/api/v1/charges/card`, {
    method: 'POST',
    headers: headers(key),
    body: JSON.stringify({ charge_data: encryptChargeData(payload, ENC_KEY) }),
  })
}

/** Waits (bounded) until the event has `n` recorded attempts; one HTTP call per check, no timer. */
async function eventWithAttempts(url: string, reference: string, n: number, key: string): Promise<any> {
  const deadline = Date.now() + 15_000
  for (;;) {
    const res = await api(url, 'GET', `/_sandbox/events?reference=${encodeURIComponent(reference)}`, undefined, key)
    const ev = res.body.data[0]
    if (ev && ev.attempts.length >= n) return ev
    if (Date.now() > deadline) throw new Error(`the event of ${reference} never got ${n} attempt(s): ${JSON.stringify(res.body.data)}`)
  }
}

describe('--data under SIGKILL (a real child process)', () => {
  it('keeps every acknowledged charge and the pending webhook through a kill mid-load, with compactions beside the appends, and a restart', async () => {
    const file = tempFile()
    const rx = await startReceiver(() => 500)
    cleanups.push(() => rx.close())
    // compact from 16 KB of deltas on (1 MB by default): the load below compacts several times
    // while its changes are appended and acknowledged
    let child = await start(['--data', file, ...RETRIES], { SANDBOX_COMPACT_MIN_BYTES: '16384' })

    // a webhook delivery that fails (500) and waits for its retry, 30 s away
    expect((await api(child.url, 'PUT', '/_sandbox/webhook-url', { url: rx.url }, HOOKS_KEY)).status).toBe(200)
    const hookPayload = cardPayload(NO_AUTH_CARD)
    const hookCharge = await charge(child.url, hookPayload, HOOKS_KEY)
    expect(hookCharge.status).toBe(200)
    await rx.waitFor(1)
    // the GET answers only once every change so far (the failed attempt, the retry timer) is in the file
    const pending = await eventWithAttempts(child.url, hookPayload.reference, 1, HOOKS_KEY)
    expect(pending).toMatchObject({ event: 'charge.success', status: 'pending', target: rx.url })
    expect(pending.attempts[0].status_code).toBe(500)

    // load: 10 concurrent clients; SIGKILL once ~150 charges are acknowledged
    const acknowledged: string[] = [hookPayload.reference]
    const refused: string[] = []
    let killed = false
    let inFlight = 0
    let inFlightAtKill = -1
    const proc = child
    const loop = async () => {
      while (!killed) {
        const p = cardPayload(NO_AUTH_CARD)
        inFlight++
        try {
          const res = await charge(proc.url, p)
          const text = await res.text()
          // a 200 read to its end is acknowledged: the server answers only once the change is in the file
          if (res.status === 200 && JSON.parse(text).data.payment_reference === p.reference) acknowledged.push(p.reference)
          else refused.push(`${res.status} ${text}`)
        } catch (e) {
          if (!killed) throw e
          return // the connection died with the process: not acknowledged
        } finally {
          inFlight--
        }
        if (!killed && acknowledged.length >= 151) {
          killed = true
          inFlightAtKill = inFlight
          proc.child.kill('SIGKILL')
        }
      }
    }
    await Promise.all(Array.from({ length: 10 }, loop))
    await proc.exited
    expect(proc.child.signalCode).toBe('SIGKILL')
    expect(refused).toEqual([])
    expect(inFlightAtKill).toBeGreaterThanOrEqual(1)
    expect(acknowledged.length).toBeGreaterThanOrEqual(151)

    // the file: valid JSON, every acknowledged reference, the pending event
    const text = readFileSync(file, 'utf8')
    let doc: any
    expect(() => (doc = JSON.parse(text))).not.toThrow()
    expect(doc.paysandbox).toBe(FORMAT)
    const missing = acknowledged.filter((r) => !text.includes(`"payment_reference":${JSON.stringify(r)}`))
    expect(missing).toEqual([])
    expect(text).toContain(pending.id)
    // a compaction ran during the load: charges of the load are in the snapshot
    const snapshotRefs = Object.values(doc.snapshot[SECRET]?.charges ?? {}).map((c: any) => c.payment_reference)
    expect(acknowledged.filter((r) => snapshotRefs.includes(r)).length).toBeGreaterThan(0)

    // restart on the same file, the receiver now accepting
    rx.setBehaviour(() => 200)
    child = await start(['--data', file, ...RETRIES])
    const lost: string[] = []
    for (let i = 0; i < acknowledged.length; i += 10) {
      await Promise.all(
        acknowledged.slice(i, i + 10).map(async (reference) => {
          const key = reference === hookPayload.reference ? HOOKS_KEY : SECRET
          const q = await api(child.url, 'GET', `/merchant/api/v1/charges/${encodeURIComponent(reference)}`, undefined, key)
          if (q.status !== 200 || q.body.data.reference !== reference || q.body.data.status !== 'success') lost.push(`${reference}: ${q.status} ${JSON.stringify(q.body)}`)
        }),
      )
    }
    expect(lost).toEqual([])

    // the pending delivery resumes: its retry comes due when the clock moves past it
    expect((await api(child.url, 'POST', '/_sandbox/clock/advance', { seconds: 60 }, HOOKS_KEY)).status).toBe(200)
    const delivered = await api(child.url, 'GET', '/_sandbox/events?status=delivered&wait=10000', undefined, HOOKS_KEY)
    expect(delivered.status).toBe(200)
    expect(delivered.body.data).toHaveLength(1)
    const ev = delivered.body.data[0]
    expect(ev).toMatchObject({ id: pending.id, event: 'charge.success', status: 'delivered', data: { payment_reference: hookPayload.reference } })
    expect(ev.attempts.map((a: any) => a.status_code)).toEqual([500, 200])
    const last = rx.received[rx.received.length - 1]
    expect(last.body).toMatchObject({ event: 'charge.success', data: { payment_reference: hookPayload.reference } })
  }, 120_000)
})

// ---------------------------------------------------------------------------------------------

/**
 * A real data file written by real processes: charges, a compaction (which moves them into the
 * snapshot; a restart appends to a clean file as it is, so the store compacts it here), more
 * charges (appended as deltas), each run stopped cleanly.
 */
async function realDataFile(): Promise<{ file: string; text: string; refs: string[] }> {
  const file = tempFile()
  const refs: string[] = []
  for (const n of [6, 3]) {
    if (n === 3) {
      const store = await openStore({ file })
      await store.compact()
      await store.close()
    }
    const child = await start(['--data', file])
    for (let i = 0; i < n; i++) {
      const p = cardPayload(NO_AUTH_CARD)
      const res = await charge(child.url, p)
      expect(res.status).toBe(200)
      await res.arrayBuffer()
      refs.push(p.reference)
    }
    const closed = once(child.child, 'close')
    child.child.kill('SIGTERM')
    await closed
    expect(child.child.exitCode).toBe(0)
  }
  const text = readFileSync(file, 'utf8')
  expect(() => JSON.parse(text)).not.toThrow()
  return { file, text, refs }
}

/** Damage inside the snapshot (between "snapshot": and "deltas"), never parseable afterwards. */
function snapshotBounds(text: string): [number, number] {
  const from = text.indexOf('"snapshot":')
  const to = text.indexOf('"deltas"')
  expect(from).toBeGreaterThan(0)
  expect(to).toBeGreaterThan(from + 200)
  return [from, to]
}

const CORRUPTIONS: [string, (text: string) => string][] = [
  [
    'truncated in the middle of the snapshot',
    (text) => {
      const [from, to] = snapshotBounds(text)
      return text.slice(0, Math.floor((from + to) / 2))
    },
  ],
  [
    'truncated in the middle of the snapshot, on a line boundary',
    (text) => {
      const [from, to] = snapshotBounds(text)
      return `${text.slice(0, Math.floor((from + to) / 2))}\n`
    },
  ],
  [
    'a hole in the middle of the snapshot, the tail intact',
    (text) => {
      const [from, to] = snapshotBounds(text)
      // 37 bytes gone from the middle; a hole that happens to leave valid JSON moves on a byte
      for (let at = Math.floor((from + to) / 2); at < to; at++) {
        const holed = text.slice(0, at) + text.slice(at + 37)
        try {
          JSON.parse(holed)
        } catch {
          return holed
        }
      }
      throw new Error('no hole broke the snapshot')
    },
  ],
  [
    'zeroed bytes in the middle of the snapshot (a lost page), the tail intact',
    (text) => {
      const [from, to] = snapshotBounds(text)
      const mid = Math.floor((from + to) / 2)
      return text.slice(0, mid) + '\u0000'.repeat(64) + text.slice(mid + 64)
    },
  ],
]

describe('a corrupt data file at start', () => {
  it.each(CORRUPTIONS)('%s: exit code 2, a message naming the file, the file left byte for byte', async (_label, corrupt) => {
    const { file } = await realDataFile()
    const damaged = Buffer.from(corrupt(readFileSync(file, 'utf8')), 'utf8')
    expect(() => JSON.parse(damaged.toString('utf8'))).toThrow()
    writeFileSync(file, damaged)
    const dirBefore = readdirSync(dirname(file)).sort()

    const r = await runCli(['start', '--port', '0', '--data', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(file)
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(r.stdout).not.toContain('listening')
    expect(readFileSync(file).equals(damaged)).toBe(true)
    // nothing written beside it either (no temp file, no replacement)
    expect(readdirSync(dirname(file)).sort()).toEqual(dirBefore)
  }, 60_000)

  it('a damaged delta line in the middle (not the last one) is refused too, the file untouched', async () => {
    const { file, text } = await realDataFile()
    const lines = text.split('\n')
    // line 0 holds the snapshot and the opening of deltas; then one delta per line
    expect(lines.length).toBeGreaterThanOrEqual(4)
    const i = Math.floor(lines.length / 2)
    lines[i] = lines[i].slice(0, Math.floor(lines[i].length / 2))
    const damaged = Buffer.from(lines.join('\n'), 'utf8')
    expect(() => JSON.parse(damaged.toString('utf8'))).toThrow()
    writeFileSync(file, damaged)
    const r = await runCli(['start', '--port', '0', '--data', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(file)
    expect(readFileSync(file).equals(damaged)).toBe(true)
  }, 60_000)

  it('valid JSON that is not a paysandbox file, and a directory: exit code 2 naming it, nothing overwritten', async () => {
    const file = tempFile()
    const foreign = '{"users":[{"id":1}],"note":"not ours"}'
    writeFileSync(file, foreign)
    const r = await runCli(['start', '--port', '0', '--data', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(file)
    expect(readFileSync(file, 'utf8')).toBe(foreign)

    const dir = tempFile('a-directory')
    mkdirSync(dir)
    const d = await runCli(['start', '--port', '0', '--data', dir])
    expect(d.code).toBe(2)
    expect(d.stderr).toContain(dir)
    expect(readdirSync(dir)).toEqual([])
  }, 60_000)

  it('the undamaged file still loads: the same process answers every charge in it', async () => {
    const { file, refs } = await realDataFile()
    const child = await start(['--data', file])
    for (const reference of refs) {
      const q = await api(child.url, 'GET', `/merchant/api/v1/charges/${reference}`)
      expect(q.status).toBe(200)
      expect(q.body.data.reference).toBe(reference)
    }
  }, 60_000)
})

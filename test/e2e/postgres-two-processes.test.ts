import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, cardPayload, ref } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { NO_AUTH_CARD } from '../helpers/cards.js'
import { clusterPerFile, queryDb, roundRobin } from './postgres.js'
import { api, killedAfterEach, runCli, startCli, type RunningCli } from './process.js'

/**
 * Two real CLI processes on one throwaway PostgreSQL (test/e2e/postgres.ts) behind the test's own
 * round-robin proxy, for what docs/architecture.md "Several processes, one database" promises
 * beyond one process: the database stopped and started under traffic (503 in the envelope while it
 * is down, service back by itself, nothing acknowledged lost, nothing refused kept); the shipped
 * flows replayed unchanged through the proxy; and after kill -9 of the owner, each webhook
 * delivered once per attempt schedule and each timer fired once.
 */

const LEASE_MS = 2_000
const KEY = 'sk_test_twoprocs'
const UNAVAILABLE = { status: false, message: 'Service currently unavailable', data: null }
const { running, cleanups } = killedAfterEach()
const cluster = clusterPerFile()

/** Two processes on a database of their own, behind a round-robin proxy; `leaseMs` undefined: the default lease. */
async function deployment(args: string[] = [], leaseMs: number | undefined = LEASE_MS) {
  const url = await cluster.fresh()
  const start = async () => {
    const r = await startCli(['--store', url, ...args], leaseMs === undefined ? {} : { SANDBOX_LEASE_MS: String(leaseMs) })
    running.push(r)
    return r
  }
  const [a, b] = await Promise.all([start(), start()])
  const proxy = await roundRobin([a.url, b.url])
  cleanups.push(() => new Promise((r) => proxy.server.close(r)))
  return { url, a, b, proxy }
}

const charge = (base: string, p: ReturnType<typeof cardPayload>) =>
  api(base, KEY, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(p, ENC_KEY) }, 30_000)

async function ownerOf(url: string, a: RunningCli, b: RunningCli): Promise<{ owner: RunningCli; other: RunningCli }> {
  const [row] = await queryDb(url, 'SELECT url FROM sandbox_leases WHERE ns = $1', [KEY])
  const owner = [a, b].find((p) => p.url === row?.url)!
  expect(owner).toBeDefined()
  return { owner, other: owner === a ? b : a }
}

describe('PostgreSQL stopped and started under traffic, two processes', () => {
  it('answers 503 in the envelope while it is down, serves again by itself, loses nothing acknowledged and keeps nothing refused', async () => {
    const { a, b, proxy } = await deployment()
    const acknowledged: string[] = []
    const refused: string[] = []
    const others: string[] = []
    let phase: 'up' | 'down' | 'starting' | 'back' = 'up'
    let downAnswers = 0
    let backAnswers = 0
    const loop = async () => {
      while (backAnswers < 30) {
        const p = cardPayload(NO_AUTH_CARD)
        const during = phase
        const res = await charge(proxy.url, p)
        if (res.status === 200 && res.body.data.payment_reference === p.reference) {
          acknowledged.push(p.reference)
          if (during === 'back') backAnswers++
        } else if (res.status === 503) {
          expect(res.body).toEqual(UNAVAILABLE)
          refused.push(p.reference)
          if (during === 'down') downAnswers++
        } else others.push(`${res.status} ${JSON.stringify(res.body)}`)
        if (phase === 'up' && acknowledged.length >= 40) {
          phase = 'down'
          await cluster.pg.stop()
        } else if (phase === 'down' && downAnswers >= 40) {
          phase = 'starting'
          await cluster.pg.start()
          phase = 'back'
        }
      }
    }
    await Promise.all(Array.from({ length: 6 }, loop))
    expect(others).toEqual([])
    expect(downAnswers).toBeGreaterThanOrEqual(40)
    expect(backAnswers).toBeGreaterThanOrEqual(30)
    // both processes had calls while it was down and once it was back
    expect(proxy.sent.every((n) => n >= 50)).toBe(true)
    for (const p of [a, b]) expect(p.child.exitCode).toBeNull()

    // every acknowledged charge, through either process; no refused one anywhere
    const lost: string[] = []
    const kept: string[] = []
    for (const base of [a.url, b.url]) {
      for (const reference of acknowledged) {
        const q = await api(base, KEY, 'GET', `/merchant/api/v1/charges/${reference}`, undefined, 30_000)
        if (q.status !== 200 || q.body.data.status !== 'success') lost.push(`${reference}: ${q.status}`)
      }
      for (const reference of refused) {
        const q = await api(base, KEY, 'GET', `/merchant/api/v1/charges/${reference}`, undefined, 30_000)
        if (q.status !== 404) kept.push(`${reference}: ${q.status}`)
      }
    }
    expect(lost).toEqual([])
    expect(kept).toEqual([])
    console.log(`database stop/start under traffic: ${acknowledged.length} acknowledged, ${refused.length} answered 503`)
  }, 120_000)
})

describe('the shipped flows against a two-process deployment', () => {
  it('replay unchanged through the round-robin proxy', async () => {
    // four flows at once (replay's default), each a namespace of its own taken while the leases
    // held are being renewed (every 2/3 s here): each is kept, never let go for want of a renewal
    const { a, b, proxy } = await deployment()
    const r = await runCli(['replay', 'scenarios/flows', '--base-url', proxy.url])
    expect(r.code, r.stdout + r.stderr + a.stderr() + b.stderr()).toBe(0)
    expect(proxy.sent.every((n) => n >= 100)).toBe(true)
  }, 180_000)
})

describe('kill -9 of the owner with deliveries and timers pending', () => {
  it('delivers each webhook once per attempt schedule and fires each timer once, on the process that took over', async () => {
    const { url, a, b, proxy } = await deployment(['--webhook-retry-schedule', '30,30,30'])
    // every first attempt fails, every later one succeeds
    const seen = new Map<string, number>()
    const rx = await startReceiver()
    rx.setBehaviour((n) => {
      const body = rx.received[n - 1].body
      const key = `${body?.event} ${body?.data?.reference ?? body?.data?.payment_reference}`
      const count = (seen.get(key) ?? 0) + 1
      seen.set(key, count)
      return count === 1 ? 500 : 200
    })
    cleanups.push(() => rx.close())
    const call = (method: string, path: string, body?: unknown) => api(proxy.url, KEY, method, path, body, 30_000)
    expect((await call('POST', '/_sandbox/clock/freeze', { frozen: true })).status).toBe(200)
    expect((await call('PUT', '/_sandbox/webhook-url', { url: rx.url })).status).toBe(200)

    // five charges, each with a failed first delivery and its retry pending
    const charges = Array.from({ length: 5 }, () => cardPayload(NO_AUTH_CARD))
    for (const p of charges) expect((await charge(proxy.url, p)).status).toBe(200)
    // five payouts: the timer that ends each (and its webhook) pending on a frozen clock
    const payouts = Array.from({ length: 5 }, () => ref('once'))
    for (const reference of payouts) {
      const res = await call('POST', '/merchant/api/v1/transactions/disburse', {
        reference,
        destination: { type: 'bank_account', amount: 1000, currency: 'NGN', bank_account: { bank: '033', account: '0000000000' }, customer: { email: 'payee@example.com' } },
      })
      expect(res.status).toBe(200)
      expect(res.body.data.status).toBe('processing')
    }
    await rx.waitFor(charges.length)
    for (const p of charges) {
      const deadline = Date.now() + 15_000
      while ((await call('GET', `/_sandbox/events?reference=${p.reference}`)).body.data[0]?.attempts.length !== 1) {
        if (Date.now() > deadline) throw new Error(`the first attempt of ${p.reference} was never recorded`)
      }
    }

    const { owner, other } = await ownerOf(url, a, b)
    owner.child.kill('SIGKILL')
    await owner.exited
    // the clock moves on the process that took over: every retry and every payout's end comes due
    expect((await api(other.url, KEY, 'POST', '/_sandbox/clock/advance', { seconds: 120 }, 30_000)).status).toBe(200)
    for (const reference of [...charges.map((p) => p.reference), ...payouts]) {
      const d = await api(other.url, KEY, 'GET', `/_sandbox/events?reference=${reference}&status=delivered&wait=15000`, undefined, 30_000)
      expect(d.body.data.length, reference).toBeGreaterThanOrEqual(1)
    }
    // well past the whole schedule: nothing more comes
    expect((await api(other.url, KEY, 'POST', '/_sandbox/clock/advance', { seconds: 600 }, 30_000)).status).toBe(200)
    const eventsOf = async (reference: string) => (await api(other.url, KEY, 'GET', `/_sandbox/events?reference=${reference}`, undefined, 30_000)).body.data

    for (const p of charges) {
      const events = await eventsOf(p.reference)
      expect(events.map((e: any) => [e.status, e.attempts.map((x: any) => x.status_code)])).toEqual([['delivered', [500, 200]]])
      expect(rx.received.filter((r) => r.body?.data?.payment_reference === p.reference || r.body?.data?.reference === p.reference)).toHaveLength(2)
    }
    for (const reference of payouts) {
      const q = await api(other.url, KEY, 'GET', `/merchant/api/v1/transactions/${reference}`, undefined, 30_000)
      expect(q.body.data.status).toBe('success')
      // the payout's timer fired once: one event, delivered on its schedule
      const events = await eventsOf(reference)
      expect(events.map((e: any) => [e.event, e.status, e.attempts.map((x: any) => x.status_code)])).toEqual([['transfer.success', 'delivered', [500, 200]]])
      expect(rx.received.filter((r) => r.body?.data?.reference === reference)).toHaveLength(2)
    }
    expect(rx.received).toHaveLength(2 * (charges.length + payouts.length))
  }, 120_000)
})

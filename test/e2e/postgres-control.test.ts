import { networkInterfaces } from 'node:os'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { FORWARDED } from '../../src/cluster.js'
import { MSG } from '../../src/messages.js'
import { ENC_KEY, cardPayload } from '../helpers/sandbox.js'
import { NO_AUTH_CARD } from '../helpers/cards.js'
import { clusterPerFile, queryDb } from './postgres.js'
import { api, freePort, killedAfterEach, runCli, type RunningCli } from './process.js'

/**
 * What is kept per process on the PostgreSQL store (the request journal, armed faults) and the
 * dashboard, through two real CLI processes on one throwaway PostgreSQL (docs/architecture.md,
 * "Several processes, one database"): asked through the process that does not own the namespace,
 * each gives the owner's. A lease is never left behind by a call that made no namespace, and a
 * control call the forwarding process would refuse is not forwarded.
 */

const KEY = 'sk_test_control'
const { spawnCli } = killedAfterEach()
const cluster = clusterPerFile()

async function deployment(args: string[] = [], argsB: string[] = args): Promise<{ url: string; a: RunningCli; b: RunningCli }> {
  const url = await cluster.fresh()
  const [a, b] = await Promise.all([spawnCli(['--store', url, ...args]), spawnCli(['--store', url, ...argsB])])
  return { url, a, b }
}

const leaseOf = async (url: string, ns: string) => (await queryDb(url, 'SELECT url FROM sandbox_leases WHERE ns = $1', [ns]))[0]?.url as string | undefined

const charge = (base: string, key = KEY) => {
  const p = cardPayload(NO_AUTH_CARD)
  return api(base, key, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(p, ENC_KEY) }).then((res) => ({ res, reference: p.reference }))
}

describe('the journal, faults, snapshot and dashboard of a namespace another process owns', () => {
  it('are the owner\'s, asked through either process', async () => {
    const { url, a, b } = await deployment()
    // a owns the namespace: its first call came there
    expect((await charge(a.url)).res.status).toBe(200)
    expect(await leaseOf(url, KEY)).toBe(a.url)
    const { res, reference } = await charge(b.url)
    expect([res.status, res.body.data.status]).toEqual([200, 'success'])

    // the journal: both calls, whichever process was called, and the same through either
    const journal = async (base: string) => (await api(base, KEY, 'GET', '/_sandbox/requests?method=POST')).body.data
    const [viaA, viaB] = [await journal(a.url), await journal(b.url)]
    expect(viaB.map((e: any) => e.path)).toEqual(['/merchant/api/v1/charges/card', '/merchant/api/v1/charges/card'])
    expect(viaB).toEqual(viaA)

    // a fault armed through b fires on a call through a; listed the same through either
    const armed = await api(b.url, KEY, 'POST', '/_sandbox/faults', { kind: 'error', path: '/merchant/api/v1/balances', times: 2, status: 503 })
    expect(armed.status).toBe(200)
    expect((await api(a.url, KEY, 'GET', '/merchant/api/v1/balances')).status).toBe(503)
    const faults = async (base: string) => (await api(base, KEY, 'GET', '/_sandbox/faults')).body.data
    expect(await faults(b.url)).toEqual([expect.objectContaining({ id: armed.body.data.id, hits: 1, remaining: 1 })])
    expect(await faults(a.url)).toEqual(await faults(b.url))
    expect((await api(b.url, KEY, 'GET', '/merchant/api/v1/balances')).status).toBe(503)
    expect((await api(b.url, KEY, 'GET', '/merchant/api/v1/balances')).status).toBe(200)

    // `sandbox snapshot` through b: the owner's records, as the owner gives them
    const snap = await runCli(['snapshot', '--key', KEY, '--base-url', b.url])
    expect(snap.code, snap.stderr).toBe(0)
    const taken = JSON.parse(snap.stdout)
    expect(Object.values(taken.records.charges).map((c: any) => c.payment_reference)).toContain(reference)
    // the same records as the owner's own (the clock runs between the two)
    expect(taken.records).toEqual((await api(a.url, KEY, 'GET', '/_sandbox/snapshot')).body.data.records)

    // the dashboard of the namespace (no key: its ?ns=) through b: the owner's page and live part
    for (const path of ['/_sandbox/ui', '/_sandbox/ui/fragment']) {
      const page = await fetch(`${b.url}${path}?ns=${KEY}`)
      const html = await page.text()
      expect(page.status, path).toBe(200)
      expect(html, path).toContain(reference)
      expect(html, path).not.toContain(`There is no namespace ${KEY}`)
    }
    // a namespace nobody has: the page says so, and no lease is kept for it
    const none = await fetch(`${b.url}/_sandbox/ui?ns=sk_test_nobody`)
    expect(await none.text()).toContain('There is no namespace sk_test_nobody')
    expect(await leaseOf(url, 'sk_test_nobody')).toBeUndefined()
    expect(await leaseOf(url, KEY)).toBe(a.url)
  }, 60_000)
})

describe('reset, a snapshot restored and --seed through the process that does not own the namespace', () => {
  it('change the owner\'s namespace and the database, and a takeover draws on from the seeded stream', async () => {
    const { url, a, b } = await deployment(['--seed', '7'], ['--seed', '7'])
    const first = await charge(a.url)
    expect(first.res.status).toBe(200)
    expect(await leaseOf(url, KEY)).toBe(a.url)
    const rows = async () => (await queryDb(url, "SELECT value FROM sandbox_records WHERE ns = $1 AND collection = 'charges'", [KEY])).map((r) => r.value as string).join('\n')

    // a snapshot taken through b, a charge after it, the snapshot put back through b: the charge is gone everywhere
    const snapshot = (await api(b.url, KEY, 'GET', '/_sandbox/snapshot')).body.data
    const later = await charge(b.url)
    expect(later.res.status).toBe(200)
    const restored = await fetch(`${b.url}/_sandbox/snapshot`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(snapshot) })
    expect(restored.status).toBe(200)
    for (const base of [a.url, b.url]) {
      expect((await api(base, KEY, 'GET', `/merchant/api/v1/charges/${later.reference}`)).status).toBe(404)
      expect((await api(base, KEY, 'GET', `/merchant/api/v1/charges/${first.reference}`)).status).toBe(200)
    }
    expect(await rows()).not.toContain(later.reference)
    expect(await rows()).toContain(first.reference)

    // a reset through b: the owner's namespace and the database's rows emptied
    expect((await api(b.url, KEY, 'POST', '/_sandbox/reset')).status).toBe(200)
    expect((await api(a.url, KEY, 'GET', `/merchant/api/v1/charges/${first.reference}`)).status).toBe(404)
    expect(await rows()).toBe('')

    // seeded draws after the reset, then kill -9 of the owner: b takes over and draws on, never again
    const drawn: string[] = []
    for (let i = 0; i < 3; i++) drawn.push((await charge(b.url)).res.body.data.transaction_reference)
    a.child.kill('SIGKILL')
    await a.exited
    for (let i = 0; i < 3; i++) {
      const { res } = await charge(b.url)
      expect(res.status).toBe(200)
      drawn.push(res.body.data.transaction_reference)
    }
    expect(await leaseOf(url, KEY)).toBe(b.url)
    expect(new Set(drawn).size).toBe(6)
  }, 60_000)
})

describe('--max-namespaces on the PostgreSQL store', () => {
  it('leaves no lease for a key it refuses: another process with room takes the namespace', async () => {
    const { url, a, b } = await deployment(['--max-namespaces', '1'])
    expect((await charge(a.url, 'sk_test_first')).res.status).toBe(200)
    const refused = await charge(a.url, 'sk_test_second')
    expect([refused.res.status, refused.res.body.message]).toEqual([403, MSG.namespaceLimit('at most 1 namespaces are kept')])
    expect(await leaseOf(url, 'sk_test_second')).toBeUndefined()
    // each process keeps at most --max-namespaces: b, which holds none, makes it
    const taken = await charge(b.url, 'sk_test_second')
    expect([taken.res.status, taken.res.body.data.status]).toEqual([200, 'success'])
    expect(await leaseOf(url, 'sk_test_second')).toBe(b.url)
  }, 60_000)
})

describe('a control call from beyond loopback', () => {
  it('is refused by the process it reaches, never forwarded to an owner that would take that process for a loopback caller', async () => {
    const address = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address
    if (!address) throw new Error('this machine has no address beyond loopback to call from')
    // b, the owner, on loopback only (reached by a at 127.0.0.1); a on every address, no control token
    const port = await freePort()
    const { a, b } = await deployment(['--host', '0.0.0.0'], ['--host', '127.0.0.1', '--port', String(port)])
    expect((await api(b.url, KEY, 'GET', '/_sandbox/clock')).status).toBe(200)
    const aPort = new URL(a.url).port
    const beyond = await api(`http://${address}:${aPort}`, KEY, 'GET', '/_sandbox/clock')
    expect([beyond.status, beyond.body.message]).toEqual([403, MSG.FORBIDDEN_CONTROL])
    // from a's loopback it is forwarded to b as before
    expect((await api(`http://127.0.0.1:${aPort}`, KEY, 'GET', '/_sandbox/clock')).status).toBe(200)
  }, 60_000)
})

describe('the forwarded header sent by a client', () => {
  it('is not taken for a process of the deployment: the call is forwarded to the owner, not held until the lease runs out', async () => {
    const { url, a, b } = await deployment()
    expect((await charge(a.url)).res.status).toBe(200)
    expect(await leaseOf(url, KEY)).toBe(a.url)
    // taken for a forwarded call, b would wait for a's lease, which a renews, three times and answer 503
    const res = await fetch(`${b.url}/merchant/api/v1/balances`, { headers: { authorization: `Bearer ${KEY}`, [FORWARDED]: 'anything' } })
    expect(res.status).toBe(200)
    expect(await leaseOf(url, KEY)).toBe(a.url)
    // the secret the processes send is in the database, which a client of the sandbox does not read
    const [secret] = await queryDb(url, "SELECT value FROM sandbox_meta WHERE name = 'forward_secret'")
    expect(secret.value).toMatch(/^[\w-]{43}$/)
  }, 60_000)
})

describe("the dashboard's list of namespaces", () => {
  it('names every namespace of the deployment through either process, those no process holds too, each linking to its page', async () => {
    const { url, a, b } = await deployment()
    const first = await charge(a.url, 'sk_test_dash_a')
    expect(first.res.status).toBe(200)
    expect((await charge(b.url, 'sk_test_dash_b')).res.status).toBe(200)
    expect([await leaseOf(url, 'sk_test_dash_a'), await leaseOf(url, 'sk_test_dash_b')]).toEqual([a.url, b.url])
    // a namespace with records and no lease: written while no process held it
    const copy = (to: string) => `INSERT INTO sandbox_records (ns, collection, key, value) SELECT ${to}, collection, key, replace(value, 'sk_test_dash_a', ${to})
      FROM sandbox_records WHERE ns = 'sk_test_dash_a' AND collection = 'meta' AND key = 'ns'`
    await queryDb(url, copy("'sk_test_dash_c'"))
    const names = ['sk_test_dash_a', 'sk_test_dash_b', 'sk_test_dash_c']
    for (const base of [a.url, b.url]) {
      for (const path of ['/_sandbox/ui', '/_sandbox/ui/fragment']) {
        const html = await (await fetch(`${base}${path}`)).text()
        for (const ns of names) expect(html, `${base}${path}`).toContain(`href="/_sandbox/ui?ns=${ns}"`)
      }
    }
    expect(await leaseOf(url, 'sk_test_dash_c')).toBeUndefined()
    // each link is its namespace's page: the owner's, through the other process; the one no process held taken up
    expect(await (await fetch(`${b.url}/_sandbox/ui?ns=sk_test_dash_a`)).text()).toContain(first.reference)
    const unheld = await (await fetch(`${a.url}/_sandbox/ui?ns=sk_test_dash_c`)).text()
    expect(unheld).toContain('<main data-ns="sk_test_dash_c">')
    expect(unheld).not.toContain('There is no namespace')

    // bounded as the dashboard's lists are: the first 200, by key, and how many there are
    await queryDb(url, copy("'sk_test_dash_x' || lpad(n::text, 3, '0')").replace('FROM sandbox_records', 'FROM generate_series(1, 200) AS n, sandbox_records'))
    const html = await (await fetch(`${b.url}/_sandbox/ui`)).text()
    expect(html).toContain('200 of 203 namespaces listed')
    expect(html).toContain('href="/_sandbox/ui?ns=sk_test_dash_x197"')
    expect(html).not.toContain('href="/_sandbox/ui?ns=sk_test_dash_x198"')
  }, 60_000)
})

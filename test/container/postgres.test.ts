import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { api } from '../e2e/process.js'
import { queryDb, roundRobin, startCluster } from '../e2e/postgres.js'
import { ENC_KEY, cardPayload } from '../helpers/sandbox.js'
import { NO_AUTH_CARD } from '../helpers/cards.js'
import { docker, firstAnswer, logs, network, run, type Container } from './docker.js'
import { cleanedAfterEach } from '../helpers/after-each.js'

/**
 * Two containers of the image on one PostgreSQL on the host (docs/postgres.md, the compose file's
 * arrangement): a throwaway cluster of the test's own (test/e2e/postgres.ts) listening on the
 * gateway of a docker network of its own, password-checked there; each container reaches it at that
 * address and the other container by its name (SANDBOX_ADVERTISE_URL). The test calls them through
 * its round-robin proxy on the host, and `docker kill`s the owner of the namespace.
 */

const KEY = 'sk_test_containers'
const LEASE_MS = 2_000
const PASSWORD = 'pw-containers'

const closers = cleanedAfterEach()

describe('two image containers on a PostgreSQL on the host', () => {
  it('serve every call of a namespace behind a round robin, a charge made through one read through the other, and the other takes over after docker kill of the owner', async () => {
    const net = await network()
    const pg = await startCluster({ address: net.gateway, network: net.subnet, password: PASSWORD })
    // after the containers (removed by docker.ts after each test), hence pushed first
    closers.push(() => pg.remove())
    const store = `postgres://postgres:${PASSWORD}@${net.gateway}:${pg.port}/postgres`
    const box = (name: string): Promise<Container> =>
      run(['--network', net.name, '--network-alias', name, '-e', `SANDBOX_STORE=${store}`, '-e', `SANDBOX_ADVERTISE_URL=http://${name}:4010`, '-e', `SANDBOX_LEASE_MS=${LEASE_MS}`])
    const [a, b] = await Promise.all([box('sandbox-a'), box('sandbox-b')])
    const [{ url: aUrl }, { url: bUrl }] = await Promise.all([firstAnswer(a), firstAnswer(b)])
    // the password is never printed
    for (const c of [a, b]) expect(await logs(c.id)).not.toContain(PASSWORD)
    const proxy = await roundRobin([aUrl, bUrl])
    closers.push(() => new Promise((r) => proxy.server.close(r)))
    const charge = (base: string) => {
      const p = cardPayload(NO_AUTH_CARD)
      return api(base, KEY, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(p, ENC_KEY) }, 20_000).then((res) => ({ res, reference: p.reference }))
    }
    const query = (base: string, reference: string) => api(base, KEY, 'GET', `/merchant/api/v1/charges/${reference}`, undefined, 20_000)

    // a charge through one container, read back through the other
    const first = await charge(aUrl)
    expect([first.res.status, first.res.body.data.status]).toEqual([200, 'success'])
    const readBack = await query(bUrl, first.reference)
    expect([readBack.status, readBack.body.data.status, readBack.body.data.reference]).toEqual([200, 'success', first.reference])

    // twenty through the round robin: each answered, each found through either container
    const acknowledged = [first.reference]
    for (let i = 0; i < 20; i++) {
      const { res, reference } = await charge(proxy.url)
      expect([res.status, res.body.data.status]).toEqual([200, 'success'])
      acknowledged.push(reference)
    }
    expect(proxy.sent).toEqual([10, 10])
    for (const base of [aUrl, bUrl]) for (const reference of acknowledged) expect((await query(base, reference)).status).toBe(200)

    // one container owns the namespace (its lease row names it); docker kill (SIGKILL) it
    const [lease] = await queryDb(pg.url, 'SELECT url FROM sandbox_leases WHERE ns = $1', [KEY])
    expect(['http://sandbox-a:4010', 'http://sandbox-b:4010']).toContain(lease.url)
    const [owner, otherUrl] = lease.url === 'http://sandbox-a:4010' ? [a, bUrl] : [b, aUrl]
    await docker('kill', owner.id)
    const killedAt = Date.now()
    // the other answers for the namespace once the lease has run out, with every acknowledged charge
    const after = await charge(otherUrl)
    const takeover = Date.now() - killedAt
    expect([after.res.status, after.res.body.data.status]).toEqual([200, 'success'])
    console.log(`containers: the other answered ${takeover} ms after docker kill of the owner (SANDBOX_LEASE_MS=${LEASE_MS})`)
    expect(takeover).toBeLessThan(LEASE_MS + 3_000)
    for (const reference of acknowledged) {
      const q = await query(otherUrl, reference)
      expect([q.status, q.body.data.status], reference).toEqual([200, 'success'])
    }
    const [now] = await queryDb(pg.url, 'SELECT url FROM sandbox_leases WHERE ns = $1', [KEY])
    expect(now.url).not.toBe(lease.url)
  })
})

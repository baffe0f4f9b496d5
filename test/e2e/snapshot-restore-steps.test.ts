import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY } from '../helpers/sandbox.js'
import { api, killedAfterEach, startCli } from './process.js'

/**
 * docs/behaviour.md#snapshots on the real CLI: a snapshot of almost 16 MiB (the default
 * --snapshot-bytes) is restored in steps, the event loop free between them, so the health check
 * and another namespace's calls are answered while it is read and put. No timing is asserted
 * (bench/restore.mjs measures it): the order the answers arrive in is. The whole restore in one
 * synchronous turn answered none of them until it had answered itself.
 */

const { running } = killedAfterEach()
const KEY = 'sk_test_restore_steps'

/** A real snapshot of a namespace with one card charge, that charge copied under new references until the document is about `bytes` long. */
async function bigSnapshot(url: string, bytes: number): Promise<string> {
  const payload = { reference: 'steps-card-0', card: { number: '4084127883172787', cvv: '123', expiry_month: '09', expiry_year: '30' }, amount: 1000, currency: 'NGN', customer: { email: 'buyer@example.com', name: 'Ada Buyer' } }
  expect((await api(url, KEY, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(payload, ENC_KEY) })).status).toBe(200)
  const snap = (await api(url, KEY, 'GET', '/_sandbox/snapshot')).body.data
  const [charge] = Object.values<any>(snap.records.charges)
  const each = JSON.stringify(charge).length + 40
  for (let i = 1; i <= Math.floor(bytes / each); i++) {
    const tx = `KPY-CA-STEPS${String(i).padStart(8, '0')}`
    snap.records.charges[tx] = { ...charge, transaction_reference: tx, payment_reference: `steps-card-${i}` }
  }
  return JSON.stringify(snap)
}

/** POSTs a snapshot; `sent` is called once the whole body is handed to the socket. */
function restore(url: string, key: string, body: string, sent: () => void): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/_sandbox/snapshot`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode!, text }))
    })
    req.on('error', reject)
    req.on('finish', sent)
    req.end(body)
  })
}

describe('a 16 MiB snapshot restore', () => {
  it('answers the health check and another namespace while it is restored, before its own answer', async () => {
    const cli = await startCli([])
    running.push(cli)
    const body = await bigSnapshot(cli.url, 15 * 1024 * 1024)
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(16 * 1024 * 1024)
    let phase: 'sending' | 'restoring' | 'answered' = 'sending'
    const during = { health: 0, other: 0 }
    const poll = async (what: keyof typeof during, path: string, key: string) => {
      while (phase !== 'answered') {
        const res = await api(cli.url, key, 'GET', path)
        expect(res.status, JSON.stringify(res.body)).toBe(200)
        if (phase === 'restoring') during[what]++
      }
    }
    const restored = restore(cli.url, 'sk_test_restore_steps_copy', body, () => (phase = 'restoring')).then((res) => {
      phase = 'answered'
      return res
    })
    const [res] = await Promise.all([restored, poll('health', '/_sandbox/health', KEY), poll('other', '/merchant/api/v1/balances', 'sk_test_restore_steps_other')])
    expect(res.status, res.text.slice(0, 300)).toBe(200)
    // both were answered, more than once, after the snapshot was sent and before it was answered
    expect(during.health).toBeGreaterThan(3)
    expect(during.other).toBeGreaterThan(3)
    // and the namespace holds the snapshot's records
    const last = JSON.parse(body).records.charges
    const reference = (Object.values(last).at(-1) as { payment_reference: string }).payment_reference
    expect((await api(cli.url, 'sk_test_restore_steps_copy', 'GET', `/merchant/api/v1/charges/${reference}`)).status).toBe(200)
  }, 120_000)
})

import { describe, expect, it } from 'vitest'
import { killedAfterEach, startCli } from './process.js'

/**
 * docs/behaviour.md#look-ups against the real CLI (dist/, reading the shipped fixtures/lookups.json):
 * a merchant's bank look-up code, called with the public key as public clients do, then the
 * resolve with the secret key; the public key is refused on a charge.
 */

const { running } = killedAfterEach()

describe('look-ups over a socket', () => {
  it('lists banks and operators to the public key, resolves with either key, and the charge route still refuses the public key', async () => {
    const cli = await startCli([])
    running.push(cli)
    const call = async (key: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${cli.url}/merchant/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      })
      return { status: res.status, body: (await res.json()) as any }
    }
    const banks = await call('pk_test_sandbox', 'GET', '/misc/banks?countryCode=NG')
    expect(banks.status).toBe(200)
    expect(banks.body.message).toBe('Successful')
    const uba = banks.body.data.find((b: { code: string }) => b.code === '033')
    expect(uba).toEqual({ name: 'United Bank for Africa', slug: 'uba', code: '033', nibss_bank_code: '000004', country: 'NG' })
    const mmo = await call('pk_test_sandbox', 'GET', '/misc/mobile-money?countryCode=GH')
    expect(mmo.body.data.map((o: { slug: string }) => o.slug)).toContain('mtn-gh')
    for (const key of ['pk_test_sandbox', 'sk_test_sandbox']) {
      const r = await call(key, 'POST', '/misc/banks/resolve', { bank: uba.code, account: '0000000000' })
      expect(r).toEqual({ status: 200, body: { status: true, message: 'Request Completed', data: { bank_name: 'United Bank for Africa', bank_code: '033', account_number: '0000000000', account_name: 'SANDBOX ACCOUNT' } } })
    }
    const charge = await call('pk_test_sandbox', 'POST', '/charges/card', { charge_data: 'x' })
    expect(charge).toEqual({ status: 401, body: { status: false, message: 'Invalid authorization key', data: { hint: 'A public key where a secret key is needed: this call takes the secret key (sk_test_..., the one the start printed beside this public key).' } } })
  })
})

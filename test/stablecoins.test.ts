import { describe, expect, it } from 'vitest'
import { fieldMessages, ref, sandboxPerTest } from './helpers/sandbox.js'

/** docs/behaviour.md#stablecoin-wallets: stablecoin wallets, over HTTP. */

const sandbox = sandboxPerTest()
const WALLETS = '/merchant/api/v1/crypto/wallets'
const body = (over: Record<string, unknown> = {}) => ({ reference: ref('wallet'), currency: 'USDT', network: 'SOL', customer: { name: 'Rhianna Russel', email: 'buyer@example.com' }, ...over })

describe('POST /crypto/wallets and GET /crypto/wallets/{reference}', () => {
  it('makes an active wallet with an address of its network, and reads it back by the reference', async () => {
    const sb = await sandbox()
    const addresses: Record<string, RegExp> = { SOL: /^[1-9A-HJ-NP-Za-km-z]{44}$/, ETH: /^0x[0-9a-f]{40}$/, TRX: /^T[1-9A-HJ-NP-Za-km-z]{33}$/ }
    for (const [network, address] of Object.entries(addresses)) {
      const b = body({ network, currency: network === 'ETH' ? 'USDC' : 'USDT' })
      const made = await sb.call('POST', WALLETS, b)
      expect([made.status, made.body.message]).toEqual([200, 'Wallet successfully created'])
      expect(made.body.data).toEqual({ wallet_reference: expect.stringMatching(/^tre-cry-[0-9a-f]{64}$/), reference: b.reference, address: expect.stringMatching(address), network, currency: b.currency, customer: b.customer, status: 'active' })
      const read = await sb.call('GET', `${WALLETS}/${b.reference}`)
      expect([read.status, read.body]).toEqual([200, { status: true, message: 'Wallet successfully retrieved', data: made.body.data }])
    }
    // no network: SOL
    expect((await sb.call('POST', WALLETS, body({ network: undefined }))).body.data.network).toBe('SOL')
  })

  it('refuses a reused reference (409), a bad body (422) and an unknown reference (404), changing nothing', async () => {
    const sb = await sandbox()
    const b = body()
    const first = await sb.call('POST', WALLETS, b)
    const again = await sb.call('POST', WALLETS, { ...b, currency: 'USDC' })
    expect([again.status, again.body]).toEqual([409, { status: false, message: `Wallet with reference ${b.reference} already exists`, data: null }])
    expect((await sb.call('GET', `${WALLETS}/${b.reference}`)).body.data).toEqual(first.body.data)
    const bad = await sb.call('POST', WALLETS, { reference: ref('w'), currency: 'BTC', network: 'BTC', customer: { email: 'nope' } })
    expect([bad.status, bad.body.message, bad.body.data]).toEqual([422, 'Invalid request data', fieldMessages({ currency: 'must be one of "USDT", "USDC"', network: 'must be one of "SOL", "ETH", "TRX"', 'customer.name': 'is required', 'customer.email': 'must be a valid e-mail address' })])
    const missing = await sb.call('GET', `${WALLETS}/nope-wallet`)
    expect([missing.status, missing.body]).toEqual([404, { status: false, message: 'Wallet not found', data: null }])
  })
})

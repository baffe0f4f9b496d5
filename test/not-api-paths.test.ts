import { describe, expect, it } from 'vitest'
import { SECRET, ref, sandboxPerTest } from './helpers/sandbox.js'

/**
 * `/api/v1/...` paths that SPEC.md does not name are not API routes (docs/behaviour.md#beyond-the-seed,
 * CONTRACT 14): a public client's suite, recorded against the live test environment, sent bulk
 * payouts to the bare `/api/v1/...` and asserts HTTP 200 with the plain text `Welcome to Kora`.
 * Bulk payouts live under `/merchant/api/v1/...` only.
 */

const sandbox = sandboxPerTest()

const bulk = () => ({
  batch_reference: ref('batch'),
  description: 'Salaries',
  currency: 'NGN',
  merchant_bears_cost: true,
  payouts: ['0000000000', '0000000001'].map((account) => ({ reference: ref('bi'), amount: 1000, type: 'bank_account', narration: 'Bulk', bank_account: { bank_code: '033', account_number: account }, customer: { name: 'Payee', email: 'p@example.com' } })),
})

describe('/api/v1 paths SPEC.md does not name', () => {
  it('answer 200 text/plain `Welcome to Kora` and change nothing: the bulk payout a public client sent there', async () => {
    const sb = await sandbox()
    const before = (await sb.call('GET', '/merchant/api/v1/balances')).body.data
    const body = bulk()
    for (const [method, path, sent] of [
      ['POST', '/api/v1/transactions/disburse/bulk', body],
      ['GET', `/api/v1/transactions/bulk/${body.batch_reference}`, undefined],
      ['GET', `/api/v1/transactions/bulk/${body.batch_reference}/payouts`, undefined],
      ['POST', '/api/v1/conversions/rates', { from_currency: 'USD', to_currency: 'NGN', amount: 10, reference: ref('rate') }],
      ['GET', '/api/v1/anything/at/all', undefined],
    ] as const) {
      for (const key of [SECRET, null]) {
        const res = await sb.app.request(path, {
          method,
          headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(sent ? { 'content-type': 'application/json' } : {}) },
          body: sent ? JSON.stringify(sent) : undefined,
        })
        expect([res.status, res.headers.get('content-type'), await res.text()], `${method} ${path}`).toEqual([200, 'text/plain;charset=UTF-8', 'Welcome to Kora'])
      }
    }
    // nothing was paid out, nothing journaled as a call of the namespace
    expect((await sb.call('GET', `/merchant/api/v1/transactions/bulk/${body.batch_reference}`)).status).toBe(404)
    expect((await sb.call('GET', '/merchant/api/v1/balances')).body.data).toEqual(before)
    // under /merchant the batch is a batch
    const made = await sb.call('POST', '/merchant/api/v1/transactions/disburse/bulk', body)
    expect([made.status, made.body.message]).toEqual([200, 'Bulk Transfer initiated successfully'])
  })

  it("leave SPEC.md's own /api/v1 paths alone: identities and direct debit are served, an unknown one of theirs is not found", async () => {
    const sb = await sandbox()
    const bvn = await sb.call('POST', '/api/v1/identities/ng/bvn', { id: '22222222222', verification_consent: true })
    expect(bvn.status).toBe(200)
    expect((await sb.call('POST', '/api/v1/direct-debit/authorizations/nope/debits', { amount: 100, narration: 'x', currency: 'NGN' })).status).toBe(404)
    for (const path of ['/api/v1/identities/zz/nothing', '/api/v1/direct-debit/nothing']) {
      const res = await sb.call('POST', path, {})
      expect([res.status, res.body], path).toEqual([404, { status: false, message: 'Route not found', data: null }])
    }
  })
})

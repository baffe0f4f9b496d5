import { describe, expect, it } from 'vitest'
import { ref } from '../helpers/sandbox.js'
import { caller, frozenWithData } from './caller.js'
import { killedAfterEach } from './process.js'

/**
 * docs/behaviour.md#payouts: the balance check and the debit of a payout are one synchronous step, so
 * payouts that race over real sockets cannot overdraw the balance. 50 concurrent payouts against
 * the real CLI with a data file, a balance covering exactly 10: 10 are accepted, 40 refused, the
 * balance exact, and all of it the same after kill -9 and a restart. A bulk payout too comes back
 * whole after kill -9.
 */

const { spawnCli } = killedAfterEach()

const call = (url: string, method: string, path: string, body?: unknown) => caller(url, 20_000)(method, path, body)

describe('50 payouts racing for a balance that covers 10', () => {
  it('pay exactly 10, refuse 40 with Insufficient funds in disbursement wallet, and keep the balance exact across kill -9', async () => {
    // a frozen clock: the accepted payouts stay processing, their debits held
    const { file, cli: first } = await frozenWithData(spawnCli)
    // each payout of 1,000 NGN costs 1,032.25: the balance covers exactly 10
    expect((await call(first.url, 'POST', '/_sandbox/scenarios', { settings: { opening_balance: 10 * 1032.25 } })).status).toBe(200)
    const references = Array.from({ length: 50 }, () => ref('race'))
    const answers = await Promise.all(
      references.map((reference) =>
        call(first.url, 'POST', '/merchant/api/v1/transactions/disburse', {
          reference,
          destination: { type: 'bank_account', amount: 1000, currency: 'NGN', bank_account: { bank: '033', account: '0000000000' }, customer: { email: 'payee@example.com' } },
        }),
      ),
    )
    const accepted = answers.filter((a) => a.status === 200)
    const refused = answers.filter((a) => a.status !== 200)
    expect(accepted).toHaveLength(10)
    expect(refused).toHaveLength(40)
    for (const a of accepted) expect(a.body.data).toMatchObject({ status: 'processing', amount: '1000.00', fee: '30.00' })
    for (const r of refused) expect([r.status, r.body]).toEqual([409, { status: false, message: 'Insufficient funds in disbursement wallet', data: null }])
    const acceptedRefs = new Set(accepted.map((a) => a.body.data.reference as string))

    const state = async (url: string) => {
      const balances = (await call(url, 'GET', '/merchant/api/v1/balances')).body.data.NGN
      const list = (await call(url, 'GET', '/merchant/api/v1/payouts?limit=100')).body.data
      return { balances, listed: new Set<string>(list.payouts.map((p: any) => p.reference)) }
    }
    const before = await state(first.url)
    expect(before.balances).toEqual({ pending_balance: 0, available_balance: 0 })
    expect(before.listed).toEqual(acceptedRefs)

    first.child.kill('SIGKILL')
    await first.exited
    const second = await spawnCli(['--data', file])
    const after = await state(second.url)
    expect(after).toEqual(before)
    // a refused payout left nothing behind
    const refusedRef = references.find((r) => !acceptedRefs.has(r))!
    expect((await call(second.url, 'GET', `/merchant/api/v1/transactions/${refusedRef}`)).status).toBe(404)
    // and the restarted process still refuses the 11th
    const eleventh = await call(second.url, 'POST', '/merchant/api/v1/transactions/disburse', {
      reference: ref('race'),
      destination: { type: 'bank_account', amount: 1000, currency: 'NGN', bank_account: { bank: '033', account: '0000000000' }, customer: { email: 'payee@example.com' } },
    })
    expect(eleventh.body.message).toBe('Insufficient funds in disbursement wallet')
    // the timers that end them came back too: 60 s on the clock, all 10 succeed, the debits stay
    expect((await call(second.url, 'POST', '/_sandbox/clock/advance', { seconds: 60 })).status).toBe(200)
    const ended = (await call(second.url, 'GET', '/merchant/api/v1/payouts?limit=100&status=success')).body.data.payouts
    expect(ended).toHaveLength(10)
    expect((await call(second.url, 'GET', '/merchant/api/v1/balances')).body.data.NGN).toEqual({ pending_balance: 0, available_balance: 0 })
  })
})

describe('a bulk payout with --data, across kill -9 (docs/behaviour.md#bulk-payouts)', () => {
  it('comes back whole: the batch, its items, their debits and the timers that end them', async () => {
    const { file, cli: first } = await frozenWithData(spawnCli)
    const item = (bank: string) => ({ reference: ref('bi'), amount: 1000, type: 'bank_account', narration: 'Bulk', bank_account: { bank_code: bank, account_number: '0000000000' }, customer: { name: 'Payee', email: 'p@example.com' } })
    const batch = ref('batch')
    const created = await call(first.url, 'POST', '/merchant/api/v1/transactions/disburse/bulk', { batch_reference: batch, description: 'Salaries', currency: 'NGN', merchant_bears_cost: true, payouts: [item('033'), item('035')] })
    expect(created.status).toBe(200)
    const state = async (url: string) => ({
      summary: (await call(url, 'GET', `/merchant/api/v1/transactions/bulk/${batch}`)).body,
      items: (await call(url, 'GET', `/merchant/api/v1/transactions/bulk/${batch}/payout`)).body,
      balances: (await call(url, 'GET', '/merchant/api/v1/balances')).body.data.NGN,
    })
    const before = await state(first.url)
    expect(before.summary.data).toMatchObject({ status: 'pending', processingTransactions: 2 })
    // two payouts of 1,000 at 32.25 each, debited at once
    expect(before.balances).toEqual({ pending_balance: 0, available_balance: 5_000_000 - 2064.5 })

    first.child.kill('SIGKILL')
    await first.exited
    const second = await spawnCli(['--data', file])
    expect(await state(second.url)).toEqual(before)
    // the restored timers end both items: one succeeds, the other (bank 035) fails and is given back
    expect((await call(second.url, 'POST', '/_sandbox/clock/advance', { seconds: 60 })).status).toBe(200)
    const after = await state(second.url)
    expect(after.summary.data).toMatchObject({ status: 'complete', successfulTransactions: 1, failedTransactions: 1, processingTransactions: 0 })
    expect(after.balances).toEqual({ pending_balance: 0, available_balance: 5_000_000 - 1032.25 })
  })
})

import { describe, expect, it } from 'vitest'
import { caller, frozenWithData } from './caller.js'
import { killedAfterEach } from './process.js'

/**
 * docs/behaviour.md#conversions: a conversion's checks and its writes are one synchronous step, so
 * conversions racing over real sockets against the real CLI with a data file cannot use a quote
 * twice or take more than the balance holds, and what was answered is what comes back after
 * kill -9 and a restart.
 */

const { spawnCli } = killedAfterEach()
const C = '/merchant/api/v1/conversions'

const call = (url: string, method: string, path: string, body?: unknown) => caller(url, 20_000)(method, path, body)

describe('conversions racing', () => {
  it('one quote raced 40 times converts once; 30 quotes racing for what is left (six conversions) convert six; all of it kept across kill -9', async () => {
    const { file, cli: first } = await frozenWithData(spawnCli)
    // USD opens with 70: seven conversions of USD 10 at most
    expect((await call(first.url, 'POST', '/_sandbox/scenarios', { settings: { opening_balance: 70 } })).status).toBe(200)
    const quote = async () => (await call(first.url, 'POST', `${C}/rates`, { from_currency: 'USD', to_currency: 'NGN', amount: 10 })).body.data
    const convert = (rate: any) => call(first.url, 'POST', `${C}/`, { rate_reference: rate.reference, amount: 10, from_currency: 'USD', to_currency: 'NGN' })

    const one = await quote()
    const raced = await Promise.all(Array.from({ length: 40 }, () => convert(one)))
    expect(raced.filter((a) => a.status === 200)).toHaveLength(1)
    for (const r of raced.filter((a) => a.status !== 200)) expect([r.status, r.body.message]).toEqual([400, 'Rate reference has already been used'])

    const quotes = await Promise.all(Array.from({ length: 30 }, quote))
    const answers = await Promise.all(quotes.map(convert))
    const accepted = answers.filter((a) => a.status === 200)
    expect(accepted).toHaveLength(6)
    for (const r of answers.filter((a) => a.status !== 200)) expect([r.status, r.body.message]).toEqual([400, 'Insufficient funds in disbursement wallet'])

    const state = async (url: string) => ({
      balances: (await call(url, 'GET', '/merchant/api/v1/balances')).body.data,
      history: (await call(url, 'GET', `${C}?limit=100`)).body.data.history.map((h: any) => h.reference).sort(),
    })
    const before = await state(first.url)
    expect(before.balances.USD.available_balance).toBe(0)
    expect(before.balances.NGN.available_balance).toBe(70 + 7 * 14_400)
    expect(before.history).toEqual([raced.find((a) => a.status === 200)!, ...accepted].map((a) => a.body.data.reference).sort())

    first.child.kill('SIGKILL')
    await first.exited
    const second = await spawnCli(['--data', file])
    expect(await state(second.url)).toEqual(before)
  })
})

import { describe, expect, it } from 'vitest'
import { caller } from './caller.js'
import { killedAfterEach } from './process.js'

/**
 * Conversions against the real CLI (CONTRACT 14, docs/behaviour.md#conversions): a quote asked with a
 * numeric-string amount, converted once through the ledger (both entries in the balance history),
 * read back by its reference and in the history; an unserved pair refused; a quote left past its
 * 25 s on the namespace clock refused as expired, changing nothing. And no round trip makes money
 * (docs/behaviour.md#conversions): NGN 7.20 is USD 0.005, which rounded half up bought USD 0.01 and back
 * NGN 14.40; rounded down it buys nothing.
 */

const { spawnCli } = killedAfterEach()
const C = '/merchant/api/v1/conversions'

describe('conversions against the real CLI', () => {
  it('quote, convert, get and history; an unserved pair and an expired quote refused', async () => {
    const cli = await spawnCli([])
    const call = caller(cli.url)
    expect((await call('POST', '/_sandbox/clock/freeze', { frozen: true })).status).toBe(200)
    const quote = async (amount: unknown) => (await call('POST', `${C}/rates`, { from_currency: 'USD', to_currency: 'NGN', amount })).body.data
    const convert = (rate: { reference: string }) => call('POST', `${C}/`, { rate_reference: rate.reference, amount: 10, from_currency: 'USD', to_currency: 'NGN' })

    const rate = await quote('10.0')
    expect(rate).toMatchObject({ from_amount: 10, to_amount: 14400, rate: 1440, expiry_in_seconds: 25 })
    const done = await convert(rate)
    expect([done.status, done.body.message]).toEqual([200, 'Conversion processed successfully'])
    const reference = done.body.data.reference
    const balances = (await call('GET', '/merchant/api/v1/balances')).body.data
    expect([balances.USD.available_balance, balances.NGN.available_balance]).toEqual([5_000_000 - 10, 5_000_000 + 14_400])
    const history = (await call('GET', '/merchant/api/v1/balances/history?limit=2')).body.data.history
    expect(history.map((h: any) => [h.direction, h.currency, h.amount, h.source])).toEqual([
      ['credit', 'NGN', '14400.00', 'conversion'],
      ['debit', 'USD', '10.00', 'conversion'],
    ])
    const one = await call('GET', `${C}/${reference}`)
    expect([one.status, one.body.code, one.body.data.converted_amount]).toEqual([200, 'AA000', '14400.00'])
    expect((await call('GET', C)).body.data.history.map((h: any) => h.reference)).toEqual([reference])

    const pair = await call('POST', `${C}/rates`, { from_currency: 'NGN', to_currency: 'EUR', amount: 100 })
    expect([pair.status, pair.body.message]).toEqual([400, 'Currency pair not supported'])
    const late = await quote(10)
    expect((await call('POST', '/_sandbox/clock/advance', { seconds: 26 })).status).toBe(200)
    const expired = await convert(late)
    expect([expired.status, expired.body.code, expired.body.message]).toEqual([409, 'AA021', 'Rate details not found'])
    expect((await call('GET', '/merchant/api/v1/balances')).body.data).toEqual(balances)
  })

  it('NGN 7.20 -> USD -> NGN, round and round, makes no money: 7.20 buys nothing; 21.59 buys USD 0.01, which buys back 14.40', async () => {
    const cli = await spawnCli([])
    const call = caller(cli.url)
    const balances = async () => {
      const data = (await call('GET', '/merchant/api/v1/balances')).body.data
      return { NGN: data.NGN.available_balance, USD: data.USD.available_balance }
    }
    /** quotes and converts `amount`; what came in, or the refusal */
    const convert = async (from: string, to: string, amount: number) => {
      const quote = await call('POST', `${C}/rates`, { from_currency: from, to_currency: to, amount })
      if (quote.status !== 200) return quote.body.message as string
      const done = await call('POST', `${C}/`, { rate_reference: quote.body.data.reference, amount, from_currency: from, to_currency: to })
      expect(done.status).toBe(200)
      return Number(done.body.data.converted_amount)
    }
    const start = await balances()
    for (let i = 0; i < 5; i++) {
      const usd = await convert('NGN', 'USD', 7.2)
      if (typeof usd === 'number') await convert('USD', 'NGN', usd)
      else expect(usd).toBe('Amount is too small to convert')
    }
    expect(await balances()).toEqual(start)

    expect(await convert('NGN', 'USD', 21.59)).toBe(0.01)
    expect(await convert('USD', 'NGN', 0.01)).toBe(14.4)
    expect(await balances()).toEqual({ NGN: start.NGN - 7.19, USD: start.USD })
  })
})

import fc from 'fast-check'
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { convertMinor, rateString } from '../src/conversions/rates.js'
import { gainingRound } from '../src/scenario/rates.js'
import { sandboxPerTest, tempFile, type TestSandbox, fieldMessages } from './helpers/sandbox.js'

const sandbox = sandboxPerTest()
const C = '/merchant/api/v1/conversions'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const balances = async (sb: TestSandbox) => (await sb.call('GET', '/merchant/api/v1/balances')).body.data
const quote = (sb: TestSandbox, from: string, to: string, amount: unknown) => sb.call('POST', `${C}/rates`, { from_currency: from, to_currency: to, amount, reference: 'customer-42' })
const convert = (sb: TestSandbox, rate: { reference: string; from_currency: string; to_currency: string; from_amount: number }, extra: Record<string, unknown> = {}) =>
  sb.call('POST', `${C}/`, { rate_reference: rate.reference, amount: rate.from_amount, from_currency: rate.from_currency, to_currency: rate.to_currency, customer_name: 'John', customer_email: 'jdoe@example.com', narration: 'sample narration', ...extra })

describe('rate conversions (docs/behaviour.md#conversions)', () => {
  it('quotes at the pack rate, good for 25 s on the namespace clock, as the live sample shows', async () => {
    const sb = await sandbox({ frozen: true })
    const now = (await sb.call('GET', '/_sandbox/clock')).body.data.now_ms
    const res = await quote(sb, 'USD', 'NGN', 10)
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Conversion rate retrieved successfully')
    const { reference, ...rest } = res.body.data
    expect(reference).toMatch(UUID)
    expect(rest).toEqual({ from_currency: 'USD', to_currency: 'NGN', from_amount: 10, to_amount: 14400, rate: 1440, expiry_in_seconds: 25, expiry_date: new Date(now + 25_000).toISOString() })
    expect(Object.keys(res.body.data)).toEqual(['from_currency', 'to_currency', 'from_amount', 'to_amount', 'rate', 'reference', 'expiry_in_seconds', 'expiry_date'])
  })

  it('converts NGN 4,000 at 1,870 into USD 2.13 (2.139 rounded down), moving both available balances through the ledger', async () => {
    const sb = await sandbox({ frozen: true })
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { conversion_rates: { 'USD/NGN': 1870 } } })).status).toBe(200)
    const rate = (await quote(sb, 'NGN', 'USD', '4000.00')).body.data
    expect(rate).toMatchObject({ from_amount: 4000, to_amount: 2.13, rate: 1870 })
    const res = await convert(sb, rate)
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Conversion processed successfully')
    expect(Object.keys(res.body.data)).toEqual(['converted_amount', 'source_amount', 'destination_currency', 'exchange_rate', 'reference', 'source_currency', 'status'])
    expect(res.body.data).toMatchObject({ converted_amount: '2.13', source_amount: '4000.00', destination_currency: 'USD', exchange_rate: '1870.00', source_currency: 'NGN', status: 'success' })
    expect(res.body.data.reference).toMatch(UUID)
    expect(res.body.data.reference).not.toBe(rate.reference)

    const b = await balances(sb)
    expect(b.NGN.available_balance).toBe(4_996_000)
    expect(b.USD.available_balance).toBe(5_000_002.13)
    const history = (await sb.call('GET', '/merchant/api/v1/balances/history?limit=2')).body.data.history
    expect(history.map((h: any) => [h.direction, h.currency, h.amount, h.balance_after, h.description, h.source])).toEqual([
      ['credit', 'USD', '2.13', '5000002.13', `Conversion ${res.body.data.reference} to USD`, 'conversion'],
      ['debit', 'NGN', '4000.00', '4996000.00', `Conversion ${res.body.data.reference} from NGN`, 'conversion'],
    ])

    const one = await sb.call('GET', `${C}/${res.body.data.reference}`)
    expect(one.status).toBe(200)
    expect(one.body).toEqual({
      status: true,
      code: 'AA000',
      message: 'Conversion retrieved successfully',
      data: {
        source_currency: 'NGN', destination_currency: 'USD', exchange_rate: '1870.00', source_amount: '4000.00', converted_amount: '2.13', status: 'success',
        reference: res.body.data.reference, channel: 'api', customer_name: 'John', customer_email: 'jdoe@example.com', narration: 'sample narration',
        transaction_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      },
    })
    expect((await sb.call('GET', `${C}/no-such-conversion`)).status).toBe(404)
  })

  it('refuses, changing nothing: an unserved pair, an unknown, used or expired rate, details that differ from the quote, a short balance', async () => {
    const sb = await sandbox({ frozen: true })
    const before = await balances(sb)
    for (const [from, to] of [['NGN', 'NGN'], ['NGN', 'EUR'], ['KES', 'GHS']]) {
      const res = await quote(sb, from, to, 100)
      expect([res.status, res.body.message]).toEqual([400, 'Currency pair not supported'])
    }
    expect((await quote(sb, 'NGN', 'USD', 0.01)).body.message).toBe('Amount is too small to convert')
    expect((await quote(sb, 'NGN', 'USD', -5)).status).toBe(422)
    // the collection's sample of a rate reference gone: 409, code AA021
    expect((await sb.call('POST', `${C}/`, { rate_reference: 'nope', amount: 10, from_currency: 'USD', to_currency: 'NGN' }))).toMatchObject({ status: 409, body: { status: false, code: 'AA021', message: 'Rate details not found', data: null } })

    const rate = (await quote(sb, 'USD', 'NGN', 10)).body.data
    expect((await convert(sb, { ...rate, from_amount: 11 })).body.message).toBe('Conversion details do not match the rate reference')
    expect((await convert(sb, { ...rate, to_currency: 'KES' })).body.message).toBe('Conversion details do not match the rate reference')
    const big = (await quote(sb, 'USD', 'NGN', 5_000_000.01)).body.data
    expect((await convert(sb, big)).body).toMatchObject({ status: false, message: 'Insufficient funds in disbursement wallet' })
    expect(await balances(sb)).toEqual(before)

    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 25 })
    expect((await convert(sb, rate)).status).toBe(200)
    expect((await convert(sb, rate)).body.message).toBe('Rate reference has already been used')
    const late = (await quote(sb, 'USD', 'NGN', 10)).body.data
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 26 })
    expect(await convert(sb, late)).toMatchObject({ status: 409, body: { code: 'AA021', message: 'Rate details not found' } })
    const after = await balances(sb)
    expect(after.USD.available_balance).toBe(before.USD.available_balance - 10)
    expect(after.NGN.available_balance).toBe(before.NGN.available_balance + 14400)
  })

  it('refuses a rate table that lets a round of conversions gain, alone or merged with the packs before it, changing nothing', async () => {
    const sb = await sandbox({ frozen: true })
    const before = (await sb.call('GET', '/_sandbox/scenarios')).body
    // merged with the default's USD/NGN 1440 and USD/KES 129, KES/NGN 11 lets NGN -> KES -> USD -> NGN gain
    const merged = await sb.call('POST', '/_sandbox/scenarios', { settings: { conversion_rates: { 'KES/NGN': 11 } } })
    expect([merged.status, merged.body.message]).toEqual([422, 'Invalid request data'])
    expect(merged.body.data['settings.conversion_rates'].message).toMatch(/^settings\.conversion_rates must not let a round of conversions end with more than it started: ([A-Z]{3} -> ){3}[A-Z]{3}$/)
    // a pair rated up both ways, in one pack
    const alone = await sb.call('POST', '/_sandbox/scenarios', { settings: { conversion_rates: { 'USD/ZAR': 18, 'ZAR/USD': 0.06 } } })
    expect(alone.body.data).toEqual(fieldMessages({ 'settings.conversion_rates': 'must not let a round of conversions end with more than it started: ZAR -> USD -> ZAR' }))
    expect((await sb.call('GET', '/_sandbox/scenarios')).body).toEqual(before)
    // a buying and a selling rate under what USD's rates set: taken, each way at its own rate
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { conversion_rates: { 'KES/NGN': 11.16, 'NGN/KES': 0.0895 } } })).status).toBe(200)
    expect((await quote(sb, 'KES', 'NGN', 100)).body.data).toMatchObject({ to_amount: 1116, rate: 11.16 })
    expect((await quote(sb, 'NGN', 'KES', 1000)).body.data).toMatchObject({ to_amount: 89.5, rate: 0.0895 })
  })

  it('refuses the calls of a namespace whose kept packs no longer merge under the packs files it is opened with, until they are dropped', async () => {
    const data = tempFile()
    const first = await sandbox({ data })
    expect((await first.call('POST', '/_sandbox/scenarios', { settings: { conversion_rates: { 'USD/KES': 100, 'KES/NGN': 14.4 } } })).status).toBe(200)
    await first.close()
    // USD/NGN 1500 where USD/KES 100 and KES/NGN 14.4 make it 1440: USD -> NGN -> KES -> USD gains
    const pack = tempFile('rates.json')
    writeFileSync(pack, JSON.stringify({ settings: { conversion_rates: { 'USD/NGN': 1500 } } }))
    const second = await sandbox({ data, scenarios: [pack] })
    const refused = await second.call('GET', '/merchant/api/v1/balances')
    expect([refused.status, refused.body.message, refused.body.data]).toEqual([422, 'Invalid request data', fieldMessages({ 'settings.conversion_rates': 'must not let a round of conversions end with more than it started: USD -> NGN -> KES -> USD' })])
    expect((await second.call('DELETE', '/_sandbox/scenarios')).status).toBe(200)
    expect((await second.call('GET', '/merchant/api/v1/balances')).status).toBe(200)
  })

  it('counts what a conversion brings in toward what a namespace may take in per currency (docs/behaviour.md#ledger-and-balances)', async () => {
    const sb = await sandbox({ frozen: true })
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { conversion_rates: { 'USD/NGN': 1000 } } })).status).toBe(200)
    expect((await sb.call('POST', '/_sandbox/balances/fund', { currency: 'USD', amount: 1_000_000_000_000 })).status).toBe(200)
    // NGN opens with 5,000,000: 49 conversions bringing NGN 1,000,000,000,000 each fit under NGN 50,000,000,000,000, the 50th does not
    for (let i = 0; i < 49; i++) expect((await convert(sb, (await quote(sb, 'USD', 'NGN', 1_000_000_000)).body.data)).status).toBe(200)
    const before = await balances(sb)
    const last = await convert(sb, (await quote(sb, 'USD', 'NGN', 1_000_000_000)).body.data)
    expect([last.status, last.body.message]).toEqual([400, 'Amount refused: a namespace takes in at most NGN 50,000,000,000,000.00 per currency until it is reset'])
    expect(await balances(sb)).toEqual(before)
    expect(before.NGN.available_balance).toBe(49_000_005_000_000)
  })

  it('takes what public clients send: string amounts, null optional fields, the path with or without its trailing slash', async () => {
    const sb = await sandbox()
    const rate = (await quote(sb, 'USD', 'GHS', '2.5')).body.data
    expect(rate).toMatchObject({ to_amount: 38.75, rate: 15.5 })
    const res = await sb.call('POST', C, { rate_reference: rate.reference, amount: '2.50', from_currency: 'USD', to_currency: 'GHS', customer_name: null, customer_email: null, narration: null })
    expect(res.status).toBe(200)
    expect(res.body.data.exchange_rate).toBe('15.50')
    const one = (await sb.call('GET', `${C}/${res.body.data.reference}`)).body.data
    expect([one.customer_name, one.customer_email, one.narration]).toEqual([null, null, null])
  })

  it('lists the conversions newest first, by page and limit, with the account, and by day', async () => {
    const sb = await sandbox({ frozen: true })
    const refs: string[] = []
    for (let i = 0; i < 5; i++) {
      const rate = (await quote(sb, 'USD', 'NGN', i + 1)).body.data
      refs.push((await convert(sb, rate)).body.data.reference)
      await sb.call('POST', '/_sandbox/clock/advance', { seconds: 3600 * 10 })
    }
    const list = async (q: string) => (await sb.call('GET', `${C}${q}`)).body
    const all = await list('')
    expect(all.message).toBe('Conversion transactions retrieved successfully')
    expect(all.data.history.map((h: any) => h.reference)).toEqual([...refs].reverse())
    expect(all.data.history[0].account).toEqual({ name: expect.any(String), email: expect.any(String) })
    expect((await list('/?page=2&limit=2')).data.history.map((h: any) => h.reference)).toEqual([refs[2], refs[1]])
    expect((await list('?page=4&limit=2')).data.history).toEqual([])
    const day = all.data.history[4].transaction_date.slice(0, 10)
    const ofDay = (await list(`?date=${day}`)).data.history.map((h: any) => h.reference)
    expect(ofDay.length).toBeGreaterThan(0)
    expect(ofDay.at(-1)).toBe(refs[0])
    expect((await list(`?date=${day},${all.data.history[0].transaction_date.slice(0, 10)}`)).data.history).toHaveLength(5)
    expect((await sb.call('GET', `${C}?limit=101`)).status).toBe(422)
    expect((await sb.call('GET', `${C}?date=2026-02-30`)).status).toBe(422)
  })
})

describe('conversion arithmetic (docs/behaviour.md#conversions)', () => {
  it('rounds the converted amount down to the unit of the to-currency, both ways, exactly at any size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000_000_000 }), fc.integer({ min: 1, max: 1_000_000_000_000 }), fc.boolean(), fc.constantFrom(2, 0), (amount, micro, multiply, decimals) => {
        const [num, den] = multiply ? [BigInt(amount) * BigInt(micro), 1_000_000n] : [BigInt(amount) * 1_000_000n, BigInt(micro)]
        // results past what any amount may be are refused before this (withinLimit)
        fc.pre(num / den <= 100_000_000_000_000n)
        const got = BigInt(convertMinor(amount, { rate: micro / 1_000_000, multiply }, decimals))
        const unit = decimals === 2 ? 1n : 100n
        // exact: got is the largest multiple of the unit at most amount * rate (or amount / rate)
        return got % unit === 0n && got * den <= num && (got + unit) * den > num
      }),
    )
  })

  it('never gives back more than was converted, the issue\'s NGN 7.20 -> USD -> NGN included', () => {
    const usdNgn = { rate: 1440, multiply: true }
    const ngnUsd = { rate: 1440, multiply: false }
    // 7.20 / 1440 = 0.005: nothing, where half up gave USD 0.01, worth NGN 14.40
    expect(convertMinor(720, ngnUsd, 2)).toBe(0)
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000_000 }), fc.integer({ min: 1, max: 1_000_000_000_000 }), fc.constantFrom(2, 0), fc.constantFrom(2, 0), (amount, micro, da, db) => {
        const there = { rate: micro / 1_000_000, multiply: true }
        const back = { rate: micro / 1_000_000, multiply: false }
        for (const [go, ret] of [[there, back], [back, there]]) {
          const got = convertMinor(amount, go, db)
          if (convertMinor(got, ret, da) > amount) return false
        }
        return true
      }),
    )
  })

  it('finds the round of conversions a rate table lets gain, exactly', () => {
    // the default's star of rates from USD: no round at all
    expect(gainingRound({ 'USD/NGN': 1440, 'USD/KES': 129, 'USD/GHS': 15.5 })).toBeNull()
    // a buying and a selling rate with a spread: no gain; the same pair rated up both ways: a gain
    expect(gainingRound({ 'USD/NGN': 1440, 'NGN/USD': 0.000690 })).toBeNull()
    expect(gainingRound({ 'USD/NGN': 1440, 'NGN/USD': 0.000695 })).toEqual(['USD', 'NGN', 'USD'])
    // KES/NGN at 11 where USD's rates make it 1440 / 129 = 11.16...: NGN -> KES -> USD -> NGN gains
    const round = gainingRound({ 'USD/NGN': 1440, 'USD/KES': 129, 'KES/NGN': 11 })
    expect(round?.[0]).toBe(round?.at(-1))
    expect(new Set(round)).toEqual(new Set(['NGN', 'KES', 'USD']))
    // rated both ways under the price USD's rates set, it is fine; pairs of other currencies are never served
    expect(gainingRound({ 'USD/NGN': 1440, 'USD/KES': 129, 'KES/NGN': 11.16, 'NGN/KES': 0.0895 })).toBeNull()
    expect(gainingRound({ 'AAA/BBB': 2, 'BBB/AAA': 2 })).toBeNull()
  })

  it('writes a rate with at least two decimals', () => {
    expect([1440, 1882.1, 15.5, 0.000123, 129].map(rateString)).toEqual(['1440.00', '1882.10', '15.50', '0.000123', '129.00'])
  })
})

import { describe, expect, it } from 'vitest'
import { cardPayload, makeSandbox, ref, sandboxPerTest, tempFile, type TestSandbox, invalidBody, fieldMessages, readAfterRestart } from './helpers/sandbox.js'

const sandbox = sandboxPerTest()
const HISTORY = '/merchant/api/v1/balances/history'

/** A frozen sandbox whose clock reads 2030-01-01T00:00:00Z. */
async function at2030(input: Parameters<typeof sandbox>[0] = {}): Promise<TestSandbox> {
  const sb = await sandbox({ frozen: true, ...input })
  expect((await sb.call('POST', '/_sandbox/clock/advance', { to: '2030-01-01T00:00:00Z' })).status).toBe(200)
  return sb
}

const history = async (sb: TestSandbox, query = '') => {
  const res = await sb.call('GET', `${HISTORY}${query}`)
  expect(res.status).toBe(200)
  expect(res.body.message).toBe('Balance history retrieved successfully')
  return res.body.data as { has_more: boolean; history: any[] }
}

const fund = (sb: TestSandbox, currency: string, amount: number) => sb.call('POST', '/_sandbox/balances/fund', { currency, amount })
const advance = (sb: TestSandbox, seconds: number) => sb.call('POST', '/_sandbox/clock/advance', { seconds })

describe('GET /balances/history (docs/behaviour.md#ledger-and-balances)', () => {
  it('a new namespace lists its opening balances, newest first, every field as the SDKs read it', async () => {
    const sb = await sandbox()
    const data = await history(sb)
    expect(data.has_more).toBe(false)
    // every balance currency opens, newest first: the reverse of the order they are declared in
    expect(data.history.map((h) => h.currency)).toEqual(['GBP', 'ZAR', 'EGP', 'TZS', 'XOF', 'XAF', 'USD', 'GHS', 'KES', 'NGN'])
    expect(data.history[9]).toEqual({
      pointer: 'opening:NGN:0',
      amount: '5000000.00',
      currency: 'NGN',
      balance_before: '0.00',
      balance_after: '5000000.00',
      date: '1970-01-01 00:00:00',
      description: 'Opening balance',
      direction: 'credit',
      source: 'opening',
      source_reference: 'opening',
    })
  })

  it('lists an entry once it is available, with the running balance of its currency; the last balance_after is the available balance', async () => {
    const sb = await at2030()
    const card = cardPayload('4084127883172787', { amount: 1000 })
    await sb.charge(card)
    const bt = ref('bt')
    await sb.call('POST', '/merchant/api/v1/charges/bank-transfer', { reference: bt, amount: 1500, currency: 'NGN', merchant_bears_cost: true, customer: { email: 'a@b.co' } })
    await advance(sb, 120)
    let ngn = (await history(sb, '?currency=NGN')).history
    // the card charge is pending: not listed yet
    expect(ngn.map((h) => [h.source, h.source_reference, h.amount, h.balance_before, h.balance_after, h.date])).toEqual([
      ['payin', bt, '1475.81', '5000000.00', '5001475.81', '2030-01-01 00:02:00'],
      ['opening', 'opening', '5000000.00', '0.00', '5000000.00', '1970-01-01 00:00:00'],
    ])
    await advance(sb, 24 * 3600)
    await fund(sb, 'NGN', 10)
    ngn = (await history(sb, '?currency=NGN')).history
    expect(ngn.map((h) => [h.source, h.source_reference, h.amount, h.balance_before, h.balance_after])).toEqual([
      ['funding', ngn[0].source_reference, '10.00', '5002460.76', '5002470.76'],
      ['payin', card.reference, '984.95', '5001475.81', '5002460.76'],
      ['payin', bt, '1475.81', '5000000.00', '5001475.81'],
      ['opening', 'opening', '5000000.00', '0.00', '5000000.00'],
    ])
    expect(ngn[1]).toMatchObject({ description: `Payment ${card.reference}`, direction: 'credit', date: '2030-01-02 00:00:00', pointer: `payin:${card.reference}:0` })
    expect(ngn[0].source_reference).toMatch(/^KPY-FUND-/)
    const balances = (await sb.call('GET', '/merchant/api/v1/balances')).body.data
    expect(Number(ngn[0].balance_after)).toBe(balances.NGN.available_balance)
  })

  it('filters by currency and direction', async () => {
    const sb = await sandbox({ frozen: true })
    await fund(sb, 'KES', 1)
    await fund(sb, 'GHS', 2)
    expect((await history(sb, '?currency=KES')).history.map((h) => h.amount)).toEqual(['1.00', '5000000.00'])
    expect((await history(sb, '?direction=credit&limit=100')).history).toHaveLength(12)
    expect(await history(sb, '?direction=debit')).toEqual({ has_more: false, history: [] })
    expect(await history(sb, '?currency=EUR')).toEqual({ has_more: false, history: [] })
  })

  it('pages by pointer: first page, starting_after, ending_before and its misspelling, has_more each way', async () => {
    const sb = await sandbox({ frozen: true })
    for (let i = 1; i <= 5; i++) await fund(sb, 'NGN', i)
    const all = (await history(sb, '?currency=NGN')).history
    expect(all.map((h) => h.amount)).toEqual(['5.00', '4.00', '3.00', '2.00', '1.00', '5000000.00'])
    const first = await history(sb, '?currency=NGN&limit=2')
    expect(first).toEqual({ has_more: true, history: all.slice(0, 2) })
    const second = await history(sb, `?currency=NGN&limit=2&starting_after=${first.history[1].pointer}`)
    expect(second).toEqual({ has_more: true, history: all.slice(2, 4) })
    const last = await history(sb, `?currency=NGN&limit=2&starting_after=${second.history[1].pointer}`)
    expect(last).toEqual({ has_more: false, history: all.slice(4, 6) })
    expect(await history(sb, `?currency=NGN&limit=2&ending_before=${last.history[0].pointer}`)).toEqual({ has_more: true, history: all.slice(2, 4) })
    expect(await history(sb, `?currency=NGN&limit=3&starting_before=${all[2].pointer}`)).toEqual({ has_more: false, history: all.slice(0, 2) })
  })

  it('a pointer stays the same as new entries are listed', async () => {
    const sb = await sandbox({ frozen: true })
    await fund(sb, 'NGN', 1)
    const before = (await history(sb, '?limit=100')).history
    await fund(sb, 'NGN', 2)
    await sb.charge(cardPayload('4084127883172787', { amount: 100 }))
    await advance(sb, 25 * 3600)
    const after = (await history(sb, '?limit=100')).history
    expect(after.slice(-before.length)).toEqual(before)
    expect(new Set(after.map((h) => h.pointer)).size).toBe(after.length)
  })

  it('a pointer holding a reference of 100 characters is taken back', async () => {
    const sb = await sandbox({ frozen: true })
    const long = cardPayload('4084127883172787', { reference: `r${'x'.repeat(99)}` })
    expect((await sb.charge(long)).status).toBe(200)
    await fund(sb, 'NGN', 1)
    await advance(sb, 25 * 3600)
    const all = (await history(sb, '?currency=NGN')).history
    expect(all[0].pointer).toBe(`payin:${long.reference}:0`)
    expect((await history(sb, `?currency=NGN&starting_after=${encodeURIComponent(all[0].pointer)}`)).history).toEqual(all.slice(1))
  })

  it('filters by date on the namespace clock (a day alone meaning the whole day for date_to)', async () => {
    const sb = await at2030()
    await fund(sb, 'NGN', 1)
    await sb.call('POST', '/_sandbox/clock/advance', { to: '2030-01-02T10:00:00Z' })
    await fund(sb, 'NGN', 2)
    await sb.call('POST', '/_sandbox/clock/advance', { to: '2030-01-03T00:00:00Z' })
    await fund(sb, 'NGN', 3)
    const amounts = async (q: string) => (await history(sb, `?currency=NGN&${q}`)).history.map((h) => h.amount)
    expect(await amounts('date_from=2030-01-01-00-00-00')).toEqual(['3.00', '2.00', '1.00'])
    expect(await amounts('date_from=2030-01-01-00-00-01')).toEqual(['3.00', '2.00'])
    expect(await amounts('date_from=2030-01-02&date_to=2030-01-02')).toEqual(['2.00'])
    expect(await amounts('date_to=2029-12-31')).toEqual(['5000000.00'])
  })

  it('refuses a bad query with the list errors, 400', async () => {
    const sb = await sandbox()
    const bad = await sb.call('GET', `${HISTORY}?direction=up&limit=0`)
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual(invalidBody({ direction: 'must be one of "credit", "debit"', limit: 'must be from 1 to 100' }))
    const pointer = await sb.call('GET', `${HISTORY}?starting_after=payin:nothing:0`)
    expect(pointer.status).toBe(422)
    expect(pointer.body.data).toEqual(fieldMessages({ starting_after: 'is not the pointer of an item of this list' }))
    const both = await sb.call('GET', `${HISTORY}?starting_after=opening:NGN:0&ending_before=opening:KES:0`)
    expect(both.status).toBe(422)
    expect(both.body.data).toEqual(fieldMessages({ starting_after: 'cannot be used with ending_before' }))
    expect((await sb.call('GET', `${HISTORY}?date_from=2030-02-30`)).body.data).toEqual(fieldMessages({ date_from: 'must be a real date' }))
  })

  it('takes the secret key only', async () => {
    const sb = await sandbox()
    expect((await sb.call('GET', HISTORY, undefined, { key: null })).status).toBe(401)
    expect((await sb.call('GET', HISTORY, undefined, { key: 'pk_test_sandbox' })).status).toBe(401)
  })

  it('is the same after a restart with --data', async () => {
    const file = tempFile()
    const first = await makeSandbox({ data: file, frozen: true })
    await fund(first, 'USD', 3)
    await first.charge(cardPayload('4084127883172787', { amount: 100 }))
    await advance(first, 25 * 3600)
    const kept = await history(first, '?limit=100')
    expect(await readAfterRestart(first, file, (second) => history(second, '?limit=100'))).toEqual(kept)
  })
})

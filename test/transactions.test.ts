import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { byDate, listQuerySchema, orderedPage, type OrderedItems } from '../src/http/cursor-list.js'
import { cardPayload, ref, sandboxPerTest, type TestSandbox, fieldMessages } from './helpers/sandbox.js'
import { NO_AUTH_CARD } from './helpers/cards.js'
import { keptInOrder } from './helpers/ordered.js'

/** GET /merchant/api/v1/transactions (docs/behaviour.md#transactions-list): pay-ins and payouts as one list. */

const sandbox = sandboxPerTest()
const M = '/merchant/api/v1'

type Item = { pointer: string; at: number }
/** a list kept oldest first, as a collection's order keeps it */
const kept = (items: Item[]): OrderedItems<Item, Item> => keptInOrder(items, (x) => x.pointer)
/** an item as the merge of lists `a` and `b` shows it: its pointer named by its list */
const as = (name: string) => (x: Item) => ({ ...x, pointer: `${name}:${x.pointer}` })
const merge = (a: Item[], b: Item[]) => byDate({ name: 'a', items: kept(a) }, { name: 'b', items: kept(b) })

describe('byDate: two kept orders read as one', () => {
  // dates from a small range, so ties between and within the lists are common; pointers from a
  // few texts, so the two lists often hold the same one (a payout's reference chosen as a pay-in's)
  const side = (distinct: boolean) =>
    fc
      .uniqueArray(fc.integer({ min: 0, max: distinct ? 99 : 7 }), { maxLength: 12 })
      .chain((ids) => fc.tuple(fc.constant(ids), fc.array(fc.integer({ min: 0, max: 6 }), { minLength: ids.length, maxLength: ids.length })))
      .map(([ids, ats]) => ats.sort((x, y) => x - y).map((at, i) => ({ pointer: `p${ids[i]}`, at })))

  it('is the two lists merged by date, the first list first at a tie, and finds each pointer where it stands', () => {
    fc.assert(
      fc.property(side(true), side(false), (a, b) => {
        const merged = merge(a, b)
        // the same order a stable sort of a's then b's items by date gives
        const expected = [...a.map(as('a')), ...b.map(as('b'))].sort((x, y) => x.at - y.at)
        expect(Array.from({ length: merged.size }, (_, k) => merged.itemAt(k))).toEqual(expected)
        expect(Array.from({ length: merged.size }, (_, k) => merged.dateAt(k))).toEqual(expected.map((x) => x.at))
        for (const [k, x] of expected.entries()) expect(merged.positionOf(x.pointer)).toBe(k)
        // read backwards, and in an order of no walk
        expect(Array.from({ length: merged.size }, (_, k) => merged.itemAt(merged.size - 1 - k))).toEqual([...expected].reverse())
        const scattered = Array.from({ length: merged.size }, (_, k) => (k * 7) % Math.max(merged.size, 1))
        expect(scattered.map((k) => merged.itemAt(k))).toEqual(scattered.map((k) => expected[k]))
        // a pointer of either list as it is there, or naming no list, is none of the merge's
        for (const x of [...a, ...b]) expect(merged.positionOf(x.pointer)).toBeUndefined()
        expect(merged.positionOf('nothing')).toBeUndefined()
        expect(merged.positionOf('c:p1')).toBeUndefined()
      }),
    )
  })

  it('pages as one list, whatever pointers the two lists share: at every limit, every page by starting_after, and back by ending_before, gives the whole list once', () => {
    fc.assert(
      fc.property(side(false), side(false), (a, b) => {
        const merged = merge(a, b)
        const all = [...a.map(as('a')), ...b.map(as('b'))].sort((x, y) => x.at - y.at).reverse().map((x) => x.pointer)
        for (let limit = 1; limit <= Math.max(all.length, 1); limit++) {
          const q = (extra: Record<string, string>) => listQuerySchema.parse({ limit: String(limit), ...extra })
          const forth: string[] = []
          let page = orderedPage(merged, q({}), () => true)
          forth.push(...page.items.map((x) => x.pointer))
          while (page.has_more) {
            page = orderedPage(merged, q({ starting_after: forth.at(-1)! }), () => true)
            forth.push(...page.items.map((x) => x.pointer))
          }
          expect(forth).toEqual(all)
          if (all.length === 0) return
          const back: string[] = [all.at(-1)!]
          for (;;) {
            const newer = orderedPage(merged, q({ ending_before: back[0] }), () => true)
            back.unshift(...newer.items.map((x) => x.pointer))
            if (!newer.has_more) break
          }
          expect(back).toEqual(all)
        }
      }),
    )
  })

  it('refuses to merge two lists under one name', () => {
    expect(() => byDate({ name: 'a', items: kept([]) }, { name: 'a', items: kept([]) })).toThrow('two lists merged under one name, a')
  })
})

const list = async (sb: TestSandbox, query = '') => {
  const res = await sb.call('GET', `${M}/transactions${query}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(res.body.message).toBe('success')
  return res.body.data as { has_more: boolean; transactions: any[] }
}
const step = (sb: TestSandbox) => sb.call('POST', '/_sandbox/clock/advance', { seconds: 1 })
const payout = (sb: TestSandbox, reference: string, amount: number, currency = 'NGN') =>
  sb.call('POST', `${M}/transactions/disburse`, {
    reference,
    destination: { type: 'bank_account', amount, currency, narration: 'Salary', bank_account: { bank: '033', account: '0000000000' }, customer: { name: 'Ada Payee', email: 'ada@example.com' } },
    metadata: { run: 'nov' },
    notification_url: 'https://merchant.example/payouts',
  })

describe('GET /merchant/api/v1/transactions (docs/behaviour.md#transactions-list)', () => {
  it("answers the Elixir client's call (a secret key, no query) with 200 and status true, even on an empty namespace", async () => {
    const sb = await sandbox()
    // exactly what the client sends: GET, the bearer secret key, no body, no query
    const res = await sb.call('GET', `${M}/transactions`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: true, message: 'success', data: { has_more: false, transactions: [] } })
  })

  it('lists pay-ins as collections and payouts as disbursements, newest first, a checkout once, with their fields', async () => {
    const sb = await sandbox({ frozen: true })
    const card = cardPayload(NO_AUTH_CARD, { amount: 1000, description: 'Order 1', metadata: { order: '1' } })
    expect((await sb.charge(card)).status).toBe(200)
    await step(sb)
    const po = ref('po')
    expect((await payout(sb, po, 2500)).status).toBe(200)
    await step(sb)
    const co = { reference: ref('co'), amount: 700, currency: 'NGN', customer: { email: 'a@b.co', name: 'Ada' }, notification_url: 'https://merchant.example/hooks' }
    expect((await sb.call('POST', `${M}/charges/initialize`, co)).status).toBe(200)
    // its attempt is a charge of its own, listed once as the checkout
    expect((await sb.call('POST', `/_sandbox/checkouts/${co.reference}/pay`, { channel: 'card' })).status).toBe(200)

    const { has_more, transactions } = await list(sb)
    expect(has_more).toBe(false)
    expect(transactions.map((t) => t.type)).toEqual(['collection', 'disbursement', 'collection'])
    // each pay-in's transaction reference is its pointer in the pay-ins list (the charge query does not show it)
    const payins: { pointer: string; reference: string; fee: string }[] = (await sb.call('GET', `${M}/pay-ins`)).body.data.payins
    const cardTx = { transaction_reference: payins.find((p) => p.reference === card.reference)!.pointer, fee: (await sb.call('GET', `${M}/charges/${card.reference}`)).body.data.fee.toFixed(2) }
    const coTx = { transaction_reference: payins.find((p) => p.reference === co.reference)!.pointer }
    expect(transactions[2]).toEqual({
      pointer: `collection:${cardTx.transaction_reference}`,
      type: 'collection',
      reference: cardTx.transaction_reference,
      amount: '1000.00',
      fee: cardTx.fee,
      narration: 'Order 1',
      currency: 'NGN',
      status: 'success',
      transaction_status: 'success',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      callback_url: null,
      meta: '{"order":"1"}',
      customer: { name: card.customer.name, email: card.customer.email },
    })
    expect(transactions[1]).toEqual({
      pointer: `disbursement:${po}`,
      type: 'disbursement',
      reference: po,
      amount: '2500.00',
      fee: '32.25',
      narration: 'Salary',
      currency: 'NGN',
      status: 'processing',
      transaction_status: 'processing',
      created_at: expect.any(String),
      callback_url: 'https://merchant.example/payouts',
      meta: '{"run":"nov"}',
      customer: { name: 'Ada Payee', email: 'ada@example.com' },
    })
    expect(transactions[0]).toMatchObject({ reference: coTx.transaction_reference, type: 'collection', amount: '700.00', status: 'success', callback_url: 'https://merchant.example/hooks', meta: null, customer: { name: 'Ada', email: 'a@b.co' } })
    expect(Date.parse(transactions[0].created_at)).toBeGreaterThan(Date.parse(transactions[1].created_at))
  })

  it('pages and filters as the other lists: limit, starting_after, ending_before, currency, dates', async () => {
    const sb = await sandbox({ frozen: true })
    await sb.call('POST', '/_sandbox/clock/advance', { to: '2030-01-01T00:00:00Z' })
    const made: string[] = []
    for (let i = 0; i < 3; i++) {
      const card = cardPayload(NO_AUTH_CARD, { amount: 100 + i })
      made.push(`collection:${(await sb.charge(card)).body.data.transaction_reference}`)
      const po = ref('po')
      expect((await payout(sb, po, 1000 + i)).status).toBe(200)
      made.push(`disbursement:${po}`)
      await step(sb)
    }
    const kes = ref('po')
    expect((await sb.call('POST', '/_sandbox/balances/fund', { currency: 'KES', amount: 5000 })).status).toBe(200)
    expect((await sb.call('POST', `${M}/transactions/disburse`, { reference: kes, destination: { type: 'mobile_money', amount: 100, currency: 'KES', mobile_money: { operator: 'safaricom-ke', mobile_number: '254700000000' }, customer: { email: 'w@example.com' } } })).status).toBe(200)
    made.push(`disbursement:${kes}`)
    const newest = [...made].reverse()
    // a card charge and a payout of the same millisecond: the payout, made last, is listed first
    expect((await list(sb)).transactions.map((t) => t.pointer)).toEqual(newest)
    const first = await list(sb, '?limit=3')
    expect([first.has_more, first.transactions.map((t) => t.pointer)]).toEqual([true, newest.slice(0, 3)])
    const second = await list(sb, `?limit=3&starting_after=${newest[2]}`)
    expect([second.has_more, second.transactions.map((t) => t.pointer)]).toEqual([true, newest.slice(3, 6)])
    const back = await list(sb, `?limit=2&ending_before=${newest[3]}`)
    expect([back.has_more, back.transactions.map((t) => t.pointer)]).toEqual([true, newest.slice(1, 3)])
    expect((await list(sb, '?currency=KES')).transactions.map((t) => t.pointer)).toEqual([`disbursement:${kes}`])
    expect((await list(sb, '?date_from=2030-01-01-00-00-01&date_to=2030-01-01-00-00-01')).transactions.map((t) => t.pointer)).toEqual(newest.slice(3, 5))
    // a pointer names its kind: a reference alone, or under the other kind, is none of the list's
    for (const pointer of ['nothing', newest[0].slice('disbursement:'.length), `collection:${kes}`]) {
      const bad = await sb.call('GET', `${M}/transactions?starting_after=${encodeURIComponent(pointer)}`)
      expect([bad.status, bad.body.data]).toEqual([422, fieldMessages({ starting_after: 'is not the pointer of an item of this list' })])
    }
  })
})

/** Every page of the list, newest first, by starting_after, at this limit. */
const pagesForth = async (sb: TestSandbox, limit: number) => {
  const out: any[] = []
  let page = await list(sb, `?limit=${limit}`)
  out.push(...page.transactions)
  while (page.has_more) {
    page = await list(sb, `?limit=${limit}&starting_after=${encodeURIComponent(out.at(-1).pointer)}`)
    out.push(...page.transactions)
  }
  return out
}

describe('pointers that name their kind (docs/behaviour.md#transactions-list)', () => {
  it("a payout whose reference is a pay-in's or a checkout attempt's transaction reference: every page size gives each item once, every pointer is taken", async () => {
    const sb = await sandbox({ frozen: true })
    const card = (await sb.charge(cardPayload(NO_AUTH_CARD, { amount: 100 }))).body.data.transaction_reference as string
    await step(sb)
    expect((await payout(sb, card, 1000)).status).toBe(200)
    await step(sb)
    const co = { reference: ref('co'), amount: 700, currency: 'NGN', customer: { email: 'a@b.co', name: 'Ada' } }
    expect((await sb.call('POST', `${M}/charges/initialize`, co)).status).toBe(200)
    expect((await sb.call('POST', `/_sandbox/checkouts/${co.reference}/pay`, { channel: 'card' })).status).toBe(200)
    const attempt = (await sb.call('GET', `${M}/charges/${co.reference}`)).body.data.payment_attempts[0].reference as string
    await step(sb)
    expect((await payout(sb, attempt, 1001)).status).toBe(200)
    await step(sb)
    expect((await sb.charge(cardPayload(NO_AUTH_CARD, { amount: 101 }))).status).toBe(200)

    const all = (await list(sb)).transactions
    expect(all.map((t) => [t.type, t.reference])).toEqual([
      ['collection', expect.stringMatching(/^KPY-/)],
      ['disbursement', attempt],
      ['collection', expect.stringMatching(/^KPY-PI-/)],
      ['disbursement', card],
      ['collection', card],
    ])
    expect(new Set(all.map((t) => t.pointer)).size).toBe(all.length)
    for (let limit = 1; limit <= all.length; limit++) expect(await pagesForth(sb, limit), `limit ${limit}`).toEqual(all)
    for (const [i, t] of all.entries()) {
      expect((await list(sb, `?starting_after=${encodeURIComponent(t.pointer)}`)).transactions).toEqual(all.slice(i + 1))
      expect((await list(sb, `?ending_before=${encodeURIComponent(t.pointer)}`)).transactions).toEqual(all.slice(0, i))
    }
  })
})

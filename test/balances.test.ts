import { describe, expect, it } from 'vitest'
import { cardPayload, makeSandbox, ref, sandboxPerTest, SECRET, tempFile, invalidBody } from './helpers/sandbox.js'

const sandbox = sandboxPerTest()
const OPENING = { pending_balance: 0, available_balance: 5_000_000 }

describe('GET /balances (docs/behaviour.md#ledger-and-balances)', () => {
  it('opens with the test environment pre-funding in every currency served: NGN, KES, GHS, USD (with its issuing balance), XAF, XOF, TZS, EGP, ZAR, GBP', async () => {
    const sb = await sandbox()
    const res = await sb.call('GET', '/merchant/api/v1/balances')
    expect(res.status).toBe(200)
    const more = Object.fromEntries(['XAF', 'XOF', 'TZS', 'EGP', 'ZAR', 'GBP'].map((c) => [c, OPENING]))
    expect(res.body).toEqual({ status: true, message: 'success', data: { NGN: OPENING, KES: OPENING, GHS: OPENING, USD: { ...OPENING, issuing_balance: 0 }, ...more } })
  })

  it('a card charge is pending until its settlement time, then available; a bank transfer is available at once', async () => {
    const sb = await sandbox({ frozen: true })
    await sb.charge(cardPayload('4084127883172787', { amount: 1000 }))
    let ngn = (await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN
    expect(ngn).toEqual({ pending_balance: 984.95, available_balance: 5_000_000 })
    await sb.call('POST', '/merchant/api/v1/charges/bank-transfer', { reference: ref('bt'), amount: 1500, currency: 'NGN', merchant_bears_cost: true, customer: { email: 'a@b.co' } })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 120 })
    ngn = (await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN
    expect(ngn).toEqual({ pending_balance: 984.95, available_balance: 5_001_475.81 })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
    ngn = (await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN
    expect(ngn).toEqual({ pending_balance: 0, available_balance: 5_002_460.76 })
  })

  it('takes the secret key only', async () => {
    const sb = await sandbox()
    expect((await sb.call('GET', '/merchant/api/v1/balances', undefined, { key: null })).status).toBe(401)
    expect((await sb.call('GET', '/merchant/api/v1/balances', undefined, { key: 'sk_live_x' })).status).toBe(401)
  })

  it('a pack setting changes what a namespace opens with', async () => {
    const sb = await sandbox()
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 0 } })).status).toBe(200)
    expect((await sb.call('GET', '/merchant/api/v1/balances')).body.data.KES).toEqual({ pending_balance: 0, available_balance: 0 })
  })
})

describe("the dashboard's balances panel (docs/behaviour.md#control-api)", () => {
  it('shows what GET /balances and GET /balances/history answer, to the minor unit', async () => {
    const sb = await sandbox({ frozen: true })
    await sb.charge(cardPayload('4084127883172787', { amount: 1000 }))
    const bt = ref('bt')
    await sb.call('POST', '/merchant/api/v1/charges/bank-transfer', { reference: bt, amount: 1500, currency: 'NGN', merchant_bears_cost: true, customer: { email: 'a@b.co' } })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 120 })
    await sb.call('POST', '/_sandbox/balances/fund', { currency: 'KES', amount: 0.01 })
    const page = String((await sb.call('GET', `/_sandbox/ui?ns=${SECRET}`, undefined, { key: null })).body)
    const row = (currency: string) => page.split(`<tr data-currency="${currency}">`)[1].split('</tr>')[0]
    expect((await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN).toEqual({ pending_balance: 984.95, available_balance: 5_001_475.81 })
    expect(row('NGN')).toContain('NGN 5,001,475.81')
    expect(row('NGN')).toContain('NGN 984.95')
    expect(row('KES')).toContain('KES 5,000,000.01')
    const [funded, transfer] = (await sb.call('GET', '/merchant/api/v1/balances/history')).body.data.history
    const history = page.split('id="balance-history"')[1].split('</table>')[0].split('<tr data-pointer=').slice(1)
    expect(history[0]).toContain(`"${funded.pointer}"`)
    expect(history[0]).toContain('+KES 0.01')
    expect(history[0]).toContain('KES 5,000,000.01')
    expect(history[0]).toContain(funded.date)
    expect(history[1]).toContain(`"${transfer.pointer}"`)
    expect(transfer.pointer).toBe(`payin:${bt}:0`)
    expect(history[1]).toContain('+NGN 1,475.81')
    expect(history[1]).toContain('NGN 5,001,475.81')
    expect(history[1]).toContain(`Payment ${bt}`)
  })
})

describe('POST /_sandbox/balances/fund', () => {
  it('adds to the available balance as an entry of its own; a reset takes it back to the opening balance', async () => {
    const sb = await sandbox()
    const res = await sb.call('POST', '/_sandbox/balances/fund', { currency: 'GHS', amount: 250.5 })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Balance funded')
    expect(res.body.data.GHS).toEqual({ pending_balance: 0, available_balance: 5_000_250.5 })
    expect(res.body.data.NGN).toEqual(OPENING)
    await sb.call('POST', '/_sandbox/reset')
    expect((await sb.call('GET', '/merchant/api/v1/balances')).body.data.GHS).toEqual(OPENING)
  })

  it('refuses a currency without a balance and a bad amount, changing nothing', async () => {
    const sb = await sandbox()
    const bad = await sb.call('POST', '/_sandbox/balances/fund', { currency: 'EUR', amount: -5 })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual(invalidBody({ currency: 'must be one of "NGN", "KES", "GHS", "USD", "XAF", "XOF", "TZS", "EGP", "ZAR", "GBP"', amount: 'must be greater than 0' }))
    expect((await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN).toEqual(OPENING)
  })

  it('funding comes back after a restart with --data', async () => {
    const file = tempFile()
    const first = await makeSandbox({ data: file })
    await first.call('POST', '/_sandbox/balances/fund', { currency: 'USD', amount: 10 })
    await first.close()
    const second = await makeSandbox({ data: file })
    try {
      expect((await second.call('GET', '/merchant/api/v1/balances')).body.data.USD).toEqual({ pending_balance: 0, available_balance: 5_000_010, issuing_balance: 0 })
    } finally {
      await second.close()
    }
  })
})

describe('the balances kept as entries are written', () => {
  it('agree with the balances summed afresh from the records (a restart reads them all again)', async () => {
    const file = tempFile()
    const first = await makeSandbox({ data: file, frozen: true })
    const read = async (sb: typeof first) => (await sb.call('GET', '/merchant/api/v1/balances')).body.data
    await read(first)
    await first.charge(cardPayload('4084127883172787', { amount: 700 }))
    await first.call('POST', '/_sandbox/balances/fund', { currency: 'KES', amount: 12.34 })
    await first.call('POST', '/merchant/api/v1/charges/bank-transfer', { reference: ref('bt'), amount: 300, currency: 'NGN', customer: { email: 'a@b.co' } })
    await first.call('POST', '/_sandbox/clock/advance', { seconds: 3600 })
    await first.charge(cardPayload('5188513618552975', { amount: 40 }, { pin: '1234' }))
    const kept = await read(first)
    expect(kept.NGN.pending_balance).toBeGreaterThan(0)
    expect(kept.NGN.available_balance).toBeGreaterThan(5_000_000)
    await first.call('POST', '/_sandbox/clock/freeze', { frozen: false })
    await first.close()
    const second = await makeSandbox({ data: file })
    try {
      await second.call('POST', '/_sandbox/clock/freeze', { frozen: true })
      expect(await read(second)).toEqual(kept)
    } finally {
      await second.close()
    }
  })
})

describe('what a namespace takes in (docs/behaviour.md#ledger-and-balances, exact at any size)', () => {
  const LIMIT_TEXT = 'Amount refused: a namespace takes in at most NGN 50,000,000,000,000.00 per currency until it is reset'
  // a card that waits for its PIN: the charge stays open
  const charge = (sb: Awaited<ReturnType<typeof makeSandbox>>, amount: number) => sb.charge(cardPayload('5188513618552975', { amount }))

  it('counts pay-ins from when they are made, so open ones cannot pass it together; a failed one frees its room, also after a restart', async () => {
    const file = tempFile()
    const first = await makeSandbox({ data: file, frozen: true })
    // opening 0: the limit is 50 fundings of the largest amount
    expect((await first.call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 0 } })).status).toBe(200)
    for (let i = 0; i < 49; i++) expect((await first.call('POST', '/_sandbox/balances/fund', { currency: 'NGN', amount: 1e12 })).status).toBe(200)
    // room for NGN 1e12: two open charges of 6e11 cannot both be made
    const made = await charge(first, 6e11)
    expect(made.body.data.status).toBe('processing')
    const open = made.body.data.transaction_reference
    const second = await charge(first, 6e11)
    expect([second.status, second.body.message]).toEqual([400, LIMIT_TEXT])
    const before = (await first.call('GET', '/merchant/api/v1/balances')).body.data
    expect((await first.call('POST', '/_sandbox/balances/fund', { currency: 'NGN', amount: 5e11 })).body.message).toBe(LIMIT_TEXT)
    expect((await first.call('GET', '/merchant/api/v1/balances')).body.data).toEqual(before)
    // other currencies have their own room
    expect((await first.call('POST', '/_sandbox/balances/fund', { currency: 'KES', amount: 1e12 })).status).toBe(200)
    await first.close()

    // read again from the data file: the open charge still counts; once it failed, its room is free
    const again = await makeSandbox({ data: file, frozen: true })
    try {
      expect((await charge(again, 6e11)).body.message).toBe(LIMIT_TEXT)
      expect((await again.call('POST', `/_sandbox/charges/${open}/complete`, { outcome: 'failed' })).status).toBe(200)
      expect((await charge(again, 6e11)).status).toBe(200)
      expect((await charge(again, 4e11)).status).toBe(200)
      expect((await charge(again, 0.01)).body.message).toBe(LIMIT_TEXT)
    } finally {
      await again.close()
    }
  })
})

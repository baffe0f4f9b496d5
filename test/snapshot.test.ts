import { readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../src/index.js'
import { FORMAT } from '../src/store/recovery.js'
import { cardPayload, makeSandbox, SECRET, tempFile, type TestSandbox, invalidBody } from './helpers/sandbox.js'
import { startReceiver } from './helpers/receiver.js'
import { virtualAccountBody } from './helpers/bodies.js'

/**
 * Snapshots of a namespace (docs/behaviour.md#snapshots): GET and POST /_sandbox/snapshot over the app,
 * the round trip of every area's records and of what is derived from them, the pending timers and
 * webhooks taken up again, the refusals field by field, another key's snapshot, and
 * `startSandbox({ load })`.
 */

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close()
})
async function sandbox(input: Parameters<typeof makeSandbox>[0] = {}): Promise<TestSandbox> {
  const sb = await makeSandbox(input)
  open.push(sb)
  return sb
}

const OTHER = 'sk_test_snapshot_other'
const take = async (sb: TestSandbox, key?: string) => {
  const res = await sb.call('GET', '/_sandbox/snapshot', undefined, { key })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}
const restore = (sb: TestSandbox, snapshot: unknown, key?: string) => sb.call('POST', '/_sandbox/snapshot', snapshot, { key })
const ok = async (p: Promise<{ status: number; body: any }>) => {
  const res = await p
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

/** One namespace with a record of every area: the references to read them back by. */
async function populate(sb: TestSandbox) {
  await ok(sb.call('POST', '/_sandbox/balances/fund', { currency: 'GHS', amount: 250.5 }))
  const card = cardPayload('4084127883172787', { reference: 'snap-card-1', amount: 1000 })
  expect((await sb.charge(card)).body.data.status).toBe('success')
  await ok(sb.call('POST', '/_sandbox/captures/snap-card-1/settle'))
  const mandate = await ok(sb.call('POST', '/_sandbox/direct-debit/authorizations', { account_number: '0123456789', bank_code: '044', account_name: 'Chidi Okafor', amount: 250000 }))
  await ok(sb.call('POST', `/_sandbox/direct-debit/authorizations/${mandate.reference}/approve`))
  await ok(sb.call('POST', '/merchant/api/v1/charges/initialize', { reference: 'snap-checkout-1', amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada' } }))
  const payout = await ok(sb.call('POST', '/merchant/api/v1/transactions/disburse', { reference: 'snap-payout-1', destination: { type: 'bank_account', amount: 1000, currency: 'NGN', narration: 'Salary', bank_account: { bank: '033', account: '0000000000' }, customer: { name: 'Ada Payee', email: 'ada@example.com' } } }))
  expect(payout.status).toBe('processing')
  const account = await ok(sb.call('POST', '/merchant/api/v1/virtual-bank-account', virtualAccountBody('snap-va-1')))
  await ok(sb.call('POST', '/merchant/api/v1/virtual-bank-account/sandbox/credit', { account_number: account.account_number, amount: 700, currency: 'NGN' }))
  await ok(sb.call('POST', '/api/v1/identities/ng/bvn', { id: '22222222222', verification_consent: true }))
  return { mandate: mandate.reference as string }
}

/** What a client reads of the namespace: every area's answers, and the balances the ledger sums. */
async function reads(sb: TestSandbox, mandate: string) {
  const paths = [
    '/merchant/api/v1/balances',
    '/merchant/api/v1/balances/history?currency=NGN',
    '/merchant/api/v1/charges/snap-card-1',
    '/merchant/api/v1/charges/snap-checkout-1',
    `/merchant/api/v1/direct-debit/authorizations/${mandate}`,
    '/merchant/api/v1/transactions/snap-payout-1',
    '/merchant/api/v1/virtual-bank-account/snap-va-1',
    '/merchant/api/v1/pay-ins',
    '/merchant/api/v1/payouts',
    '/_sandbox/events',
    '/_sandbox/clock',
    '/_sandbox/scenarios',
  ]
  const out: Record<string, unknown> = {}
  for (const p of paths) {
    const res = await sb.call('GET', p)
    out[p] = [res.status, res.body]
  }
  return out
}

describe('GET and POST /_sandbox/snapshot', () => {
  it("round-trips every area's records: restored into another sandbox it answers alike, and its pending timers fire as they would have", async () => {
    const a = await sandbox({ seed: 7 })
    const { mandate } = await populate(a)
    await ok(a.call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 100 } }))
    const snap = await take(a)
    expect(Object.keys(snap)).toEqual(['paysandbox', 'key', 'clock', 'records'])
    expect(snap).toMatchObject({ paysandbox: FORMAT, key: SECRET, clock: { now: '2026-01-01T00:00:00.000Z', frozen: true } })
    // a record of every area the namespace was given one in, and the engine's
    for (const c of ['charges', 'ledger', 'timers', 'events', 'meta', 'packs', 'dd_authorizations', 'payouts', 'virtual_accounts', 'vba_transfers', 'identity_checks']) expect(Object.keys(snap.records[c] ?? {}).length, c).toBeGreaterThan(0)
    expect(Object.keys(snap.records)).toEqual(Object.keys(snap.records).sort())
    expect(snap.records.meta.clock).toBeUndefined()
    expect(JSON.stringify(snap)).not.toContain('4084127883172787')

    const b = await sandbox({ seed: 7 })
    await ok(b.charge(cardPayload('4084127883172787', { reference: 'only-in-b' })))
    const restored = await ok(restore(b, snap))
    expect(restored).toMatchObject({ namespace: SECRET, clock: { now: '2026-01-01T00:00:00.000Z', frozen: true } })
    // byte for byte what was taken, and what was in b before is gone
    expect(JSON.stringify(await take(b))).toBe(JSON.stringify(snap))
    expect((await b.call('GET', '/merchant/api/v1/charges/only-in-b')).status).toBe(404)
    expect(await reads(b, mandate)).toEqual(await reads(a, mandate))
    expect(((await reads(b, mandate))['/merchant/api/v1/transactions/snap-payout-1'] as any)[1].data.status).toBe('processing')

    // the pending timers (the payout's end, the checkout's expiry, the card's settlement) fire in both alike
    expect(snap.records.timers).not.toEqual({})
    for (const sb of [a, b]) await ok(sb.call('POST', '/_sandbox/clock/advance', { seconds: 3 * 24 * 3600 }))
    const after = await reads(b, mandate)
    expect(after).toEqual(await reads(a, mandate))
    expect((after['/merchant/api/v1/transactions/snap-payout-1'] as any)[1].data.status).not.toBe('processing')
    expect(JSON.stringify(await take(b))).toBe(JSON.stringify(await take(a)))
  })

  it('takes up pending webhooks: after a restore, advancing the clock makes the delivery that was due', async () => {
    const rx = await startReceiver()
    open.push({ close: async () => rx.close() })
    const a = await sandbox({ frozen: true })
    await ok(a.call('PUT', '/_sandbox/webhook-url', { url: rx.url }))
    // the delivery is a minute away on the (frozen) clock: pending, its attempt a timer
    await ok(a.call('POST', '/_sandbox/faults', { kind: 'webhook_delay', event: 'charge.success', delay_ms: 60_000 }))
    await a.charge(cardPayload('4084127883172787', { reference: 'snap-hook-1' }))
    const events = await ok(a.call('GET', '/_sandbox/events?reference=snap-hook-1'))
    expect(events.map((e: any) => [e.event, e.status, e.attempts.length])).toEqual([['charge.success', 'pending', 0]])
    const snap = await take(a)
    await a.close()

    const b = await sandbox({ frozen: true })
    await ok(restore(b, snap))
    expect((await ok(b.call('GET', '/_sandbox/clock'))).pending_timers.map((t: any) => t.kind)).toContain('webhook.attempt')
    await ok(b.call('POST', '/_sandbox/clock/advance', { seconds: 59 }))
    expect(rx.received).toHaveLength(0)
    await ok(b.call('POST', '/_sandbox/clock/advance', { seconds: 1 }))
    await rx.waitFor(1)
    expect(rx.received[0].body).toMatchObject({ event: 'charge.success', data: { reference: 'snap-hook-1', status: 'success' } })
    const delivered = await ok(b.call('GET', '/_sandbox/events?reference=snap-hook-1&status=delivered&wait=10000'))
    expect(delivered.map((e: any) => [e.status, e.attempts.length, e.attempts[0].due])).toEqual([['delivered', 1, new Date(Date.parse(snap.clock.now) + 60_000).toISOString()]])
  })

  it('a running clock is restored reading what it read, and runs on from there', async () => {
    const a = await sandbox()
    await ok(a.call('POST', '/_sandbox/clock/advance', { seconds: 86_400 * 400 }))
    const snap = await take(a)
    expect(snap.clock.frozen).toBe(false)
    const b = await sandbox()
    await ok(restore(b, snap))
    const clock = await ok(b.call('GET', '/_sandbox/clock'))
    expect(clock.frozen).toBe(false)
    expect(clock.now_ms).toBeGreaterThanOrEqual(Date.parse(snap.clock.now))
    expect(clock.now_ms - Date.parse(snap.clock.now)).toBeLessThan(60_000)
  })

  it('refuses a bad snapshot field by field, with the path of each bad field, and changes nothing', async () => {
    const sb = await sandbox({ frozen: true })
    await sb.charge(cardPayload('4084127883172787', { reference: 'kept-ref-1' }))
    const good = await take(sb)
    const before = JSON.stringify(good)
    const charge = Object.keys(good.records.charges)[0]
    const bad = (change: (s: any) => void) => {
      const s = structuredClone(good)
      change(s)
      return s
    }
    const cases: [unknown, Record<string, string>][] = [
      [[1, 2], { body: expect.any(String) }],
      [bad((s) => (s.paysandbox = 99)), { paysandbox: `was written by a newer paysandbox (format 99); this one reads up to ${FORMAT}` }],
      [
        bad((s) => {
          s.key = 'sk_live_abc'
          s.clock = { now: 'yesterday', frozen: 'yes', zone: 1 }
          s.extra = true
        }),
        {
          extra: 'is not allowed',
          key: 'live keys are never accepted by the sandbox',
          'clock.zone': 'is not allowed',
          'clock.now': 'must be an ISO 8601 time with its zone, such as 2026-01-01T00:00:00.000Z',
          'clock.frozen': 'must be true or false',
        },
      ],
      [bad((s) => delete s.records), { records: 'must be an object: collection -> key -> record' }],
      [bad((s) => (s.records.wallets = {})), { 'records.wallets': 'no such collection is kept' }],
      [bad((s) => (s.records.charges[charge] = 'x')), { [`records.charges.${charge}`]: 'must be an object' }],
      [
        bad((s) => {
          s.records.charges[charge].amount = '1000'
          s.records.meta.ns.webhook_url = 5
        }),
        { [`records.charges.${charge}.amount`]: 'must be a whole number of minor units, 0 to 5000000000000000', 'records.meta.ns.webhook_url': 'must be a string or null' },
      ],
      // a charge with only a few of the fields every charge has: the first one missing is named
      [
        bad((s) => (s.records.charges = { 'ref-x': { kind: 'card', payment_reference: 'ref-x', amount: 1000, currency: 'NGN', status: 'success', created_at: '2026-01-01T00:00:00.000Z' } })),
        { 'records.charges.ref-x.transaction_reference': 'must be a string' },
      ],
      // a card charge with the fields every charge has and nothing of its card: its card is named
      [bad((s) => delete s.records.charges[charge].card), { [`records.charges.${charge}.card`]: 'must be an object' }],
      [bad((s) => (s.records.charges[charge].card.card_type = null)), { [`records.charges.${charge}.card.card_type`]: 'must be a string' }],
      [bad((s) => delete s.records.meta.ns), { 'records.meta.ns': "is required: the namespace's merchant (its keys, encryption key, webhook URL)" }],
      [bad((s) => (s.records.meta.ns.secret_key = OTHER)), { 'records.meta.ns.secret_key': `must be the snapshot's key (${SECRET})` }],
      [bad((s) => (s.records.meta.clock = { offset_ms: 0, frozen_at: null })), { 'records.meta.clock': 'is not allowed: the namespace clock is the snapshot\'s "clock"' }],
    ]
    for (const [snapshot, issues] of cases) {
      const res = await restore(sb, snapshot)
      expect([res.status, res.body], JSON.stringify(snapshot).slice(0, 200)).toEqual([422, invalidBody(issues)])
      expect(JSON.stringify(await take(sb))).toBe(before)
    }
    const raw = await sb.call('POST', '/_sandbox/snapshot', undefined, { raw: '{"paysandbox":' })
    expect(raw.status).toBe(422)
    expect(JSON.stringify(await take(sb))).toBe(before)
  })

  it("restores another key's snapshot under the call's key, with that key's merchant; the snapshot's namespace is untouched", async () => {
    const sb = await sandbox({ frozen: true })
    await ok(sb.call('PUT', '/_sandbox/webhook-url', { url: 'https://shop.example/hooks' }))
    await sb.charge(cardPayload('4084127883172787', { reference: 'mine-ref-1' }))
    const snap = await take(sb)
    await ok(restore(sb, snap, OTHER))
    const copy = await take(sb, OTHER)
    expect(copy.key).toBe(OTHER)
    expect(copy.records.meta.ns).toMatchObject({ secret_key: OTHER, public_key: 'pk_test_snapshot_other', webhook_url: 'https://shop.example/hooks', created_at: snap.records.meta.ns.created_at })
    expect(copy.records.charges).toEqual(snap.records.charges)
    expect((await sb.call('GET', '/merchant/api/v1/charges/mine-ref-1', undefined, { key: OTHER })).body.data.status).toBe('success')
    expect(JSON.stringify(await take(sb))).toBe(JSON.stringify(snap))
  })

  it('takes back the answer of GET /_sandbox/snapshot as it came, the envelope around the document', async () => {
    const sb = await sandbox({ frozen: true })
    await sb.charge(cardPayload('4084127883172787', { reference: 'kept-ref-1' }))
    const answer = (await sb.call('GET', '/_sandbox/snapshot')).body
    expect(Object.keys(answer)).toEqual(['status', 'message', 'data'])
    await ok(sb.call('POST', '/_sandbox/reset'))
    expect((await sb.call('GET', '/merchant/api/v1/charges/kept-ref-1')).status).toBe(404)
    const res = await restore(sb, answer)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((await sb.call('GET', '/merchant/api/v1/charges/kept-ref-1')).body.data.status).toBe('success')
    expect(await take(sb)).toEqual(answer.data)
    // only the envelope's own fields: a document with any other beside data is refused as before
    const other = await restore(sb, { ...answer, extra: 1 })
    expect(other.status).toBe(422)
    expect(other.body.data).toMatchObject({ status: { message: 'status is not allowed' }, extra: { message: 'extra is not allowed' } })
  })

  it('takes a body up to --snapshot-bytes, 16 MiB by default where other control calls take 1 MiB; 413 past it', async () => {
    const small = await sandbox({ frozen: true, snapshotBytes: 1 << 20 })
    const good = await take(small)
    const big = structuredClone(good)
    big.records.meta.ns.name = 'x'.repeat(1_100_000)
    const before = JSON.stringify(good)
    expect(await restore(small, big)).toMatchObject({ status: 413, body: { status: false, message: 'Request body is too large', data: { limit_bytes: 1 << 20 } } })
    expect(JSON.stringify(await take(small))).toBe(before)
    const roomy = await sandbox({ frozen: true })
    await ok(restore(roomy, big))
    expect((await take(roomy)).records.meta.ns.name).toHaveLength(1_100_000)
    // any other control call keeps the limit of every body
    expect((await roomy.call('POST', '/_sandbox/clock/freeze', { frozen: true, pad: 'x'.repeat(1_100_000) })).status).toBe(413)
  })

  it('under --data, is in the file once acknowledged', async () => {
    const file = tempFile()
    const a = await sandbox({ frozen: true })
    await a.charge(cardPayload('4084127883172787', { reference: 'durable-1' }))
    const snap = await take(a)
    const b = await makeSandbox({ data: file })
    await ok(restore(b, snap))
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('durable-1')
    await b.close()
    const c = await sandbox({ data: file })
    expect(JSON.stringify(await take(c))).toBe(JSON.stringify(snap))
  })
})

describe('startSandbox({ load })', () => {
  it('starts every test from a committed snapshot: restore, run a charge, restore again, the charge is gone', async () => {
    const fixture = new URL('./fixtures/funded.snapshot.json', import.meta.url).pathname
    const snapshot = JSON.parse(readFileSync(fixture, 'utf8'))
    const sandbox = await startSandbox({ load: [fixture] })
    open.push(sandbox)
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${sandbox.url}${path}`, { method, headers: { authorization: `Bearer ${snapshot.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
      return { status: res.status, body: (await res.json()) as any }
    }
    const balances = (await call('GET', '/merchant/api/v1/balances')).body.data
    expect(balances.GHS.available_balance).toBe(5_000_250.5)

    const { encryptChargeData } = await import('../src/index.js')
    const charge = { ...cardPayload('4084127883172787', { reference: 'per-test-1' }) }
    const res = await call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(charge, snapshot.records.meta.ns.encryption_key) })
    expect(res.body.data.status).toBe('success')
    expect((await call('GET', '/merchant/api/v1/charges/per-test-1')).status).toBe(200)

    expect((await call('POST', '/_sandbox/snapshot', snapshot)).status).toBe(200)
    expect((await call('GET', '/merchant/api/v1/charges/per-test-1')).status).toBe(404)
    expect((await call('GET', '/merchant/api/v1/balances')).body.data).toEqual(balances)
  })

  it('refuses to start on a bad snapshot, naming the file and the field', async () => {
    const file = tempFile('bad.snapshot.json')
    writeFileSync(file, JSON.stringify({ paysandbox: 3, key: 'sk_test_x', clock: { now: '2026-01-01T00:00:00.000Z', frozen: true }, records: { charges: { c1: { amount: 'ten' } } } }))
    await expect(startSandbox({ load: [file] })).rejects.toThrow(`cannot load the snapshot ${file}: records.charges.c1`)
  })
})

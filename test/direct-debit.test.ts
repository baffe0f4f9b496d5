import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { verifyWebhookSignature } from '../src/webhooks/signature.js'
import { SECRET, cardPayload, ref, tempFile, type TestSandbox } from './helpers/sandbox.js'
import { startReceiver } from './helpers/receiver.js'
import { ownPerTest } from './helpers/after-each.js'

/**
 * Direct debit, end to end through HTTP (docs/api.md 2.8-2.11, 3.4, 3.5, 4.3, 6; docs/behaviour.md#http, docs/behaviour.md#direct-debit, docs/behaviour.md#webhooks, docs/behaviour.md#control-api):
 * seeded authorizations, the lifecycle moved by control calls and by the clock, debits and their
 * outcome through the charge query and webhooks, every refusal, and racing debits.
 * No sleeps: the namespace clock is advanced, receivers and events are awaited.
 */

const BANKS = JSON.parse(readFileSync(new URL('../fixtures/banks.json', import.meta.url), 'utf8')) as Record<string, string>
/** docs/api.md 2.11, in the document's order. */
const SPEC_BANK_CODES = ['044', '050', '070', '011', '214', '103', '058', '301', '082', '50211', '303', '637', '000036', '526', '076', '105', '101', '221', '068', '232', '100', '302', '102', '033', '032', '215', '035', '057']

const AUTHS = '/merchant/api/v1/direct-debit/authorizations'
const CONTROL = '/_sandbox/direct-debit/authorizations'
const PREFIXES = ['/api', '/merchant/api'] as const
type Prefix = (typeof PREFIXES)[number]
const debitPath = (code: string, prefix: Prefix = '/api') => `${prefix}/v1/direct-debit/authorizations/${code}/debits`
const chargePath = (reference: string) => `/merchant/api/v1/charges/${encodeURIComponent(reference)}`

const ACTIVE = 'AUTH-SANDBOX-ACTIVE'
const NSF = 'AUTH-SANDBOX-ACTIVE-NSF'
const SLOW = 'AUTH-SANDBOX-ACTIVE-SLOW'
const OTHER_KEY = 'sk_test_direct_debit_other'

/** docs/api.md 2.9: exactly these fields. */
const AUTH_FIELDS = ['reference', 'status', 'amount', 'currency', 'type', 'account_name', 'account_number', 'bank_code', 'bank_name', 'status_update_reason', 'start_date', 'end_date']
const YMD = /^\d{4}-\d{2}-\d{2}$/
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const SEEDS = [
  { reference: 'AUTH-SANDBOX-ACTIVE', status: 'active', account_number: '0123456789', bank_code: '058', account_name: 'Ada Obi' },
  { reference: 'AUTH-SANDBOX-PENDING', status: 'pending', account_number: '0123456789', bank_code: '058', account_name: 'Ada Obi' },
  { reference: 'AUTH-SANDBOX-SUSPENDED', status: 'suspended', account_number: '0123456789', bank_code: '058', account_name: 'Ada Obi' },
  { reference: 'AUTH-SANDBOX-DEACTIVATED', status: 'deactivated', account_number: '0123456789', bank_code: '058', account_name: 'Ada Obi' },
  { reference: 'AUTH-SANDBOX-EXPIRED', status: 'expired', account_number: '0123456789', bank_code: '058', account_name: 'Ada Obi' },
  { reference: 'AUTH-SANDBOX-ACTIVE-NSF', status: 'active', account_number: '0000000001', bank_code: '044', account_name: 'Emeka Eze' },
  { reference: 'AUTH-SANDBOX-ACTIVE-SLOW', status: 'active', account_number: '0000000002', bank_code: '033', account_name: 'Ngozi Bello' },
] as const

// ---------------------------------------------------------------------------------------------
// helpers

const { cleanups, sandbox } = ownPerTest()

/** A real local receiver, set as the namespace's webhook URL. */
async function receiverFor(sb: TestSandbox) {
  const rx = await startReceiver()
  cleanups.push(() => rx.close())
  const res = await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })
  expect(res.status).toBe(200)
  return rx
}

/** A mandate created with a real receiver set as the namespace's webhook URL first. */
async function authorizationHeard(sb: TestSandbox) {
  const rx = await receiverFor(sb)
  return { rx, auth: await createAuth(sb) }
}

type Call = Awaited<ReturnType<TestSandbox['call']>>

async function getAuth(sb: TestSandbox, reference: string, key?: string) {
  const res = await sb.call('GET', `${AUTHS}/${reference}`, undefined, { key })
  expect(res.status, `GET ${reference}: ${JSON.stringify(res.body)}`).toBe(200)
  return res.body.data
}

async function listAuths(sb: TestSandbox): Promise<any[]> {
  const res = await sb.call('GET', CONTROL)
  expect(res.status).toBe(200)
  expect(Array.isArray(res.body.data)).toBe(true)
  return res.body.data
}

async function createAuth(sb: TestSandbox, overrides: Record<string, unknown> = {}) {
  const res = await sb.call('POST', CONTROL, { account_number: '0123456789', bank_code: '044', account_name: 'Chidi Okafor', amount: 250000, ...overrides })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(res.body.status).toBe(true)
  return res.body.data
}

const move = (sb: TestSandbox, reference: string, m: string) => sb.call('POST', `${CONTROL}/${reference}/${m}`)

async function moveOk(sb: TestSandbox, reference: string, m: string, to: string) {
  const res = await move(sb, reference, m)
  expect(res.status, `${m} ${reference}: ${JSON.stringify(res.body)}`).toBe(200)
  expect(res.body.status).toBe(true)
  expect(res.body.data).toMatchObject({ reference, status: to })
  return res.body.data
}

const debitBody = (overrides: Record<string, unknown> = {}) => ({ reference: ref('dd'), amount: 5000, narration: 'Monthly subscription', currency: 'NGN', ...overrides })

const debit = (sb: TestSandbox, code: string, body: unknown, prefix: Prefix = '/api') => sb.call('POST', debitPath(code, prefix), body)

async function debitOk(sb: TestSandbox, code: string, body: Record<string, unknown>, prefix: Prefix = '/api') {
  const res = await debit(sb, code, body, prefix)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(res.body).toMatchObject({ status: true, message: 'success' })
  expect(res.body.data.status).toBe('processing')
  return res.body.data
}

async function advance(sb: TestSandbox, seconds: number) {
  const res = await sb.call('POST', '/_sandbox/clock/advance', { seconds })
  expect(res.status).toBe(200)
  return res.body.data
}

async function advanceTo(sb: TestSandbox, to: string) {
  const res = await sb.call('POST', '/_sandbox/clock/advance', { to })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

/** The namespace clock's current time, ms. */
async function clockNow(sb: TestSandbox, key?: string): Promise<number> {
  const res = await sb.call('GET', '/_sandbox/clock', undefined, { key })
  return res.body.data.now_ms as number
}

const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const DAY = 86_400_000

/** The same calendar date a year later (29 February goes to 28 February). */
function yearOn(date: string): string {
  const [y, m, d] = date.split('-').map(Number)
  const next = new Date(Date.UTC(y + 1, m - 1, d))
  if (next.getUTCMonth() !== m - 1) next.setUTCDate(0)
  return next.toISOString().slice(0, 10)
}

const isRealDate = (d: string) => YMD.test(d) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d)

async function allEvents(sb: TestSandbox, query = ''): Promise<any[]> {
  const res = await sb.call('GET', `/_sandbox/events${query}`)
  expect(res.status).toBe(200)
  return res.body.data
}

async function chargeQuery(sb: TestSandbox, reference: string) {
  const res = await sb.call('GET', chargePath(reference))
  expect(res.status, `charge ${reference}: ${JSON.stringify(res.body)}`).toBe(200)
  expect(res.body).toMatchObject({ status: true, message: 'Charge retrieved successfully' })
  return res.body.data
}

async function expectNoCharge(sb: TestSandbox, reference: string) {
  const res = await sb.call('GET', chargePath(reference))
  expect(res.status, `no charge ${reference}`).toBe(404)
  expect(res.body).toMatchObject({ status: false, message: 'Charge not found' })
}

function expectInvalid(res: Call, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(422)
  expect(res.body.status).toBe(false)
  expect(res.body.message).toBe('Invalid request data')
  expect(res.body.error).toBe('validation_error')
  expect(res.body.data?.[field]?.message?.startsWith(`${field} `), JSON.stringify(res.body.data)).toBe(true)
}

function expectRefused(res: Call, status: number, message: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(res.body.status).toBe(false)
  if (typeof message === 'string') expect(res.body.message).toBe(message)
  else expect(res.body.message).toMatch(message)
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/)
}

function expectSigned(got: { raw: string; headers: Record<string, unknown>; body: any }) {
  const sig = got.headers['x-korapay-signature'] as string
  expect(sig).toMatch(/^[0-9a-f]{64}$/)
  expect(verifyWebhookSignature(got.raw, sig, SECRET)).toBe(true)
  expect(verifyWebhookSignature(got.body.data, sig, SECRET)).toBe(true)
  expect(verifyWebhookSignature(got.raw, sig, OTHER_KEY)).toBe(false)
}

// ---------------------------------------------------------------------------------------------
// 1. seeded authorizations

describe('seeded authorizations (docs/behaviour.md#direct-debit)', () => {
  it('the bank fixture holds exactly the 28 codes of docs/api.md 2.11', () => {
    expect(Object.keys(BANKS).sort()).toEqual([...SPEC_BANK_CODES].sort())
    for (const code of SPEC_BANK_CODES) expect(BANKS[code]).toMatch(/\S/)
  })

  it('every seeded authorization reads with message success and the fields of docs/api.md 2.9', async () => {
    const sb = await sandbox()
    const today = ymd(await clockNow(sb))
    for (const seed of SEEDS) {
      const res = await sb.call('GET', `${AUTHS}/${seed.reference}`)
      expect(res.status).toBe(200)
      expect(res.body.status).toBe(true)
      expect(res.body.message).toBe('success')
      const d = res.body.data
      expect(Object.keys(d).sort()).toEqual([...AUTH_FIELDS].sort())
      expect(d).toMatchObject({ ...seed, amount: 500000, currency: 'NGN', type: 'variable', bank_name: BANKS[seed.bank_code] })
      expect(d.status_update_reason === null || typeof d.status_update_reason === 'string').toBe(true)
      expect(isRealDate(d.start_date), d.start_date).toBe(true)
      expect(isRealDate(d.end_date), d.end_date).toBe(true)
      expect(d.start_date <= d.end_date).toBe(true)
      if (seed.status === 'expired') {
        expect(d.end_date < today, `${seed.reference} end_date ${d.end_date} is in the past`).toBe(true)
      } else {
        expect(d.start_date <= today).toBe(true)
        expect(d.end_date >= today).toBe(true)
      }
    }
    // the list of the control API and the scenarios show the same seeds
    const list = await listAuths(sb)
    expect(list.map((a) => a.reference).sort()).toEqual(SEEDS.map((s) => s.reference).sort())
    const scen = await sb.call('GET', '/_sandbox/scenarios')
    expect(scen.body.data.authorizations.map((a: any) => [a.reference, a.status, a.amount])).toEqual(
      expect.arrayContaining(SEEDS.map((s) => [s.reference, s.status, 500000])),
    )
  })

  it('an unknown reference is 404 Authorization not found', async () => {
    const sb = await sandbox()
    for (const reference of ['AUTH-SANDBOX-NOPE', 'auth-sandbox-active', 'x']) {
      const res = await sb.call('GET', `${AUTHS}/${reference}`)
      expectRefused(res, 404, 'Authorization not found')
      expect(res.body.data).toBeNull()
    }
  })

  it('seeds are per namespace and come back after a reset', async () => {
    const sb = await sandbox()
    await moveOk(sb, ACTIVE, 'suspend', 'suspended')
    const created = await createAuth(sb)
    expect((await getAuth(sb, ACTIVE)).status).toBe('suspended')
    // another key's namespace has its own, untouched seeds
    expect((await getAuth(sb, ACTIVE, OTHER_KEY)).status).toBe('active')
    const other = await sb.call('GET', `${AUTHS}/${created.reference}`, undefined, { key: OTHER_KEY })
    expectRefused(other, 404, 'Authorization not found')

    const reset = await sb.call('POST', '/_sandbox/reset')
    expect(reset.status).toBe(200)
    const after = await getAuth(sb, ACTIVE)
    expect(after.status).toBe('active')
    expectRefused(await sb.call('GET', `${AUTHS}/${created.reference}`), 404, 'Authorization not found')
    expect(await listAuths(sb)).toHaveLength(SEEDS.length)
    // and the seed is usable again at once
    await debitOk(sb, ACTIVE, debitBody())
  })
})

// ---------------------------------------------------------------------------------------------
// 2. lifecycle

describe('authorization lifecycle with a real webhook receiver (docs/behaviour.md#direct-debit, docs/behaviour.md#webhooks, docs/behaviour.md#control-api)', () => {
  it('create: pending, type variable, start_date today, end_date a year on, nothing sent yet', async () => {
    const sb = await sandbox()
    const rx = await receiverFor(sb)
    const before = await listAuths(sb)
    const today = ymd(await clockNow(sb))
    const res = await sb.call('POST', CONTROL, { account_number: '0123456789', bank_code: '057', account_name: 'Chidi Okafor', amount: 250000.5 })
    expect(res.status).toBe(200)
    expect(res.body.status).toBe(true)
    const d = res.body.data
    expect(Object.keys(d).sort()).toEqual([...AUTH_FIELDS].sort())
    expect(d).toMatchObject({
      status: 'pending',
      type: 'variable',
      amount: 250000.5,
      currency: 'NGN',
      account_name: 'Chidi Okafor',
      account_number: '0123456789',
      bank_code: '057',
      bank_name: 'Zenith Bank',
      status_update_reason: null,
      start_date: today,
      end_date: yearOn(today),
    })
    expect(d.reference).toMatch(/\S{8,}/)
    expect(await getAuth(sb, d.reference)).toEqual(d)
    expect(await listAuths(sb)).toHaveLength(before.length + 1)
    expect(await allEvents(sb)).toEqual([])
    expect(rx.received).toHaveLength(0)
    // a pending authorization takes no debit
    expectRefused(await debit(sb, d.reference, debitBody()), 400, /pending/)
  })

  it('end_date defaults to the same date a year on, also across a 29 February', async () => {
    const sb = await sandbox()
    // the next 1 March before a leap year (2027-03-01 from 2026): a year on is 1 March of the
    // leap year, while 365 days on is its 29 February
    const now = await clockNow(sb)
    let year = new Date(now).getUTCFullYear()
    const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
    while (!isLeap(year + 1) || Date.parse(`${year}-03-01T12:00:00.000Z`) <= now) year++
    await advanceTo(sb, `${year}-03-01T12:00:00.000Z`)
    const d = await createAuth(sb)
    expect(d.start_date).toBe(`${year}-03-01`)
    expect(d.end_date).toBe(`${year + 1}-03-01`)
  })

  it('approve: active, a signed direct_debit.auth webhook with status success, and debits accepted at once', async () => {
    const sb = await sandbox()
    const { rx, auth } = await authorizationHeard(sb)
    const approved = await moveOk(sb, auth.reference, 'approve', 'active')
    expect(approved.status_update_reason).toEqual(expect.any(String))
    expect(await getAuth(sb, auth.reference)).toEqual(approved)

    await rx.waitFor(1)
    const got = rx.received[0]
    expect(got.body.event).toBe('direct_debit.auth')
    expect(got.body.data).toMatchObject({ reference: auth.reference, status: 'success' })
    expectSigned(got)
    const events = await allEvents(sb, `?reference=${auth.reference}`)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ event: 'direct_debit.auth', target: rx.url, data: { status: 'success' } })

    // docs/api.md 4.3: the debit may be made as soon as the webhook arrives
    const d = await debitOk(sb, auth.reference, debitBody({ amount: 250000 }))
    expect(d.authorization_code).toBe(auth.reference)
  })

  it('decline: deactivated, a signed direct_debit.auth webhook with status failed; final', async () => {
    const sb = await sandbox()
    const { rx, auth } = await authorizationHeard(sb)
    const declined = await moveOk(sb, auth.reference, 'decline', 'deactivated')
    expect(declined.status_update_reason).toEqual(expect.any(String))

    await rx.waitFor(1)
    const got = rx.received[0]
    expect(got.body.event).toBe('direct_debit.auth')
    expect(got.body.data).toMatchObject({ reference: auth.reference, status: 'failed' })
    expectSigned(got)

    expectRefused(await debit(sb, auth.reference, debitBody()), 400, /deactivated/)
    for (const m of ['approve', 'reactivate', 'decline', 'suspend']) {
      expectRefused(await move(sb, auth.reference, m), 400, /deactivated/)
    }
    expect(await getAuth(sb, auth.reference)).toEqual(declined)
    expect(await allEvents(sb)).toHaveLength(1)
  })

  it('suspend refuses debits, reactivate accepts them again, deactivate is final', async () => {
    const sb = await sandbox()
    const { rx, auth } = await authorizationHeard(sb)
    await moveOk(sb, auth.reference, 'approve', 'active')
    await rx.waitFor(1)

    const suspended = await moveOk(sb, auth.reference, 'suspend', 'suspended')
    expect(suspended.status_update_reason).toEqual(expect.any(String))
    const refusedRef = ref('dd-susp')
    expectRefused(await debit(sb, auth.reference, debitBody({ reference: refusedRef })), 400, /suspended/)
    await expectNoCharge(sb, refusedRef)

    await moveOk(sb, auth.reference, 'reactivate', 'active')
    const d = await debitOk(sb, auth.reference, debitBody({ reference: refusedRef }))
    expect(d.authorization_code).toBe(auth.reference)

    const deactivated = await moveOk(sb, auth.reference, 'deactivate', 'deactivated')
    expectRefused(await debit(sb, auth.reference, debitBody()), 400, /deactivated/)
    for (const m of ['reactivate', 'approve', 'suspend', 'decline', 'deactivate']) {
      const res = await move(sb, auth.reference, m)
      expectRefused(res, 400, /deactivated/)
    }
    expect(await getAuth(sb, auth.reference)).toEqual(deactivated)
    // only the approval was an authorization event: suspend, reactivate and deactivate send none
    expect((await allEvents(sb, `?event=direct_debit.auth`)).map((e) => e.data.status)).toEqual(['success'])
  })

  it('deactivate works from pending and from suspended too', async () => {
    const sb = await sandbox()
    await moveOk(sb, 'AUTH-SANDBOX-PENDING', 'deactivate', 'deactivated')
    await moveOk(sb, 'AUTH-SANDBOX-SUSPENDED', 'deactivate', 'deactivated')
    expectRefused(await debit(sb, 'AUTH-SANDBOX-PENDING', debitBody()), 400, /deactivated/)
    expectRefused(await debit(sb, 'AUTH-SANDBOX-SUSPENDED', debitBody()), 400, /deactivated/)
  })

  it('end_date passing on the clock makes it expired; debits and moves refused', async () => {
    const sb = await sandbox()
    const today = ymd(await clockNow(sb))
    const end = ymd(Date.parse(`${today}T00:00:00Z`) + 2 * DAY)
    const auth = await createAuth(sb, { end_date: end })
    expect(auth).toMatchObject({ start_date: today, end_date: end })
    await moveOk(sb, auth.reference, 'approve', 'active')

    // the last second of end_date: still active, debits accepted
    await advanceTo(sb, `${end}T23:59:59.000Z`)
    expect((await getAuth(sb, auth.reference)).status).toBe('active')
    await debitOk(sb, auth.reference, debitBody())

    // end_date has passed
    await advance(sb, 1)
    const expired = await getAuth(sb, auth.reference)
    expect(expired.status).toBe('expired')
    expect(expired.status_update_reason).toEqual(expect.any(String))
    const r = ref('dd-exp')
    expectRefused(await debit(sb, auth.reference, debitBody({ reference: r })), 400, /expired/)
    await expectNoCharge(sb, r)
    for (const m of ['approve', 'decline', 'suspend', 'reactivate']) expectRefused(await move(sb, auth.reference, m), 400, /expired/)
    expect(await getAuth(sb, auth.reference)).toEqual(expired)
    expect((await listAuths(sb)).find((a) => a.reference === auth.reference).status).toBe('expired')
  })

  it('before start_date a debit is refused, from the start (UTC) of start_date it is accepted', async () => {
    const sb = await sandbox()
    const today = ymd(await clockNow(sb))
    const start = ymd(Date.parse(`${today}T00:00:00Z`) + 3 * DAY)
    const auth = await createAuth(sb, { start_date: start })
    expect(auth).toMatchObject({ start_date: start })
    await moveOk(sb, auth.reference, 'approve', 'active')
    const r = ref('dd-early')
    const refused = await debit(sb, auth.reference, debitBody({ reference: r }))
    expectRefused(refused, 400, `Authorization is not active until ${start}`)
    expect(refused.body.data).toEqual({ start_date: start })
    await expectNoCharge(sb, r)
    // the last second before start_date: still refused, and the authorization unchanged
    await advanceTo(sb, `${ymd(Date.parse(`${start}T00:00:00Z`) - DAY)}T23:59:59.000Z`)
    const before = await getAuth(sb, auth.reference)
    expectRefused(await debit(sb, auth.reference, debitBody({ reference: r })), 400, `Authorization is not active until ${start}`)
    await expectNoCharge(sb, r)
    expect(await getAuth(sb, auth.reference)).toEqual(before)
    await advance(sb, 1)
    const d = await debitOk(sb, auth.reference, debitBody({ reference: r }))
    expect(d.authorization_code).toBe(auth.reference)
  })

  it('a suspended authorization whose end_date passes is expired too', async () => {
    const sb = await sandbox()
    const today = ymd(await clockNow(sb))
    const auth = await createAuth(sb, { end_date: today })
    await moveOk(sb, auth.reference, 'approve', 'active')
    await moveOk(sb, auth.reference, 'suspend', 'suspended')
    await advance(sb, 86_400 + 1)
    expect((await getAuth(sb, auth.reference)).status).toBe('expired')
    expectRefused(await move(sb, auth.reference, 'reactivate'), 400, /expired/)
  })

  it('invalid moves answer 400 naming the status and change nothing', async () => {
    const sb = await sandbox()
    const cases: [string, string, string][] = [
      ['AUTH-SANDBOX-ACTIVE', 'approve', 'active'],
      ['AUTH-SANDBOX-ACTIVE', 'decline', 'active'],
      ['AUTH-SANDBOX-ACTIVE', 'reactivate', 'active'],
      ['AUTH-SANDBOX-PENDING', 'suspend', 'pending'],
      ['AUTH-SANDBOX-PENDING', 'reactivate', 'pending'],
      ['AUTH-SANDBOX-SUSPENDED', 'approve', 'suspended'],
      ['AUTH-SANDBOX-SUSPENDED', 'decline', 'suspended'],
      ['AUTH-SANDBOX-SUSPENDED', 'suspend', 'suspended'],
      ['AUTH-SANDBOX-DEACTIVATED', 'approve', 'deactivated'],
      ['AUTH-SANDBOX-DEACTIVATED', 'decline', 'deactivated'],
      ['AUTH-SANDBOX-DEACTIVATED', 'suspend', 'deactivated'],
      ['AUTH-SANDBOX-DEACTIVATED', 'reactivate', 'deactivated'],
      ['AUTH-SANDBOX-DEACTIVATED', 'deactivate', 'deactivated'],
      ['AUTH-SANDBOX-EXPIRED', 'approve', 'expired'],
      ['AUTH-SANDBOX-EXPIRED', 'decline', 'expired'],
      ['AUTH-SANDBOX-EXPIRED', 'suspend', 'expired'],
      ['AUTH-SANDBOX-EXPIRED', 'reactivate', 'expired'],
      ['AUTH-SANDBOX-EXPIRED', 'deactivate', 'expired'],
    ]
    const before = await listAuths(sb)
    for (const [reference, m, status] of cases) {
      const was = await getAuth(sb, reference)
      const res = await move(sb, reference, m)
      expectRefused(res, 400, new RegExp(`\\b${status}\\b`))
      expect(await getAuth(sb, reference), `${m} ${reference}`).toEqual(was)
    }
    expect(await listAuths(sb)).toEqual(before)
    expect(await allEvents(sb)).toEqual([])
    for (const m of ['approve', 'decline', 'suspend', 'reactivate', 'deactivate']) {
      expectRefused(await move(sb, 'AUTH-SANDBOX-NOPE', m), 404, 'Authorization not found')
    }
  })
})

// ---------------------------------------------------------------------------------------------
// 3. debits

describe('debits (docs/api.md 2.10, 3.5, 4.3; docs/behaviour.md#direct-debit)', () => {
  for (const prefix of PREFIXES) {
    it(`on ${prefix}: processing with fee, VAT and ids, then success in the charge query and a charge.success webhook`, async () => {
      const sb = await sandbox()
      const rx = await receiverFor(sb)
      const reference = ref('dd')
      const narration = 'Gym membership, November'
      const res = await debit(sb, ACTIVE, { reference, amount: 12345.67, narration, currency: 'NGN' }, prefix)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ status: true, message: 'success' })
      const d = res.body.data
      expect(d).toMatchObject({
        transaction_reference: expect.any(String),
        authorization_code: ACTIVE,
        status: 'processing',
        amount: 12345.67,
        fee: 123.46, // 1 % of 12,345.67 = 123.4567
        vat: 9.26, // 7.5 % of 123.46 = 9.2595
        currency: 'NGN',
      })
      expect(d.transaction_reference.length).toBeGreaterThan(0)
      expect(d.transaction_reference).not.toBe(reference)
      expect(d.interbank_transaction_id).toMatch(/^\d{30}$/)
      expect(d.processed_at).toMatch(ISO_MS_Z)
      expect(new Date(d.processed_at).toISOString()).toBe(d.processed_at)
      expect(Math.abs(Date.parse(d.processed_at) - (await clockNow(sb)))).toBeLessThan(60_000)

      // processing until the 2 s of the namespace clock have passed
      expect((await chargeQuery(sb, reference)).status).toBe('processing')
      await advance(sb, 1)
      expect((await chargeQuery(sb, reference)).status).toBe('processing')
      expect(rx.received).toHaveLength(0)
      await advance(sb, 1)

      const q = await chargeQuery(sb, reference)
      expect(q).toMatchObject({ reference, status: 'success', description: `Direct Debit: ${narration}`, currency: 'NGN' })
      expect(Number(q.amount)).toBe(12345.67)
      expect(Number(q.amount_paid)).toBe(12345.67)
      expect(Number(q.fee)).toBe(123.46)
      // the transaction reference finds it too
      expect((await chargeQuery(sb, d.transaction_reference)).reference).toBe(reference)

      await rx.waitFor(1)
      const got = rx.received[0]
      expect(got.body).toMatchObject({
        event: 'charge.success',
        data: { reference, payment_reference: reference, transaction_reference: d.transaction_reference, amount: 12345.67, fee: 123.46, currency: 'NGN', status: 'success', payment_method: 'direct_debit', metadata: null },
      })
      expectSigned(got)
      expect(rx.received).toHaveLength(1)
    })
  }

  it('fee is 1 % capped at 1000, VAT 7.5 % of the fee', async () => {
    const sb = await sandbox()
    const cases: [number, number, number][] = [
      [5000, 50, 3.75],
      [0.01, 0, 0],
      [1, 0.01, 0],
      [99999, 999.99, 75],
      [100000, 1000, 75],
      [250000, 1000, 75],
      [500000, 1000, 75],
    ]
    for (const [amount, fee, vat] of cases) {
      const d = await debitOk(sb, ACTIVE, debitBody({ amount }))
      expect([d.amount, d.fee, d.vat], `amount ${amount}`).toEqual([amount, fee, vat])
    }
  })

  it('on AUTH-SANDBOX-ACTIVE-NSF: fails with Insufficient funds and a charge.failed webhook', async () => {
    const sb = await sandbox()
    const rx = await receiverFor(sb)
    const reference = ref('dd-nsf')
    const d = await debitOk(sb, NSF, debitBody({ reference, amount: 7000 }), '/merchant/api')
    expect(d.authorization_code).toBe(NSF)
    expect((await chargeQuery(sb, reference)).status).toBe('processing')
    await advance(sb, 2)
    const q = await chargeQuery(sb, reference)
    expect(q).toMatchObject({ reference, status: 'failed', description: 'Direct Debit: Monthly subscription' })
    expect(Number(q.amount_paid)).toBe(0)
    expect(q.payment_attempts).toEqual([expect.objectContaining({ status: 'failed', message: 'Insufficient funds' })])
    await rx.waitFor(1)
    expect(rx.received[0].body).toMatchObject({ event: 'charge.failed', data: { payment_reference: reference, status: 'failed', payment_method: 'direct_debit', amount: 7000 } })
    expectSigned(rx.received[0])
  })

  it('on AUTH-SANDBOX-ACTIVE-SLOW: still processing an hour later; the control call finishes it', async () => {
    const sb = await sandbox()
    const rx = await receiverFor(sb)
    const reference = ref('dd-slow')
    await debitOk(sb, SLOW, debitBody({ reference }))
    await advance(sb, 3600)
    expect((await chargeQuery(sb, reference)).status).toBe('processing')
    expect(await allEvents(sb)).toEqual([])

    const done = await sb.call('POST', `/_sandbox/charges/${reference}/complete`, { outcome: 'success' })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body.data).toMatchObject({ reference, status: 'success' })
    const q = await chargeQuery(sb, reference)
    expect(q).toMatchObject({ status: 'success', description: 'Direct Debit: Monthly subscription' })
    await rx.waitFor(1)
    expect(rx.received[0].body).toMatchObject({ event: 'charge.success', data: { payment_reference: reference, status: 'success', payment_method: 'direct_debit' } })
    expectSigned(rx.received[0])

    // finished once only
    expectRefused(await sb.call('POST', `/_sandbox/charges/${reference}/complete`, { outcome: 'failed' }), 409, 'Payment has already been completed')
    expect((await chargeQuery(sb, reference)).status).toBe('success')
    expect(await allEvents(sb)).toHaveLength(1)
  })

  it('needs a test secret key on every direct-debit path', async () => {
    const sb = await sandbox()
    const paths: [string, string, unknown][] = [
      ['GET', `${AUTHS}/${ACTIVE}`, undefined],
      ['POST', debitPath(ACTIVE, '/api'), debitBody()],
      ['POST', debitPath(ACTIVE, '/merchant/api'), debitBody()],
    ]
    for (const [method, path, body] of paths) {
      expectRefused(await sb.call(method, path, body, { key: null }), 401, 'Invalid authorization key')
      expectRefused(await sb.call(method, path, body, { key: 'not-a-key' }), 401, 'Invalid authorization key')
      expectRefused(await sb.call(method, path, body, { key: 'sk_live_abc' }), 401, /live keys/i)
    }
    await advance(sb, 10)
    expect(await allEvents(sb)).toEqual([])
  })

  it('a debit without reference gets a generated one that works in the charge query', async () => {
    const sb = await sandbox()
    const body = { amount: 1500, narration: 'No reference given', currency: 'NGN' }
    const a = await debitOk(sb, ACTIVE, body)
    const b = await debitOk(sb, ACTIVE, body, '/merchant/api')
    expect(a.reference).toEqual(expect.any(String))
    expect(a.reference.length).toBeGreaterThanOrEqual(8)
    expect(b.reference).not.toBe(a.reference)
    await advance(sb, 2)
    for (const d of [a, b]) {
      const q = await chargeQuery(sb, d.reference)
      expect(q).toMatchObject({ reference: d.reference, status: 'success', description: 'Direct Debit: No reference given' })
      expect((await allEvents(sb, `?reference=${d.reference}`)).map((e) => e.event)).toEqual(['charge.success'])
    }
  })
})

// ---------------------------------------------------------------------------------------------
// 4. debit refusals

describe('debit refusals change nothing (docs/behaviour.md#http, docs/behaviour.md#direct-debit)', () => {
  it('every refusal: its status and message, no charge, no event, the reference still free', async () => {
    const sb = await sandbox()
    const fixed = await createAuth(sb, { type: 'fixed' })
    expect(fixed.type).toBe('fixed')
    await moveOk(sb, fixed.reference, 'approve', 'active')
    const eventsAtStart = (await allEvents(sb)).length // the approval's direct_debit.auth

    const cases: { name: string; code: string; body: Record<string, unknown>; status: number; message: string | RegExp; field?: string; prefix?: Prefix }[] = [
      { name: 'unknown authorization', code: 'AUTH-SANDBOX-NOPE', body: {}, status: 404, message: 'Authorization not found' },
      { name: 'unknown authorization under /merchant', code: 'AUTH-SANDBOX-NOPE', body: {}, status: 404, message: 'Authorization not found', prefix: '/merchant/api' },
      { name: 'pending', code: 'AUTH-SANDBOX-PENDING', body: {}, status: 400, message: /\bpending\b/ },
      { name: 'suspended', code: 'AUTH-SANDBOX-SUSPENDED', body: {}, status: 400, message: /\bsuspended\b/ },
      { name: 'deactivated', code: 'AUTH-SANDBOX-DEACTIVATED', body: {}, status: 400, message: /\bdeactivated\b/ },
      { name: 'expired', code: 'AUTH-SANDBOX-EXPIRED', body: {}, status: 400, message: /\bexpired\b/, prefix: '/merchant/api' },
      { name: 'not variable', code: fixed.reference, body: {}, status: 400, message: /variable/ },
      { name: 'amount 0', code: ACTIVE, body: { amount: 0 }, status: 422, message: 'Invalid request data', field: 'amount' },
      { name: 'amount negative', code: ACTIVE, body: { amount: -5 }, status: 422, message: 'Invalid request data', field: 'amount' },
      { name: 'amount 3 decimals', code: ACTIVE, body: { amount: 10.125 }, status: 422, message: 'Invalid request data', field: 'amount' },
      { name: 'amount a string', code: ACTIVE, body: { amount: '5000' }, status: 422, message: 'Invalid request data', field: 'amount' },
      { name: 'amount missing', code: ACTIVE, body: { amount: undefined }, status: 422, message: 'Invalid request data', field: 'amount' },
      { name: 'over the ceiling', code: ACTIVE, body: { amount: 500000.01 }, status: 400, message: /ceiling/i },
      { name: 'over the ceiling under /merchant', code: NSF, body: { amount: 500001 }, status: 400, message: /ceiling/i, prefix: '/merchant/api' },
      { name: 'currency USD', code: ACTIVE, body: { currency: 'USD' }, status: 422, message: 'Invalid request data', field: 'currency' },
      { name: 'currency missing', code: ACTIVE, body: { currency: undefined }, status: 422, message: 'Invalid request data', field: 'currency' },
      { name: 'narration missing', code: ACTIVE, body: { narration: undefined }, status: 422, message: 'Invalid request data', field: 'narration' },
      { name: 'narration blank', code: ACTIVE, body: { narration: '   ' }, status: 422, message: 'Invalid request data', field: 'narration' },
    ]
    const refused: string[] = []
    for (const c of cases) {
      const body = debitBody(c.body)
      const before = (await allEvents(sb)).length
      const res = await debit(sb, c.code, body, c.prefix)
      expectRefused(res, c.status, c.message)
      if (c.field) expect(res.body.data?.[c.field]?.message?.startsWith(`${c.field} `), c.name).toBe(true)
      await expectNoCharge(sb, body.reference as string)
      expect((await allEvents(sb)).length, c.name).toBe(before)
      refused.push(body.reference as string)
    }
    // no hidden debit completes later either
    await advance(sb, 60)
    expect((await allEvents(sb)).length).toBe(eventsAtStart)
    for (const r of refused) await expectNoCharge(sb, r)
    // the refused references were not taken
    for (const r of refused.slice(0, 3)) await debitOk(sb, ACTIVE, debitBody({ reference: r }))
    // nor did any refusal move an authorization
    for (const seed of SEEDS) expect((await getAuth(sb, seed.reference)).status).toBe(seed.status)
  })

  it('malformed JSON and a non-object body are Invalid request data', async () => {
    const sb = await sandbox()
    for (const raw of ['{"amount": 5000, "narration": "x",', 'not json', '[1,2]', '"text"', '']) {
      const res = await sb.call('POST', debitPath(ACTIVE), undefined, { raw, headers: { 'content-type': 'application/json' } })
      expectRefused(res, 422, 'Invalid request data')
    }
    await advance(sb, 10)
    expect(await allEvents(sb)).toEqual([])
  })

  it('over the merchant transaction limit (debitLimit 1000) on a ceiling of 500000', async () => {
    const sb = await sandbox({ debitLimit: 1000 })
    expect((await getAuth(sb, ACTIVE)).amount).toBe(500000)
    const r = ref('dd-limit')
    expectRefused(await debit(sb, ACTIVE, debitBody({ reference: r, amount: 1000.01 })), 400, /limit/i)
    await expectNoCharge(sb, r)
    expectRefused(await debit(sb, ACTIVE, debitBody({ amount: 400000 }), '/merchant/api'), 400, /limit/i)
    expect(await allEvents(sb)).toEqual([])
    // the limit itself is allowed
    const d = await debitOk(sb, ACTIVE, debitBody({ reference: r, amount: 1000 }))
    expect(d.amount).toBe(1000)
  })

  it('the default merchant limit is NGN 10,000,000', async () => {
    const sb = await sandbox()
    const big = await createAuth(sb, { amount: 20_000_000 })
    await moveOk(sb, big.reference, 'approve', 'active')
    expectRefused(await debit(sb, big.reference, debitBody({ amount: 10_000_000.01 })), 400, /limit/i)
    await debitOk(sb, big.reference, debitBody({ amount: 10_000_000 }))
  })

  it('a reused reference is refused: an earlier debit, on any authorization or path', async () => {
    const sb = await sandbox()
    const reference = ref('dd-dup')
    const first = await debitOk(sb, ACTIVE, debitBody({ reference, amount: 2000 }))
    for (const [code, prefix] of [[ACTIVE, '/api'], [ACTIVE, '/merchant/api'], [NSF, '/api']] as [string, Prefix][]) {
      expectRefused(await debit(sb, code, debitBody({ reference, amount: 3000 }), prefix), 409, 'Duplicate payment reference')
    }
    // the debit's own transaction reference cannot be reused as a payment reference either
    expectRefused(await debit(sb, ACTIVE, debitBody({ reference: first.transaction_reference })), 409, 'Duplicate payment reference')
    const q = await chargeQuery(sb, reference)
    expect(q).toEqual(await chargeQuery(sb, first.transaction_reference))
    expect(Number(q.amount)).toBe(2000)
    await advance(sb, 2)
    expect((await allEvents(sb)).map((e) => [e.event, e.data.payment_reference])).toEqual([['charge.success', reference]])
  })

  it("a card charge's reference is refused for a debit, and a debit's for a card charge", async () => {
    const sb = await sandbox()
    const card = cardPayload('4084127883172787')
    const charged = await sb.charge(card)
    expect(charged.body.data.status).toBe('success')
    const eventsBefore = (await allEvents(sb)).length
    expectRefused(await debit(sb, ACTIVE, debitBody({ reference: card.reference })), 409, 'Duplicate payment reference')
    const q = await chargeQuery(sb, card.reference)
    expect(q).toMatchObject({ reference: card.reference, status: 'success', card: expect.any(Object) })
    await advance(sb, 10)
    expect((await allEvents(sb)).length).toBe(eventsBefore)

    const reference = ref('dd-then-card')
    await debitOk(sb, ACTIVE, debitBody({ reference }))
    const cardRes = await sb.charge(cardPayload('4084127883172787', { reference }))
    expectRefused({ ...cardRes, headers: new Headers({ 'content-type': 'application/json' }) }, 409, 'Duplicate payment reference')
    // the debit's query, with what a debit adds (docs/behaviour.md#direct-debit-debits)
    expect(await chargeQuery(sb, reference)).toHaveProperty('authorization_code')
  })
})

// ---------------------------------------------------------------------------------------------
// 5. create refusals

describe('creating an authorization: refusals change nothing (docs/behaviour.md#direct-debit, docs/behaviour.md#control-api)', () => {
  it('each bad field is 400 Invalid request data keyed by the field, and nothing is created', async () => {
    const sb = await sandbox()
    const today = ymd(await clockNow(sb))
    const inDays = (n: number) => ymd(Date.parse(`${today}T00:00:00Z`) + n * DAY)
    const valid = { account_number: '0123456789', bank_code: '058', account_name: 'Chidi Okafor', amount: 100000 }
    const cases: [string, Record<string, unknown>, string][] = [
      ['account_number 9 digits', { account_number: '012345678' }, 'account_number'],
      ['account_number 11 digits', { account_number: '01234567890' }, 'account_number'],
      ['account_number with letters', { account_number: '01234abcde' }, 'account_number'],
      ['account_number a number', { account_number: 1234567890 }, 'account_number'],
      ['bank_code 999', { bank_code: '999' }, 'bank_code'],
      ['bank_code 58 (not 058)', { bank_code: '58' }, 'bank_code'],
      ['bank_code missing', { bank_code: undefined }, 'bank_code'],
      ['account_name missing', { account_name: undefined }, 'account_name'],
      ['account_name blank', { account_name: '  ' }, 'account_name'],
      ['amount 0', { amount: 0 }, 'amount'],
      ['amount negative', { amount: -1 }, 'amount'],
      ['amount 3 decimals', { amount: 1.005 }, 'amount'],
      ['type unknown', { type: 'weekly' }, 'type'],
      ['end_date before start_date', { start_date: inDays(10), end_date: inDays(5) }, 'end_date'],
      ['start_date not YYYY-MM-DD', { start_date: today.replaceAll('-', '/') }, 'start_date'],
      ['start_date day first', { start_date: `${today.slice(8, 10)}-${today.slice(5, 7)}-${today.slice(0, 4)}` }, 'start_date'],
      ['end_date not YYYY-MM-DD', { end_date: `${inDays(30)}T00:00:00Z` }, 'end_date'],
      ['end_date 30 February', { end_date: `${Number(today.slice(0, 4)) + 1}-02-30` }, 'end_date'],
      ['start_date 30 February', { start_date: '2026-02-30' }, 'start_date'],
      ['end_date month 13', { end_date: `${Number(today.slice(0, 4)) + 1}-13-01` }, 'end_date'],
      ['end_date in the past', { end_date: '2020-01-01' }, 'end_date'],
      ['end_date yesterday', { end_date: inDays(-1) }, 'end_date'],
      ['end_date in the past with start_date', { start_date: '2020-01-01', end_date: '2020-06-01' }, 'end_date'],
    ]
    const before = await listAuths(sb)
    for (const [name, overrides, field] of cases) {
      const res = await sb.call('POST', CONTROL, { ...valid, ...overrides })
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(422)
      expectInvalid(res, field)
    }
    for (const raw of ['{"account_number": "0123456789",', 'null', '']) {
      expectRefused(await sb.call('POST', CONTROL, undefined, { raw, headers: { 'content-type': 'application/json' } }), 422, 'Invalid request data')
    }
    expect(await listAuths(sb)).toEqual(before)
    expect(await allEvents(sb)).toEqual([])
    // and the valid body itself is accepted
    await createAuth(sb, valid)
    expect(await listAuths(sb)).toHaveLength(before.length + 1)
  })

  it('every bank code of docs/api.md 2.11 is accepted, named from the fixture', async () => {
    const sb = await sandbox()
    for (const code of SPEC_BANK_CODES) {
      const a = await createAuth(sb, { bank_code: code })
      expect(a).toMatchObject({ bank_code: code, bank_name: BANKS[code] })
    }
    expect(await listAuths(sb)).toHaveLength(SEEDS.length + SPEC_BANK_CODES.length)
  })

  it("end_date is judged by the namespace clock, and today's end_date is allowed", async () => {
    const sb = await sandbox()
    const wallToday = ymd(await clockNow(sb))
    const soon = ymd(Date.parse(`${wallToday}T00:00:00Z`) + 30 * DAY)
    expect((await createAuth(sb, { end_date: wallToday })).end_date).toBe(wallToday)
    const before = (await listAuths(sb)).length
    await advance(sb, 60 * 86_400)
    expectInvalid(await sb.call('POST', CONTROL, { account_number: '0123456789', bank_code: '058', account_name: 'A B', amount: 1000, end_date: soon }), 'end_date')
    expect(await listAuths(sb)).toHaveLength(before)
  })
})

// ---------------------------------------------------------------------------------------------
// 6. racing debits

describe('racing debits', () => {
  it.each([
    ['in memory', false],
    ['with a data file', true],
  ])('20 parallel debits with the same reference: exactly one accepted (%s)', async (_name, file) => {
    const sb = await sandbox(file ? { data: tempFile() } : {})
    const reference = ref('dd-race')
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => debit(sb, ACTIVE, debitBody({ reference, amount: 1000 + i }), PREFIXES[i % 2])),
    )
    const accepted = results.filter((r) => r.status === 200)
    const refused = results.filter((r) => r.status !== 200)
    expect(accepted).toHaveLength(1)
    expect(refused).toHaveLength(19)
    for (const r of refused) expectRefused(r, 409, 'Duplicate payment reference')
    const q = await chargeQuery(sb, reference)
    expect(q).toEqual(await chargeQuery(sb, accepted[0].body.data.transaction_reference))
    expect(Number(q.amount)).toBe(accepted[0].body.data.amount)
    await advance(sb, 2)
    expect((await allEvents(sb)).map((e) => [e.event, e.data.payment_reference])).toEqual([['charge.success', reference]])
  })

  it('20 parallel debits with distinct references at the ceiling: all accepted, none over it', async () => {
    const sb = await sandbox()
    const refs = Array.from({ length: 20 }, (_, i) => ref(`dd-ceil-${i}`))
    // and one a kobo over, racing with them
    const overRef = ref('dd-ceil-over')
    const [over, ...results] = await Promise.all([
      debit(sb, ACTIVE, debitBody({ reference: overRef, amount: 500000.01 })),
      ...refs.map((reference, i) => debit(sb, ACTIVE, debitBody({ reference, amount: 500000 }), PREFIXES[i % 2])),
    ])
    expectRefused(over, 400, /ceiling/i)
    await expectNoCharge(sb, overRef)
    for (const r of results) {
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body.data).toMatchObject({ status: 'processing', amount: 500000, fee: 1000, vat: 75, authorization_code: ACTIVE })
      expect(r.body.data.amount).toBeLessThanOrEqual(500000)
    }
    expect(new Set(results.map((r) => r.body.data.transaction_reference)).size).toBe(20)
    expect(new Set(results.map((r) => r.body.data.interbank_transaction_id)).size).toBe(20)
    await advance(sb, 2)
    const events = await allEvents(sb)
    expect(events).toHaveLength(20)
    expect(events.map((e) => e.data.payment_reference).sort()).toEqual([...refs].sort())
    for (const e of events) {
      expect(e).toMatchObject({ event: 'charge.success', data: { amount: 500000, payment_method: 'direct_debit' } })
    }
    for (const reference of refs) expect(Number((await chargeQuery(sb, reference)).amount)).toBeLessThanOrEqual(500000)
  })
})

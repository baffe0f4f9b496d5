import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { cardPayload, ENC_KEY, makeSandbox, sandboxPerTest, SECRET, tempFile, fieldMessages, type TestSandbox } from './helpers/sandbox.js'
import { startReceiver } from './helpers/receiver.js'
import { NO_AUTH_CARD } from './helpers/cards.js'

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
const OTHER = 'sk_test_control_other'

const sandbox = sandboxPerTest()

/** The response envelope of docs/api.md 2.1: status, message, data (and an optional code). */
function expectEnvelope(res: { status: number; body: any; headers: Headers }, ok: boolean) {
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/)
  expect(typeof res.body).toBe('object')
  expect(res.body.status).toBe(ok)
  expect(typeof res.body.message).toBe('string')
  expect(res.body.message.length).toBeGreaterThan(0)
  expect('data' in res.body).toBe(true)
  for (const k of Object.keys(res.body)) expect(['status', 'message', 'data', 'code', 'error']).toContain(k)
  // a validation refusal names its kind (docs/behaviour.md#invalid-request-data)
  if ('error' in res.body) expect([res.status, res.body.error]).toEqual([422, 'validation_error'])
}

/** Lets pending callbacks and promise chains run: no timer, no sleep. */
const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r))
}

describe('GET /_sandbox/health', () => {
  it('needs no key and answers {status: true, data: {version, uptime_s}}', async () => {
    const sb = await sandbox()
    const res = await sb.call('GET', '/_sandbox/health', undefined, { key: null })
    expect(res.status).toBe(200)
    expectEnvelope(res, true)
    expect(res.body.data).toEqual({ version: VERSION, uptime_s: expect.any(Number) })
    expect(Number.isInteger(res.body.data.uptime_s)).toBe(true)
    expect(res.body.data.uptime_s).toBeGreaterThanOrEqual(0)
    expect(res.body.data.uptime_s).toBeLessThan(60)
  })

  it('answers with a key too, even a live one', async () => {
    const sb = await sandbox()
    expect((await sb.call('GET', '/_sandbox/health')).status).toBe(200)
    expect((await sb.call('GET', '/_sandbox/health', undefined, { key: 'sk_live_whatever' })).status).toBe(200)
  })
})

describe('keys on the control API', () => {
  const calls: [string, string, unknown][] = [
    ['GET', '/_sandbox/clock', undefined],
    ['POST', '/_sandbox/clock/advance', { seconds: 60 }],
    ['POST', '/_sandbox/reset', undefined],
    ['GET', '/_sandbox/scenarios', undefined],
    ['POST', '/_sandbox/scenarios', { cards: [] }],
    ['DELETE', '/_sandbox/scenarios', undefined],
    ['GET', '/_sandbox/requests', undefined],
    ['PUT', '/_sandbox/webhook-url', { url: 'http://127.0.0.1:9/hook' }],
    ['GET', '/_sandbox/events', undefined],
    ['POST', '/_sandbox/charges/KPY-CA-X/complete', { outcome: 'success' }],
  ]

  it.each(calls)('%s %s without a key is 401 Invalid authorization key', async (method, path, body) => {
    const sb = await sandbox()
    const res = await sb.call(method, path, body, { key: null })
    expect(res.status).toBe(401)
    expectEnvelope(res, false)
    expect(res.body.message).toBe('Invalid authorization key')
    expect(res.body.data).toEqual({ hint: expect.stringMatching(/^No Authorization header/) })
  })

  it.each(calls)('%s %s with a malformed key is 401', async (method, path, body) => {
    const sb = await sandbox()
    const res = await sb.call(method, path, body, { key: 'not-a-key' })
    expect(res.status).toBe(401)
    expect(res.body.message).toBe('Invalid authorization key')
  })

  it('refuses a live key with 401 saying live keys are never accepted', async () => {
    const sb = await sandbox()
    const res = await sb.call('GET', '/_sandbox/clock', undefined, { key: 'sk_live_abc' })
    expect(res.status).toBe(401)
    expectEnvelope(res, false)
    expect(res.body.message).toMatch(/live keys are never accepted/i)
  })

  it('changes nothing when refused', async () => {
    const sb = await sandbox()
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 3600 })
    await sb.call('POST', '/_sandbox/reset', undefined, { key: null })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 3600 }, { key: null })
    const clock = await sb.call('GET', '/_sandbox/clock')
    expect(clock.body.data.offset_ms).toBeGreaterThan(3_590_000)
    expect(clock.body.data.offset_ms).toBeLessThanOrEqual(3_600_000)
  })

  it('answers an unknown control route with a 404 envelope', async () => {
    const sb = await sandbox()
    const res = await sb.call('GET', '/_sandbox/no-such-thing')
    expect(res.status).toBe(404)
    expectEnvelope(res, false)
  })
})

describe('the namespace clock', () => {
  it('GET /_sandbox/clock reads it', async () => {
    const sb = await sandbox()
    const before = Date.now()
    const res = await sb.call('GET', '/_sandbox/clock')
    const after = Date.now()
    expect(res.status).toBe(200)
    expectEnvelope(res, true)
    const d = res.body.data
    expect(d.offset_ms).toBe(0)
    expect(d.now_ms).toBeGreaterThanOrEqual(before)
    expect(d.now_ms).toBeLessThanOrEqual(after)
    expect(d.now).toBe(new Date(d.now_ms).toISOString())
    // a fresh namespace holds only the expiry timers of its seeded direct-debit authorizations
    expect(d.pending_timers.map((t: { kind: string }) => t.kind).filter((k: string) => k !== 'dd.expire')).toEqual([])
  })

  it('POST /_sandbox/clock/advance {seconds} moves it forward', async () => {
    const sb = await sandbox()
    const before = Date.now()
    const res = await sb.call('POST', '/_sandbox/clock/advance', { seconds: 3600 })
    expect(res.status).toBe(200)
    expectEnvelope(res, true)
    expect(res.body.data.now_ms).toBeGreaterThanOrEqual(before + 3_600_000)
    expect(res.body.data.offset_ms).toBeGreaterThan(3_600_000 - 1000)
    expect(res.body.data.offset_ms).toBeLessThanOrEqual(3_600_000)
    const again = await sb.call('POST', '/_sandbox/clock/advance', { seconds: 0.5 })
    expect(again.body.data.offset_ms - res.body.data.offset_ms).toBeGreaterThan(500 - 1000)
    expect(again.body.data.offset_ms - res.body.data.offset_ms).toBeLessThanOrEqual(500)
    const read = await sb.call('GET', '/_sandbox/clock')
    expect(read.body.data.offset_ms).toBe(again.body.data.offset_ms)
  })

  it('POST /_sandbox/clock/advance {to} moves it to that moment', async () => {
    const sb = await sandbox()
    const target = Date.now() + 2 * 86_400_000
    const res = await sb.call('POST', '/_sandbox/clock/advance', { to: new Date(target).toISOString() })
    expect(res.status).toBe(200)
    expect(res.body.data.now_ms).toBeGreaterThanOrEqual(target)
    expect(res.body.data.now_ms).toBeLessThan(target + 1000)
    const read = await sb.call('GET', '/_sandbox/clock')
    expect(read.body.data.now_ms).toBeGreaterThanOrEqual(target)
  })

  it('refuses {to} in the past with 400 and changes nothing', async () => {
    const sb = await sandbox()
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 7200 })
    const before = (await sb.call('GET', '/_sandbox/clock')).body.data.offset_ms
    const res = await sb.call('POST', '/_sandbox/clock/advance', { to: new Date(Date.now() + 3_600_000).toISOString() })
    expect(res.status).toBe(422)
    expectEnvelope(res, false)
    expect(res.body.message).toBe('Invalid request data')
    expect(Object.keys(res.body.data)).toEqual(['to'])
    const after = (await sb.call('GET', '/_sandbox/clock')).body.data.offset_ms
    expect(after).toBe(before)
    const yesterday = await sb.call('POST', '/_sandbox/clock/advance', { to: '2001-01-01T00:00:00Z' })
    expect(yesterday.status).toBe(422)
    expect((await sb.call('GET', '/_sandbox/clock')).body.data.offset_ms).toBe(before)
  })

  it.each([
    ['both seconds and to', { seconds: 10, to: '2099-01-01T00:00:00Z' }],
    ['neither', {}],
    ['negative seconds', { seconds: -5 }],
    ['seconds as text', { seconds: '60' }],
    ['a to that is no date', { to: 'tomorrow' }],
  ])('refuses %s with 400 Invalid request data', async (_what, body) => {
    const sb = await sandbox()
    const res = await sb.call('POST', '/_sandbox/clock/advance', body)
    expect(res.status).toBe(422)
    expectEnvelope(res, false)
    expect(res.body.message).toBe('Invalid request data')
    expect(Object.keys(res.body.data ?? {}).length).toBeGreaterThan(0)
    expect((await sb.call('GET', '/_sandbox/clock')).body.data.offset_ms).toBe(0)
  })

  it('refuses a missing or malformed body with 400', async () => {
    const sb = await sandbox()
    expect((await sb.call('POST', '/_sandbox/clock/advance')).status).toBe(422)
    const res = await sb.call('POST', '/_sandbox/clock/advance', undefined, { raw: '{"seconds":' })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('Invalid request data')
  })

  it('moves only the key’s own clock', async () => {
    const sb = await sandbox()
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 86_400 })
    const other = await sb.call('GET', '/_sandbox/clock', undefined, { key: OTHER })
    expect(other.body.data.offset_ms).toBe(0)
  })
})

describe('POST /_sandbox/reset', () => {
  it('empties the namespace’s charges and its clock offset, and no other namespace', async () => {
    const sb = await sandbox()
    const mine = cardPayload('4084127883172787')
    const theirs = cardPayload('4084127883172787')
    expect((await sb.charge(mine)).body.data.status).toBe('success')
    expect((await sb.charge(theirs, { key: OTHER })).body.data.status).toBe('success')
    expect((await sb.call('GET', `/merchant/api/v1/charges/${mine.reference}`)).status).toBe(200)
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 3600 })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 3600 }, { key: OTHER })

    const res = await sb.call('POST', '/_sandbox/reset')
    expect(res.status).toBe(200)
    expectEnvelope(res, true)
    expect(res.body.data.clock.offset_ms).toBe(0)

    const q = await sb.call('GET', `/merchant/api/v1/charges/${mine.reference}`)
    expect(q.status).toBe(404)
    expectEnvelope(q, false)
    expect(q.body.message).toBe('Charge not found')
    expect((await sb.call('GET', '/_sandbox/clock')).body.data.offset_ms).toBe(0)
    expect((await sb.call('GET', '/_sandbox/events')).body.data).toEqual([])

    // the other key keeps its charge and its clock
    expect((await sb.call('GET', `/merchant/api/v1/charges/${theirs.reference}`, undefined, { key: OTHER })).status).toBe(200)
    expect((await sb.call('GET', '/_sandbox/clock', undefined, { key: OTHER })).body.data.offset_ms).toBeGreaterThan(3_500_000)

    // the namespace works again, and the old reference can be reused
    expect((await sb.charge({ ...mine })).body.data.status).toBe('success')
  })

  it('is persisted with --data', async () => {
    const data = tempFile()
    const first = await makeSandbox({ data })
    const p = cardPayload('4084127883172787')
    await first.charge(p)
    await first.call('POST', '/_sandbox/clock/advance', { seconds: 3600 })
    await first.call('POST', '/_sandbox/reset')
    await first.close()
    const second = await sandbox({ data })
    expect((await second.call('GET', `/merchant/api/v1/charges/${p.reference}`)).status).toBe(404)
    expect((await second.call('GET', '/_sandbox/clock')).body.data.offset_ms).toBe(0)
  })
})

describe('with --data', () => {
  /** What the data file holds, read with fs + JSON.parse: snapshot, then deltas replayed. */
  function fileState(file: string) {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { snapshot: Record<string, Record<string, Record<string, any>>>; deltas: any[] }
    const state = structuredClone(doc.snapshot)
    for (const d of doc.deltas) {
      if (d.reset) {
        for (const c of Object.keys(state[d.n] ?? {})) if (!d.reset.includes(c)) delete state[d.n][c]
      } else if (d.d) delete state[d.n]?.[d.c]?.[d.k]
      else ((state[d.n] ??= {})[d.c] ??= {})[d.k] = d.v
    }
    return state
  }

  it('answers a charge, a clock move and a reset only once they are in the file', async () => {
    const data = tempFile()
    const sb = await sandbox({ data })
    const p = cardPayload('4084127883172787')
    const res = await sb.charge(p)
    expect(res.body.data.status).toBe('success')
    const charges = Object.values(fileState(data)[SECRET]?.charges ?? {}) as any[]
    expect(charges.map((c) => [c.payment_reference, c.status])).toEqual([[p.reference, 'success']])

    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 3600 })
    expect(fileState(data)[SECRET].meta.clock.offset_ms).toBeGreaterThan(3_500_000)

    await sb.call('POST', '/_sandbox/reset')
    const after = fileState(data)[SECRET]
    expect(Object.keys(after.charges ?? {})).toEqual([])
    expect(after.meta?.clock).toBeUndefined()
  })

  it('lists the events of a restart after those made before it (the event counter goes on)', async () => {
    const data = tempFile()
    const first = await makeSandbox({ data })
    const before = [cardPayload('4084127883172787'), cardPayload('4084127883172787'), cardPayload('4084127883172787')]
    for (const p of before) await first.charge(p)
    await first.close()
    const second = await sandbox({ data })
    const later = cardPayload('4084127883172787')
    await second.charge(later)
    const events = (await second.call('GET', '/_sandbox/events')).body.data as any[]
    expect(events.map((e) => e.data.payment_reference)).toEqual([...before, later].map((p) => p.reference))
    expect(second.deps.events.list(SECRET).map((e) => e.seq)).toEqual([1, 2, 3, 4])
  })
})

/** The events of a new card charge made with `key` (the default key unless given). */
async function eventsOfACharge(sb: TestSandbox, key?: string) {
  const p = cardPayload(NO_AUTH_CARD)
  await sb.charge(p, key === undefined ? undefined : { key })
  return (await sb.call('GET', `/_sandbox/events?reference=${p.reference}`, undefined, key === undefined ? undefined : { key })).body.data
}

/** A sandbox of its own whose journal begins with a card charge and its query. */
async function chargedAndQueried() {
  const sb = await sandbox()
  const p = cardPayload(NO_AUTH_CARD)
  await sb.charge(p)
  await sb.call('GET', `/merchant/api/v1/charges/${p.reference}`)
  return { sb, p }
}

describe('GET /_sandbox/requests (the journal)', () => {
  it('lists method, path, status, ms, request and response, oldest first', async () => {
    const { sb, p } = await chargedAndQueried()
    await sb.call('GET', '/merchant/api/v1/charges/nope-nope')
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 1 })

    const res = await sb.call('GET', '/_sandbox/requests')
    expect(res.status).toBe(200)
    expectEnvelope(res, true)
    const entries = res.body.data as any[]
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([
      ['POST', '/merchant/api/v1/charges/card', 200],
      ['GET', `/merchant/api/v1/charges/${p.reference}`, 200],
      ['GET', '/merchant/api/v1/charges/nope-nope', 404],
      ['POST', '/_sandbox/clock/advance', 200],
    ])
    for (const e of entries) {
      expect(typeof e.ms).toBe('number')
      expect(e.ms).toBeGreaterThanOrEqual(0)
      expect(e).toHaveProperty('request')
      expect(e).toHaveProperty('response')
      expect(e.response).toMatchObject({ status: expect.any(Boolean), message: expect.any(String) })
    }
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => a - b))
    expect(entries[0].response.data.payment_reference).toBe(p.reference)
    expect(entries[2].response).toEqual({ status: false, message: 'Charge not found', data: null })
    expect(entries[3].request).toEqual({ seconds: 1 })
  })

  it('masks the PAN, CVV and PIN of what it keeps', async () => {
    const sb = await sandbox()
    const p = cardPayload('5188513618552975', {}, { pin: '1234' })
    await sb.charge(p)
    const entries = (await sb.call('GET', '/_sandbox/requests')).body.data
    const text = JSON.stringify(entries)
    expect(text).not.toContain('5188513618552975')
    expect(text).not.toContain('"123"')
    expect(text).not.toContain('"1234"')
    const req = entries[0].request
    expect(req.charge_data).toBe('(encrypted)')
    expect(req.decrypted.card.number).toMatch(/^518851\*+2975$/)
    expect(req.decrypted.card.cvv).toMatch(/^\*+$/)
    expect(req.decrypted.card.pin).toMatch(/^\*+$/)
    expect(req.decrypted.reference).toBe(p.reference)
  })

  it('journals a refused card charge without its charge_data, and masks whatever else was sent', async () => {
    const sb = await sandbox()
    const sent = [
      // charge_data that cannot be decrypted (a card sent in clear by mistake), beside a stray PAN
      { charge_data: '{"card":{"number":"5188513618552975"}}', note: 'card 5188513618552975' },
      // no charge_data at all
      { card: { number: '5188513618552975', cvv: '123' } },
      // charge_data that is not a string
      { charge_data: { card: { number: '5188513618552975', cvv: '123' } } },
    ]
    const answers = []
    for (const body of sent) answers.push(await sb.call('POST', '/merchant/api/v1/charges/card', body))
    expect(answers.map((a) => [a.status, a.body.message])).toEqual([
      [400, 'Unable to decrypt charge data, please check encryption and try again'],
      [422, 'Invalid request data'],
      [422, 'Invalid request data'],
    ])
    const entries = (await sb.call('GET', '/_sandbox/requests')).body.data
    expect(JSON.stringify(entries)).not.toContain('5188513618552975')
    expect(JSON.stringify(entries)).not.toContain('"123"')
    expect(entries.map((e: any) => e.request)).toEqual([
      { charge_data: '(not journaled)', note: expect.stringMatching(/^card 518851\*+2975$/) },
      { card: { number: expect.stringMatching(/^518851\*+2975$/), cvv: expect.stringMatching(/^\*+$/) } },
      { charge_data: { card: { number: expect.stringMatching(/^518851\*+2975$/), cvv: expect.stringMatching(/^\*+$/) } } },
    ])
  })

  it('journals, masked, a decrypted payload the quick path leaves to zod: not an object, an unknown field, a refused one', async () => {
    const sb = await sandbox()
    const PAN = '5188513618552975'
    const send = (text: string) => sb.call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(text, ENC_KEY) })
    const valid = cardPayload(PAN, {}, { pin: '1234' })
    const answers = [
      await send(JSON.stringify(PAN)),
      await send(JSON.stringify([{ number: PAN, cvv: '123' }])),
      await send(JSON.stringify({ ...valid, note: `card ${PAN}` })),
      await send(JSON.stringify({ ...valid, amount: '10' })),
    ]
    expect(answers.map((a) => [a.status, a.body.message])).toEqual([
      [422, 'Invalid request data'],
      [422, 'Invalid request data'],
      [200, 'Card charged successfully'],
      [422, 'Invalid request data'],
    ])
    expect(answers[0].body.data).toEqual(fieldMessages({ charge_data: 'must decrypt to a JSON object' }))
    const entries = (await sb.call('GET', '/_sandbox/requests')).body.data
    const text = JSON.stringify(entries)
    expect(text).not.toContain(PAN)
    expect(text).not.toContain('"123"')
    expect(text).not.toContain('"1234"')
    const decrypted = entries.map((e: any) => e.request.decrypted)
    expect(decrypted[0]).toMatch(/^518851\*+2975$/)
    expect(decrypted[1]).toEqual([{ number: expect.stringMatching(/^518851\*+2975$/), cvv: '***' }])
    expect(decrypted[2]).toMatchObject({ note: expect.stringMatching(/^card 518851\*+2975$/), card: { number: expect.stringMatching(/^518851\*+2975$/), cvv: '***', pin: '****' } })
    expect(decrypted[3]).toMatchObject({ amount: '10', card: { number: expect.stringMatching(/^518851\*+2975$/), cvv: '***', pin: '****' } })
    expect(entries.every((e: any) => e.request.charge_data === '(encrypted)')).toBe(true)
  })

  it('filters by ?method=, ?path= and ?limit=', async () => {
    const { sb, p } = await chargedAndQueried()
    await sb.call('GET', '/_sandbox/clock')
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 1 })
    await sb.call('GET', '/_sandbox/scenarios')

    const gets = (await sb.call('GET', '/_sandbox/requests?method=GET')).body.data
    expect(gets.map((e: any) => e.path)).toEqual([`/merchant/api/v1/charges/${p.reference}`, '/_sandbox/clock', '/_sandbox/scenarios'])
    const posts = (await sb.call('GET', '/_sandbox/requests?method=post')).body.data
    expect(posts.map((e: any) => e.path)).toEqual(['/merchant/api/v1/charges/card', '/_sandbox/clock/advance'])

    const charges = (await sb.call('GET', '/_sandbox/requests?path=/merchant/api/v1/charges')).body.data
    expect(charges.map((e: any) => e.path)).toEqual(['/merchant/api/v1/charges/card', `/merchant/api/v1/charges/${p.reference}`])
    const clock = (await sb.call('GET', `/_sandbox/requests?path=${encodeURIComponent('/_sandbox/clock')}`)).body.data
    expect(clock.map((e: any) => e.path)).toEqual(['/_sandbox/clock', '/_sandbox/clock/advance'])

    const last2 = (await sb.call('GET', '/_sandbox/requests?limit=2')).body.data
    expect(last2.map((e: any) => e.path)).toEqual(['/_sandbox/clock/advance', '/_sandbox/scenarios'])
    const both = (await sb.call('GET', '/_sandbox/requests?method=GET&limit=1')).body.data
    expect(both.map((e: any) => e.path)).toEqual(['/_sandbox/scenarios'])
  })

  it.each([['limit=0'], ['limit=abc'], ['method=G3T']])('refuses ?%s with 400', async (q) => {
    const sb = await sandbox()
    const res = await sb.call('GET', `/_sandbox/requests?${q}`)
    expect(res.status).toBe(422)
    expectEnvelope(res, false)
    expect(res.body.message).toBe('Invalid request data')
  })

  it('keeps at most journalSize entries, the newest', async () => {
    const sb = await sandbox({ journalSize: 5 })
    for (let i = 1; i <= 8; i++) await sb.call('GET', `/merchant/api/v1/charges/missing-${i}`)
    const entries = (await sb.call('GET', '/_sandbox/requests')).body.data
    expect(entries).toHaveLength(5)
    expect(entries.map((e: any) => e.path)).toEqual([4, 5, 6, 7, 8].map((i) => `/merchant/api/v1/charges/missing-${i}`))
    expect(entries.map((e: any) => e.id)).toEqual([4, 5, 6, 7, 8])
    // still ordered oldest first after wrapping around again
    for (let i = 9; i <= 11; i++) await sb.call('GET', `/merchant/api/v1/charges/missing-${i}`)
    const again = (await sb.call('GET', '/_sandbox/requests')).body.data
    expect(again.map((e: any) => e.path)).toEqual([7, 8, 9, 10, 11].map((i) => `/merchant/api/v1/charges/missing-${i}`))
  })

  it('journals each call once however it is answered, and not a call refused for its key', async () => {
    const sb = await sandbox()
    await sb.call('GET', '/merchant/api/v1/charges/missing-1') // the route throws its 404
    await sb.call('POST', '/merchant/api/v1/charges/card', { charge_data: 'nope' }) // the route throws its 400
    await sb.call('GET', '/merchant/api/v1/no-such-route') // no route: the gate still ran
    await sb.call('GET', '/_sandbox/no-such-route') // no route under the control middleware
    await sb.call('HEAD', '/merchant/api/v1/charges/missing-2')
    expect((await sb.call('GET', '/merchant/api/v1/no-such-route', undefined, { key: null })).status).toBe(401)
    expect((await sb.call('GET', '/merchant/api/v1/charges/missing-3', undefined, { key: 'sk_live_nope' })).status).toBe(401)
    const entries = (await sb.call('GET', '/_sandbox/requests')).body.data
    expect(entries.map((e: any) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/merchant/api/v1/charges/missing-1', 404],
      ['POST', '/merchant/api/v1/charges/card', 400],
      ['GET', '/merchant/api/v1/no-such-route', 404],
      ['GET', '/_sandbox/no-such-route', 404],
      ['HEAD', '/merchant/api/v1/charges/missing-2', 404],
    ])
    expect(entries[1].response).toMatchObject({ status: false, message: 'Unable to decrypt charge data, please check encryption and try again' })
  })

  it('keeps one journal per key', async () => {
    const sb = await sandbox()
    await sb.call('GET', '/merchant/api/v1/charges/mine-1')
    await sb.call('GET', '/merchant/api/v1/charges/theirs-1', undefined, { key: OTHER })
    const mine = (await sb.call('GET', '/_sandbox/requests')).body.data
    const theirs = (await sb.call('GET', '/_sandbox/requests', undefined, { key: OTHER })).body.data
    expect(mine.map((e: any) => e.path)).toEqual(['/merchant/api/v1/charges/mine-1'])
    expect(theirs.map((e: any) => e.path)).toEqual(['/merchant/api/v1/charges/theirs-1'])
  })
})

describe('PUT /_sandbox/webhook-url', () => {
  const HOOK = 'http://127.0.0.1:9/paysandbox-hook'

  it('sets the namespace’s webhook URL, which new events target', async () => {
    const sb = await sandbox()
    const res = await sb.call('PUT', '/_sandbox/webhook-url', { url: HOOK })
    expect(res.status).toBe(200)
    expectEnvelope(res, true)
    expect(res.body.data).toEqual({ url: HOOK })
    const events = await eventsOfACharge(sb)
    expect(events).toHaveLength(1)
    expect(events[0].target).toBe(HOOK)
    // another key has no URL
    const theirs = await eventsOfACharge(sb, OTHER)
    expect(theirs[0].target).toBeNull()
  })

  it('{url: null} clears it', async () => {
    const sb = await sandbox()
    await sb.call('PUT', '/_sandbox/webhook-url', { url: HOOK })
    const res = await sb.call('PUT', '/_sandbox/webhook-url', { url: null })
    expect(res.status).toBe(200)
    expectEnvelope(res, true)
    expect(res.body.data).toEqual({ url: null })
    const events = await eventsOfACharge(sb)
    expect(events[0].target).toBeNull()
  })

  it.each([
    ['an ftp URL', { url: 'ftp://example.com/hook' }],
    ['a javascript URL', { url: 'javascript:alert(1)' }],
    ['no URL at all', { url: 'not a url' }],
    ['a number', { url: 42 }],
    ['a missing url', {}],
  ])('refuses %s with 400 Invalid request data and keeps the URL', async (_what, body) => {
    const sb = await sandbox()
    await sb.call('PUT', '/_sandbox/webhook-url', { url: HOOK })
    const res = await sb.call('PUT', '/_sandbox/webhook-url', body)
    expect(res.status).toBe(422)
    expectEnvelope(res, false)
    expect(res.body.message).toBe('Invalid request data')
    expect(Object.keys(res.body.data)).toEqual(['url'])
    const p = cardPayload('4084127883172787')
    await sb.charge(p)
    expect((await sb.call('GET', `/_sandbox/events?reference=${p.reference}`)).body.data[0].target).toBe(HOOK)
  })
})

describe('GET /_sandbox/events', () => {
  it('lists recorded events with their shape, filtered by reference and event', async () => {
    const sb = await sandbox()
    const ok = cardPayload('4084127883172787')
    const bad = cardPayload('506066506066506067', {}, { cvv: '408' })
    await sb.charge(ok)
    await sb.charge(bad)
    const all = await sb.call('GET', '/_sandbox/events')
    expect(all.status).toBe(200)
    expectEnvelope(all, true)
    expect(all.body.data.map((e: any) => [e.event, e.data.payment_reference])).toEqual([
      ['charge.success', ok.reference],
      ['charge.failed', bad.reference],
    ])
    for (const e of all.body.data) {
      expect(e).toMatchObject({ id: expect.any(String), event: expect.any(String), data: expect.any(Object), created_at: expect.any(String), target: null, attempts: [] })
      expect(e).not.toHaveProperty('seq')
    }
    const byRef = (await sb.call('GET', `/_sandbox/events?reference=${bad.reference}`)).body.data
    expect(byRef.map((e: any) => e.event)).toEqual(['charge.failed'])
    expect(byRef[0].data.transaction_reference).toMatch(/^KPY-CA-/)
    const byTx = (await sb.call('GET', `/_sandbox/events?reference=${byRef[0].data.transaction_reference}`)).body.data
    expect(byTx.map((e: any) => e.data.payment_reference)).toEqual([bad.reference])
    const byEvent = (await sb.call('GET', '/_sandbox/events?event=charge.success')).body.data
    expect(byEvent.map((e: any) => e.data.payment_reference)).toEqual([ok.reference])
  })

  it('?wait= long-polls and returns as soon as an event is recorded', async () => {
    const sb = await sandbox()
    let settled = false
    const t0 = Date.now()
    const poll = sb.call('GET', '/_sandbox/events?wait=2000').finally(() => {
      settled = true
    })
    await turns(10)
    expect(settled).toBe(false)

    const p = cardPayload('4084127883172787')
    await sb.charge(p)
    const res = await poll
    expect(Date.now() - t0).toBeLessThan(2000)
    expect(res.status).toBe(200)
    expectEnvelope(res, true)
    expect(res.body.data).toHaveLength(1)
    expect(res.body.data[0]).toMatchObject({ event: 'charge.success', data: { payment_reference: p.reference, status: 'success' } })
  })

  it('?wait= with a reference waits for that reference, not for other events', async () => {
    const sb = await sandbox()
    const wanted = cardPayload('4084127883172787')
    let settled = false
    const t0 = Date.now()
    const poll = sb.call('GET', `/_sandbox/events?reference=${wanted.reference}&wait=5000`).finally(() => {
      settled = true
    })
    await turns(10)
    await sb.charge(cardPayload('4084127883172787'))
    await turns(10)
    expect(settled).toBe(false)
    await sb.charge(wanted)
    const res = await poll
    expect(Date.now() - t0).toBeLessThan(5000)
    expect(res.body.data.map((e: any) => e.data.payment_reference)).toEqual([wanted.reference])
  })

  it('?wait= does not wait when a matching event is already there', async () => {
    const sb = await sandbox()
    const p = cardPayload('4084127883172787')
    await sb.charge(p)
    const t0 = Date.now()
    const res = await sb.call('GET', `/_sandbox/events?reference=${p.reference}&wait=20000`)
    expect(Date.now() - t0).toBeLessThan(5000)
    expect(res.body.data).toHaveLength(1)
  })

  it('only wakes for the key’s own events', async () => {
    const sb = await sandbox()
    let settled = false
    const poll = sb.call('GET', '/_sandbox/events?wait=3000').finally(() => {
      settled = true
    })
    await turns(10)
    await sb.charge(cardPayload('4084127883172787'), { key: OTHER })
    await turns(10)
    expect(settled).toBe(false)
    await sb.charge(cardPayload('4084127883172787'))
    const res = await poll
    expect(res.body.data).toHaveLength(1)
  })

  it('refuses a negative wait with 400', async () => {
    const sb = await sandbox()
    const res = await sb.call('GET', '/_sandbox/events?wait=-1')
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('Invalid request data')
    expect(Object.keys(res.body.data)).toEqual(['wait'])
  })
})

describe('the envelope', () => {
  it('wraps every control answer, success or failure', async () => {
    const sb = await sandbox()
    const p = cardPayload('4084127883172787')
    await sb.charge(p)
    const cases: [string, string, unknown, boolean, string | null][] = [
      ['GET', '/_sandbox/health', undefined, true, null],
      ['GET', '/_sandbox/clock', undefined, true, SECRET],
      ['POST', '/_sandbox/clock/advance', { seconds: 1 }, true, SECRET],
      ['POST', '/_sandbox/clock/advance', {}, false, SECRET],
      ['GET', '/_sandbox/scenarios', undefined, true, SECRET],
      ['POST', '/_sandbox/scenarios', { cardz: [] }, false, SECRET],
      ['DELETE', '/_sandbox/scenarios', undefined, true, SECRET],
      ['GET', '/_sandbox/requests', undefined, true, SECRET],
      ['GET', '/_sandbox/requests?limit=0', undefined, false, SECRET],
      ['PUT', '/_sandbox/webhook-url', { url: null }, true, SECRET],
      ['PUT', '/_sandbox/webhook-url', { url: 'ftp://x' }, false, SECRET],
      ['GET', '/_sandbox/events', undefined, true, SECRET],
      ['GET', '/_sandbox/events?wait=x', undefined, false, SECRET],
      ['POST', '/_sandbox/charges/KPY-CA-NOPE/complete', { outcome: 'success' }, false, SECRET],
      ['POST', '/_sandbox/reset', undefined, true, SECRET],
      ['GET', '/_sandbox/clock', undefined, false, null],
      ['GET', '/_sandbox/unknown', undefined, false, SECRET],
    ]
    for (const [method, path, body, ok, key] of cases) {
      const res = await sb.call(method, path, body, { key })
      expectEnvelope(res, ok)
      expect(res.status >= 400, `${method} ${path}`).toBe(!ok)
    }
  })
})

describe('the refusals the engine decides for the control API, exact (docs/behaviour.md#control-api)', () => {
  it('POST /_sandbox/clock/advance: a target past the year 9999, behind the clock or no time at all', async () => {
    const sb = await sandbox()
    const refused = async (body: object) => {
      const res = await sb.call('POST', '/_sandbox/clock/advance', body)
      expect(res.status).toBe(422)
      expect(res.body.message).toBe('Invalid request data')
      return res.body.data
    }
    expect(await refused({ to: 'tomorrow' })).toEqual(fieldMessages({ to: 'must be an ISO 8601 timestamp or milliseconds since the epoch' }))
    expect(await refused({ to: 253_402_300_800_000 })).toEqual(fieldMessages({ to: 'must not be past the year 9999' }))
    expect((await refused({ to: '2001-01-01T00:00:00Z' })).to.message).toMatch(/^to must not be before the namespace's current time \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\): the clock never moves backwards$/)
    expect((await sb.call('GET', '/_sandbox/clock')).body.data.offset_ms).toBe(0)
    expect((await sb.call('POST', '/_sandbox/clock/advance', { to: '9999-12-31T00:00:00.000Z' })).status).toBe(200)
    const offset = (await sb.call('GET', '/_sandbox/clock')).body.data.offset_ms
    expect(await refused({ seconds: 2 * 86_400 })).toEqual(fieldMessages({ seconds: 'would move the clock past the year 9999' }))
    expect((await sb.call('GET', '/_sandbox/clock')).body.data.offset_ms).toBe(offset)
  })

  it('POST /_sandbox/scenarios: each issue of a bad pack under its entry path, and nothing added', async () => {
    const sb = await sandbox()
    const res = await sb.call('POST', '/_sandbox/scenarios', { cards: [{ number: '1' }] })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('Invalid request data')
    expect(res.body.data).toMatchObject(fieldMessages({ 'cards.0.number': 'must be 12-19 digits', 'cards.0.cvv': 'is required' }))
    expect((await sb.call('GET', '/_sandbox/scenarios')).body.data.cards.some((c: any) => c.number === '1')).toBe(false)
  })

  it('POST /_sandbox/events/:id/resend: 404 for no such event, 400 with no URL, and "Event delivery failed" when the receiver refuses it', async () => {
    const sb = await sandbox()
    const gone = await sb.call('POST', '/_sandbox/events/evt_nope/resend')
    expect([gone.status, gone.body.message, gone.body.data]).toEqual([404, 'Event not found', null])
    const p = cardPayload('4084127883172787')
    await sb.charge(p)
    const [event] = (await sb.call('GET', `/_sandbox/events?reference=${p.reference}`)).body.data
    const noUrl = await sb.call('POST', `/_sandbox/events/${event.id}/resend`)
    expect([noUrl.status, noUrl.body.message]).toEqual([400, 'No webhook URL is set: PUT /_sandbox/webhook-url first'])
    // a receiver that answers 500 (a port let go instead could be taken again by another test's server)
    const rx = await startReceiver(() => 500)
    try {
      await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })
      const failed = await sb.call('POST', `/_sandbox/events/${event.id}/resend`)
      expect(failed.status).toBe(200)
      expect(failed.body.message).toBe('Event delivery failed')
      expect(failed.body.data.attempt).toMatchObject({ status_code: 500 })
      expect(failed.body.data.event).not.toHaveProperty('seq')
      expect(failed.body.data.event.attempts).toHaveLength(1)
      expect(rx.received).toHaveLength(1)
    } finally {
      await rx.close()
    }
  })
})

import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { CHARGES } from '../src/engine/types.js'
import { ENC_KEY, FAR_ADDRESS, SECRET, cardPayload, sandboxPerTest, ref, storeText, tempFile, type TestSandbox } from './helpers/sandbox.js'
import { refusedAtStart, runCli, startCli, type RunningCli } from './e2e/process.js'

/**
 * Secrets, keys, the loopback rule, bounds and atomicity (issue 9; docs/behaviour.md#product, docs/behaviour.md#keys-and-namespaces, docs/behaviour.md#http, docs/behaviour.md#control-api):
 *
 * - Full PAN, CVV, PIN and OTP are never stored or journaled: after every flow that carries them,
 *   the whole store, the whole journal and the data file hold none of them.
 * - Live keys are refused everywhere, and at start.
 * - The control API and the dashboard answer only on loopback unless a control token is set and
 *   sent; merchant endpoints are not under that rule. A non-loopback peer is simulated through
 *   app.request's third argument (the node-server env), no network traffic.
 * - At most N namespaces, a ring journal.
 * - Racing duplicate references and racing authorizes: exactly one wins.
 */

const M = '/merchant/api/v1'
const CARD = `${M}/charges/card`
const MM = `${M}/charges/mobile-money`
const FAR = '203.0.113.7'
const FORBIDDEN = 'The control API answers only on loopback unless a control token is set'

const sandbox = sandboxPerTest()
const children: RunningCli[] = []
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.child.exitCode === null && c.child.signalCode === null) {
      c.child.kill('SIGKILL')
      await c.exited
    }
  }
})

type Res = { status: number; body: any; headers: Headers }

/** A request from a given peer address (undefined: as app.request, i.e. in-process and local). */
async function from(sb: TestSandbox, addr: string | undefined, method: string, path: string, o: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {}): Promise<Res> {
  const headers: Record<string, string> = { ...(o.headers ?? {}) }
  const key = o.key === undefined ? SECRET : o.key
  if (key !== null) headers.authorization = `Bearer ${key}`
  if (o.body !== undefined) headers['content-type'] = 'application/json'
  const env = addr === undefined ? undefined : { incoming: { socket: { remoteAddress: addr } } }
  const res = await sb.app.request(path, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) }, env)
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    /* HTML */
  }
  return { status: res.status, body, headers: res.headers }
}

function expectEnvelope(res: Res, ok: boolean, message?: string | RegExp) {
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/)
  expect(res.body).toEqual({ status: ok, message: expect.any(String), data: res.body.data ?? null, ...(res.body.code ? { code: res.body.code } : {}) })
  if (typeof message === 'string') expect(res.body.message).toBe(message)
  else if (message) expect(res.body.message).toMatch(message)
}

const chargeWith = (sb: TestSandbox, payload: unknown, key = SECRET) =>
  sb.call('POST', CARD, { charge_data: encryptChargeData(payload, ENC_KEY) }, { key })

// ---------------------------------------------------------------------------------------------
// 1. secrets

/** Every PAN the flows below send. */
const PANS = {
  noAuth: '4084127883172787',
  pin: '5188513618552975',
  pinOtp: '5442056106072595',
  verve: '5061460410120223210',
  otpFails: '5399830000500007',
  unlisted: '4111111111111111',
  invalid: '4000056655665556',
}
const CVVS = ['123', '4321']
/** secrets as JSON field values: none may be left unmasked anywhere */
const LEAKS: [string, RegExp][] = [
  ['a CVV', /"cvv"\s*:\s*"?\d{3,4}"?/i],
  ['a PIN', /"pin"\s*:\s*"?\d{4,6}"?[,}\]]/i],
  ['an OTP', /"(otp|token)"\s*:\s*"?\d{4,8}"?[,}\]]/i],
]

/**
 * Drives every flow that carries a secret: cards with the PIN up front, PIN and OTP authorize
 * steps (right and wrong), card enrolment, mobile money OTP and STK PIN, pre-authorizations,
 * and refusals whose bodies still held the card.
 */
async function driveSecrets(sb: TestSandbox, key = SECRET) {
  const call = (method: string, path: string, body?: unknown) => sb.call(method, path, body, { key })
  const charge = async (number: string, card: Record<string, unknown> = {}, path = CARD) => {
    const p = cardPayload(number, {}, card)
    const res = await call('POST', path, { charge_data: encryptChargeData(p, ENC_KEY) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.data.transaction_reference as string
  }
  const authorize = async (tx: string, authorization: Record<string, unknown>, status = 'success') => {
    const res = await call('POST', `${CARD}/authorize`, { transaction_reference: tx, authorization })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    if (status) expect(res.body.data.status).toBe(status)
    return res
  }

  // the PIN up front (docs/behaviour.md#card-charges)
  await charge(PANS.pin, { pin: '1234' }).then(async (tx) => {
    const q = await call('GET', `${M}/charges/${tx}`)
    expect(q.body.data.status).toBe('success')
  })
  // the PIN step, right and wrong
  await authorize(await charge(PANS.pin), { pin: '1234' })
  await authorize(await charge(PANS.pin), { pin: '9876' }, 'failed')
  // PIN then OTP
  const pinOtp = await charge(PANS.pinOtp)
  await authorize(pinOtp, { pin: '1234' }, 'processing')
  await authorize(pinOtp, { otp: '123456' })
  // OTP resent, then a wrong OTP
  const otpFails = await charge(PANS.otpFails)
  expect((await call('POST', `${CARD}/resend-otp`, { transaction_reference: otpFails })).status).toBe(200)
  await authorize(otpFails, { otp: '654321' }, 'failed')
  // PIN, card enrolment, OTP on a 19-digit card
  const verve = await charge(PANS.verve, { pin: '1234' })
  await authorize(verve, { phone: '+2348012345678' }, 'processing')
  await authorize(verve, { otp: '123456' })
  // an unlisted card with a 4-digit CVV
  await charge(PANS.unlisted, { cvv: '4321' })
  // pre-authorizations, one of them through its PIN step
  await charge(PANS.noAuth, {}, `${CARD}/pre-authorize`)
  await authorize(await charge(PANS.pin, {}, `${CARD}/pre-authorize`), { pin: '1234' }, 'pre_authorized')

  // refusals whose requests still held the card
  const bad = cardPayload(PANS.invalid, {}, { cvv: '12345', pin: '1234' })
  expect((await call('POST', CARD, { charge_data: encryptChargeData(bad, ENC_KEY) })).status).toBe(422)
  const expired = cardPayload(PANS.noAuth, {}, { expiry_year: '19' })
  expect((await call('POST', CARD, { charge_data: encryptChargeData(expired, ENC_KEY) })).status).toBe(422)
  // the merchant's mistakes: the card sent unencrypted, inside charge_data and in the body itself
  const plain = cardPayload(PANS.pin, {}, { pin: '1234' })
  expect((await call('POST', CARD, { charge_data: JSON.stringify(plain) })).status).toBe(400)
  expect((await call('POST', CARD, plain)).status).toBe(422)
  expect((await call('POST', `${CARD}/authorize`, { transaction_reference: 'KPY-CA-NOPE', authorization: { pin: '1234' } })).status).toBe(404)

  // mobile money: the OTP, then the STK PIN; a wrong OTP; a KES STK prompt answered
  const mm = (number: string, currency: string) => ({
    reference: ref('mm-secret'),
    amount: 100,
    currency,
    customer: { email: 'buyer@example.com' },
    mobile_money: { number },
  })
  const ghs = mm('233240000000', 'GHS')
  expect((await call('POST', MM, ghs)).status).toBe(200)
  const otpRes = await call('POST', `${MM}/authorize`, { reference: ghs.reference, token: '123456' })
  expect(otpRes.status, JSON.stringify(otpRes.body)).toBe(200)
  const stkRes = await call('POST', `${MM}/sandbox/authorize-stk`, { reference: ghs.reference, pin: '1234' })
  expect(stkRes.status, JSON.stringify(stkRes.body)).toBe(200)
  expect(stkRes.body.data.status).toBe('success')
  const ghsWrong = mm('233240000000', 'GHS')
  expect((await call('POST', MM, ghsWrong)).status).toBe(200)
  await call('POST', `${MM}/authorize`, { reference: ghsWrong.reference, token: '000111' })
  const kes = mm('254700000000', 'KES')
  expect((await call('POST', MM, kes)).status).toBe(200)
  const kesRes = await call('POST', `${MM}/sandbox/authorize-stk`, { reference: kes.reference, pin: '1234' })
  expect(kesRes.body.data.status).toBe('success')
  const kesWrong = mm('254700000000', 'KES')
  expect((await call('POST', MM, kesWrong)).status).toBe(200)
  await call('POST', `${MM}/sandbox/authorize-stk`, { reference: kesWrong.reference, pin: '000000' })
}

function expectNoSecrets(text: string, where: string, minLength = 1000) {
  expect(text.length, where).toBeGreaterThan(minLength)
  for (const pan of Object.values(PANS)) expect(text.includes(pan), `${where} holds the full PAN ${pan}`).toBe(false)
  for (const [what, re] of LEAKS) expect(re.exec(text)?.[0] ?? null, `${where} holds ${what}`).toBeNull()
  // the secrets' own values never next to their keys, whatever the quoting
  for (const cvv of CVVS) expect(text).not.toMatch(new RegExp(`"cvv"\\s*:\\s*"${cvv}"`))
  expect(text).not.toMatch(/"pin"\s*:\s*"(1234|9876|000000)"/)
  expect(text).not.toMatch(/"(otp|token)"\s*:\s*"(123456|654321|000111)"/)
}

describe('secrets are never stored or journaled (full PAN, CVV, PIN, OTP)', () => {
  it('the whole store and the whole journal hold none of them, and the journal keeps first six / last four', async () => {
    const sb = await sandbox()
    await driveSecrets(sb)
    expectNoSecrets(storeText(sb.deps.store), 'the store')
    const journal = await sb.call('GET', '/_sandbox/requests')
    expect(journal.status).toBe(200)
    expect(journal.body.data.length).toBeGreaterThan(25)
    const text = JSON.stringify(journal.body)
    expectNoSecrets(text, 'the journal')
    // what is kept instead: the masked card, the masked secrets
    expect(text).toContain('518851')
    expect(text).toContain('2975')
    expect(text).toMatch(/"cvv":"\*+"/)
    expect(text).toMatch(/"pin":"\*+"/)
    expect(text).toMatch(/"otp":"\*+"/)
    expect(text).toMatch(/"token":"\*+"/)
    // and the events (webhook bodies) hold no secret either
    const events = await sb.call('GET', '/_sandbox/events')
    expect(events.body.data.length).toBeGreaterThan(3)
    expectNoSecrets(JSON.stringify(events.body), 'the events')
  })

  it('with --data, the file holds none of them either (after the writes and after a compaction)', async () => {
    const file = tempFile()
    const sb = await sandbox({ data: file })
    await driveSecrets(sb)
    await sb.deps.store.sync()
    const text = readFileSync(file, 'utf8')
    expect(() => JSON.parse(text)).not.toThrow()
    expectNoSecrets(text, 'the data file')
    await sb.deps.store.compact()
    expectNoSecrets(readFileSync(file, 'utf8'), 'the compacted data file')
    expectNoSecrets(storeText(sb.deps.store), 'the store')
  })

  it('a secret in a field the sandbox does not know is masked in the journal too', async () => {
    const sb = await sandbox()
    await sb.call('PUT', '/_sandbox/webhook-url', { url: 'http://127.0.0.1:9/hook', pin: '1234', otp: '123456', cvv: '123', card: { number: PANS.noAuth } })
    await sb.call('POST', `${M}/identities/ng/bvn`, { id: '22222222222', verification_consent: true, note: `card ${PANS.pin}`, token: '123456' })
    const text = JSON.stringify((await sb.call('GET', '/_sandbox/requests')).body)
    expectNoSecrets(text, 'the journal', 100)
  })
})

// ---------------------------------------------------------------------------------------------
// 2. live keys

describe('live keys are refused (docs/behaviour.md#keys-and-namespaces)', () => {
  const calls: [string, string, string, unknown][] = [
    ['merchant', 'POST', CARD, { charge_data: encryptChargeData(cardPayload(PANS.noAuth), ENC_KEY) }],
    ['merchant', 'GET', `${M}/charges/some-reference`, undefined],
    ['merchant', 'POST', MM, { reference: 'live-key-ref', amount: 100, currency: 'KES', customer: { email: 'a@b.co' }, mobile_money: { number: '254700000000' } }],
    ['merchant', 'GET', '/api/v1/direct-debit/authorizations/AUTH-SANDBOX-ACTIVE', undefined],
    ['identity', 'POST', '/api/v1/identities/ng/bvn', { id: '22222222222', verification_consent: true }],
    ['identity', 'POST', `${M}/identities/gh/passport`, { id: 'G0000555', verification_consent: true }],
    ['control', 'GET', '/_sandbox/clock', undefined],
    ['control', 'POST', '/_sandbox/reset', undefined],
    ['control', 'GET', '/_sandbox/requests', undefined],
    ['control', 'POST', '/_sandbox/faults', { kind: 'error', path: '/merchant/*' }],
  ]
  it.each(calls)('%s: %s %s with sk_live_ is 401 saying live keys are never accepted, and creates nothing', async (_kind, method, path, body) => {
    const sb = await sandbox()
    for (const key of ['sk_live_abc123', 'sk_live_', `sk_live_${'x'.repeat(64)}`]) {
      const res = await sb.call(method, path, body, { key })
      expect(res.status).toBe(401)
      expectEnvelope(res, false, /live keys are never accepted/i)
      // the hint of 1.1, and nothing else in data
      expect(res.body.data).toEqual({ hint: expect.stringMatching(/^A live secret key/) })
    }
    expect(sb.deps.store.namespaces().filter((ns) => ns.startsWith('sk_live'))).toEqual([])
    expect(sb.deps.namespaces.list().map((m) => m.secret_key).filter((k) => k.startsWith('sk_live'))).toEqual([])
  })

  it.each([
    [['start', '--port', '0', '--secret-key', 'sk_live_abc'], {}],
    [['start', '--port', '0'], { SANDBOX_SECRET_KEY: 'sk_live_from_env' }],
  ] as [string[], Record<string, string>][])('sandbox %j refuses a live key at start: exit code 2', async (args, env) => {
    const r = await runCli(args, undefined, env)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/live keys are never accepted/i)
    expect(r.stdout).not.toContain('listening')
  })

  it('a merchants file with a live key is refused at start: exit code 2, naming the file', async () => {
    const { r } = await refusedAtStart('--merchants', 'merchants.yaml', 'merchants:\n  - secret_key: sk_test_ok\n  - secret_key: sk_live_nope\n')
    expect(r.stderr).toMatch(/live keys are never accepted/i)
  })
})

// ---------------------------------------------------------------------------------------------
// 3. the loopback rule

describe('the control API and the dashboard answer only on loopback unless a control token is set (docs/behaviour.md#control-api)', () => {
  it('a control call and the dashboard from a non-loopback peer: 403 with the envelope', async () => {
    const sb = await sandbox()
    const clock = await from(sb, FAR, 'GET', '/_sandbox/clock')
    expect(clock.status).toBe(403)
    expectEnvelope(clock, false, FORBIDDEN)
    expect(clock.body.data).toBeNull()
    const ui = await from(sb, FAR, 'GET', '/_sandbox/ui', { key: null })
    expect(ui.status).toBe(403)
    expectEnvelope(ui, false, FORBIDDEN)
    const fragment = await from(sb, FAR, 'GET', '/_sandbox/ui/fragment', { key: null })
    expect(fragment.status).toBe(403)
    expectEnvelope(fragment, false, FORBIDDEN)
    for (const asset of ['/_sandbox/ui/dashboard.css', '/_sandbox/ui/dashboard.js']) expectEnvelope(await from(sb, FAR, 'GET', asset, { key: null }), false, FORBIDDEN)
  })

  it('a refused control call changes nothing (reset, clock, faults, webhook URL)', async () => {
    const sb = await sandbox()
    const p = cardPayload(PANS.noAuth)
    expect((await chargeWith(sb, p)).status).toBe(200)
    const before = (await sb.call('GET', '/_sandbox/clock')).body.data.offset_ms
    for (const [method, path, body] of [
      ['POST', '/_sandbox/reset', undefined],
      ['POST', '/_sandbox/clock/advance', { seconds: 3600 }],
      ['POST', '/_sandbox/faults', { kind: 'error', path: '/merchant/*', times: 5 }],
      ['PUT', '/_sandbox/webhook-url', { url: 'http://203.0.113.7/steal' }],
    ] as const) {
      const res = await from(sb, FAR, method, path, { body })
      expect(res.status, `${method} ${path}`).toBe(403)
    }
    expect((await sb.call('GET', `${M}/charges/${p.reference}`)).status).toBe(200)
    expect((await sb.call('GET', '/_sandbox/clock')).body.data.offset_ms).toBe(before)
    expect((await sb.call('GET', '/_sandbox/faults')).body.data).toEqual([])
    expect(sb.deps.namespaces.get(SECRET)?.webhook_url).toBeNull()
  })

  it.each(['127.0.0.1', '127.10.20.30', '::1', '::ffff:127.0.0.1'])('from loopback %s: 200', async (addr) => {
    const sb = await sandbox()
    const res = await from(sb, addr, 'GET', '/_sandbox/clock')
    expect(res.status).toBe(200)
    expectEnvelope(res, true)
    const ui = await from(sb, addr, 'GET', '/_sandbox/ui', { key: null })
    expect(ui.status).toBe(200)
    expect(ui.headers.get('content-type')).toMatch(/^text\/html/)
  })

  it.each(['10.0.0.1', '192.168.1.20', '::ffff:203.0.113.7', '2001:db8::1', '0.0.0.0', 'fe80::1', '::ffff:10.0.0.1', '128.0.0.1'])(
    'from non-loopback %s: 403',
    async (addr) => {
      const sb = await sandbox()
      const res = await from(sb, addr, 'GET', '/_sandbox/clock')
      expect(res.status).toBe(403)
      expectEnvelope(res, false, FORBIDDEN)
    },
  )

  it('forwarding headers do not make a remote peer local', async () => {
    const sb = await sandbox()
    const res = await from(sb, FAR, 'GET', '/_sandbox/clock', { headers: { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1', forwarded: 'for=127.0.0.1', host: '127.0.0.1' } })
    expect(res.status).toBe(403)
  })

  it('with controlToken: the right x-sandbox-control-token opens it, a wrong or missing one is 403', async () => {
    const sb = await sandbox({ controlToken: 'tok' })
    const right = await from(sb, FAR, 'GET', '/_sandbox/clock', { headers: { 'x-sandbox-control-token': 'tok' } })
    expect(right.status).toBe(200)
    expectEnvelope(right, true)
    // (surrounding whitespace never reaches the app: header values are trimmed on the way)
    for (const token of ['wrong', 'TOK', '', 'tokk', 't', 'to k']) {
      const res = await from(sb, FAR, 'GET', '/_sandbox/clock', { headers: { 'x-sandbox-control-token': token } })
      expect(res.status, `token ${JSON.stringify(token)}`).toBe(403)
      expectEnvelope(res, false, FORBIDDEN)
    }
    const none = await from(sb, FAR, 'GET', '/_sandbox/clock')
    expect(none.status).toBe(403)
    // the dashboard's own links carry the token in the query
    const ui = await from(sb, FAR, 'GET', '/_sandbox/ui?token=tok', { key: null })
    expect(ui.status).toBe(200)
    expect(ui.headers.get('content-type')).toMatch(/^text\/html/)
    expect((await from(sb, FAR, 'GET', '/_sandbox/ui?token=nope', { key: null })).status).toBe(403)
    // and so do its links to its stylesheet and script
    const links = [...(ui.body as string).matchAll(/(?:href|src)="(\/_sandbox\/ui\/dashboard\.(?:css|js)\?[^"]*)"/g)].map((m) => m[1].replaceAll('&amp;', '&'))
    expect(links).toHaveLength(2)
    for (const link of links) {
      expect(new URL(link, 'http://x').searchParams.get('token')).toBe('tok')
      const asset = await from(sb, FAR, 'GET', link, { key: null })
      expect(asset.status).toBe(200)
      expect(asset.headers.get('content-type')).toMatch(link.includes('.css?') ? /^text\/css/ : /^text\/javascript/)
      expect((await from(sb, FAR, 'GET', link.replace('token=tok', 'token=nope'), { key: null })).status).toBe(403)
    }
    // the token opens the loopback rule only: the key is still required
    const noKey = await from(sb, FAR, 'GET', '/_sandbox/clock', { key: null, headers: { 'x-sandbox-control-token': 'tok' } })
    expect(noKey.status).toBe(401)
    // loopback needs no token
    expect((await from(sb, '127.0.0.1', 'GET', '/_sandbox/clock')).status).toBe(200)
  })

  it('merchant and identity endpoints are not under the loopback rule', async () => {
    const sb = await sandbox()
    const p = cardPayload(PANS.noAuth)
    const charge = await from(sb, FAR, 'POST', CARD, { body: { charge_data: encryptChargeData(p, ENC_KEY) } })
    expect(charge.status).toBe(200)
    expect(charge.body.data.status).toBe('success')
    const q = await from(sb, FAR, 'GET', `${M}/charges/${p.reference}`)
    expect(q.status).toBe(200)
    const missing = await from(sb, FAR, 'GET', `${M}/charges/no-such-reference`)
    expect(missing.status).toBe(404)
    expectEnvelope(missing, false, 'Charge not found')
    const bad = await from(sb, FAR, 'POST', CARD, { body: { charge_data: 'nope' } })
    expect(bad.status).toBe(400)
    const id = await from(sb, FAR, 'POST', '/api/v1/identities/ng/bvn', { body: { id: '22222222222', verification_consent: true } })
    expect(id.status).toBe(200)
    const dd = await from(sb, FAR, 'GET', '/api/v1/direct-debit/authorizations/AUTH-SANDBOX-ACTIVE')
    expect(dd.status).toBe(200)
    const noKey = await from(sb, FAR, 'GET', `${M}/charges/${p.reference}`, { key: null })
    expect(noKey.status).toBe(401)
  })

  it('sandbox start --host 0.0.0.0 without --control-token warns on stderr; loopback still answers', async () => {
    const running = await startCli(['--host', '0.0.0.0'])
    children.push(running)
    const port = new URL(running.url).port
    // only ever talk to loopback
    const res = await fetch(`http://127.0.0.1:${port}/_sandbox/clock`, { headers: { authorization: `Bearer ${SECRET}` } })
    expect(res.status).toBe(200)
    const closed = once(running.child, 'close')
    running.child.kill('SIGTERM')
    await closed
    expect(running.stderr()).toMatch(/warning/i)
    expect(running.stderr()).toContain('--control-token')
  })

    const farAddress = FAR_ADDRESS
  it.skipIf(!farAddress)('on a real socket from a non-loopback address: 403 without the control token or with a wrong one, 200 with it; the key still rules the merchant API', async () => {
    const running = await startCli(['--host', '0.0.0.0', '--control-token', 'tok'])
    children.push(running)
    const port = new URL(running.url).port
    const far = `http://${farAddress}:${port}`
    const key = { authorization: `Bearer ${SECRET}` }
    const none = await fetch(`${far}/_sandbox/clock`, { headers: key })
    expect(none.status).toBe(403)
    expect((await none.json()).message).toBe(FORBIDDEN)
    expect((await fetch(`${far}/_sandbox/clock`, { headers: { ...key, 'x-sandbox-control-token': 'tok2' } })).status).toBe(403)
    // the header read from node's parsed headers, in whatever case it was sent
    const right = await fetch(`${far}/_sandbox/clock`, { headers: { ...key, 'X-Sandbox-Control-Token': 'tok' } })
    expect(right.status).toBe(200)
    // loopback needs no token; the merchant API needs the key only, from anywhere
    expect((await fetch(`http://127.0.0.1:${port}/_sandbox/clock`, { headers: key })).status).toBe(200)
    const query = await fetch(`${far}/merchant/api/v1/charges/no-such-charge`, { headers: key })
    expect(query.status).toBe(404)
    expect((await query.json()).message).toBe('Charge not found')
    expect((await fetch(`${far}/merchant/api/v1/charges/no-such-charge`)).status).toBe(401)
  })

  it.each([
    ['--host 0.0.0.0 --control-token tok', ['--host', '0.0.0.0', '--control-token', 'tok']],
    ['the default host', []],
  ])('with %s there is no warning', async (_label, args) => {
    const running = await startCli(args)
    children.push(running)
    const closed = once(running.child, 'close')
    running.child.kill('SIGTERM')
    await closed
    expect(running.stderr()).not.toMatch(/warning/i)
  })
})

// ---------------------------------------------------------------------------------------------
// 4. bounds

describe('bounds (issue 9, 6)', () => {
  it('maxNamespaces 3: the 4th distinct key gets a 403 naming the limit; existing keys keep working', async () => {
    const sb = await sandbox({ maxNamespaces: 3 })
    // refused keys do not take a namespace
    for (const key of ['sk_live_x', 'not-a-key', 'sk_test_', 'pk_test_sandbox']) expect((await sb.call('GET', '/_sandbox/clock', undefined, { key })).status).toBe(401)
    const keys = ['sk_test_bound_a', 'sk_test_bound_b', 'sk_test_bound_c']
    for (const key of keys) expect((await sb.call('GET', '/_sandbox/clock', undefined, { key })).status).toBe(200)
    for (const [method, path, body] of [
      ['GET', '/_sandbox/clock', undefined],
      ['POST', CARD, { charge_data: encryptChargeData(cardPayload(PANS.noAuth), ENC_KEY) }],
      ['POST', '/api/v1/identities/ng/bvn', { id: '22222222222', verification_consent: true }],
    ] as const) {
      const res = await sb.call(method, path, body, { key: 'sk_test_bound_d' })
      expect(res.status, `${method} ${path}`).toBe(403)
      expectEnvelope(res, false, /namespace limit/i)
      expect(res.body.message).toBe('Namespace limit reached: at most 3 namespaces are kept; restart the sandbox or reuse a key')
    }
    expect(sb.deps.namespaces.list()).toHaveLength(3)
    for (const key of keys) {
      const p = cardPayload(PANS.noAuth)
      const res = await chargeWith(sb, p, key)
      expect(res.status).toBe(200)
      expect(res.body.data.status).toBe('success')
      expect((await sb.call('POST', '/_sandbox/reset', undefined, { key })).status).toBe(200)
    }
    // a reset keeps the namespace: still three, still full
    expect((await sb.call('GET', '/_sandbox/clock', undefined, { key: 'sk_test_bound_e' })).status).toBe(403)
  })

  it('keys refused past the namespace limit leave nothing behind in the store (memory stays flat)', async () => {
    const sb = await sandbox({ maxNamespaces: 3 })
    const keys = ['sk_test_flat_a', 'sk_test_flat_b', 'sk_test_flat_c']
    for (const key of keys) expect((await sb.call('GET', '/_sandbox/clock', undefined, { key })).status).toBe(200)
    for (let i = 0; i < 200; i++) {
      const res = await sb.call('GET', '/_sandbox/clock', undefined, { key: `sk_test_flat_extra_${i}` })
      expect(res.status).toBe(403)
    }
    expect(sb.deps.namespaces.list()).toHaveLength(3)
    const held = sb.deps.store.namespaces()
    expect(held.length, `the store holds ${held.length} namespaces: ${held.slice(0, 5).join(', ')}, ...`).toBe(3)
    expect(storeText(sb.deps.store).includes('sk_test_flat_extra_'), 'the serialized store names refused keys').toBe(false)
  })

  it('journalSize 10: after 25 calls the journal keeps exactly the last 10, oldest first', async () => {
    const sb = await sandbox({ journalSize: 10 })
    for (let i = 0; i < 25; i++) {
      const res = await sb.call('GET', `${M}/charges/ring-${String(i).padStart(2, '0')}`)
      expect(res.status).toBe(404)
    }
    const res = await sb.call('GET', '/_sandbox/requests')
    expect(res.status).toBe(200)
    const entries = res.body.data as any[]
    expect(entries).toHaveLength(10)
    expect(entries.map((e) => e.path)).toEqual(Array.from({ length: 10 }, (_, i) => `${M}/charges/ring-${15 + i}`))
    expect(entries.map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => 16 + i))
    expect(entries.every((e) => e.status === 404 && e.method === 'GET')).toBe(true)
    const last3 = (await sb.call('GET', '/_sandbox/requests?limit=3')).body.data as any[]
    expect(last3.map((e) => e.path)).toEqual([`${M}/charges/ring-22`, `${M}/charges/ring-23`, `${M}/charges/ring-24`])
    // a ring per namespace: another key's calls do not push these out
    for (let i = 0; i < 15; i++) await sb.call('GET', `${M}/charges/other-${i}`, undefined, { key: 'sk_test_ring_other' })
    const again = (await sb.call('GET', '/_sandbox/requests')).body.data as any[]
    expect(again.map((e) => e.id)).toEqual(entries.map((e) => e.id))
  })
})

// ---------------------------------------------------------------------------------------------
// 5. atomicity

describe('atomic business rules (issue 9, 1)', () => {
  const stores: [string, () => string | undefined][] = [
    ['in memory', () => undefined],
    ['with --data', () => tempFile()],
  ]

  it.each(stores)('50 parallel card charges with one reference: exactly one accepted, 49 Duplicate payment reference (%s)', async (_label, file) => {
    const sb = await sandbox({ data: file() })
    const reference = ref('race')
    const results = await Promise.all(Array.from({ length: 50 }, () => chargeWith(sb, cardPayload(PANS.noAuth, { reference }))))
    const accepted = results.filter((r) => r.status === 200)
    const duplicates = results.filter((r) => r.status === 409 && r.body.message === 'Duplicate payment reference')
    expect(accepted).toHaveLength(1)
    expect(duplicates).toHaveLength(49)
    expect(accepted[0].body.data.status).toBe('success')
    for (const d of duplicates) expectEnvelope(d as Res, false, 'Duplicate payment reference')
    // one record, one event
    const charges = [...sb.deps.store.col<any>(SECRET, CHARGES).values()].filter((c) => c.payment_reference === reference)
    expect(charges).toHaveLength(1)
    const events = await sb.call('GET', `/_sandbox/events?reference=${reference}`)
    expect(events.body.data).toHaveLength(1)
    // the one kept is the accepted one: its reference finds what its transaction reference finds
    expect(charges[0].transaction_reference).toBe(accepted[0].body.data.transaction_reference)
    expect((await sb.call('GET', `${M}/charges/${reference}`)).body).toEqual((await sb.call('GET', `${M}/charges/${accepted[0].body.data.transaction_reference}`)).body)
  })

  it.each(stores)('20 racing authorizes with the right PIN on one transaction: one success, 19 409 Payment has already been completed (%s)', async (_label, file) => {
    const sb = await sandbox({ data: file() })
    const p = cardPayload(PANS.pin)
    const first = await chargeWith(sb, p)
    expect(first.body.data.status).toBe('processing')
    const tx = first.body.data.transaction_reference
    const results = await Promise.all(
      Array.from({ length: 20 }, () => sb.call('POST', `${CARD}/authorize`, { transaction_reference: tx, authorization: { pin: '1234' } })),
    )
    const wins = results.filter((r) => r.status === 200)
    expect(wins).toHaveLength(1)
    expect(wins[0].body.data.status).toBe('success')
    const rest = results.filter((r) => r.status !== 200)
    expect(rest).toHaveLength(19)
    for (const r of rest) {
      expect(r.status).toBe(409)
      expectEnvelope(r as Res, false, 'Payment has already been completed')
    }
    const events = await sb.call('GET', `/_sandbox/events?reference=${p.reference}`)
    expect(events.body.data.map((e: any) => e.event)).toEqual(['charge.success'])
  })
})

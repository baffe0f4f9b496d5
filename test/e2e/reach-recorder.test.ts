import { mkdtempSync, readFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decryptChargeData, encryptChargeData } from '../../src/cards/crypto.js'
import { loadFlowFile, type Step } from '../../src/flow/flow.js'
import { startUpstream, type UpstreamRequest } from '../helpers/upstream.js'
import { killedAfterEach, runCli } from './process.js'
import { KORAPAY, run, startReachCli } from './reach.js'

/**
 * `sandbox start --proxy --tls --record FILE --upstream URL` (docs/behaviour.md#record): real clients
 * (curl, Python's standard library, Node) call https://api.korapay.com through the proxy; a
 * service of the test's own on loopback, with a CA of its own the sandbox trusts through
 * NODE_EXTRA_CA_CERTS, answers them; the clients get its answers byte for byte and each exchange
 * is a step of the flow file, which `sandbox replay` reads. No key, card number, CVV, PIN or OTP a
 * client sent is in it, and a kill -9 leaves it a flow.
 */

const { running, cleanups } = killedAfterEach()

/** The upstream account's keys: the sandbox knows the encryption key only from --upstream-encryption-key. */
const LIVE_TEST_KEY = 'sk_test_live_mode_account_0001'
const UPSTREAM_ENC = 'upstream-account-encryption-k01!'
/** What the clients send that must never be written: a card no pack lists, its CVV, a PIN, an OTP. */
const PAN = '4111111111111111'
const CVV = '739'
const PIN = '4321'
const OTP = '987654'
const TX = 'KPY-CA-LIVE0000TEST01'

/** The answers of the upstream: known texts, each kept to compare with what the clients got. */
const answers: string[] = []
function reply(res: ServerResponse, status: number, body: unknown, gzip = false): void {
  const text = JSON.stringify(body)
  answers.push(text)
  const bytes = gzip ? gzipSync(text) : Buffer.from(text)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-upstream': 'own', ...(gzip ? { 'content-encoding': 'gzip' } : {}) })
  res.end(bytes)
}

/** A service that answers like the live test mode, in its own words. */
function liveTestMode(req: UpstreamRequest, res: ServerResponse): void {
  const path = req.url.replace('/merchant/api/v1', '')
  const body = req.body ? JSON.parse(req.body) : {}
  if (req.method === 'POST' && path === '/charges/card') {
    const payload = decryptChargeData(body.charge_data, UPSTREAM_ENC) as { reference: string; amount: number }
    return reply(res, 200, { status: true, message: 'Charge in progress', data: { amount: payload.amount, amount_charged: payload.amount, auth_model: 'PIN', currency: 'NGN', fee: 15, vat: 1.13, response_message: 'Card PIN required', payment_reference: payload.reference, status: 'processing', transaction_reference: TX } })
  }
  if (req.method === 'POST' && path === '/charges/card/authorize') {
    const wrong = body.authorization?.pin !== undefined && body.authorization.pin !== PIN
    return reply(res, wrong ? 400 : 200, wrong ? { status: false, message: 'Incorrect card PIN', data: null } : { status: true, message: 'Charge successful', data: { transaction_reference: body.transaction_reference, status: 'success', amount: 1000 } })
  }
  if (req.method === 'GET' && path.startsWith('/charges/')) {
    const accepts = String(req.headers['accept-encoding'] ?? '').includes('gzip')
    return reply(res, 200, { status: true, message: 'Charge retrieved successfully', data: { reference: path.slice('/charges/'.length), status: 'success', transaction_reference: TX, currency: 'NGN' } }, accepts)
  }
  if (path === '/hang') return hung() // an exchange left in flight
  // a reset names the namespace, which is the key; a payment's answer echoes what the client wrote
  if (req.method === 'POST' && req.url === '/_sandbox/reset') return reply(res, 200, { status: true, message: 'Namespace reset', data: { namespace: String(req.headers.authorization).slice('Bearer '.length) } })
  if (req.method === 'GET' && path === '/echo') return reply(res, 200, { status: true, message: 'Payment retrieved', data: { description: `paid with ${PAN.replace(/(\d{4})(?=\d)/g, '$1 ')}`, card_number: Number(PAN) } })
  reply(res, 404, { status: false, message: 'Route not found', data: null })
}

async function recording(extra: string[] = []) {
  const upstream = await startUpstream(liveTestMode)
  cleanups.push(() => upstream.close())
  const file = join(mkdtempSync(join(tmpdir(), 'paysandbox-record-')), 'live.yaml')
  const sb = await startReachCli(['--record', file, '--upstream', upstream.url, ...extra], { NODE_EXTRA_CA_CERTS: upstream.caPath, KORAPAY_ENCRYPTION_KEY: UPSTREAM_ENC })
  running.push(sb)
  return { sb, upstream, file }
}

/** curl with --proxy and the sandbox's CA: status, headers and body as they came. */
async function curl(sb: { proxyUrl: string; caPath: string }, method: string, url: string, body?: unknown, key = LIVE_TEST_KEY) {
  const args = ['-sS', '-i', '--suppress-connect-headers', '--proxy', sb.proxyUrl, '--cacert', sb.caPath, '-X', method, '-H', `authorization: Bearer ${key}`, '-H', 'content-type: application/json']
  if (body !== undefined) args.push('--data-binary', '@-')
  const res = await run('curl', [...args, url], {}, body === undefined ? undefined : JSON.stringify(body))
  // past an interim 100 Continue (curl asks for one before a large body)
  const [head, text] = res.stdout.replace(/^(HTTP\/[\d.]+ 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '').split('\r\n\r\n')
  return { status: Number(/^HTTP\/[\d.]+ (\d+)/.exec(head)?.[1]), head: head.toLowerCase(), text, stderr: res.stderr }
}

/** called when the upstream holds a request it will never answer */
let hung = () => {}

const requestsOf = (steps: Step[]) => steps.filter((s) => s.request).map((s) => s.request!)

describe('recording the live test mode through the proxy', () => {
  it('gives curl, Python and Node the upstream answers byte for byte and writes a flow sandbox replay reads, with no key or card secret in it', async () => {
    const { sb, upstream, file } = await recording()
    expect(sb.stdout()).toContain(`recording:      ${file}`)
    const reference = `order-${Date.now().toString(36)}`
    const payload = { reference, amount: 1000, currency: 'NGN', card: { number: PAN, cvv: CVV, expiry_month: '09', expiry_year: '30', pin: PIN }, customer: { email: 'ada@example.com', name: 'Ada' } }

    // curl: the card charge, its charge_data encrypted with the upstream account's key
    const charged = await curl(sb, 'POST', `${KORAPAY}/charges/card`, { charge_data: encryptChargeData(payload, UPSTREAM_ENC) })
    expect(charged.stderr).toBe('')
    expect(charged.status).toBe(200)
    expect(charged.head).toContain('x-upstream: own')
    expect(charged.text).toBe(answers.at(-1))
    expect(upstream.seen.at(-1)!.headers.authorization).toBe(`Bearer ${LIVE_TEST_KEY}`)
    expect(upstream.seen.at(-1)!.headers.host).toBe(new URL(upstream.url).host)

    // Python's standard library: a wrong PIN, then the right one
    const script = `
import json, urllib.request, urllib.error
def call(body):
    req = urllib.request.Request("https://api.korapay.com/merchant/api/v1/charges/card/authorize", data=json.dumps(body).encode(), method="POST", headers={"authorization": "Bearer ${LIVE_TEST_KEY}", "content-type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r: return r.status, r.read().decode()
    except urllib.error.HTTPError as e: return e.code, e.read().decode()
print(json.dumps([call({"transaction_reference": "${TX}", "authorization": {"pin": "0000"}}), call({"transaction_reference": "${TX}", "authorization": {"pin": "${PIN}"}})]))
`
    const py = await run('python3', ['-c', script], { HTTPS_PROXY: sb.proxyUrl, SSL_CERT_FILE: sb.caPath })
    expect(py.stderr).toBe('')
    const [[wrongStatus, wrongText], [rightStatus, rightText]] = JSON.parse(py.stdout)
    expect([wrongStatus, wrongText, rightStatus, rightText]).toEqual([400, answers.at(-2), 200, answers.at(-1)])

    // Node: the charge query (gzip from the upstream, undone by fetch), and an OTP sent to a path the upstream does not know
    const node = `
import { EnvHttpProxyAgent, setGlobalDispatcher } from 'undici'
setGlobalDispatcher(new EnvHttpProxyAgent())
const headers = { authorization: 'Bearer ${LIVE_TEST_KEY}', 'content-type': 'application/json' }
const query = await fetch('${KORAPAY}/charges/${reference}', { headers })
const otp = await fetch('${KORAPAY}/charges/otp/authorize', { method: 'POST', headers, body: JSON.stringify({ transaction_reference: '${TX}', authorization: { otp: '${OTP}' } }) })
console.log(JSON.stringify([query.status, query.headers.get('content-encoding'), await query.text(), otp.status, await otp.text()]))
`
    const js = await run(process.execPath, ['--input-type=module', '-e', node], { HTTPS_PROXY: sb.proxyUrl, NODE_EXTRA_CA_CERTS: sb.caPath })
    expect(js.stderr).toBe('')
    expect(JSON.parse(js.stdout)).toEqual([200, 'gzip', answers.at(-2), 404, answers.at(-1)])

    // a webhook the live service sent, through the user's tunnel to the HTTP port
    const hook = { event: 'charge.success', data: { reference, transaction_reference: TX, status: 'success', amount: 1000, currency: 'NGN' } }
    const kept = await fetch(`${sb.url}/_sandbox/record/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-korapay-signature': 'a1b2c3', 'x-forwarded-for': '203.0.113.9' }, body: JSON.stringify(hook) })
    expect(kept.status).toBe(200)
    expect(await kept.json()).toEqual({ status: true, message: 'Webhook recorded', data: null })

    const text = readFileSync(file, 'utf8')
    for (const secret of [LIVE_TEST_KEY, 'Bearer', PAN, UPSTREAM_ENC]) expect(text).not.toContain(secret)
    const flow = loadFlowFile(file)
    const requests = requestsOf(flow.steps)
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /merchant/api/v1/charges/card',
      'POST /merchant/api/v1/charges/card/authorize',
      'POST /merchant/api/v1/charges/card/authorize',
      'GET /merchant/api/v1/charges/${ref}-1',
      'POST /merchant/api/v1/charges/otp/authorize',
    ])
    // the card charge replays under any key: its payload decrypted, the card the pack's stand-in for it
    const card = (requests[0].body as { card: Record<string, string> }).card
    expect(requests[0].encrypt).toBe(true)
    expect(card.number).toMatch(/^411111\d{6}1111$/)
    expect([card.number, card.cvv, card.pin]).not.toContain(PAN)
    expect(card.cvv).not.toBe(CVV)
    expect(card.pin).not.toBe(PIN)
    expect(JSON.stringify(requests.slice(1))).not.toContain(PIN)
    expect(JSON.stringify(requests)).not.toContain(OTP)
    // the expectation is the upstream's answer; its generated reference captured for the calls after it
    expect(flow.steps[0]).toMatchObject({ expect: { status: 200, body: { message: 'Charge in progress', data: { status: 'processing', auth_model: 'PIN' } } }, save: { v1: 'data.transaction_reference' } })
    expect(requests[1].body).toEqual({ transaction_reference: '${v1}', authorization: { pin: '0000' } })
    expect(flow.steps[2].expect).toMatchObject({ status: 200, body: { message: 'Charge successful' } })
    expect(flow.steps.at(-1)).toMatchObject({ wait_event: { reference: '${ref}-1', event: 'charge.success', expect: { data: { transaction_reference: '${v1}', status: 'success' } } } })
    const headersLine = text.split('\n').find((l) => l.startsWith("# the webhook's headers: "))!
    expect(JSON.parse(headersLine.slice("# the webhook's headers: ".length))).toMatchObject({ 'content-type': 'application/json', 'x-korapay-signature': 'a1b2c3' })
    expect(headersLine).not.toContain('x-forwarded-for')

    // sandbox replay reads it and runs it against a sandbox (whose words differ from this upstream's)
    const replay = await runCli(['replay', file])
    expect(replay.stderr).not.toContain('sandbox:')
    expect([0, 1]).toContain(replay.code)
    expect(replay.stdout).toContain('POST /merchant/api/v1/charges/card')
  })

  it('writes neither a card number the upstream echoes nor the key an answer names: a reset replays under another key', async () => {
    const { sb, file } = await recording()
    expect((await curl(sb, 'POST', 'https://api.korapay.com/_sandbox/reset')).status).toBe(200)
    const echoed = await curl(sb, 'GET', `${KORAPAY}/echo`)
    expect(echoed.text).toContain('4111 1111 1111 1111')
    // a step is appended once its answer is sent: a webhook kept after it says the echo's step is written
    expect((await fetch(`${sb.url}/_sandbox/record/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ event: 'charge.success', data: { reference: 'echo' } }) })).status).toBe(200)
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(LIVE_TEST_KEY)
    expect(text.replace(/[ ._-]/g, '')).not.toContain(PAN)
    const flow = loadFlowFile(file)
    expect(flow.steps[0]).toMatchObject({ request: { method: 'POST', path: '/_sandbox/reset' }, expect: { status: 200, body: { data: { namespace: '${key}' } } } })
    expect(flow.steps[1]).toMatchObject({ expect: { body: { data: { description: 'paid with 411111******1111', card_number: '411111******1111' } } } })
    // the reset replays against a sandbox under another key (the echo has nothing to answer it there)
    const replay = await runCli(['replay', file, '--key', 'sk_test_another_key_0001'])
    expect(replay.stdout).toContain('✓ 1. POST /_sandbox/reset')
    expect(replay.stdout).toContain('GET /merchant/api/v1/echo')
  })

  it('refuses a live key with a clear answer, forwarding nothing', async () => {
    const { sb, upstream, file } = await recording()
    const refused = await curl(sb, 'GET', `${KORAPAY}/charges/anything`, undefined, 'sk_live_0123456789')
    expect(refused.status).toBe(401)
    expect(JSON.parse(refused.text)).toEqual({ status: false, message: 'Live keys are never accepted by the sandbox: use a test secret key (sk_test_...)', data: null })
    expect(upstream.seen).toEqual([])
    expect(readFileSync(file, 'utf8')).not.toContain('sk_live_')
  })

  it('counts what it takes in (docs/behaviour.md#limits): a webhook over 1 MiB and a call over 4 MiB are refused 413, kept nowhere and forwarded nowhere', async () => {
    const { sb, upstream, file } = await recording()
    const hook = await fetch(`${sb.url}/_sandbox/record/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ event: 'charge.success', pad: 'x'.repeat(2 << 20) }) })
    expect(hook.status).toBe(413)
    expect(await hook.json()).toEqual({ status: false, message: 'Request body is too large', data: { limit_bytes: 1 << 20 } })
    const call = await curl(sb, 'POST', `${KORAPAY}/charges/initialize`, { reference: 'too-large', pad: 'x'.repeat(5 << 20) })
    expect(call.status).toBe(413)
    expect(JSON.parse(call.text)).toEqual({ status: false, message: 'Request body is too large', data: { limit_bytes: 4 << 20 } })
    expect(upstream.seen).toEqual([])
    expect(readFileSync(file, 'utf8')).not.toContain('too-large')
    expect(readFileSync(file, 'utf8')).not.toContain('charge.success')
  })

  it('leaves a flow that parses when killed with -9 while an exchange is in flight', async () => {
    const { sb, file } = await recording()
    for (let i = 0; i < 3; i++) expect((await curl(sb, 'GET', `${KORAPAY}/charges/order-${i}`)).status).toBe(200)
    const held = new Promise<void>((resolve) => (hung = resolve))
    const inFlight = curl(sb, 'GET', 'https://api.korapay.com/hang')
    await held
    sb.child.kill('SIGKILL')
    await sb.exited
    await inFlight
    const flow = loadFlowFile(file)
    expect(requestsOf(flow.steps).map((r) => r.path)).toEqual(['/merchant/api/v1/charges/order-0', '/merchant/api/v1/charges/order-1', '/merchant/api/v1/charges/order-2'])
  })

  it('refuses --record without --proxy, a flow file that is not YAML and one it cannot write', async () => {
    const noProxy = await runCli(['start', '--port', '0', '--record', join(tmpdir(), 'x.yaml')])
    expect(noProxy.code).toBe(2)
    expect(noProxy.stderr).toContain('--record records what goes through the proxy: add --proxy')
    const json = await runCli(['start', '--port', '0', '--proxy', '--record', join(tmpdir(), 'x.json')])
    expect(json.code).toBe(2)
    expect(json.stderr).toContain('--record writes a YAML flow')
    const nowhere = await runCli(['start', '--port', '0', '--proxy', '--proxy-port', '0', '--record', join(tmpdir(), 'no-such-dir', 'x.yaml')])
    expect(nowhere.code).toBe(2)
    expect(nowhere.stderr).toContain(`cannot write the flow file ${join(tmpdir(), 'no-such-dir', 'x.yaml')} for --record (ENOENT)`)
  })
})

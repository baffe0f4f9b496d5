import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { connect as netConnect } from 'node:net'
import { request as httpRequest } from 'node:http'
import { connect as tlsConnect, type PeerCertificate } from 'node:tls'
import { X509Certificate } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MSG } from '../../src/messages.js'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { verifyWebhookSignature } from '../../src/webhooks/signature.js'
import { ENC_KEY, FAR_ADDRESS, SECRET, cardPayload, ref } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { killedAfterEach } from './process.js'
import { KORAPAY, run, startOwnHttpsServer, startReachCli } from './reach.js'

/**
 * `sandbox start --proxy` (docs/behaviour.md#proxy) with real clients as child processes (curl,
 * Python's standard library, Node with undici's EnvHttpProxyAgent), each calling
 * https://api.korapay.com/... as its code says, configured by environment variables only; a host
 * that is not intercepted is tunnelled to untouched; a client that does not trust the CA fails.
 */

const { running, cleanups } = killedAfterEach()
const PROXY_LOOPBACK = MSG.PROXY_LOOPBACK_REFUSED

async function sandbox(args: string[] = [], env: Record<string, string> = {}, options: { tls?: boolean } = {}) {
  const cli = await startReachCli(args, env, options)
  running.push(cli)
  return cli
}

/** curl as a client's shell script would call it, through HTTPS_PROXY, trusting the CA with --cacert. */
async function curl(proxy: string, ca: string | null, method: string, url: string, body?: unknown) {
  const args = ['-sS', '-X', method, '-w', '\n%{http_code}', '-H', `authorization: Bearer ${SECRET}`, '-H', 'content-type: application/json']
  if (ca) args.push('--cacert', ca)
  if (body !== undefined) args.push('--data-binary', '@-')
  const res = await run('curl', [...args, url], { HTTPS_PROXY: proxy, http_proxy: proxy }, body === undefined ? undefined : JSON.stringify(body))
  const nl = res.stdout.lastIndexOf('\n')
  return { code: res.code, status: Number(res.stdout.slice(nl + 1)), body: nl > 0 ? JSON.parse(res.stdout.slice(0, nl)) : null, stderr: res.stderr }
}

describe('curl through the proxy, calling https://api.korapay.com', () => {
  it('runs a card charge with a PIN to success and queries it; the same namespace as the HTTP port', async () => {
    const sb = await sandbox()
    expect(sb.proxyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const payload = cardPayload('5188513618552975')
    const charged = await curl(sb.proxyUrl, sb.caPath, 'POST', `${KORAPAY}/charges/card`, { charge_data: encryptChargeData(payload, ENC_KEY) })
    expect(charged.stderr).toBe('')
    expect(charged.status).toBe(200)
    expect(charged.body.data).toMatchObject({ status: 'processing', auth_model: 'PIN', payment_reference: payload.reference })
    const tx = charged.body.data.transaction_reference

    const authorized = await curl(sb.proxyUrl, sb.caPath, 'POST', `${KORAPAY}/charges/card/authorize`, { transaction_reference: tx, authorization: { pin: '1234' } })
    expect(authorized.status).toBe(200)
    expect(authorized.body.data).toMatchObject({ status: 'success', transaction_reference: tx })

    const query = await curl(sb.proxyUrl, sb.caPath, 'GET', `${KORAPAY}/charges/${payload.reference}`)
    expect(query.status).toBe(200)
    expect(query.body.data).toMatchObject({ reference: payload.reference, status: 'success' })

    // a 3DS card's redirect_url names the host the client called, reached through the same proxy
    const threeDs = cardPayload('4562543755474674')
    const pending = await curl(sb.proxyUrl, sb.caPath, 'POST', `${KORAPAY}/charges/card`, { charge_data: encryptChargeData(threeDs, ENC_KEY) })
    expect(pending.body.data.authorization.redirect_url).toBe(`https://api.korapay.com/_sandbox/3ds/${pending.body.data.transaction_reference}`)
    const page = await run('curl', ['-sS', '--cacert', sb.caPath, pending.body.data.authorization.redirect_url], { HTTPS_PROXY: sb.proxyUrl })
    expect(page.stdout).toContain('<form')

    // the Bearer key picked the namespace: the plain HTTP port sees the same charge, another key does not
    const direct = await fetch(`${sb.url}/merchant/api/v1/charges/${payload.reference}`, { headers: { authorization: `Bearer ${SECRET}` } })
    expect(((await direct.json()) as any).data.status).toBe('success')
    const other = await fetch(`${sb.url}/merchant/api/v1/charges/${payload.reference}`, { headers: { authorization: 'Bearer sk_test_someone_else' } })
    expect(other.status).toBe(404)
    // and the journal holds the calls made through the proxy, under the host the client called
    const journal = (await (await fetch(`${sb.url}/_sandbox/requests`, { headers: { authorization: `Bearer ${SECRET}` } })).json()) as any
    expect(JSON.stringify(journal.data)).toContain('/merchant/api/v1/charges/card/authorize')
  })

  it('runs a mobile-money charge and a checkout to success', async () => {
    const sb = await sandbox()
    const reference = ref('curl-mm')
    const mm = await curl(sb.proxyUrl, sb.caPath, 'POST', `${KORAPAY}/charges/mobile-money`, { reference, amount: 100, currency: 'KES', mobile_money: { number: '254700000000' }, customer: { email: 'w@example.com' } })
    expect(mm.body).toMatchObject({ status: true, message: 'Authorization required', data: { auth_model: 'STK_PROMPT' } })
    const tx = mm.body.data.transaction_reference
    const stk = await curl(sb.proxyUrl, sb.caPath, 'POST', `${KORAPAY}/charges/mobile-money/sandbox/authorize-stk`, { reference: tx, pin: '1234' })
    expect(stk.body.data.status).toBe('success')
    expect((await curl(sb.proxyUrl, sb.caPath, 'GET', `${KORAPAY}/charges/${tx}`)).body.data).toMatchObject({ status: 'success', reference })

    const co = ref('curl-co')
    const init = await curl(sb.proxyUrl, sb.caPath, 'POST', `${KORAPAY}/charges/initialize`, { reference: co, amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' } })
    expect(init.body).toMatchObject({ status: true, data: { reference: co } })
    const paid = await curl(sb.proxyUrl, sb.caPath, 'POST', `https://api.korapay.com/_sandbox/checkouts/${co}/pay`, { channel: 'card' })
    expect(paid.status).toBe(200)
    expect((await curl(sb.proxyUrl, sb.caPath, 'GET', `${KORAPAY}/charges/${co}`)).body.data).toMatchObject({ status: 'success', reference: co })
  })

  it('serves plain http:// to an intercepted host too (a request in absolute form)', async () => {
    const sb = await sandbox()
    const res = await curl(sb.proxyUrl, null, 'GET', 'http://api.korapay.com/merchant/api/v1/charges/no-such-charge')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ status: false, message: 'Charge not found', data: null })
  })

  it('serves plain HTTP inside a CONNECT tunnel to an intercepted host (curl --proxytunnel http://...)', async () => {
    const sb = await sandbox([], {}, { tls: false })
    const res = await run('curl', ['-sS', '--proxytunnel', '-x', sb.proxyUrl, '-H', `authorization: Bearer ${SECRET}`, 'http://api.korapay.com/merchant/api/v1/charges/not-there'])
    expect(res.stderr).toBe('')
    expect(JSON.parse(res.stdout)).toEqual({ status: false, message: 'Charge not found', data: null })
  })

  it('fails the handshake when curl does not trust the CA: the sandbox never weakens verification', async () => {
    const sb = await sandbox()
    const res = await run('curl', ['-sS', '-o', '/dev/null', `${KORAPAY}/charges/any`], { HTTPS_PROXY: sb.proxyUrl })
    // 60: the peer's certificate cannot be authenticated with the known CA certificates
    expect(res.code).toBe(60)
    expect(res.stderr).toMatch(/certificate/i)
  })
})

describe('other clients, by environment variables alone', () => {
  it('Python 3, standard library only (urllib, HTTPS_PROXY, SSL_CERT_FILE): a mobile-money charge, its STK prompt and its query', async () => {
    // --proxy alone: the proxy ends TLS itself, no HTTPS port is needed
    const sb = await sandbox([], {}, { tls: false })
    expect(sb.stdout()).not.toContain('paysandbox https on')
    const reference = ref('py-mm')
    const script = `
import json, sys, urllib.request
BASE = "https://api.korapay.com/merchant/api/v1"
def call(method, path, body=None):
    req = urllib.request.Request(BASE + path, method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": "Bearer ${SECRET}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as res:
        return json.load(res)
charge = call("POST", "/charges/mobile-money", {"reference": "${reference}", "amount": 100, "currency": "KES",
    "mobile_money": {"number": "254700000000"}, "customer": {"name": "Wanjiku Buyer", "email": "buyer@example.com"}})
tx = charge["data"]["transaction_reference"]
stk = call("POST", "/charges/mobile-money/sandbox/authorize-stk", {"reference": tx, "pin": "1234"})
query = call("GET", "/charges/" + tx)
init = call("POST", "/charges/initialize", {"reference": "${reference}-co", "amount": 2500, "currency": "NGN", "customer": {"email": "buyer@example.com"}})
req = urllib.request.Request("https://api.korapay.com/_sandbox/checkouts/${reference}-co/pay", method="POST", data=b'{"channel": "card"}',
    headers={"Authorization": "Bearer ${SECRET}", "Content-Type": "application/json"})
urllib.request.urlopen(req).read()
checkout = call("GET", "/charges/${reference}-co")
print(json.dumps({"charge": charge, "stk": stk, "query": query, "init": init, "checkout": checkout}))
`
    const res = await run('python3', ['-c', script], { HTTPS_PROXY: sb.proxyUrl, SSL_CERT_FILE: sb.caPath })
    expect(res.stderr).toBe('')
    expect(res.code).toBe(0)
    const out = JSON.parse(res.stdout)
    expect(out.charge).toMatchObject({ status: true, message: 'Authorization required', data: { status: 'processing', auth_model: 'STK_PROMPT' } })
    expect(out.stk.data).toMatchObject({ status: 'success', payment_reference: reference })
    expect(out.query.data).toMatchObject({ status: 'success', reference })
    // and a checkout, paid by the sandbox's control call, then queried
    expect(out.init).toMatchObject({ status: true, data: { reference: `${reference}-co`, checkout_url: expect.stringMatching(/^https:\/\/api\.korapay\.com\/checkout\//) } })
    expect(out.checkout.data).toMatchObject({ status: 'success', reference: `${reference}-co`, amount: '2500.00' })
  })

  it('Python 3 without the CA trusted fails with a certificate error', async () => {
    const sb = await sandbox([], {}, { tls: false })
    const res = await run('python3', ['-c', 'import urllib.request; urllib.request.urlopen("https://api.korapay.com/merchant/api/v1/charges/x")'], { HTTPS_PROXY: sb.proxyUrl })
    expect(res.code).not.toBe(0)
    expect(res.stderr).toContain('CERTIFICATE_VERIFY_FAILED')
  })

  it("Node with undici's EnvHttpProxyAgent (HTTPS_PROXY, NODE_EXTRA_CA_CERTS): a card charge with OTP, no base URL change", async () => {
    const sb = await sandbox()
    const payload = cardPayload('5442056106072595', {}, { pin: '1234' })
    const script = `
import { EnvHttpProxyAgent, setGlobalDispatcher } from 'undici'
setGlobalDispatcher(new EnvHttpProxyAgent())
const headers = { authorization: 'Bearer ${SECRET}', 'content-type': 'application/json' }
const call = async (path, body) => (await fetch('https://api.korapay.com/merchant/api/v1' + path, body ? { method: 'POST', headers, body: JSON.stringify(body) } : { headers })).json()
const charge = await call('/charges/card', { charge_data: ${JSON.stringify(encryptChargeData(payload, ENC_KEY))} })
const otp = await call('/charges/card/authorize', { transaction_reference: charge.data.transaction_reference, authorization: { otp: '123456' } })
const query = await call('/charges/${payload.reference}')
const init = await call('/charges/initialize', { reference: '${payload.reference}-co', amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' } })
await fetch('https://api.korapay.com/_sandbox/checkouts/${payload.reference}-co/pay', { method: 'POST', headers, body: JSON.stringify({ channel: 'card' }) })
const checkout = await call('/charges/${payload.reference}-co')
console.log(JSON.stringify({ charge, otp, query, init, checkout }))
`
    const res = await run(process.execPath, ['--input-type=module', '-e', script], { HTTPS_PROXY: sb.proxyUrl, NODE_EXTRA_CA_CERTS: sb.caPath })
    expect(res.stderr).toBe('')
    const out = JSON.parse(res.stdout)
    expect(out.charge.data).toMatchObject({ status: 'processing', auth_model: 'OTP' })
    expect(out.otp.data).toMatchObject({ status: 'success' })
    expect(out.query.data).toMatchObject({ status: 'success', reference: payload.reference })
    expect(out.init.data.reference).toBe(`${payload.reference}-co`)
    expect(out.checkout.data).toMatchObject({ status: 'success', reference: `${payload.reference}-co` })
  })

  it('serves a request sent to the proxy in absolute form over plain HTTP, as axios sends it', async () => {
    const sb = await sandbox()
    const proxy = new URL(sb.proxyUrl)
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest({ host: proxy.hostname, port: proxy.port, method: 'GET', path: `${KORAPAY}/charges/unknown-ref`, headers: { host: 'api.korapay.com', authorization: `Bearer ${SECRET}` } }, (res) => {
        let text = ''
        res.on('data', (d: Buffer) => (text += d.toString()))
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }))
      })
      req.on('error', reject)
      req.end()
    })
    expect(answer).toEqual({ status: 404, body: { status: false, message: 'Charge not found', data: null } })
  })
})

/** CONNECT through the proxy, then TLS to `servername` trusting only `ca`; the peer's certificate. */
function connectThrough(proxyUrl: string, target: string, servername: string, ca: string): Promise<{ status: number; cert?: PeerCertificate; body?: string; error?: Error }> {
  const proxy = new URL(proxyUrl)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: target })
    req.on('connect', (res, socket, head) => {
      if (res.statusCode !== 200) {
        let body = head.toString()
        socket.on('data', (d: Buffer) => (body += d.toString()))
        socket.on('end', () => resolve({ status: res.statusCode!, body }))
        return
      }
      const tls = tlsConnect({ socket, servername, ca }, () => {
        const cert = tls.getPeerCertificate()
        tls.write(`POST /echo?x=1 HTTP/1.1\r\nHost: ${target}\r\nContent-Type: text/plain\r\nX-Kept: as-sent\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello`)
        let body = ''
        tls.on('data', (d: Buffer) => (body += d.toString()))
        tls.on('end', () => resolve({ status: 200, cert, body }))
      })
      tls.on('error', (error) => resolve({ status: 200, error }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('hosts that are not intercepted', () => {
  it('are tunnelled untouched: the own HTTPS server gets the request as sent, with its own certificate', async () => {
    const own = await startOwnHttpsServer()
    cleanups.push(() => own.close())
    const sb = await sandbox()
    const res = await connectThrough(sb.proxyUrl, `127.0.0.1:${own.port}`, 'localhost', own.caPem)
    expect(res.error).toBeUndefined()
    expect(res.body).toContain('own server got POST /echo?x=1')
    // the certificate the client saw is the server's own, not one the sandbox made
    expect(res.cert!.fingerprint256).toBe(new X509Certificate(own.leafPem).fingerprint256)
    expect(own.seen).toHaveLength(1)
    expect(own.seen[0]).toMatchObject({ method: 'POST', url: '/echo?x=1', body: 'hello', headers: { 'x-kept': 'as-sent', 'content-type': 'text/plain' } })

    // and curl, trusting that server's CA, reaches it through the proxy as well
    const viaCurl = await run('curl', ['-sS', '--cacert', own.caPath, `https://localhost:${own.port}/from-curl`], { HTTPS_PROXY: sb.proxyUrl })
    expect(viaCurl.stdout).toBe('own server got GET /from-curl')
  })

  it('are forwarded when sent in absolute form over plain HTTP: the own server gets the request, the client its answer', async () => {
    const receiver = await startReceiver(() => 202)
    cleanups.push(() => receiver.close())
    const sb = await sandbox()
    const res = await run('curl', ['-sS', '-w', '%{http_code}', '-H', 'x-kept: as-sent', '--data-binary', 'plain body', `http://127.0.0.1:${receiver.port}/hooks/here?q=1`], { http_proxy: sb.proxyUrl })
    expect(res.stdout).toBe('ok202')
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0]).toMatchObject({ raw: 'plain body', headers: { 'x-kept': 'as-sent' } })
    // hop-by-hop headers meant for the proxy are not passed on
    expect(receiver.received[0].headers['proxy-connection']).toBeUndefined()
  })

  it('are refused with --proxy-only-intercepted, and nothing reaches them', async () => {
    const own = await startOwnHttpsServer()
    cleanups.push(() => own.close())
    const sb = await sandbox(['--proxy-only-intercepted'])
    const res = await connectThrough(sb.proxyUrl, `127.0.0.1:${own.port}`, 'localhost', own.caPem)
    expect(res.status).toBe(403)
    expect(JSON.parse(res.body!)).toEqual({ status: false, message: 'The sandbox proxy answers only the intercepted hosts (--proxy-only-intercepted)', data: null })
    expect(own.seen).toHaveLength(0)
    // an intercepted host is still served
    const served = await curl(sb.proxyUrl, sb.caPath, 'GET', `${KORAPAY}/charges/nothing-here`)
    expect(served.status).toBe(404)
  })

  it('are the ones --intercept does not name: with --intercept (and SANDBOX_INTERCEPT) the sandbox answers those hosts instead', async () => {
    const sb = await sandbox(['--intercept', 'pay.sandbox.test', '--proxy-only-intercepted'], { SANDBOX_INTERCEPT: 'ignored.example' })
    expect(sb.stdout()).toContain('(intercepting pay.sandbox.test)')
    const served = await curl(sb.proxyUrl, sb.caPath, 'GET', 'https://pay.sandbox.test/merchant/api/v1/charges/none')
    expect(served.body).toEqual({ status: false, message: 'Charge not found', data: null })
    // api.korapay.com is no longer intercepted (refused here rather than tunnelled to the real host)
    const real = await connectThrough(sb.proxyUrl, 'api.korapay.com:443', 'api.korapay.com', readFileSync(sb.caPath, 'utf8'))
    expect(real.status).toBe(403)

    const fromEnv = await sandbox([], { SANDBOX_INTERCEPT: 'a.sandbox.test,B.Sandbox.Test' })
    expect(fromEnv.stdout()).toContain('(intercepting a.sandbox.test, b.sandbox.test)')
    expect((await curl(fromEnv.proxyUrl, fromEnv.caPath, 'GET', 'https://b.sandbox.test/merchant/api/v1/charges/none')).status).toBe(404)
  })

  it('answers 502 with the envelope when the host cannot be reached, and 400 to a CONNECT that is not host:port', async () => {
    const sb = await sandbox()
    const closed = await connectThrough(sb.proxyUrl, '127.0.0.1:1', 'localhost', '')
    expect(closed.status).toBe(502)
    expect(JSON.parse(closed.body!).message).toBe('The proxy could not reach the host')
    const bad = await connectThrough(sb.proxyUrl, 'no-port-here', 'localhost', '')
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body!).message).toBe('The proxy takes CONNECT host:port or a request to an absolute http(s) URL')
  })
})

describe('webhooks', () => {
  it('are sent by the sandbox straight to the receiver, not through its proxy, signed as always', async () => {
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    // even with a proxy variable in the sandbox's own environment
    const sb = await sandbox(['--webhook-url', receiver.url], { HTTPS_PROXY: 'http://127.0.0.1:1', HTTP_PROXY: 'http://127.0.0.1:1' })
    const payload = cardPayload('4084127883172787')
    const charged = await curl(sb.proxyUrl, sb.caPath, 'POST', `${KORAPAY}/charges/card`, { charge_data: encryptChargeData(payload, ENC_KEY) })
    expect(charged.body.data.status).toBe('success')
    await receiver.waitFor(1)
    const hook = receiver.received[0]
    expect(hook.body).toMatchObject({ event: 'charge.success', data: { reference: payload.reference } })
    expect(verifyWebhookSignature(hook.raw, hook.headers['x-korapay-signature'] as string, SECRET)).toBe(true)
  })
})

describe('an intercepted host whatever its spelling (a trailing dot, upper case)', () => {
  // each of these reached the real host before: with no network the proxy answered 502, with one
  // a client holding a test key talked to the live service

  /** A `CONNECT` to the proxy, then TLS inside the tunnel as `servername`, trusting the sandbox's CA: the raw answer to one GET. */
  async function throughTunnel(proxyUrl: string, ca: string, authority: string, servername: string): Promise<string> {
    const proxy = new URL(proxyUrl)
    const socket = netConnect(Number(proxy.port), proxy.hostname)
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`)
    const [first] = (await once(socket, 'data')) as [Buffer]
    expect(first.toString('latin1')).toBe('HTTP/1.1 200 Connection Established\r\n\r\n')
    const tls = tlsConnect({ socket, servername, ca })
    await once(tls, 'secureConnect')
    tls.write(`GET /merchant/api/v1/charges/not-there HTTP/1.1\r\nHost: ${servername}\r\nAuthorization: Bearer ${SECRET}\r\nConnection: close\r\n\r\n`)
    let answer = ''
    tls.on('data', (d: Buffer) => (answer += d.toString('latin1')))
    await once(tls, 'end')
    return answer
  }

  it('CONNECT api.korapay.com.:443 is ended with the sandbox leaf (its names hold for the dotted name) and served by the sandbox', async () => {
    const sb = await sandbox([], {}, { tls: false })
    const ca = readFileSync(sb.caPath, 'utf8')
    for (const [authority, servername] of [['api.korapay.com.:443', 'api.korapay.com.'], ['API.Korapay.COM.:443', 'API.Korapay.COM.']]) {
      const answer = await throughTunnel(sb.proxyUrl, ca, authority, servername)
      expect(answer).toMatch(/^HTTP\/1\.1 404 /)
      expect(answer).toContain('{"status":false,"message":"Charge not found","data":null}')
    }
  })

  it('a request in absolute form to http://api.korapay.com./ is served by the sandbox', async () => {
    const sb = await sandbox([], {}, { tls: false })
    const proxy = new URL(sb.proxyUrl)
    const socket = netConnect(Number(proxy.port), proxy.hostname)
    socket.write(`GET http://api.korapay.com./merchant/api/v1/charges/not-there HTTP/1.1\r\nHost: api.korapay.com.\r\nAuthorization: Bearer ${SECRET}\r\nConnection: close\r\n\r\n`)
    let answer = ''
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')))
    await once(socket, 'close')
    expect(answer).toMatch(/^HTTP\/1\.1 404 /)
    expect(answer).toContain('{"status":false,"message":"Charge not found","data":null}')
  })

  it('an --intercept name given with its trailing dot is the same host, and the leaf names it without the dot', async () => {
    const sb = await sandbox(['--intercept', 'Pay.Example.TEST.'], {}, { tls: false })
    expect(sb.stdout()).toContain('(intercepting pay.example.test)')
    const answer = await throughTunnel(sb.proxyUrl, readFileSync(sb.caPath, 'utf8'), 'pay.example.test:443', 'pay.example.test')
    expect(answer).toMatch(/^HTTP\/1\.1 404 /)
  })
})

describe('a client beyond loopback (--host 0.0.0.0 --proxy --control-token)', () => {
    const farAddress = FAR_ADDRESS

  it('cannot reach the control API through the proxy without the token: loopback targets are refused, intercepted hosts see the real peer', async () => {
    // the machine must have an address beyond loopback for this to mean anything: no skipping
    expect(farAddress).toBeDefined()
    const sb = await sandbox(['--host', '0.0.0.0', '--control-token', 'secret'])
    const port = new URL(sb.url).port
    const tlsPort = new URL(sb.httpsUrl).port
    const farProxy = `http://${farAddress}:${new URL(sb.proxyUrl).port}`
    const key = ['-H', `authorization: Bearer ${SECRET}`]
    // the call of the report: absolute form to the HTTP port on loopback, by address and by name
    for (const target of [`http://127.0.0.1:${port}/_sandbox/clock`, `http://localhost:${port}/_sandbox/clock`, `http://0.0.0.0:${port}/_sandbox/clock`]) {
      const res = await run('curl', ['-sS', '-w', '\n%{http_code}', '--proxy', farProxy, ...key, target])
      expect(res.stdout, target).toBe(`{"status":false,"message":"${PROXY_LOOPBACK}","data":null}\n403`)
    }
    // a tunnel to the HTTPS port on loopback: the proxy refuses the CONNECT itself
    const tunnelled = await run('curl', ['-sS', '-w', '\n%{http_connect}', '--proxy', farProxy, '--cacert', sb.caPath, ...key, `https://localhost:${tlsPort}/_sandbox/clock`])
    expect(tunnelled.stdout).toBe('\n403')
    // an intercepted host is served by the sandbox, whose control check sees the far peer
    const through = (extra: string[]) => run('curl', ['-sS', '-w', '\n%{http_code}', '--proxy', farProxy, '--cacert', sb.caPath, ...key, ...extra, 'https://api.korapay.com/_sandbox/clock'])
    expect((await through([])).stdout).toMatch(/\n403$/)
    expect((await through(['-H', 'x-sandbox-control-token: secret'])).stdout).toMatch(/\n200$/)
    // from loopback the proxy reaches loopback as before
    const near = await run('curl', ['-sS', '-w', '\n%{http_code}', '--proxy', `http://127.0.0.1:${new URL(sb.proxyUrl).port}`, ...key, `http://127.0.0.1:${port}/_sandbox/clock`])
    expect(near.stdout).toMatch(/\n200$/)
  })
})

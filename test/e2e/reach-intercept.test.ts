import { createServer, request as httpRequest, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { startSandbox, type Sandbox } from '../../src/index.js'
import { verifyWebhookSignature } from '../../src/webhooks/signature.js'
import { ENC_KEY, SECRET, cardPayload, ref } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { KORAPAY, tempCaDir } from './reach.js'
import { cleanedAfterEach } from '../helpers/after-each.js'

/**
 * `startSandbox({ intercept: true })` (docs/behaviour.md#intercept): this test process's own calls to
 * https://api.korapay.com, through the global fetch and node's https, are answered by the
 * in-process sandbox; every other call goes out as before; close() restores the network.
 */

const cleanups = cleanedAfterEach()

async function intercepting(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sb = await startSandbox({ intercept: true, ...options })
  cleanups.push(() => sb.close())
  return sb
}

const headers = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }

/** node's http(s).request, as axios and most SDKs use it: status and parsed body. */
function nodeRequest(send: typeof httpsRequest | typeof httpRequest, url: string, options: RequestOptions = {}, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  return new Promise((resolve, reject) => {
    const req = send(url, { headers, ...options }, (res) => {
      let text = ''
      res.on('data', (d: Buffer) => (text += d.toString()))
      res.on('end', () => {
        let parsed: unknown = null
        try {
          parsed = JSON.parse(text)
        } catch {
          /* not JSON: the own server's text */
        }
        resolve({ status: res.statusCode!, body: parsed, text })
      })
    })
    req.on('error', reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })
}

describe('startSandbox({ intercept: true })', () => {
  it('answers global fetch and https.request to https://api.korapay.com in-process: card, mobile-money and checkout flows', async () => {
    await intercepting()
    // a card charge with a PIN, by fetch
    const payload = cardPayload('5188513618552975')
    const charged = await fetch(`${KORAPAY}/charges/card`, { method: 'POST', headers, body: JSON.stringify({ charge_data: encryptChargeData(payload, ENC_KEY) }) })
    expect(charged.status).toBe(200)
    const card = (await charged.json()) as any
    expect(card.data).toMatchObject({ status: 'processing', auth_model: 'PIN' })
    // authorized by https.request, queried by both
    const authorized = await nodeRequest(httpsRequest, `${KORAPAY}/charges/card/authorize`, { method: 'POST' }, { transaction_reference: card.data.transaction_reference, authorization: { pin: '1234' } })
    expect(authorized.body.data).toMatchObject({ status: 'success' })
    expect(((await (await fetch(`${KORAPAY}/charges/${payload.reference}`, { headers })).json()) as any).data.status).toBe('success')
    expect((await nodeRequest(httpsRequest, `${KORAPAY}/charges/${payload.reference}`)).body.data.status).toBe('success')

    // a mobile-money charge, its STK prompt answered, its query
    const reference = ref('mm')
    const mm = await nodeRequest(httpsRequest, `${KORAPAY}/charges/mobile-money`, { method: 'POST' }, { reference, amount: 100, currency: 'KES', mobile_money: { number: '254700000000' }, customer: { name: 'Wanjiku', email: 'w@example.com' } })
    expect(mm.body).toMatchObject({ status: true, message: 'Authorization required', data: { auth_model: 'STK_PROMPT' } })
    const tx = mm.body.data.transaction_reference
    const stk = await fetch(`${KORAPAY}/charges/mobile-money/sandbox/authorize-stk`, { method: 'POST', headers, body: JSON.stringify({ reference: tx, pin: '1234' }) })
    expect(((await stk.json()) as any).data.status).toBe('success')
    expect((await nodeRequest(httpsRequest, `${KORAPAY}/charges/${tx}`)).body.data).toMatchObject({ status: 'success', reference })

    // a checkout, paid by card on the sandbox's control call, then queried
    const checkoutRef = ref('co')
    const init = (await (await fetch(`${KORAPAY}/charges/initialize`, { method: 'POST', headers, body: JSON.stringify({ reference: checkoutRef, amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' } }) })).json()) as any
    expect(init).toMatchObject({ status: true, data: { reference: checkoutRef, checkout_url: expect.stringContaining('/checkout/') } })
    const paid = await fetch(`https://api.korapay.com/_sandbox/checkouts/${checkoutRef}/pay`, { method: 'POST', headers, body: JSON.stringify({ channel: 'card' }) })
    expect(paid.status).toBe(200)
    expect(((await (await fetch(`${KORAPAY}/charges/${checkoutRef}`, { headers })).json()) as any).data.status).toBe('success')
  })

  it('hands out URLs on the host this process called, which the same interception serves: checkout_url and the 3DS page', async () => {
    await intercepting()
    // one public client refuses a checkout_url that is not https (docs/behaviour.md#urls-handed-out)
    const reference = ref('co')
    const init = (await (await fetch(`${KORAPAY}/charges/initialize`, { method: 'POST', headers, body: JSON.stringify({ reference, amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' } }) })).json()) as any
    expect(init.data.checkout_url).toMatch(/^https:\/\/api\.korapay\.com\/checkout\/KPY-PI-[A-Z0-9]+\/pay$/)
    const page = await fetch(init.data.checkout_url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(await page.text()).toContain(reference)
    const byNode = await nodeRequest(httpsRequest, init.data.checkout_url, { headers: {} })
    expect(byNode.status).toBe(200)
    expect(byNode.text).toContain(reference)

    const threeDs = cardPayload('4562543755474674')
    const pending = (await (await fetch(`${KORAPAY}/charges/card`, { method: 'POST', headers, body: JSON.stringify({ charge_data: encryptChargeData(threeDs, ENC_KEY) }) })).json()) as any
    const tx = pending.data.transaction_reference
    expect(pending.data.authorization.redirect_url).toBe(`https://api.korapay.com/_sandbox/3ds/${tx}`)
    const form = await fetch(pending.data.authorization.redirect_url)
    expect(form.status).toBe(200)
    expect(await form.text()).toContain('<form')
  })

  it('is gone after close(): the same URL reaches the host it names again', async () => {
    // a host of the test's own stands in for api.korapay.com, so the check needs no internet
    const own = createServer((req, res) => res.end(`own server: ${req.method} ${req.url}`))
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise((resolve) => own.close(resolve)))
    const url = `http://localhost:${(own.address() as AddressInfo).port}/merchant/api/v1/charges/x`

    const sb = await startSandbox({ intercept: true, interceptHosts: ['localhost'] })
    let closed = false
    cleanups.push(() => (closed ? undefined : sb.close()))
    expect(await (await fetch(url, { headers })).json()).toEqual({ status: false, message: 'Charge not found', data: null })
    expect((await nodeRequest(httpRequest, url)).body).toEqual({ status: false, message: 'Charge not found', data: null })
    // 127.0.0.1 is not an intercepted name: it goes out as before
    expect(await (await fetch(url.replace('localhost', '127.0.0.1'))).text()).toBe('own server: GET /merchant/api/v1/charges/x')

    await sb.close()
    closed = true
    expect(await (await fetch(url)).text()).toBe('own server: GET /merchant/api/v1/charges/x')
    expect((await nodeRequest(httpRequest, url)).text).toBe('own server: GET /merchant/api/v1/charges/x')
  })

  it('knows the intercepted host whatever its spelling: a trailing dot and upper case are answered in-process too', async () => {
    await intercepting()
    // before, these went out to the live host (and failed here, with no network)
    for (const url of ['https://api.korapay.com./merchant/api/v1/charges/none', 'https://API.Korapay.COM./merchant/api/v1/charges/none']) {
      expect(await (await fetch(url, { headers })).json()).toEqual({ status: false, message: 'Charge not found', data: null })
      expect((await nodeRequest(httpsRequest, url)).body).toEqual({ status: false, message: 'Charge not found', data: null })
    }
  })

  it('lets one sandbox of a process intercept at a time, and another once it is closed', async () => {
    const first = await startSandbox({ intercept: true })
    await expect(startSandbox({ intercept: true })).rejects.toThrow(`startSandbox({ intercept: true }): the sandbox at ${first.url} already intercepts in this process; close it first`)
    await first.close()
    const second = await intercepting({ secretKey: 'sk_test_second' })
    const res = await fetch(`${KORAPAY}/charges/nothing`, { headers: { authorization: 'Bearer sk_test_second' } })
    expect(res.status).toBe(404)
    expect(second.url).not.toBe(first.url)
  })

  it('leaves webhooks alone: the sandbox posts them to the receiver, signed', async () => {
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    await intercepting({ webhookUrl: receiver.url })
    const payload = cardPayload('4084127883172787')
    const res = await fetch(`${KORAPAY}/charges/card`, { method: 'POST', headers, body: JSON.stringify({ charge_data: encryptChargeData(payload, ENC_KEY) }) })
    expect(((await res.json()) as any).data.status).toBe('success')
    await receiver.waitFor(1)
    expect(receiver.received[0].body).toMatchObject({ event: 'charge.success', data: { reference: payload.reference } })
    expect(verifyWebhookSignature(receiver.received[0].raw, receiver.received[0].headers['x-korapay-signature'] as string, SECRET)).toBe(true)
  })
})

describe('startSandbox({ tls: true, proxy: true })', () => {
  it('serves HTTPS and the proxy on free ports and says where, with the CA of caDir', async () => {
    const caDir = tempCaDir()
    const sb = await startSandbox({ tls: true, proxy: true, caDir })
    cleanups.push(() => sb.close())
    expect(sb.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(sb.proxyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sb.caPath).toBe(`${caDir}/ca.pem`)
    const res = await nodeRequest(httpsRequest, `${sb.httpsUrl}/merchant/api/v1/charges/none`, { ca: readFileSync(sb.caPath!, 'utf8') })
    expect(res).toMatchObject({ status: 404, body: { status: false, message: 'Charge not found', data: null } })
    // closed: both ports are gone
    await sb.close()
    await expect(nodeRequest(httpsRequest, `${sb.httpsUrl}/_sandbox/health`, { ca: readFileSync(sb.caPath!, 'utf8'), agent: false })).rejects.toThrow(/ECONNREFUSED/)
    await expect(nodeRequest(httpRequest, `${sb.proxyUrl}/_sandbox/health`, { agent: false })).rejects.toThrow(/ECONNREFUSED/)
  })
})

import { execFile } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent } from 'undici'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { MSG } from '../../src/messages.js'
import { verifyWebhookSignature } from '../../src/webhooks/signature.js'
import { api } from '../e2e/process.js'
import { ENC_KEY, cardPayload, ref } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { IMAGE, docker, firstAnswer, listening, logs, run, state, volume } from './docker.js'
import { cleanedAfterEach } from '../helpers/after-each.js'

/**
 * The image `npm run image` builds (docs/behaviour.md#container-image), run by docker as a user runs it: every
 * setting a SANDBOX_* variable, the host reaching it through a published port (so from the bridge's
 * gateway, not loopback), a receiver on the host reached as host.docker.internal.
 */

const M = '/merchant/api/v1'
const SK = 'sk_test_image'
const TOKEN = 'tok-image-test'

const closers = cleanedAfterEach()

describe('the image', () => {
  it('is at most 150 MB, runs as a non-root user, listens on every address and has a health check', async () => {
    const [image] = JSON.parse(await docker('image', 'inspect', IMAGE))
    expect(image.Size).toBeLessThanOrEqual(150_000_000)
    expect(image.Config.User).toBe('10001:10001')
    expect(image.Config.Env).toContain('SANDBOX_HOST=0.0.0.0')
    expect(image.Config.Entrypoint).toEqual(['/usr/local/bin/node', '/app/bin/sandbox.js'])
    expect(image.Config.Cmd).toEqual(['start'])
    expect(image.Config.Healthcheck.Test).toEqual(['CMD', '/usr/local/bin/node', '/app/bin/sandbox.js', 'health'])
  })

  it('serves a card charge, a checkout and a webhook to a receiver on the host, with its settings from SANDBOX_*', async () => {
    const hook = await startReceiver(() => 200, '0.0.0.0')
    closers.push(() => hook.close())
    const box = await run([
      '--add-host', 'host.docker.internal:host-gateway',
      '-e', `SANDBOX_WEBHOOK_URL=http://host.docker.internal:${hook.port}/webhooks`,
      '-e', `SANDBOX_SECRET_KEY=${SK}`,
      '-e', `SANDBOX_CONTROL_TOKEN=${TOKEN}`,
    ])
    const { url } = await firstAnswer(box)
    await listening(box)
    const out = await logs(box.id)
    expect(out).toContain(`secret key:     ${SK}`)
    expect(out).toContain('paysandbox listening on http://0.0.0.0:4010')

    // a card charge, its webhook signed with the secret key on the host's receiver
    const card = cardPayload('4084127883172787')
    const charged = await api(url, SK, 'POST', `${M}/charges/card`, { charge_data: encryptChargeData(card, ENC_KEY) })
    expect([charged.status, charged.body.data.status]).toEqual([200, 'success'])
    await hook.waitFor(1)
    expect(hook.received[0].body).toMatchObject({ event: 'charge.success', data: { payment_reference: card.reference, status: 'success', amount: 1000 } })
    expect(verifyWebhookSignature(hook.received[0].raw, hook.received[0].headers['x-korapay-signature'] as string, SK)).toBe(true)

    // a checkout: its page from the host, paid by the control API with the token
    const reference = ref('co')
    const init = await api(url, SK, 'POST', `${M}/charges/initialize`, { reference, amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada' } })
    expect(init.status).toBe(200)
    const page = await fetch(init.body.data.checkout_url.replace(/^https?:\/\/[^/]+/, url))
    expect([page.status, page.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/html')])
    const paid = await fetch(`${url}/_sandbox/checkouts/${reference}/pay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SK}`, 'content-type': 'application/json', 'x-sandbox-control-token': TOKEN },
      body: JSON.stringify({ channel: 'card' }),
    })
    expect(paid.status).toBe(200)
    expect((await api(url, SK, 'GET', `${M}/charges/${reference}`)).body.data.status).toBe('success')
    await hook.waitFor(2)
    expect(hook.received[1].body).toMatchObject({ event: 'charge.success', data: { reference } })
  })

  it('answers the control API and the dashboard from the host only with the control token', async () => {
    const open = await run(['-e', `SANDBOX_CONTROL_TOKEN=${TOKEN}`])
    const closed = await run([])
    const [{ url: withToken }, { url: without }] = await Promise.all([firstAnswer(open), firstAnswer(closed)])
    await listening(closed)
    const control = (base: string, headers: Record<string, string> = {}) => fetch(`${base}/_sandbox/clock`, { headers: { authorization: 'Bearer sk_test_sandbox', ...headers } })

    // no token set: the host is refused, whatever it sends; the container's own loopback is let in
    for (const headers of [{}, { 'x-sandbox-control-token': TOKEN }]) {
      const res = await control(without, headers)
      expect([res.status, (await res.json()).message]).toEqual([403, 'The control API answers only on loopback unless a control token is set'])
    }
    expect((await fetch(`${without}/_sandbox/ui?token=${TOKEN}`)).status).toBe(403)
    expect(await logs(closed.id)).toContain('listening beyond loopback without --control-token')
    const inside = await docker('exec', closed.id, '/usr/local/bin/node', '-e', "fetch('http://127.0.0.1:4010/_sandbox/clock',{headers:{authorization:'Bearer sk_test_sandbox'}}).then(r=>console.log(r.status))")
    expect(inside).toBe('200')

    // a token set: the host with it is let in, without it or with another refused
    expect((await control(withToken, { 'x-sandbox-control-token': TOKEN })).status).toBe(200)
    expect((await control(withToken)).status).toBe(403)
    expect((await control(withToken, { 'x-sandbox-control-token': 'not-it' })).status).toBe(403)
    expect((await fetch(`${withToken}/_sandbox/ui?token=${TOKEN}`)).status).toBe(200)
    expect((await fetch(`${withToken}/_sandbox/ui`)).status).toBe(403)
  })

  it('listens on SANDBOX_PORT, turns healthy by its HEALTHCHECK there, and stops on SIGTERM as process 1: exit 0, long before docker would kill it', async () => {
    // how fast it starts and stops is measured in bench/README.md ("The container image"), not here
    const box = await run(['-e', 'SANDBOX_PORT=4500', '--health-interval', '200ms', '--health-start-period', '0s'], [4500])
    await firstAnswer(box, 4500)
    await listening(box)
    expect(await logs(box.id)).toContain('paysandbox listening on http://0.0.0.0:4500')

    // the HEALTHCHECK (node asking, no curl in the image) turns the container healthy
    for (let i = 0; (await state(box.id)).Health?.Status !== 'healthy'; i++) {
      expect(i, 'healthy within 10 s').toBeLessThan(200)
      await new Promise((r) => setTimeout(r, 50))
    }

    // SIGTERM, then SIGKILL after 30 s: a process 1 that ignored SIGTERM would be killed (exit 137)
    const stopAt = performance.now()
    await docker('stop', '--time', '30', box.id)
    expect(performance.now() - stopAt).toBeLessThan(30_000)
    expect(await state(box.id)).toMatchObject({ Status: 'exited', ExitCode: 0 })
    expect(await logs(box.id)).not.toContain('error while stopping')
  })

  it('keeps its store on a volume (SANDBOX_DATA) and reads a pack from a mounted file (SANDBOX_SCENARIOS)', async () => {
    const vol = await volume()
    // readable by the container's user (a temporary folder is its owner's only)
    const dir = mkdtempSync(join(tmpdir(), 'image-pack-'))
    chmodSync(dir, 0o755)
    writeFileSync(join(dir, 'pack.yaml'), 'name: funded\nsettings:\n  opening_balance: 1234\n', { mode: 0o644 })
    const args = ['-v', `${vol}:/data`, '-e', 'SANDBOX_DATA=/data/store.json', '-v', `${dir}:/packs:ro`, '-e', 'SANDBOX_SCENARIOS=/packs/pack.yaml']
    const first = await run(args)
    let { url } = await firstAnswer(first)
    const balances = await api(url, 'sk_test_sandbox', 'GET', `${M}/balances`)
    expect(balances.body.data.NGN.available_balance).toBe(1234)
    const card = cardPayload('4084127883172787')
    expect((await api(url, 'sk_test_sandbox', 'POST', `${M}/charges/card`, { charge_data: encryptChargeData(card, ENC_KEY) })).status).toBe(200)
    await docker('stop', first.id)
    expect((await state(first.id)).ExitCode).toBe(0)

    const second = await run(args)
    ;({ url } = await firstAnswer(second))
    expect((await logs(second.id))).toContain('store:          file /data/store.json')
    const again = await api(url, 'sk_test_sandbox', 'GET', `${M}/charges/${card.reference}`)
    expect([again.status, again.body.data.status]).toEqual([200, 'success'])
  })

  it('serves HTTPS (SANDBOX_TLS) and the proxy (SANDBOX_PROXY) with the CA it keeps in /data', async () => {
    const box = await run(['-e', 'SANDBOX_TLS=1', '-e', 'SANDBOX_PROXY=1', '-e', 'SANDBOX_PROXY_ONLY_INTERCEPTED=1'], [4010, 4443, 4080])
    await listening(box)
    const dir = mkdtempSync(join(tmpdir(), 'image-ca-'))
    await docker('cp', `${box.id}:/data/ca/ca.pem`, join(dir, 'ca.pem'))
    const ca = readFileSync(join(dir, 'ca.pem'), 'utf8')

    // HTTPS on the published port, trusted through the sandbox's CA
    const https = await box.url(4443, 'https')
    const dispatcher = new Agent({ connect: { ca, servername: 'localhost' } })
    closers.push(() => dispatcher.close())
    const res = await fetch(`${https}/_sandbox/health`, { dispatcher } as RequestInit)
    expect(res.status).toBe(200)

    // the proxy answers api.korapay.com from the sandbox: curl as an unmodified client
    const proxy = await box.url(4080)
    const body = await new Promise<string>((resolve, reject) =>
      execFile('curl', ['-sS', '--proxy', proxy, '--cacert', join(dir, 'ca.pem'), '-H', 'Authorization: Bearer sk_test_sandbox', 'https://api.korapay.com/merchant/api/v1/balances'], (err, stdout, stderr) =>
        err ? reject(new Error(stderr)) : resolve(stdout),
      ),
    )
    expect(JSON.parse(body)).toMatchObject({ status: true, data: { NGN: { available_balance: 5000000 } } })
  })

  it('through the proxy, a caller on the host reaches neither the control API nor the HTTPS port on the container\'s loopback without the token', async () => {
    const box = await run(['-e', 'SANDBOX_PROXY=1', '-e', 'SANDBOX_TLS=1', '-e', `SANDBOX_CONTROL_TOKEN=${TOKEN}`], [4010, 4080])
    await listening(box)
    const proxy = await box.url(4080)
    const curl = (args: string[]) =>
      new Promise<string>((resolve, reject) => execFile('curl', ['-sS', '--proxy', proxy, ...args], (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout))))
    // the call of the report, and the same by name: refused by the proxy, the control API never reached
    for (const target of ['http://127.0.0.1:4010/_sandbox/clock', 'http://localhost:4010/_sandbox/clock']) {
      const body = await curl(['-w', '\n%{http_code}', '-H', 'Authorization: Bearer sk_test_sandbox', target])
      expect(body, target).toBe(`{"status":false,"message":"${MSG.PROXY_LOOPBACK_REFUSED}","data":null}\n403`)
    }
    // a tunnel to the container's HTTPS port on loopback: the CONNECT itself is refused
    const tunnel = await new Promise<string>((resolve) =>
      execFile('curl', ['-sS', '-k', '--proxy', proxy, '-w', '%{http_connect}', 'https://localhost:4443/_sandbox/clock'], (_err, stdout) => resolve(stdout)),
    )
    expect(tunnel).toBe('403')
  })
})

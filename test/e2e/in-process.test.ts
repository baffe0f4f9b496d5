import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
// the package's own entry (dist/), as a user imports it: `npm test` builds first
import { decryptChargeData, encryptChargeData, startSandbox, verifyWebhookSignature, type Sandbox } from 'paysandbox'
import { cardPayload } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BIN = join(ROOT, 'bin/sandbox.js')
const tempDir = () => mkdtempSync(join(tmpdir(), 'paysandbox-inproc-'))

async function call(sandbox: Sandbox, method: string, path: string, body?: unknown, key = sandbox.keys.secretKey) {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}

const chargeCard = (sandbox: Sandbox, payload: unknown, keys = sandbox.keys) =>
  call(sandbox, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(payload, keys.encryptionKey) }, keys.secretKey)

describe('startSandbox (in-process API, from a vitest suite)', () => {
  let a: Sandbox
  let b: Sandbox
  let receiver: Awaited<ReturnType<typeof startReceiver>>

  beforeAll(async () => {
    ;[a, b, receiver] = await Promise.all([startSandbox({ port: 0 }), startSandbox({ port: 0 }), startReceiver()])
  })
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), receiver?.close()])
  })

  it('returns url, port, the default keys and close()', () => {
    expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(a.url).toBe(`http://127.0.0.1:${a.port}`)
    expect(a.port).toBeGreaterThan(0)
    expect(b.port).not.toBe(a.port)
    expect(a.keys).toEqual({ secretKey: 'sk_test_sandbox', publicKey: 'pk_test_sandbox', encryptionKey: 'sandbox-encryption-key-012345678' })
    expect(typeof a.close).toBe('function')
  })

  it('takes a card charge encrypted with encryptChargeData', async () => {
    const payload = cardPayload('4084127883172787')
    const res = await chargeCard(a, payload)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: true, data: { status: 'success', payment_reference: payload.reference } })
    const query = await call(a, 'GET', `/merchant/api/v1/charges/${payload.reference}`)
    expect(query.body.data.status).toBe('success')
  })

  it('decryptChargeData round-trips encryptChargeData, and refuses the wrong key', () => {
    const payload = cardPayload('5188513618552975', {}, { pin: '1234' })
    const data = encryptChargeData(payload, a.keys.encryptionKey)
    expect(data).toMatch(/^[0-9a-f]{32}:[0-9a-f]+:[0-9a-f]{32}$/)
    expect(decryptChargeData(data, a.keys.encryptionKey)).toEqual(payload)
    expect(decryptChargeData(data, 'another-encryption-key-012345678')).toBeUndefined()
  })

  it('signs webhooks so that verifyWebhookSignature passes on a real receiver', async () => {
    expect((await call(a, 'PUT', '/_sandbox/webhook-url', { url: receiver.url })).status).toBe(200)
    const payload = cardPayload('4084127883172787')
    await chargeCard(a, payload)
    await receiver.waitFor(1)
    const delivery = receiver.received.find((r) => r.body?.data?.payment_reference === payload.reference)!
    expect(delivery.body.event).toBe('charge.success')
    const signature = delivery.headers['x-korapay-signature'] as string
    expect(verifyWebhookSignature(delivery.raw, signature, a.keys.secretKey)).toBe(true)
    expect(verifyWebhookSignature(delivery.body.data, signature, a.keys.secretKey)).toBe(true)
    expect(verifyWebhookSignature(delivery.raw, signature, 'sk_test_not_the_key')).toBe(false)
    expect(verifyWebhookSignature(delivery.raw.replace('"success"', '"failed"'), signature, a.keys.secretKey)).toBe(false)
  })

  it('keeps two sandboxes in one process apart, even with the same key', async () => {
    const payload = cardPayload('4084127883172787')
    expect((await chargeCard(a, payload)).body.data.status).toBe('success')
    expect((await call(a, 'GET', `/merchant/api/v1/charges/${payload.reference}`)).status).toBe(200)
    expect((await call(b, 'GET', `/merchant/api/v1/charges/${payload.reference}`)).status).toBe(404)
    // the same reference is new to b: no duplicate refusal
    expect((await chargeCard(b, payload)).body.data.status).toBe('success')
    // a's webhook URL is not b's
    expect((await call(b, 'PUT', '/_sandbox/webhook-url', { url: null })).body.data).toEqual({ url: null })
    const clockA = (await call(a, 'POST', '/_sandbox/clock/advance', { seconds: 3600 })).body.data.offset_ms
    const clockB = (await call(b, 'GET', '/_sandbox/clock')).body.data.offset_ms
    expect(clockA).toBeGreaterThanOrEqual(3_600_000)
    expect(clockB).toBe(0)
  })

  it('passes secretKey, encryptionKey, scenarios, merchants and data through', async () => {
    const dir = tempDir()
    const pack = join(dir, 'pack.yaml')
    writeFileSync(pack, 'cards:\n  - number: "4111111111111111"\n    scheme: visa\n    cvv: "123"\n    expiry_month: "12"\n    expiry_year: "30"\n    outcome: failed\n    message: "Withdrawal limit exceeded"\n    label: "in-process test card"\n')
    const merchants = join(dir, 'merchants.yaml')
    writeFileSync(merchants, 'merchants:\n  - secret_key: sk_test_shop_a\n    encryption_key: shop-a-encryption-key-0123456789\n')
    const data = join(dir, 'data.json')
    const opts = { port: 0, secretKey: 'sk_test_inproc', encryptionKey: 'inproc-encryption-key-0123456789', scenarios: [pack], merchants, data, strictKeys: true }
    const c = await startSandbox(opts)
    const payload = cardPayload('4111111111111111', {}, { expiry_month: '12' })
    try {
      expect(c.keys).toEqual({ secretKey: 'sk_test_inproc', publicKey: 'pk_test_inproc', encryptionKey: 'inproc-encryption-key-0123456789' })
      const res = await chargeCard(c, payload)
      expect(res.body.data).toMatchObject({ status: 'failed', response_message: 'Withdrawal limit exceeded' })
      const shop = { secretKey: 'sk_test_shop_a', publicKey: '', encryptionKey: 'shop-a-encryption-key-0123456789' }
      expect((await chargeCard(c, cardPayload('4084127883172787'), shop)).body.data.status).toBe('success')
      expect((await call(c, 'GET', '/_sandbox/clock', undefined, 'sk_test_unknown')).status).toBe(401)
    } finally {
      await c.close()
    }
    expect(existsSync(data)).toBe(true)
    // the data file is reloaded by the next sandbox
    const d = await startSandbox(opts)
    try {
      expect((await call(d, 'GET', `/merchant/api/v1/charges/${payload.reference}`)).body.data.status).toBe('failed')
    } finally {
      await d.close()
    }
  })

  it('close() frees the port', async () => {
    const e = await startSandbox()
    expect((await fetch(`${e.url}/_sandbox/health`)).status).toBe(200)
    await e.close()
    await expect(fetch(`${e.url}/_sandbox/health`)).rejects.toThrow()
  })
})

describe('the examples', () => {
  it('examples/vitest.config.ts (a globalSetup with startSandbox, a test using inject) passes', async () => {
    // a nested vitest must not think it is a worker of this one
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'))
    const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn('npx', ['vitest', 'run', '--config', 'examples/vitest.config.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      child.stdout.on('data', (d: Buffer) => (out += d.toString()))
      child.stderr.on('data', (d: Buffer) => (out += d.toString()))
      child.on('exit', (code) => resolve({ code, out }))
    })
    expect(out).toMatch(/1 passed/)
    expect(code, out).toBe(0)
  }, 120_000)

  it('examples/github-actions.yml starts the sandbox detached, runs the suite with API_BASE_URL, then stops it', async () => {
    const workflow = parseYaml(readFileSync(join(ROOT, 'examples/github-actions.yml'), 'utf8')) as {
      jobs: Record<string, { steps: { name?: string; run?: string; env?: Record<string, string>; if?: string }[] }>
    }
    const [job] = Object.values(workflow.jobs)
    const steps = job.steps
    const at = (test: (s: (typeof steps)[number]) => boolean) => steps.findIndex(test)
    const start = at((s) => /npx sandbox start --detach\b/.test(s.run ?? ''))
    const suite = at((s) => !!s.env?.API_BASE_URL && /\b(npm test|npx vitest)/.test(s.run ?? ''))
    const stop = at((s) => /npx sandbox stop\b/.test(s.run ?? ''))
    expect(start).toBeGreaterThan(0)
    expect(suite).toBeGreaterThan(start)
    expect(stop).toBeGreaterThan(suite)
    expect(steps[stop].if).toBe('always()')
    const port = /--port (\d+)/.exec(steps[start].run!)![1]
    expect(steps[suite].env!.API_BASE_URL).toBe(`http://127.0.0.1:${port}`)

    // the job's own start and stop lines work (with the local CLI for npx sandbox, a free port)
    const dir = tempDir()
    const run = promisify(execFile)
    const local = (line: string) => line.replace('npx sandbox', `"${process.execPath}" "${BIN}"`).replace(`--port ${port}`, '--port 0')
    await run('sh', ['-c', local(steps[start].run!)], { cwd: dir })
    const { url } = JSON.parse(readFileSync(join(dir, '.sandbox.pid'), 'utf8')) as { url: string }
    expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200)
    await run('sh', ['-c', local(steps[stop].run!)], { cwd: dir })
    expect(existsSync(join(dir, '.sandbox.pid'))).toBe(false)
  }, 60_000)
})

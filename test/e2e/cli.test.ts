import { readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { v8Tuning } from '../../src/cli.js'
import { ENC_KEY, SECRET, cardPayload, tempFile } from '../helpers/sandbox.js'
import { refusedAtStart, runCli, startCli, type RunningCli } from './process.js'

const auth = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }
let running: RunningCli | null = null

afterEach(async () => {
  if (running && running.child.exitCode === null) {
    running.child.kill('SIGKILL')
    await running.exited
  }
  running = null
})

async function chargeOver(url: string, payload: unknown) {
  const res = await fetch(`${url}/merchant/api/v1/charges/card`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ charge_data: encryptChargeData(payload, ENC_KEY) }),
  })
  return { status: res.status, body: (await res.json()) as any }
}

describe('sandbox start (a real process on a real port)', () => {
  it('prints the keys and the ready line, serves the card API, and stops cleanly on SIGTERM', async () => {
    running = await startCli([])
    expect(running.stdout()).toContain('sk_test_sandbox')
    expect(running.stdout()).toContain('sandbox-encryption-key-012345678')
    expect(running.stdout().match(/paysandbox listening on/g)).toHaveLength(1)
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)

    const health = await fetch(`${running.url}/_sandbox/health`)
    expect(health.status).toBe(200)
    expect(health.headers.get('content-type')).toContain('application/json')
    expect(await health.json()).toMatchObject({ status: true, data: { version: expect.any(String) } })

    const res = await chargeOver(running.url, cardPayload('4084127883172787'))
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('success')

    running.child.kill('SIGTERM')
    expect(await running.exited).toBe(0)
  })

  it('persists to --data and reloads it on the next start', async () => {
    const file = tempFile()
    running = await startCli(['--data', file])
    const payload = cardPayload('5188513618552975')
    const first = await chargeOver(running.url, payload)
    expect(first.body.data.status).toBe('processing')
    // the answer was sent after the change reached the file: it is there, as valid JSON
    const doc = JSON.parse(readFileSync(file, 'utf8'))
    expect(JSON.stringify(doc)).toContain(payload.reference)
    expect(JSON.stringify(doc)).not.toContain('5188513618552975')
    running.child.kill('SIGINT')
    expect(await running.exited).toBe(0)

    running = await startCli(['--data', file])
    const q = await fetch(`${running.url}/merchant/api/v1/charges/${payload.reference}`, { headers: auth })
    expect(q.status).toBe(200)
    expect(((await q.json()) as any).data).toMatchObject({ reference: payload.reference, status: 'processing' })
    // and the pending PIN step can still be answered after the restart
    const auth2 = await fetch(`${running.url}/merchant/api/v1/charges/card/authorize`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ transaction_reference: first.body.data.transaction_reference, authorization: { pin: '1234' } }),
    })
    expect(((await auth2.json()) as any).data.status).toBe('success')
  })

  it('keeps every acknowledged charge when killed with SIGKILL', async () => {
    const file = tempFile()
    running = await startCli(['--data', file])
    const refs: string[] = []
    for (let i = 0; i < 20; i++) {
      const p = cardPayload('4084127883172787')
      const r = await chargeOver(running.url, p)
      expect(r.status).toBe(200)
      refs.push(p.reference)
    }
    running.child.kill('SIGKILL')
    await running.exited
    const text = readFileSync(file, 'utf8')
    expect(() => JSON.parse(text)).not.toThrow()
    for (const r of refs) expect(text).toContain(r)
  })

  it('picks a free port with --port 0 and answers unknown routes with the envelope', async () => {
    running = await startCli([])
    const res = await fetch(`${running.url}/nope`, { headers: auth })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ status: false, message: 'Route not found', data: null })
  })

  it('answers a body over 1 MiB with the 413 envelope on a real socket: declared, streamed, and not at the limit (docs/behaviour.md#http)', async () => {
    running = await startCli([])
    const url = `${running.url}/merchant/api/v1/charges/card`
    const MiB = 1 << 20
    const bodyOf = (bytes: number) => `{"pad":"${'x'.repeat(bytes - 10)}"}`
    const tooLarge = { status: false, message: 'Request body is too large', data: { limit_bytes: MiB } }
    // Content-Length declared over the limit: refused before the body is read
    const declared = await fetch(url, { method: 'POST', headers: auth, body: bodyOf(MiB + 1) })
    expect(declared.status).toBe(413)
    expect(await declared.json()).toEqual(tooLarge)
    // no Content-Length (chunked): counted as it arrives
    const buf = Buffer.from(bodyOf(MiB + 1))
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < buf.length; i += 64 * 1024) c.enqueue(buf.subarray(i, i + 64 * 1024))
        c.close()
      },
    })
    // @ts-expect-error: Node's fetch needs duplex for a stream body
    const streamed = await fetch(url, { method: 'POST', headers: auth, body: stream, duplex: 'half' })
    expect(streamed.status).toBe(413)
    expect(await streamed.json()).toEqual(tooLarge)
    // the limit itself is read: the charge is refused for what it says, not for its size
    const at = await fetch(url, { method: 'POST', headers: auth, body: bodyOf(MiB) })
    expect(at.status).toBe(422)
    expect((await at.json()).message).toBe('Invalid request data')
  })

  it.each([
    [['start', '--port', 'abc'], /--port must be a whole number/],
    [['start', '--bogus'], /unknown option '--bogus'/],
    [['start', '--secret-key', 'sk_live_123'], /live keys are never accepted/],
    [['start', '--encryption-key', 'short'], /must be 32 bytes/],
    [['start', '--scenarios', '/nonexistent/pack.yaml'], /\/nonexistent\/pack\.yaml/],
    [['start', '--merchants', '/nonexistent/merchants.yaml'], /merchants file/],
  ])('refuses %j with one line and exit code 2', async (args, pattern) => {
    const r = await runCli(args as string[])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(pattern)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('refuses a SANDBOX_COMPACT_MIN_BYTES that is not a byte count in range, naming it', async () => {
    for (const value of ['abc', '10']) {
      const r = await runCli(['start', '--port', '0'], undefined, { SANDBOX_COMPACT_MIN_BYTES: value })
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/SANDBOX_COMPACT_MIN_BYTES must be a whole number from 1024 to 1073741824/)
    }
  })

  it('refuses a bad scenario pack naming the file, the entry and the reason', async () => {
    const { r } = await refusedAtStart('--scenarios', 'pack.yaml', 'cards:\n  - number: "12ab"\n    scheme: visa\n    cvv: "123"\n    expiry_month: "09"\n    expiry_year: "30"\n    outcome: success\n    label: bad\n')
    expect(r.stderr).toContain('cards.0.number')
    // checked before the socket opens: no ready line
    expect(r.stdout).not.toContain('paysandbox listening')
  })

  it('says in plain words what a pack field should be, by its path, never zod\'s own "expected string, received undefined"', async () => {
    const pack = tempFile('pack.yaml')
    writeFileSync(pack, 'settings:\n  opening_balance: lots\ncards:\n  - number: "4111111111111111"\n    scheme: visa\n    cvv: "123"\n    expiry_month: "09"\n    expiry_year: "30"\n    outcome: success\nwallets: {}\n')
    const r = await runCli(['start', '--port', '0', '--scenarios', pack])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`sandbox: ${pack}: settings.opening_balance: must be a number; cards.0.label: is required; wallets: must be an array\n`)
  })

  it('refuses a corrupt data file without overwriting it', async () => {
    const { file } = await refusedAtStart('--data', undefined, '{"not": json')
    expect(readFileSync(file, 'utf8')).toBe('{"not": json')
  })

  it('refuses a port already in use with a clear line', async () => {
    running = await startCli([])
    const port = new URL(running.url).port
    const r = await runCli(['start', '--port', port])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('already in use')
  })

  it('encrypts and decrypts through stdin and stdout', async () => {
    const payload = JSON.stringify(cardPayload('4084127883172787'))
    const enc = await runCli(['encrypt'], payload)
    expect(enc.code).toBe(0)
    expect(enc.stdout.trim()).toMatch(/^[0-9a-f]{32}:[0-9a-f]+:[0-9a-f]{32}$/)
    const dec = await runCli(['decrypt'], enc.stdout)
    expect(dec.code).toBe(0)
    expect(JSON.parse(dec.stdout)).toEqual(JSON.parse(payload))
    const bad = await runCli(['decrypt', '--key', 'another-encryption-key-123456789'], enc.stdout)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('Unable to decrypt charge data')
  })

  it('prints the magic values as a table and as JSON', async () => {
    const table = await runCli(['magic'])
    expect(table.code).toBe(0)
    expect(table.stdout).toContain('4084127883172787')
    expect(table.stdout).toContain('\nCheckout Standard\n')
    expect(table.stdout).toContain('POST /_sandbox/checkouts/<reference>/pay')
    // the payout utilities and the stablecoin wallets, as the CLI prints them
    expect(table.stdout).toContain('payout-payment-purpose-by-country-code/<country>')
    expect(table.stdout).toContain('GET /merchant/api/v1/crypto/wallets/<reference>')
    expect(table.stdout).toContain('\nPool accounts\nPOST /merchant/api/v1/pool-accounts {"customer_name", "customer_email"')
    const json = await runCli(['magic', '--json'])
    const data = JSON.parse(json.stdout)
    expect(data.cards.find((c: any) => c.number === '5188513618552975')).toMatchObject({ scheme: 'mastercard', steps: ['PIN'], pin: '1234', outcome: 'success' })
  })
})

describe('a polled charge over a real socket (the kept answer, as the CLI serves it)', () => {
  it('answers every poll alike and journals each while nothing changes, then answers anew once the clock moves', async () => {
    running = await startCli([])
    const url = running.url
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) })
      return { status: res.status, text: await res.text() }
    }
    // a clock that stands still: every poll below falls on the same millisecond
    expect((await call('POST', '/_sandbox/clock/freeze', { frozen: true })).status).toBe(200)
    const payload = cardPayload('4084127883172787')
    expect((await chargeOver(url, payload)).body.data.status).toBe('success')
    const path = `/merchant/api/v1/charges/${payload.reference}`
    const polls = await Promise.all(Array.from({ length: 5 }, () => call('GET', path)))
    expect(polls.map((p) => p.status)).toEqual([200, 200, 200, 200, 200])
    expect(new Set(polls.map((p) => p.text)).size).toBe(1)
    const first = JSON.parse(polls[0].text)
    expect(first.data).toMatchObject({ reference: payload.reference, status: 'success', settled: false })
    const journal = JSON.parse((await call('GET', `/_sandbox/requests?method=GET&path=${encodeURIComponent(path)}`)).text).data
    expect(journal.map((e: { status: number; response: unknown }) => [e.status, e.response])).toEqual(Array.from({ length: 5 }, () => [200, first]))

    // a day later on the namespace clock the charge has settled (the default pack: 24 h after success)
    expect((await call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 + 1 })).status).toBe(200)
    expect(JSON.parse((await call('GET', path)).text).data).toMatchObject({ reference: payload.reference, settled: true })
  })
})

describe('answers handed over at the end of each event-loop turn (src/http/answer-batch.ts), over a real socket', () => {
  /** Writes `raw` on one connection and reads `count` answers (Content-Length framed) off it. */
  const exchange = (url: string, raw: string, count: number) =>
    new Promise<{ status: number; body: any }[]>((resolve, reject) => {
      const { hostname, port } = new URL(url)
      const socket = connect(Number(port), hostname, () => socket.write(raw))
      let buf = Buffer.alloc(0)
      const answers: { status: number; body: any }[] = []
      socket.on('data', (d: Buffer) => {
        buf = Buffer.concat([buf, d])
        for (;;) {
          const end = buf.indexOf('\r\n\r\n')
          if (end < 0) break
          const head = buf.subarray(0, end).toString('latin1')
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? NaN)
          if (buf.length < end + 4 + length) break
          answers.push({ status: Number(head.split(' ')[1]), body: JSON.parse(buf.subarray(end + 4, end + 4 + length).toString('utf8')) })
          buf = buf.subarray(end + 4 + length)
        }
        if (answers.length === count) {
          socket.end()
          resolve(answers)
        }
      })
      socket.on('error', reject)
    })

  it('answers requests pipelined on one connection in their order, each with its own answer', async () => {
    running = await startCli([])
    const payloads = [0, 1, 2].map(() => cardPayload('4084127883172787'))
    for (const p of payloads) expect((await chargeOver(running.url, p)).body.data.status).toBe('success')
    const get = (reference: string) => `GET /merchant/api/v1/charges/${reference}?n=1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${SECRET}\r\n\r\n`
    // one write: the three requests are read, and answered, in the same turn
    const answers = await exchange(running.url, [...payloads.map((p) => get(p.reference)), get('no-such-charge')].join(''), 4)
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 404])
    expect(answers.slice(0, 3).map((a) => a.body.data.reference)).toEqual(payloads.map((p) => p.reference))
    expect(answers[3].body).toEqual({ status: false, message: 'Charge not found', data: null })
  })

  it('answers a long poll (?wait=, docs/behaviour.md#control-api) in the turn its event is recorded, after other answers have left', async () => {
    running = await startCli([])
    const url = running.url
    const payload = cardPayload('4084127883172787')
    const events = `${url}/_sandbox/events?reference=${payload.reference}`
    expect((await (await fetch(events, { headers: auth })).json()).data).toEqual([])
    // the poll's answer is not ready at the end of its turn: it must leave in a later one
    let settled = false
    const poll = fetch(`${events}&wait=20000`, { headers: auth }).then((r) => {
      settled = true
      return r.json() as Promise<any>
    })
    // other answers leave while the poll waits (batches of later turns)
    expect((await (await fetch(events, { headers: auth })).json()).data).toEqual([])
    expect(settled).toBe(false)
    expect((await chargeOver(url, payload)).body.data.status).toBe('success')
    const answered = await poll
    expect(answered.status).toBe(true)
    expect(answered.data.map((e: any) => [e.event, e.data.payment_reference])).toEqual([['charge.success', payload.reference]])
  })

  it('gives each of many concurrent connections the answer to its own request', async () => {
    running = await startCli([])
    const url = running.url
    const payloads = Array.from({ length: 24 }, (_, i) => cardPayload(i % 2 ? '4084127883172787' : '5399838383838381', { amount: 100 + i }))
    const results = await Promise.all(
      payloads.map((p) => {
        const body = JSON.stringify({ charge_data: encryptChargeData(p, ENC_KEY) })
        const raw = `POST /merchant/api/v1/charges/card HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${SECRET}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
        return exchange(url, raw, 1).then(([a]) => a)
      }),
    )
    results.forEach((r, i) => {
      expect(r.status).toBe(200)
      expect(r.body.data).toMatchObject({ payment_reference: payloads[i].reference, amount: payloads[i].amount, status: 'success' })
    })
  })
})

describe("the V8 flags sandbox start sets for its own process", () => {
  it('lets the old generation grow 1.5x, and on one CPU scavenges without helper threads', () => {
    expect(v8Tuning('', 1)).toEqual(['--heap-growing-percent=50', '--no-parallel-scavenge'])
    expect(v8Tuning('', 2)).toEqual(['--heap-growing-percent=50'])
    expect(v8Tuning('', 8)).toEqual(['--heap-growing-percent=50'])
  })

  it('leaves a flag node was started with alone (a node flag or NODE_OPTIONS)', () => {
    expect(v8Tuning('--heap-growing-percent=30', 1)).toEqual(['--no-parallel-scavenge'])
    expect(v8Tuning('--max-old-space-size=512 --parallel-scavenge', 1)).toEqual(['--heap-growing-percent=50'])
    expect(v8Tuning('--heap_growing_percent=80 --no-parallel_scavenge', 1)).toEqual([])
  })
})

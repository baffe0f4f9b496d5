import { request } from 'node:http'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { expandFlowPaths } from '../../src/replay/cli.js'
import { durableState, parseDoc } from '../../src/store/recovery.js'
import { ENC_KEY, SECRET, tempFile } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { killedAfterEach, runCli, startCli } from './process.js'

/**
 * docs/behaviour.md#seed-and-clock-start: two real CLI processes under one seed, sent the same requests in the same
 * order, give the same bytes: answers, webhook bodies and signatures, journals, the data file.
 * Only the addresses the caller chose differ between the two runs (the sandbox's port, the ports
 * of the receivers the test and the replayed flows listen on); they are replaced by a name before
 * comparing. The test's own calls wait for each delivery before the next call, so the data file's
 * appends come in the same order: its bytes are compared. A shipped flow does not always wait
 * (webhooks-retry advances the clock while an attempt is out), so after the flows the file may
 * hold the same changes in another order of appends: the records it holds are compared.
 */

const { running, cleanups } = killedAfterEach()

interface Answer {
  status: number
  text: string
}

/** One call, its answer's bytes as they came; `Host` names no port, so the URLs handed out name none. */
function call(base: string, method: string, path: string, body?: unknown, key: string | null = SECRET): Promise<Answer> {
  const url = new URL(path, base)
  const payload = body === undefined ? undefined : JSON.stringify(body)
  const headers: Record<string, string> = { host: 'sandbox.test' }
  if (key) headers.authorization = `Bearer ${key}`
  if (payload) headers['content-type'] = 'application/json'
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path: url.pathname + url.search, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end(payload)
  })
}

const card = (number: string, reference: string) => ({
  charge_data: encryptChargeData(
    { reference, card: { number, cvv: '123', expiry_month: '09', expiry_year: '30' }, amount: 1000, currency: 'NGN', customer: { email: 'buyer@example.com', name: 'Ada Buyer' } },
    ENC_KEY,
  ),
})

interface Run {
  answers: string[]
  webhooks: string[]
  replay: string
  journals: string
  /** the data file's bytes after the test's own calls */
  data: string
  /** the records the data file holds after the flows too, each collection's keys in order */
  records: string
}

/** A data file's records, as a restart would read them, namespaces, collections and keys sorted. */
function recordsOf(file: string, text: string): string {
  const state = durableState(parseDoc(file, text))
  const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]))
  return JSON.stringify(sorted(Object.fromEntries(Object.entries(state).map(([n, cols]) => [n, sorted(Object.fromEntries(Object.entries(cols).map(([c, recs]) => [c, sorted(recs)])))]))))
}

/** The addresses of one run, each replaced by a name of its own. */
function named(text: string, addresses: Map<string, string>): string {
  let out = text
  for (const [address, name] of addresses) out = out.replaceAll(address, name)
  return out
}

/**
 * Starts the CLI under `flags`, sends the calls below one after the other, replays every shipped
 * flow against it, reads every namespace's journal, stops it and reads its data file.
 */
async function run(flags: string[]): Promise<Run> {
  const receiver = await startReceiver()
  cleanups.push(() => receiver.close())
  const data = tempFile('seeded.json')
  const cli = await startCli([...flags, '--data', data, '--webhook-url', receiver.url])
  running.push(cli)
  const base = cli.url
  const answers: Answer[] = []
  const send = async (method: string, path: string, body?: unknown, key?: string | null) => {
    const a = await call(base, method, path, body, key)
    answers.push(a)
    return a
  }
  /** the n-th delivery, then its event marked delivered in the store (and so in the file) */
  const delivered = async (n: number, reference: string) => {
    await receiver.waitFor(n)
    await send('GET', `/_sandbox/events?reference=${reference}&status=delivered&wait=5000`)
  }

  await send('POST', '/merchant/api/v1/charges/card', card('4084127883172787', 'seed-card-1'))
  await delivered(1, 'seed-card-1')
  await send('GET', '/merchant/api/v1/charges/seed-card-1')
  await send('POST', '/merchant/api/v1/charges/card', card('5188513618552975', 'seed-card-pin'))
  await send('POST', '/merchant/api/v1/charges/bank-transfer', { reference: 'seed-transfer', amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada Buyer' } })
  await send('POST', '/merchant/api/v1/charges/initialize', { reference: 'seed-checkout', amount: 2500, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada Buyer' } })
  await send('POST', '/_sandbox/clock/advance', { seconds: 121 })
  await delivered(2, 'seed-transfer')
  await send('POST', '/_sandbox/faults', { kind: 'error', path: '/merchant/api/v1/charges/*', method: 'GET', times: 1 })
  await send('GET', '/merchant/api/v1/charges/seed-transfer')
  await send('GET', '/merchant/api/v1/pay-ins')
  await send('GET', '/_sandbox/clock')
  const direct = readFileSync(data, 'utf8')

  const replay = await runCli(['replay', 'scenarios/flows', '--base-url', base, '--seed', '42', '--concurrency', '1'])
  expect(replay.code, replay.stdout + replay.stderr).toBe(0)

  const keys = [SECRET, ...new Set(readFileSync(data, 'utf8').match(/sk_test_flow_[a-z0-9]{10}/g))].sort()
  // the default namespace and one per shipped flow
  expect(keys.length).toBe(1 + expandFlowPaths(['scenarios/flows']).length)
  const journals: string[] = []
  for (const key of keys) journals.push((await call(base, 'GET', '/_sandbox/requests?limit=1000', undefined, key)).text)

  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(0)

  // the addresses this run's caller chose: the sandbox's, its receiver's, the replayed flows' receivers'
  const addresses = new Map<string, string>([
    [new URL(base).host, 'SANDBOX'],
    [`127.0.0.1:${receiver.port}`, 'RECEIVER'],
  ])
  const fileText = readFileSync(data, 'utf8')
  for (const [i, address] of [...new Set(fileText.match(/127\.0\.0\.1:\d+/g))].filter((a) => !addresses.has(a)).entries()) addresses.set(address, `FLOW_RECEIVER_${i}`)
  return {
    answers: answers.map((a) => named(`${a.status} ${a.text}`, addresses)),
    webhooks: receiver.received.map((r) => `${r.headers['x-korapay-signature']} ${r.raw}`),
    replay: replay.stdout,
    journals: named(journals.join('\n'), addresses),
    data: named(direct, addresses),
    records: named(recordsOf(data, fileText), addresses),
  }
}

describe('--seed: a run repeats byte for byte (docs/behaviour.md#seed-and-clock-start)', () => {
  it('gives two processes under one seed the same answers, webhooks, journals, replayed flows and data file', async () => {
    const first = await run(['--seed', '42'])
    const second = await run(['--seed', '42'])
    expect(first.answers.length).toBe(12)
    expect(second.answers).toEqual(first.answers)
    expect(first.webhooks.length).toBe(2)
    expect(second.webhooks).toEqual(first.webhooks)
    expect(second.replay).toBe(first.replay)
    expect(second.journals).toBe(first.journals)
    expect(second.data).toBe(first.data)
    expect(second.records).toBe(first.records)
    // every date is the namespace clock's, which started at the default clock start
    expect(first.answers.join('\n')).toContain('"2026-01-01T00:00:00.000Z"')
    expect(first.answers.at(-1)).toContain('"2026-01-01T00:02:01.000Z"')
  }, 120_000)

  it('starts the clocks at --clock-start, and without a seed two runs differ', async () => {
    const at = async (flags: string[]) => {
      const cli = await startCli(flags)
      running.push(cli)
      const charge = JSON.parse((await call(cli.url, 'POST', '/merchant/api/v1/charges/card', card('4084127883172787', 'same-reference'))).text)
      const clock = JSON.parse((await call(cli.url, 'GET', '/_sandbox/clock')).text)
      return { reference: charge.data.transaction_reference as string, clock: clock.data }
    }
    const seeded = await at(['--seed', '7', '--clock-start', '2030-06-01T12:00:00+01:00'])
    expect(seeded.clock).toMatchObject({ now: '2030-06-01T11:00:00.000Z', frozen: true })
    expect((await at(['--seed', '7'])).reference).toBe(seeded.reference)
    expect((await at(['--seed', '8'])).reference).not.toBe(seeded.reference)
    const plain = [await at([]), await at([])]
    expect(plain[0].reference).not.toBe(plain[1].reference)
    expect(plain[0].clock.frozen).toBe(false)
  }, 60_000)

  it('takes --seed on replay and verify as on start, and refuses a bad one with exit code 2', async () => {
    const verify = await runCli(['verify', 'scenarios/flows/card-pin.yaml', '--seed', '42', '--format', 'json'])
    expect(verify.code, verify.stderr).toBe(0)
    expect(JSON.parse(verify.stdout)).toMatchObject({ flows: 1, differences: [] })
    for (const command of ['replay', 'verify']) {
      const bad = await runCli([command, 'scenarios/flows/card-pin.yaml', '--seed', 'x'])
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain('--seed must be a whole number')
    }
    const late = await runCli(['replay', 'scenarios/flows/card-pin.yaml', '--seed', '1', '--clock-start', 'tomorrow'])
    expect(late.code).toBe(2)
    expect(late.stderr).toContain('--clock-start must be an ISO 8601 time with its zone')
  }, 60_000)
})

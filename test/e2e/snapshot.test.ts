import { once } from 'node:events'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, tempFile } from '../helpers/sandbox.js'
import { api, killedAfterEach, runCli, startCli } from './process.js'
import { virtualAccountBody } from '../helpers/bodies.js'

/**
 * docs/behaviour.md#snapshots on the real CLI: `sandbox snapshot` against a running sandbox, the same
 * calls under one seed giving the same snapshot byte for byte in two runs, `--load` restoring a
 * file under its key before the ready line, with `--data` too, and a bad file refused by name.
 */

const { running } = killedAfterEach()
const KEY = 'sk_test_snapshot_e2e'

/** The same calls, in the same order: a funding, a card charge, a payout, a virtual account credited. */
async function calls(url: string) {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await api(url, KEY, method, path, body)
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200)
    return res.body.data
  }
  await ok('POST', '/_sandbox/balances/fund', { currency: 'KES', amount: 1200 })
  const payload = { reference: 'e2e-snap-card-1', card: { number: '4084127883172787', cvv: '123', expiry_month: '09', expiry_year: '30' }, amount: 1000, currency: 'NGN', customer: { email: 'buyer@example.com', name: 'Ada Buyer' } }
  expect((await ok('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(payload, ENC_KEY) })).status).toBe('success')
  await ok('POST', '/merchant/api/v1/transactions/disburse', { reference: 'e2e-snap-payout-1', destination: { type: 'bank_account', amount: 1000, currency: 'NGN', narration: 'Salary', bank_account: { bank: '033', account: '0000000000' }, customer: { name: 'Ada Payee', email: 'ada@example.com' } } })
  const account = await ok('POST', '/merchant/api/v1/virtual-bank-account', virtualAccountBody('e2e-snap-va-1'))
  await ok('POST', '/merchant/api/v1/virtual-bank-account/sandbox/credit', { account_number: account.account_number, amount: 700, currency: 'NGN' })
  await ok('POST', '/_sandbox/clock/advance', { seconds: 30 })
}

/** `sandbox snapshot` of KEY from the sandbox at `url` into a new file: its text. */
async function snapshotOf(url: string): Promise<{ file: string; text: string }> {
  const file = tempFile('namespace.snapshot.json')
  const res = await runCli(['snapshot', '--key', KEY, '--base-url', url, '--output', file])
  expect([res.code, res.stderr]).toEqual([0, ''])
  return { file, text: readFileSync(file, 'utf8') }
}

describe('sandbox snapshot and --load (docs/behaviour.md#snapshots)', () => {
  it('under --seed, the same calls in two runs give the same snapshot, byte for byte', async () => {
    const texts: string[] = []
    for (const run of [1, 2]) {
      const sb = await startCli(['--seed', '11', '--clock-start', '2030-06-01T09:00:00Z'])
      running.push(sb)
      await calls(sb.url)
      texts.push((await snapshotOf(sb.url)).text)
      // taken twice from the same run: the same too
      if (run === 2) texts.push((await snapshotOf(sb.url)).text)
    }
    expect(texts[0]).toContain('"now": "2030-06-01T09:00:30.000Z"')
    expect(texts[0]).toMatch(new RegExp(`^\\{\\n {2}"paysandbox": 5,\\n {2}"key": "sk_test_snapshot_e2e",\\n`))
    expect(texts[0].endsWith('}\n')).toBe(true)
    expect(texts[1]).toBe(texts[0])
    expect(texts[2]).toBe(texts[0])
  })

  it('--load restores a snapshot under its key before the ready line; with --data it is in the file, and a restart keeps it', async () => {
    const a = await startCli([])
    running.push(a)
    await calls(a.url)
    const { file } = await snapshotOf(a.url)
    const taken = JSON.parse(readFileSync(file, 'utf8'))
    const reads = async (url: string) => ({
      balances: (await api(url, KEY, 'GET', '/merchant/api/v1/balances')).body,
      charge: (await api(url, KEY, 'GET', '/merchant/api/v1/charges/e2e-snap-card-1')).body,
      payout: (await api(url, KEY, 'GET', '/merchant/api/v1/transactions/e2e-snap-payout-1')).body,
      account: (await api(url, KEY, 'GET', '/merchant/api/v1/virtual-bank-account/e2e-snap-va-1')).body,
    })
    const expected = await reads(a.url)
    expect(expected.charge.data.status).toBe('success')

    const data = tempFile('data.json')
    const b = await startCli(['--load', file, '--data', data])
    running.push(b)
    // the first call after the ready line already sees it
    expect(await reads(b.url)).toEqual(expected)
    expect(readFileSync(data, 'utf8')).toContain('e2e-snap-payout-1')
    b.child.kill('SIGTERM')
    expect(await b.exited).toBe(0)

    const c = await startCli(['--data', data])
    running.push(c)
    expect(await reads(c.url)).toEqual(expected)
    const again = (await api(c.url, KEY, 'GET', '/_sandbox/snapshot')).body.data
    expect(again.records).toEqual(taken.records)
  })

  it('SANDBOX_LOAD takes the files comma-separated', async () => {
    const fixture = new URL('../fixtures/funded.snapshot.json', import.meta.url).pathname
    // a second one, of another key, funded in KES
    const other = JSON.parse(readFileSync(fixture, 'utf8'))
    other.key = other.records.meta.ns.secret_key = 'sk_test_suite_two'
    other.records.meta.ns.public_key = 'pk_test_suite_two'
    for (const entry of Object.values(other.records.ledger) as { currency: string }[]) entry.currency = 'KES'
    const second = tempFile('second.snapshot.json')
    writeFileSync(second, JSON.stringify(other))
    const a = await startCli([], { SANDBOX_LOAD: `${fixture},${second}` })
    running.push(a)
    // the banner says what each file put, in which namespace
    expect(a.stdout()).toContain(`  loaded:         ${fixture} into sk_test_suite: 13 records (dd_authorizations 7, ledger 1, timers 5)\n`)
    expect(a.stdout()).toContain(`  loaded:         ${second} into sk_test_suite_two: 13 records (dd_authorizations 7, ledger 1, timers 5)\n`)
    const one = (await api(a.url, 'sk_test_suite', 'GET', '/merchant/api/v1/balances')).body.data
    const two = (await api(a.url, 'sk_test_suite_two', 'GET', '/merchant/api/v1/balances')).body.data
    expect([one.GHS.available_balance, one.KES.available_balance]).toEqual([5_000_250.5, 5_000_000])
    expect([two.GHS.available_balance, two.KES.available_balance]).toEqual([5_000_000, 5_000_250.5])
  })

  it('a bad snapshot stops the start, naming the file and the field, exit 2, and no data file is made or changed', async () => {
    const bad = tempFile('bad.snapshot.json')
    const fixture = JSON.parse(readFileSync(new URL('../fixtures/funded.snapshot.json', import.meta.url), 'utf8'))
    fixture.records.ledger[Object.keys(fixture.records.ledger)[0]].amount = 'lots'
    writeFileSync(bad, JSON.stringify(fixture))
    const data = tempFile('data.json')
    const res = await runCli(['start', '--port', '0', '--load', bad, '--data', data])
    const entry = Object.keys(fixture.records.ledger)[0]
    expect(res.code).toBe(2)
    expect(res.stderr).toBe(`sandbox: cannot load the snapshot ${bad}: records.ledger.${entry}.amount: must be a whole number of minor units, 0 to 5000000000000000\n`)
    expect(res.stdout).not.toContain('listening')
    expect(existsSync(data)).toBe(false)

    // a data file already there is left byte for byte as it was
    const good = await startCli(['--data', data])
    running.push(good)
    await api(good.url, KEY, 'POST', '/_sandbox/balances/fund', { currency: 'KES', amount: 5 })
    good.child.kill('SIGTERM')
    await good.exited
    const before = readFileSync(data, 'utf8')
    const mtime = statSync(data).mtimeMs
    const again = await runCli(['start', '--port', '0', '--load', bad, '--data', data])
    expect(again.code).toBe(2)
    expect(readFileSync(data, 'utf8')).toBe(before)
    expect(statSync(data).mtimeMs).toBe(mtime)

    const missing = await runCli(['start', '--port', '0', '--load', `${bad}.nowhere`])
    expect([missing.code, missing.stderr]).toEqual([2, `sandbox: cannot load the snapshot ${bad}.nowhere: snapshot: cannot read file (ENOENT)\n`])
  })

  it('sandbox snapshot says so when no sandbox answers, exit 1, and writes no file', async () => {
    const file = tempFile('none.json')
    const res = await runCli(['snapshot', '--base-url', 'http://127.0.0.1:1', '--output', file])
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/^sandbox: cannot reach http:\/\/127\.0\.0\.1:1: /)
    expect(existsSync(file)).toBe(false)
  })

  it('sandbox snapshot refuses a live key before it calls anything, exit 2, from --key or SANDBOX_SECRET_KEY', async () => {
    // what stands for a sandbox: it counts the requests that reach it
    let reached = 0
    const server = createServer((_req, res) => {
      reached++
      res.end()
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const file = tempFile('live.json')
      for (const [args, env] of [[['--key', 'sk_live_abc'], {}], [[], { SANDBOX_SECRET_KEY: 'sk_live_abc' }]] as const) {
        const res = await runCli(['snapshot', ...args, '--base-url', base, '--output', file], undefined, env)
        expect([res.code, res.stderr]).toEqual([2, 'sandbox: --key live keys are never accepted by the sandbox\n'])
      }
      expect(reached).toBe(0)
      expect(existsSync(file)).toBe(false)
    } finally {
      server.close()
    }
  })
})

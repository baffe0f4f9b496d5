import { copyFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MSG } from '../../src/messages.js'
import { tempFile } from '../helpers/sandbox.js'
// @ts-expect-error: plain JavaScript shared with make.mjs, which runs with the old build
import { KEY, runProbes } from '../fixtures/ledger-v1/probes.mjs'
import { answers, probesNow, readAsThen } from '../helpers/ledger-v1.js'
import { killedAfterEach, startCli, type RunningCli } from './process.js'

/**
 * Settings and files as the real CLI reads them, where the unit tests build the app in-process:
 * an on/off variable spelled off, and a data file of format 1 opened by `sandbox start --data`
 * (docs/behaviour.md#flags-and-environment, docs/behaviour.md#persistence).
 */

const { running } = killedAfterEach()

async function start(args: string[], env: Record<string, string> = {}): Promise<RunningCli> {
  const cli = await startCli(args, env)
  running.push(cli)
  return cli
}

function caller(cli: RunningCli, key: string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(cli.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as any }
  }
}

describe('the CLI reads an on/off variable (docs/behaviour.md#flags-and-environment)', () => {
  it('SANDBOX_STRICT_KEYS=0 leaves any test key accepted; =1 refuses a key no merchant was given', async () => {
    const banks = '/merchant/api/v1/misc/banks?countryCode=NG'
    const off = await start(['--secret-key', 'sk_test_configured'], { SANDBOX_STRICT_KEYS: '0' })
    expect((await caller(off, 'sk_test_stranger')('GET', banks)).status).toBe(200)
    const on = await start(['--secret-key', 'sk_test_configured'], { SANDBOX_STRICT_KEYS: '1' })
    const refused = await caller(on, 'sk_test_stranger')('GET', banks)
    expect(refused.status).toBe(401)
    expect(refused.body.message).toBe(MSG.INVALID_KEY)
    expect((await caller(on, 'sk_test_configured')('GET', banks)).status).toBe(200)
  })
})

describe('sandbox start --data with a file of format 1 (docs/behaviour.md#persistence, docs/behaviour.md#ledger-and-balances)', () => {
  it('answers the money as the build that wrote it did, accepts and refuses the same calls, and keeps it across a restart', async () => {
    const fixture = new URL('../fixtures/ledger-v1/', import.meta.url)
    const file = tempFile()
    copyFileSync(new URL('data.json', fixture), file)

    const first = await start(['--data', file])
    const call = caller(first, KEY)
    expect(await readAsThen(call)).toEqual(answers.before)
    expect(await runProbes(call)).toEqual(probesNow)
    expect(await readAsThen(call)).toEqual(answers.after)
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)

    const again = await start(['--data', file])
    expect(await readAsThen(caller(again, KEY))).toEqual(answers.after)
  })
})

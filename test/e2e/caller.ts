import { expect } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { NO_AUTH_CARD } from '../helpers/cards.js'
import { ENC_KEY, SECRET, cardPayload, tempFile } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { api, type killedAfterEach, type RunningCli } from './process.js'

/**
 * A JSON caller of the sandbox at `url` with the default secret key: the method, the path and the
 * body (sent as JSON when given), answering the status and the parsed body.
 */
export function caller(url: string, timeoutMs = 10_000) {
  return (method: string, path: string, body?: unknown) => api(url, SECRET, method, path, body, timeoutMs)
}

/**
 * `sandbox start` as a process and a webhook receiver, both undone after the test through the
 * lists of `killedAfterEach`: the CLI, a caller of it and the receiver.
 */
export async function cliWithReceiver(undo: ReturnType<typeof killedAfterEach>, args: string[] = []) {
  const cli = await undo.spawnCli(args)
  const rx = await startReceiver()
  undo.cleanups.push(() => rx.close())
  return { cli, call: caller(cli.url), rx }
}

/**
 * `sandbox start --data` over a fresh file (through killedAfterEach's `spawnCli`), its clock frozen:
 * the file to restart on, the CLI and a caller of it (`timeoutMs` a call).
 */
export async function frozenWithData(spawnCli: (args: string[]) => Promise<RunningCli>, timeoutMs = 10_000) {
  const file = tempFile()
  const cli = await spawnCli(['--data', file])
  const call = caller(cli.url, timeoutMs)
  expect((await call('POST', '/_sandbox/clock/freeze', { frozen: true })).status).toBe(200)
  return { file, cli, call }
}

/**
 * A timed card charge: `charge(url, key, payload?)` posts the payload (a no-authentication card's
 * unless given) encrypted with the default encryption key, expects 200 within `timeoutMs`, and
 * answers how long the whole answer took, in ms.
 */
export function timedCharges(timeoutMs: number) {
  return async (url: string, key: string, payload = cardPayload(NO_AUTH_CARD)): Promise<number> => {
    const t0 = performance.now()
    const res = await fetch(`${url}/merchant/api/v1/charges/card`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ charge_data: encryptChargeData(payload, ENC_KEY) }),
      signal: AbortSignal.timeout(timeoutMs),
    })
    await res.arrayBuffer()
    expect(res.status).toBe(200)
    return performance.now() - t0
  }
}

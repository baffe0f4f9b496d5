import { afterEach, describe, expect, it } from 'vitest'
import { freePort, runCli, startCli, type RunningCli } from './process.js'

/** `sandbox health` (docs/behaviour.md 0.9), the container image's HEALTHCHECK, against a real CLI. */

let running: RunningCli | undefined
afterEach(async () => {
  running?.child.kill('SIGTERM')
  await running?.exited
  running = undefined
})

describe('sandbox health', () => {
  it('exits 0 for a running sandbox found by SANDBOX_PORT, or by --url', async () => {
    running = await startCli(['--host', '0.0.0.0'])
    const port = new URL(running.url).port
    // SANDBOX_HOST 0.0.0.0 (the image's): asked on loopback
    expect(await runCli(['health'], '', { SANDBOX_PORT: port, SANDBOX_HOST: '0.0.0.0' })).toMatchObject({ code: 0, stderr: '' })
    expect(await runCli(['health', '--url', `http://127.0.0.1:${port}/`])).toMatchObject({ code: 0, stderr: '' })
  })

  it('exits 1 with one line when nothing answers, and 2 for a bad SANDBOX_PORT', async () => {
    const port = await freePort()
    const none = await runCli(['health'], '', { SANDBOX_PORT: String(port), SANDBOX_HOST: '' })
    expect(none).toMatchObject({ code: 1, stderr: `sandbox: http://127.0.0.1:${port}/_sandbox/health did not answer (ECONNREFUSED)\n` })
    const bad = await runCli(['health'], '', { SANDBOX_PORT: 'abc' })
    expect(bad).toMatchObject({ code: 2, stderr: 'sandbox: --port must be a whole number from 0 to 65535 (got abc)\n' })
  })
})

import { existsSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort, runCli, startCli, type RunningCli } from './process.js'
import { tempCaDir } from './reach.js'

/** `sandbox health` (docs/behaviour.md#container-image), the container image's HEALTHCHECK, against a real CLI. */

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

/** Whether something accepts a connection on `port` of loopback now. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
  })

describe('the health check tells the truth (docs/behaviour.md#container-image)', () => {
  it('with --tls --proxy on a fresh CA directory: 503 with the envelope until the TLS and proxy ports listen and ca.pem is written, then 200', async () => {
    const [port, tlsPort, proxyPort] = [await freePort(), await freePort(), await freePort()]
    const caDir = tempCaDir()
    const started = startCli(['--port', String(port), '--tls', '--tls-port', String(tlsPort), '--proxy', '--proxy-port', String(proxyPort), '--ca-dir', caDir])
    let failed: unknown
    started.then((r) => (running = r), (e) => (failed = e))
    const seen = new Set<string>()
    for (;;) {
      if (failed) throw failed
      const res = await fetch(`http://127.0.0.1:${port}/_sandbox/health`).catch(() => undefined)
      if (!res) continue
      const body = (await res.json()) as { status: boolean; message: string }
      if (res.status === 200) break
      seen.add(`${res.status} ${JSON.stringify(body)}`)
    }
    // the first 200: every port asked for listens, the CA is written
    expect(existsSync(join(caDir, 'ca.pem'))).toBe(true)
    expect(await accepts(tlsPort)).toBe(true)
    expect(await accepts(proxyPort)).toBe(true)
    // anything before it was the starting answer
    for (const answer of seen) expect(answer).toBe('503 {"status":false,"message":"paysandbox is starting: not every port it was asked to open listens yet","data":null}')
    running = await started
  })
})

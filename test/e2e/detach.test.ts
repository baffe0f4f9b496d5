import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BIN, gone, runCli } from './process.js'

/** Runs the built CLI to completion in `cwd`. */
function runIn(cwd: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })))
}

/** live (non-zombie) processes whose command line holds `marker` */
function processesWith(marker: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker) && !gone(Number(entry))) found.push(Number(entry))
    } catch {
      /* exited meanwhile */
    }
  }
  return found
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'paysandbox-detach-'))
const started: number[] = []

afterEach(() => {
  // a failed test must not leave a server behind
  for (const pid of started.splice(0)) {
    if (!gone(pid)) process.kill(pid, 'SIGKILL')
  }
})

describe('sandbox start --detach and sandbox stop (real processes)', () => {
  it('returns once ready, leaves the server answering, and stop ends it', async () => {
    const dir = tempDir()
    const pidFile = join(dir, 'ci.pid')
    const start = await runCli(['start', '--detach', '--port', '0', '--pid-file', pidFile, '--strict-keys', '--secret-key', 'sk_test_detached'])
    expect(start.stderr).toBe('')
    expect(start.code).toBe(0)
    expect(start.stdout.match(/paysandbox listening on/g)).toHaveLength(1)
    expect(start.stdout.trimEnd().split('\n').pop()).toMatch(/^paysandbox listening on http:\/\/127\.0\.0\.1:\d+$/)
    expect(start.stdout).toContain('sk_test_detached')

    const info = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; url: string; log: string }
    started.push(info.pid)
    expect(info.url).toBe(/paysandbox listening on (\S+)/.exec(start.stdout)![1])
    expect(info.pid).not.toBe(undefined)
    expect(gone(info.pid)).toBe(false)
    expect(info.log).toBe(join(dir, 'ci.log'))
    // no --tls, no --proxy: no https, proxy or ca field
    expect(Object.keys(info).sort()).toEqual(['log', 'pid', 'url'])

    const health = await fetch(`${info.url}/_sandbox/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ status: true, data: { version: expect.any(String) } })
    // the flags reached the detached server: --strict-keys with its own key
    const own = await fetch(`${info.url}/_sandbox/clock`, { headers: { authorization: 'Bearer sk_test_detached' } })
    expect(own.status).toBe(200)
    const other = await fetch(`${info.url}/_sandbox/clock`, { headers: { authorization: 'Bearer sk_test_someone_else' } })
    expect(other.status).toBe(401)

    // a second start on the same pid file refuses rather than orphaning the first
    const again = await runCli(['start', '--detach', '--port', '0', '--pid-file', pidFile])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already running/)

    const stop = await runCli(['stop', '--pid-file', pidFile])
    expect(stop.stderr).toBe('')
    expect(stop.code).toBe(0)
    expect(gone(info.pid)).toBe(true)
    expect(existsSync(pidFile)).toBe(false)
    await expect(fetch(`${info.url}/_sandbox/health`)).rejects.toThrow()
    // SIGTERM let it shut down cleanly: its log ends with the ready line, no error after it
    expect(readFileSync(info.log, 'utf8').trimEnd().split('\n').pop()).toMatch(/^paysandbox listening on/)

    const stopAgain = await runCli(['stop', '--pid-file', pidFile])
    expect(stopAgain.code).toBe(1)
    expect(stopAgain.stderr.trim().split('\n')).toHaveLength(1)
    expect(stopAgain.stderr).toMatch(/no pid file/)
  })

  it('uses .sandbox.pid in the working directory by default', async () => {
    const dir = tempDir()
    const start = await runIn(dir, ['start', '--detach', '--port', '0'])
    expect(start.code).toBe(0)
    const info = JSON.parse(readFileSync(join(dir, '.sandbox.pid'), 'utf8')) as { pid: number; url: string }
    started.push(info.pid)
    expect((await fetch(`${info.url}/_sandbox/health`)).status).toBe(200)
    expect(existsSync(join(dir, '.sandbox.log'))).toBe(true)

    const stop = await runIn(dir, ['stop'])
    expect(stop.code).toBe(0)
    expect(stop.stdout).toContain(`pid ${info.pid}`)
    expect(gone(info.pid)).toBe(true)
    expect(existsSync(join(dir, '.sandbox.pid'))).toBe(false)
    expect((await runIn(dir, ['stop'])).code).toBe(1)
  })

  it('with a bad flag value, exits 2 with the server\'s message, leaving no process and no pid file', async () => {
    const dir = tempDir()
    const marker = `sk_test_marker${process.pid}${Date.now()}`
    const res = await runIn(dir, ['start', '--detach', '--port', 'not-a-port', '--secret-key', marker])
    expect(res.code).toBe(2)
    expect(res.stderr).toMatch(/--port must be a whole number/)
    expect(res.stdout).not.toContain('listening')
    expect(existsSync(join(dir, '.sandbox.pid'))).toBe(false)
    expect(processesWith(marker)).toEqual([])
  })

  it('with an unknown flag, exits 2 before starting anything', async () => {
    const dir = tempDir()
    const res = await runIn(dir, ['start', '--detach', '--no-such-flag'])
    expect(res.code).toBe(2)
    expect(res.stderr).toMatch(/unknown option '--no-such-flag'/)
    expect(readdirSync(dir)).toEqual([])
  })

  it('stop on a stale pid file says so in one line, removes it and exits 1', async () => {
    const dir = tempDir()
    const pidFile = join(dir, 'stale.pid')
    // a pid that has certainly ended: a process we ran to completion
    const done = spawn(process.execPath, ['-e', '0'])
    await new Promise((r) => done.on('exit', r))
    const { writeFileSync } = await import('node:fs')
    writeFileSync(pidFile, JSON.stringify({ pid: done.pid, url: 'http://127.0.0.1:1' }))
    const res = await runCli(['stop', '--pid-file', pidFile])
    expect(res.code).toBe(1)
    expect(res.stderr.trim().split('\n')).toHaveLength(1)
    expect(res.stderr).toMatch(/stale pid file/)
    expect(existsSync(pidFile)).toBe(false)
  })

  it('prints an Examples section in the help of start and stop', async () => {
    for (const cmd of ['start', 'stop']) {
      const res = await runCli([cmd, '--help'])
      expect(res.code).toBe(0)
      expect(res.stdout).toContain('Examples:')
    }
    expect((await runCli(['start', '--help'])).stdout).toMatch(/--detach[\s\S]*--pid-file/)
  })
})

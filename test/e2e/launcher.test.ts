import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { BIN, endInput, gone, runCli } from './process.js'
import { tempFile } from '../helpers/sandbox.js'

/**
 * A foreground `sandbox start` stops when the process that launched it goes away
 * (docs/behaviour.md#detach-and-stop): npm's `sh -c` wrapper killed, the launcher above a wrapper that stays
 * (`npx sandbox start &` then `kill $!`), or the shell of a CI step ending. Real processes, a real port; every
 * wait is bounded polling on the real event (the port refusing connections, the process ending).
 */

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`
const SERVER = `${q(process.execPath)} ${q(BIN)} start --port 0`

/** The pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1')
    s.on('connect', () => {
      s.destroy()
      resolve(false)
    })
    s.on('error', () => resolve(true))
  })

/** Polls `check` every 50 ms until it holds; the time it took, or Infinity past `ms`. */
async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<number> {
  const t0 = Date.now()
  while (Date.now() - t0 <= ms) {
    if (await check()) return Date.now() - t0
    await new Promise((r) => setTimeout(r, 50))
  }
  return Infinity
}

const launched: ChildProcess[] = []
const servers: number[] = []
afterEach(() => {
  for (const pid of servers.splice(0)) if (!gone(pid)) process.kill(pid, 'SIGKILL')
  for (const c of launched.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
})

/** Runs `script` with sh; resolves once the server under it prints its ready line. */
function launch(script: string): Promise<{ sh: ChildProcess; url: string; port: number; out: () => string }> {
  // stdin is a pipe the test holds open: a script may wait on it (`read`) until the test ends it
  const sh = spawn('sh', ['-c', script], { stdio: ['pipe', 'pipe', 'pipe'] })
  launched.push(sh)
  let out = ''
  sh.stderr!.on('data', (d: Buffer) => (out += d.toString()))
  return new Promise((resolve, reject) => {
    sh.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /paysandbox listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve({ sh, url: m[1], port: Number(new URL(m[1]).port), out: () => out })
    })
    sh.on('exit', () => reject(new Error(`exited before ready: ${out}`)))
  })
}

/** The node server somewhere under `pid`: node running the CLI (a wrapper's command line names it too). */
function serverUnder(pid: number): number {
  for (const c of childrenOf(pid)) {
    const [exe, script] = readFileSync(`/proc/${c}/cmdline`, 'utf8').split('\0')
    if (exe === process.execPath && script === BIN) return c
    const below = serverUnder(c)
    if (below) return below
  }
  return 0
}

describe('a foreground sandbox stops when its launcher goes away (real processes)', () => {
  it('the sh -c wrapper it runs under killed with SIGKILL: the port closes within 3 s and the server ends', async () => {
    // `; exit $?` keeps sh from handing its process over to node: sh stays as the wrapper
    const { sh, port, out } = await launch(`${SERVER}; exit $?`)
    const server = serverUnder(sh.pid!)
    expect(server).toBeGreaterThan(0)
    servers.push(server)
    expect(await refuses(port)).toBe(false)
    sh.kill('SIGKILL')
    const closed = await within(5_000, () => refuses(port))
    expect(closed, 'the port still answers 5 s after the wrapper was killed').toBeLessThan(5_000)
    expect(await within(5_000, () => gone(server))).toBeLessThan(5_000)
    expect(out()).toMatch(/the process that launched it \(pid \d+\) has exited: stopping/)
  })

  it('npm killed above a wrapper that stays (npx sandbox start &, then kill $!): the port closes within 3 s', async () => {
    // the outer sh stands for npm, the inner one for its `sh -c` wrapper, which survives it
    const { sh, port } = await launch(`sh -c ${q(`${SERVER}; exit $?`)}; exit $?`)
    const server = serverUnder(sh.pid!)
    expect(server).toBeGreaterThan(0)
    servers.push(server)
    const wrapper = childrenOf(sh.pid!)[0]
    sh.kill('SIGKILL')
    expect(await within(5_000, () => refuses(port)), 'the port still answers 5 s after the launcher was killed').toBeLessThan(5_000)
    expect(await within(5_000, () => gone(server))).toBeLessThan(5_000)
    // and the wrapper ends with it
    expect(await within(5_000, () => gone(wrapper))).toBeLessThan(5_000)
  })

  it('the shell of a CI step ending normally above npm and its wrapper (a step that ran npx sandbox start &): the port closes within 3 s', async () => {
    // step shell -> "npm" (sh that waits) -> its sh -c wrapper -> the server; the step ends when its stdin does
    const npm = `sh -c ${q(`${SERVER}; exit $?`)}; exit $?`
    const { sh, port } = await launch(`sh -c ${q(npm)} & read line; exit 0`)
    const server = serverUnder(sh.pid!)
    expect(server).toBeGreaterThan(0)
    servers.push(server)
    const stepEnded = new Promise<number | null>((resolve) => sh.on('exit', resolve))
    endInput(sh.stdin)
    expect(await stepEnded).toBe(0)
    expect(await within(5_000, () => refuses(port)), 'the port still answers 5 s after the step ended').toBeLessThan(5_000)
    expect(await within(5_000, () => gone(server))).toBeLessThan(5_000)
  })

  it('--no-exit-with-parent: the server keeps answering well past the watch interval after its wrapper is killed', async () => {
    const { sh, port, url } = await launch(`${SERVER} --no-exit-with-parent; exit $?`)
    const server = serverUnder(sh.pid!)
    servers.push(server)
    sh.kill('SIGKILL')
    // the real event first: the server has been reparented
    expect(await within(5_000, () => readFileSync(`/proc/${server}/stat`, 'utf8').split(') ')[1].split(' ')[1] !== String(sh.pid))).toBeLessThan(5_000)
    // then four watch intervals (500 ms) of answers
    const t0 = Date.now()
    while (Date.now() - t0 < 2_000) expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200)
    expect(await refuses(port)).toBe(false)
  })

  it('SIGTERM and SIGINT to the server itself still stop it with exit code 0', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const { sh, port } = await launch(`${SERVER}; echo "exit=$?"`)
      const server = serverUnder(sh.pid!)
      servers.push(server)
      process.kill(server, signal)
      const code = await new Promise<number | null>((resolve) => sh.on('exit', resolve))
      expect(code).toBe(0)
      expect(await refuses(port)).toBe(true)
    }
  })

  it('--detach still outlives its launcher: the server answers well past the watch interval after start --detach has exited', async () => {
    const pidFile = tempFile('.pid')
    const start = await runCli(['start', '--detach', '--port', '0', '--pid-file', pidFile])
    expect(start.code, start.stderr).toBe(0)
    const info = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; url: string }
    servers.push(info.pid)
    // its launcher (the start --detach process) has exited: four watch intervals (500 ms) of answers
    const t0 = Date.now()
    while (Date.now() - t0 < 2_000) expect((await fetch(`${info.url}/_sandbox/health`)).status).toBe(200)
    expect(gone(info.pid)).toBe(false)
    const stop = await runCli(['stop', '--pid-file', pidFile])
    expect(stop.code, stop.stderr).toBe(0)
    expect(gone(info.pid)).toBe(true)
  })
})

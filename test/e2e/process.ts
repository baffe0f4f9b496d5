import { spawn, type ChildProcess } from 'node:child_process'
import type { Writable } from 'node:stream'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { tempFile } from '../helpers/sandbox.js'

export const BIN = fileURLToPath(new URL('../../bin/sandbox.js', import.meta.url))

export interface RunningCli {
  child: ChildProcess
  url: string
  stdout: () => string
  stderr: () => string
  /** resolves with the exit code */
  exited: Promise<number | null>
}

/**
 * Spawns `command` and resolves once its stdout prints a line `ready` matches (its first group is
 * the URL it listens on); rejects if it exits before.
 */
export function spawnUntilListening(name: string, command: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<RunningCli> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = ready.exec(out)
      if (m) resolve({ child, url: m[1], stdout: () => out, stderr: () => err, exited })
    })
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    void exited.then((code) => reject(new Error(`${name} exited with ${code} before ready: ${err}`)))
  })
}

/** Spawns `sandbox start ...` and resolves once the ready line is printed. */
export function startCli(args: string[], env: Record<string, string> = {}): Promise<RunningCli> {
  return spawnUntilListening('sandbox', process.execPath, [BIN, 'start', '--port', '0', ...args], env, /paysandbox listening on (http:\/\/\S+)/)
}

/**
 * Ends a child's stdin with `input`. A child may exit without reading its input (a refused
 * command, a program that reads nothing): the write then fails with EPIPE on the pipe, which
 * would be an unhandled error, failing a run whose tests all passed. The child's exit code and
 * output say what happened; the pipe's error is not the test's.
 */
export function endInput(stdin: Writable | null, input = ''): void {
  if (!stdin) return
  stdin.on('error', () => {})
  stdin.end(input)
}

/** Runs the CLI to completion. */
export function runCli(args: string[], input?: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  endInput(child.stdin, input)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

/** A JSON call with `key` to the sandbox at `base`; the body parsed (or the text, for HTML). */
export async function api(base: string, key: string, method: string, path: string, body?: unknown, timeoutMs?: number): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
  })
  const text = await res.text()
  try {
    return { status: res.status, body: JSON.parse(text) }
  } catch {
    return { status: res.status, body: text }
  }
}

/** A process's resident set size, in MB (Linux: /proc). */
export function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])
  return kb / 1024
}

/**
 * Whether the process is gone. The detached server is an orphan once `start --detach` exits, and
 * this machine's init does not reap orphans: an exited one lingers as a zombie, which
 * `process.kill(pid, 0)` still finds. A zombie has ended: it counts as gone.
 */
export function gone(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return true
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return true
  }
}

/**
 * `sandbox start` given `flag` and a file `name` holding `text`, refused at start: exit code 2,
 * the file named in what it says. Answers the file and the run, for what else the test checks.
 */
export async function refusedAtStart(flag: string, name: string | undefined, text: string) {
  const file = tempFile(name)
  writeFileSync(file, text)
  const r = await runCli(['start', '--port', '0', flag, file])
  expect(r.code).toBe(2)
  expect(r.stderr).toContain(file)
  return { file, r }
}

/**
 * What a test file's tests start and must undo: each CLI process pushed to `running` is killed
 * after its test, then each function pushed to `cleanups` runs, last first. `spawnCli` starts the
 * CLI (startCli) and pushes it to `running`.
 */
export function killedAfterEach(): {
  running: RunningCli[]
  cleanups: (() => Promise<unknown> | unknown)[]
  spawnCli(args: string[], env?: Record<string, string>): Promise<RunningCli>
} {
  const running: RunningCli[] = []
  const cleanups: (() => Promise<unknown> | unknown)[] = []
  afterEach(async () => {
    for (const r of running.splice(0)) {
      if (r.child.exitCode === null && r.child.signalCode === null) {
        r.child.kill('SIGKILL')
        await r.exited
      }
    }
    while (cleanups.length) await cleanups.pop()!()
  })
  async function spawnCli(args: string[], env: Record<string, string> = {}): Promise<RunningCli> {
    const cli = await startCli(args, env)
    running.push(cli)
    return cli
  }
  return { running, cleanups, spawnCli }
}

/**
 * The CLI (`sandbox start` with `args`) for a whole test file: started before its tests, ended
 * (SIGTERM) after them. `running` and its `port` are read once it has started.
 */
export function cliPerFile(args: string[] = []): { readonly running: RunningCli; readonly port: number } {
  let started: RunningCli | undefined
  beforeAll(async () => {
    started = await startCli(args)
  })
  afterAll(async () => {
    if (started && started.child.exitCode === null) {
      started.child.kill('SIGTERM')
      await started.exited
    }
  })
  return {
    get running() {
      if (!started) throw new Error('the CLI has not started: read it from a test or a later beforeAll')
      return started
    },
    get port() {
      return Number(new URL(this.running.url).port)
    },
  }
}

/** A port nothing listens on now: one the system gave out on loopback and took back. */
export async function freePort(): Promise<number> {
  const srv = createServer()
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
  const port = (srv.address() as { port: number }).port
  await new Promise<void>((r) => srv.close(() => r()))
  return port
}

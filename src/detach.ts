import { spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'

/**
 * `sandbox start --detach` and `sandbox stop` (docs/behaviour.md#product): the server runs as a detached
 * child whose output goes to a log file beside the pid file; the pid file (JSON `{pid, url, log}`)
 * is written once the child has printed its ready line (with `https`, `proxy` and `ca` when its
 * banner printed them), and `stop` ends the process it names.
 */

export const DEFAULT_PID_FILE = '.sandbox.pid'
/** how long start --detach waits for the ready line */
const READY_TIMEOUT_MS = 30_000
/** how long stop waits after SIGTERM before SIGKILL */
const STOP_TIMEOUT_MS = 10_000
const READY = /paysandbox listening on (http:\/\/\S+)/
/** the other lines of the server's banner (src/cli.ts) a later step needs, by their field in the pid file */
const BANNER = {
  https: /^paysandbox https on (https:\/\/\S+)$/m,
  proxy: /^paysandbox proxy on (http:\/\/\S+)$/m,
  ca: /^ {2}CA certificate: (.+) \(intercepting /m,
} as const

const BIN = fileURLToPath(new URL('../bin/sandbox.js', import.meta.url))

export interface PidFile {
  pid: number
  url: string
  log?: string
  /** with --tls: the HTTPS URL */
  https?: string
  /** with --proxy: the proxy's URL */
  proxy?: string
  /** with --tls or --proxy: the local CA's certificate */
  ca?: string
}

/** The pid file's fields the banner printed before the ready line gives (absent when not printed). */
function bannerFields(banner: string): Pick<PidFile, keyof typeof BANNER> {
  const fields: Pick<PidFile, keyof typeof BANNER> = {}
  for (const [field, line] of Object.entries(BANNER) as [keyof typeof BANNER, RegExp][]) {
    const value = line.exec(banner)?.[1]
    if (value !== undefined) fields[field] = value
  }
  return fields
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `.sandbox.pid` -> `.sandbox.log` */
export function logFileFor(pidFile: string): string {
  return pidFile.endsWith('.pid') ? `${pidFile.slice(0, -4)}.log` : `${pidFile}.log`
}

/**
 * Whether `pid` is a live paysandbox process. A zombie (exited, not yet reaped: orphans are
 * reparented to an init that may never reap them) counts as gone, and so does a pid that was
 * reused by another program.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sandbox')) return false
  } catch {
    /* no /proc (macOS): kill(pid, 0) is all we have */
  }
  return true
}

export function readPidFile(file: string): PidFile | 'missing' | 'invalid' {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing'
    return 'invalid'
  }
  try {
    const data = JSON.parse(text) as PidFile
    if (Number.isInteger(data.pid) && data.pid > 0 && typeof data.url === 'string') return data
  } catch {
    /* below */
  }
  return 'invalid'
}

/** The flags given on the command line, minus --detach and --pid-file, to hand to the child. */
function forwardedArgs(cmd: Command): string[] {
  const args: string[] = []
  for (const opt of cmd.options) {
    const key = opt.attributeName()
    if (key === 'detach' || key === 'pidFile' || !opt.long) continue
    // values from the environment reach the child through its environment
    if (cmd.getOptionValueSource(key) !== 'cli') continue
    const value: unknown = cmd.getOptionValue(key)
    if (value === true) args.push(opt.long)
    else if (Array.isArray(value)) for (const v of value) args.push(`${opt.long}=${String(v)}`)
    else if (value !== undefined && value !== false) args.push(`${opt.long}=${String(value)}`)
  }
  return args
}

/**
 * Starts the server in the background and returns the exit code for the CLI: 0 once it is
 * ready (the pid file written), the child's own code when it fails to start.
 */
export async function startDetached(cmd: Command, pidFileOption: string = DEFAULT_PID_FILE): Promise<number> {
  const pidFile = resolve(pidFileOption)
  const existing = readPidFile(pidFile)
  if (typeof existing === 'object' && isRunning(existing.pid)) {
    process.stderr.write(`sandbox: already running (pid ${existing.pid}, ${existing.url}) per ${pidFileOption}: run sandbox stop first\n`)
    return 1
  }
  const log = logFileFor(pidFile)
  const fd = openSync(log, 'w')
  // the child outlives this process by design: it must not stop when its launcher goes away
  const child = spawn(process.execPath, [BIN, 'start', '--no-exit-with-parent', ...forwardedArgs(cmd)], {
    detached: true,
    stdio: ['ignore', fd, fd],
    cwd: process.cwd(),
    env: process.env,
  })
  closeSync(fd)
  const state: { exit?: { code: number | null }; error?: Error } = {}
  child.on('exit', (code) => (state.exit = { code }))
  child.on('error', (e) => (state.error = e))

  const deadline = Date.now() + READY_TIMEOUT_MS
  const output = () => {
    try {
      return readFileSync(log, 'utf8')
    } catch {
      return ''
    }
  }
  for (;;) {
    const text = output()
    const ready = READY.exec(text)
    if (ready && isRunning(child.pid!)) {
      const url = ready[1]
      const banner = text.slice(0, ready.index)
      const tmp = `${pidFile}.${process.pid}.tmp`
      writeFileSync(tmp, JSON.stringify({ pid: child.pid!, url, log, ...bannerFields(banner) } satisfies PidFile) + '\n')
      renameSync(tmp, pidFile)
      child.unref()
      process.stdout.write(banner)
      process.stdout.write(`  pid:            ${child.pid} (pid file ${pidFileOption}, log ${logFileFor(pidFileOption)})\n`)
      process.stdout.write(`paysandbox listening on ${url}\n`)
      return 0
    }
    if (state.error || state.exit) {
      // let the last lines reach the file
      await sleep(20)
      const code = state.exit?.code
      const out = output().trim()
      process.stderr.write(out ? `${out}\n` : `sandbox: the server could not start${state.error ? `: ${state.error.message}` : ''}\n`)
      rmSync(log, { force: true })
      return code === null || code === undefined || code === 0 ? 1 : code
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      process.stderr.write(`${output().trim()}\nsandbox: the server did not print its ready line within ${READY_TIMEOUT_MS / 1000} s; stopped it\n`)
      return 1
    }
    await sleep(25)
  }
}

/** Ends the server named by the pid file; returns the exit code for the CLI. */
export async function stopDetached(pidFileOption: string = DEFAULT_PID_FILE): Promise<number> {
  const pidFile = resolve(pidFileOption)
  const info = readPidFile(pidFile)
  if (info === 'missing') {
    process.stderr.write(`sandbox: no pid file at ${pidFileOption}: nothing to stop (sandbox start --detach writes it)\n`)
    return 1
  }
  if (info === 'invalid') {
    process.stderr.write(`sandbox: ${pidFileOption} is not a paysandbox pid file (expected JSON {pid, url})\n`)
    return 1
  }
  if (!isRunning(info.pid)) {
    rmSync(pidFile, { force: true })
    process.stderr.write(`sandbox: no sandbox is running as pid ${info.pid} (stale pid file ${pidFileOption}, removed)\n`)
    return 1
  }
  try {
    process.kill(info.pid, 'SIGTERM')
  } catch (e) {
    process.stderr.write(`sandbox: cannot signal pid ${info.pid}: ${(e as NodeJS.ErrnoException).code}\n`)
    return 1
  }
  const gone = async (ms: number) => {
    const until = Date.now() + ms
    while (isRunning(info.pid)) {
      if (Date.now() > until) return false
      await sleep(25)
    }
    return true
  }
  if (!(await gone(STOP_TIMEOUT_MS))) {
    process.stderr.write(`sandbox: pid ${info.pid} did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM; sending SIGKILL\n`)
    try {
      process.kill(info.pid, 'SIGKILL')
    } catch {
      /* gone meanwhile */
    }
    if (!(await gone(2_000))) {
      process.stderr.write(`sandbox: pid ${info.pid} is still running\n`)
      return 1
    }
  }
  rmSync(pidFile, { force: true })
  process.stdout.write(`paysandbox stopped (pid ${info.pid}, ${info.url})\n`)
  return 0
}

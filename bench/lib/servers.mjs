// The servers the benchmarks measure, as real child processes: paysandbox (`bin/sandbox.js start`,
// of this checkout or of another build) and the bare Hono yardstick (bench/bare.mjs; `burn`: the
// same made to cost a given CPU time per card charge). Where `taskset` exists and there are two
// cores or more, the servers run on core 0 and the process that loads them pins itself to core 1.
// Every server still running when this process exits is killed. Also the plain HTTP requests the
// bench makes outside a load run, and a free port. Loopback addresses only.
import { spawn } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { SECRET } from './bodies.mjs'
import { BENCH, ROOT, sh } from './util.mjs'

export const HOST = '127.0.0.1'
const CLI = path.join(ROOT, 'bin', 'sandbox.js')
const BARE = path.join(BENCH, 'bare.mjs')

let pinned = false

/**
 * Pins this process (all its threads: V8's and libuv's too) to core 1, so that the servers it
 * starts from now on go to core 0. `machine`: machineInfo(), read before this call (its nproc
 * counts the CPUs this process may use). Returns whether it pinned.
 */
export function pinSelf(machine) {
  pinned = process.platform === 'linux' && machine.taskset && machine.nproc >= 2 && sh('taskset', ['-a', '-p', '-c', '1', String(process.pid)]) !== null
  return pinned
}

export const isPinned = () => pinned

const children = new Set()
const alsoOurs = new Set()
/** This process, every server it runs and the processes `countAsOurs` adds: what is not theirs is "other" load on the machine. */
export const ourPids = () => [process.pid, ...[...children].map((c) => c.pid).filter(Boolean), ...[...alsoOurs].flatMap((f) => f())]
/** Processes the bench did not spawn but runs (a database): `pids()` lists them at each look. */
export const countAsOurs = (pids) => alsoOurs.add(pids)

function childEnv(kind, more) {
  const env = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SANDBOX_') && k !== 'NODE_OPTIONS') env[k] = v
  // BENCH_SANDBOX_ENV="SANDBOX_HOT_RECORDS=8 ...": environment for paysandbox only (trying settings)
  if (kind === 'sandbox') {
    for (const pair of (process.env.BENCH_SANDBOX_ENV ?? '').split(' ').filter(Boolean)) {
      const eq = pair.indexOf('=')
      if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1)
    }
  }
  return { ...env, ...more }
}

/**
 * Spawns a server (pinned to core 0 once pinSelf() has pinned this process) listening on `port`
 * (0: any). `args`: more arguments for it; `nodeFlags`: for node; `cli`: another build's
 * bin/sandbox.js; `env`: more environment. The child has `exited` (a promise of its exit code and
 * signal), `exitInfo` once it has exited, and `stderrTail`, the end of its stderr.
 */
export function spawnServer(kind, { port = 0, args = [], nodeFlags = [], cli = CLI, env = {} } = {}) {
  // BENCH_SANDBOX_ARGS: extra `sandbox start` flags (trying options)
  const more = kind === 'sandbox' && process.env.BENCH_SANDBOX_ARGS ? process.env.BENCH_SANDBOX_ARGS.split(' ').filter(Boolean) : []
  // burn: the bare server spending a given CPU time per card charge (bare.mjs --cpu-us)
  const script = kind === 'sandbox' ? [cli, 'start', '--port', String(port), '--host', HOST, ...args, ...more] : [BARE, '--port', String(port), ...args]
  // BENCH_SANDBOX_NODE_FLAGS / BENCH_BARE_NODE_FLAGS: extra node flags (trying V8 options, --trace-gc)
  const extra = (process.env[`BENCH_${kind.toUpperCase()}_NODE_FLAGS`] ?? '').split(' ').filter(Boolean)
  const full = [...extra, ...nodeFlags, ...script]
  const options = { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv(kind, env) }
  // taskset execs node: the child's pid is the server's
  const child = pinned ? spawn('taskset', ['-c', '0', process.execPath, ...full], options) : spawn(process.execPath, full, options)
  children.add(child)
  child.stderrTail = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (d) => { logOutput(kind, d); child.stderrTail = (child.stderrTail + d).slice(-4000) })
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => { children.delete(child); child.exitInfo = { code, signal }; resolve(child.exitInfo) }))
  return child
}

/** BENCH_SANDBOX_LOG / BENCH_BARE_LOG: a file that gets the server's stdout and stderr. */
function logOutput(kind, d) {
  const file = process.env[`BENCH_${kind.toUpperCase()}_LOG`]
  if (file) appendFileSync(file, d)
}

/** Starts a server (spawnServer's options) and resolves with it once its ready line is out. */
export async function startServer(kind, opts = {}) {
  const child = spawnServer(kind, opts)
  const url = await new Promise((resolve, reject) => {
    let buf = ''
    const timer = setTimeout(() => reject(new Error(`${kind} did not print its ready line within 30 s; stderr: ${child.stderrTail}`)), 30_000)
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (d) => {
      logOutput(kind, d)
      if (buf === null) return
      buf += d
      const m = /listening on (http:\/\/\S+)/.exec(buf)
      if (m) {
        buf = null
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.exited.then((e) => { clearTimeout(timer); reject(new Error(`${kind} exited before ready (${JSON.stringify(e)}); stderr: ${child.stderrTail}`)) })
  })
  child.stdout.resume()
  return { kind, child, url, pid: child.pid }
}

export async function stopServer(s, signal = 'SIGTERM', waitMs = 10_000) {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return
  s.child.kill(signal)
  const t = setTimeout(() => s.child.kill('SIGKILL'), waitMs)
  await s.child.exited
  clearTimeout(t)
}

export function assertAlive(s) {
  if (s.child.exitInfo) throw new Error(`${s.kind} died (${JSON.stringify(s.child.exitInfo)}); stderr: ${s.child.stderrTail}`)
}

export function killAll() {
  for (const c of children) {
    try { c.kill('SIGKILL') } catch { /* gone */ }
  }
}
process.on('exit', killAll)
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { killAll(); process.exit(130) })

/** One request outside a load run; resolves with its status (0: no answer) and body text. */
export function request(url, { method = 'GET', body, key = SECRET, timeoutMs = 10_000 } = {}) {
  return new Promise((resolve) => {
    const req = http.request(url, {
      method, agent: false, timeout: timeoutMs,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
    }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d) => { text += d })
      res.on('end', () => resolve({ status: res.statusCode, text }))
    })
    req.on('error', (e) => resolve({ status: 0, text: e.code ?? e.message }))
    req.on('timeout', () => req.destroy(new Error('timeout')))
    if (body) req.write(body)
    req.end()
  })
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.once('error', reject)
    srv.listen(0, HOST, () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

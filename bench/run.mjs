#!/usr/bin/env node
// paysandbox benchmark (issue 10, CONTRACT.md 12). See bench/README.md.
//
//   npm run build && npm run bench                 # the full run (about 3-4 minutes)
//   npm run bench -- --quick                        # a shorter run
//   npm run bench -- --soak 10                      # 10-minute memory soak only
//   npm run bench -- --profile                      # CPU profile of the sandbox under card charges
//
// Servers are real child processes pinned to core 0 (taskset -c 0); this process, which runs
// the load generator (load.mjs), pins itself to core 1. Only loopback addresses; every loop is
// bounded.
import { execFileSync, spawn } from 'node:child_process'
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { CardBodies, SECRET, cardBody } from './bodies.mjs'
import { runLoad } from './load.mjs'
import { LatHist, clockTicks } from './measure.mjs'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.resolve(HERE, '..')
const CLI = path.join(ROOT, 'bin', 'sandbox.js')
const BARE = path.join(HERE, 'bare.mjs')
const RESULTS = path.join(HERE, 'results')
const HOST = '127.0.0.1'
const CARD_PATH = '/merchant/api/v1/charges/card'
const MM_PATH = '/merchant/api/v1/charges/mobile-money'
const QUERY_REF = 'bench-query-00000001'
const POOL_CAP = 400_000 // pre-generated bodies at most (~200 MB); beyond, bodies are made on the fly

// ---------------------------------------------------------------------------------------------
// options

const USAGE = `usage: node bench/run.mjs [options]
  --quick               shorter run (3 s scenarios, 3 cold starts, --data levels 10k and 50k)
  --duration S          seconds per scenario (default 10)
  --data-duration S     seconds per --data level (default 5)
  --warmup S            warm-up seconds before each measured run (default 3)
  --connections N       load connections (default 10)
  --cold-runs N         cold starts per server, median taken (default 5)
  --levels A,B,C        stored charges of the --data run (default 10000,50000,100000)
  --no-data             skip the --data scaling run
  --no-burn             skip the card-charge latency reference (a bare server burning paysandbox's CPU)
  --only LIST           only these load scenarios (card,query,mm,data), side by side with bare; no cold
                        start, no table (for comparing builds while working; data: the --data run alone)
  --soak [MINUTES]      only the memory soak: card charges in memory for MINUTES (default 10)
  --soak-reset S        during the soak, reset the namespace every S seconds (default 10; 0 never)
  --profile [SCENARIO]  only a CPU profile (--cpu-prof) of the sandbox under load: card (default), query or mm
  --wait-quiet S        first wait up to S seconds for other processes to leave the CPUs (default 0)
  --report              run nothing: print the table again from bench/results/latest.json (and the
                        latest soak), and store it back there
  --out FILE            JSON results file (default bench/results/latest.json, soak-latest.json, profile-latest.json)`

function parseArgs(argv) {
  const o = {
    duration: 10, dataDuration: 5, warmup: 3, connections: 10, coldRuns: 5,
    levels: [10_000, 50_000, 100_000], data: true, burn: true, soak: null, soakReset: 10, profile: false, only: null, quick: false, out: null, waitQuiet: 0, report: false,
  }
  const num = (name, v, min, max) => {
    const n = Number(v)
    if (!Number.isFinite(n) || n < min || n > max) die(`${name} must be a number from ${min} to ${max}`)
    return n
  }
  const explicit = new Set()
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const next = () => {
      if (argv[i + 1] === undefined) die(`${a} needs a value`)
      return argv[++i]
    }
    switch (a) {
      case '--quick': o.quick = true; break
      case '--duration': o.duration = num(a, next(), 1, 600); explicit.add('duration'); break
      case '--data-duration': o.dataDuration = num(a, next(), 1, 600); explicit.add('dataDuration'); break
      case '--warmup': o.warmup = num(a, next(), 0, 60); explicit.add('warmup'); break
      case '--connections': o.connections = Math.round(num(a, next(), 1, 1000)); break
      case '--cold-runs': o.coldRuns = Math.round(num(a, next(), 1, 50)); explicit.add('coldRuns'); break
      case '--levels': o.levels = next().split(',').map((s) => Math.round(num('--levels', s, 1, 2_000_000))).sort((x, y) => x - y); explicit.add('levels'); break
      case '--no-data': o.data = false; break
      case '--no-burn': o.burn = false; break
      case '--only':
        o.only = next().split(',')
        if (!o.only.length || o.only.some((x) => !/^(card|query|mm|data)$/.test(x))) die('--only takes a list of card, query, mm, data')
        break
      case '--soak':
        o.soak = argv[i + 1] !== undefined && /^\d+(\.\d+)?$/.test(argv[i + 1]) ? num(a, argv[++i], 0.5, 240) : 10
        break
      case '--soak-reset': o.soakReset = num(a, next(), 0, 3600); break
      case '--profile':
        o.profile = argv[i + 1] && /^(card|query|mm)$/.test(argv[i + 1]) ? argv[++i] : 'card'
        break
      case '--wait-quiet': o.waitQuiet = num(a, next(), 0, 3600); break
      case '--report': o.report = true; break
      case '--out': o.out = path.resolve(next()); break
      case '-h': case '--help': process.stdout.write(USAGE + '\n'); process.exit(0)
      default: die(`unknown option ${a}\n${USAGE}`)
    }
  }
  if (o.quick) {
    if (!explicit.has('duration')) o.duration = 3
    if (!explicit.has('dataDuration')) o.dataDuration = 3
    if (!explicit.has('warmup')) o.warmup = 2
    if (!explicit.has('coldRuns')) o.coldRuns = 3
    if (!explicit.has('levels')) o.levels = [10_000, 50_000]
  }
  return o
}

function die(msg) {
  process.stderr.write(`bench: ${msg}\n`)
  process.exit(2)
}

const log = (msg) => process.stdout.write(msg + '\n')
// `npm run bench | head` closes stdout early: not an error of the bench
process.stdout.on('error', (e) => { if (e.code === 'EPIPE') { killAll(); process.exit(0) } throw e })

// ---------------------------------------------------------------------------------------------
// machine and pinning

function sh(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

let MACHINE = null

/** Read once, before this process pins itself (nproc counts the CPUs it may use). */
function machineInfo() {
  MACHINE ??= readMachine()
  return MACHINE
}

function readMachine() {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : ''
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown'
  const nproc = Number(sh('nproc', [])) || os.availableParallelism?.() || os.cpus().length
  const fs = sh('df', ['-T', os.tmpdir()])?.split('\n')[1]?.split(/\s+/)[1] ?? 'unknown'
  return {
    nproc,
    cpu: model,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    mem_gb: Math.round(os.totalmem() / 2 ** 30 * 10) / 10,
    tmp_fs: fs,
    taskset: Boolean(sh('sh', ['-c', 'command -v taskset'])),
    // what was measured: the checkout (read only) and when dist/ was built
    git_head: sh('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']),
    git_changed_files: (sh('git', ['-C', ROOT, 'status', '--porcelain']) ?? '').split('\n').filter(Boolean).length,
    dist_built: existsSync(path.join(ROOT, 'dist', 'cli.js')) ? statSync(path.join(ROOT, 'dist', 'cli.js')).mtime.toISOString() : null,
  }
}

function procStatus(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN)
    return { rss_mb: round(kb('VmRSS') / 1024, 1), hwm_mb: round(kb('VmHWM') / 1024, 1), cpus: /^Cpus_allowed_list:\s*(\S+)/m.exec(s)?.[1] ?? '?' }
  } catch {
    return { rss_mb: NaN, hwm_mb: NaN, cpus: '?' }
  }
}

/** CPU ticks: whole machine (busy, total) and per process (utime + stime). */
function cpuSnap(pids) {
  const snap = { busy: 0, total: 0, pids: {} }
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
    const [user, nice, system, idle, iowait, irq, softirq, steal] = f
    snap.busy = user + nice + system + irq + softirq + (steal ?? 0)
    snap.total = snap.busy + idle + iowait
  } catch { /* not linux */ }
  for (const pid of pids) {
    try {
      const st = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = st.slice(st.lastIndexOf(')') + 2).split(' ')
      // utime + stime, and cutime + cstime: children this process has reaped (cold-start servers)
      snap.pids[pid] = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
    } catch { /* the process is gone */ }
  }
  return snap
}

/**
 * Cores used over an interval: by each given process, and by everything else on the machine
 * (shares of the machine's ticks, which on this VM fall short of the wall time: fine for telling
 * a busy machine, not for a CPU time); `ms`: each process's CPU time in ms.
 */
function cpuUse(a, b, ncpu) {
  const perCore = (b.total - a.total) / ncpu
  if (!(perCore > 0)) return null
  const out = {}
  const ms = {}
  let ours = 0
  for (const [pid, t] of Object.entries(b.pids)) {
    const d = t - (a.pids[pid] ?? t)
    ours += d
    out[pid] = round(d / perCore, 2)
    ms[pid] = (d * 1000) / clockTicks()
  }
  out.other = round(Math.max(0, b.busy - a.busy - ours) / perCore, 2)
  Object.defineProperty(out, 'ms', { value: ms, enumerable: false })
  return out
}

let PIN = false
let NCPU = 1

function pinSelf(machine) {
  if (process.platform !== 'linux' || !machine.taskset || machine.nproc < 2) return false
  // -a: every thread of this process (V8 and libuv threads too)
  return sh('taskset', ['-a', '-p', '-c', '1', String(process.pid)]) !== null
}

// ---------------------------------------------------------------------------------------------
// request bodies

const RUN_ID = Date.now().toString(36)

function mmBody(reference) {
  return `{"reference":"${reference}","amount":100,"currency":"KES","customer":{"email":"bench@example.com","name":"Bench Customer"},"mobile_money":{"number":"254700000000"}}`
}

/**
 * Card bodies with distinct references `bench-RUN-TAG-i`: `size` made up front (so the load
 * generator only picks them), then made on the fly if a run outlasts the pool (CardBodies).
 */
class CardPool extends CardBodies {
  constructor(tag, size) {
    super(`${RUN_ID}-${tag}`, size)
  }
}

let mmSeq = 0
const nextMm = () => mmBody(`bench-mm-${RUN_ID}-${mmSeq++}`)

const poolSize = (rate, seconds, connections) => Math.min(POOL_CAP, Math.ceil((rate || 5000) * 1.5 * seconds) + 50 * connections + 1000)

// ---------------------------------------------------------------------------------------------
// child servers

const children = new Set()
/** This process and every server it runs: what is not theirs is "other" load on the machine. */
const ourPids = () => [process.pid, ...[...children].map((c) => c.pid).filter(Boolean)]

function childEnv(kind) {
  const env = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SANDBOX_') && k !== 'NODE_OPTIONS') env[k] = v
  // BENCH_SANDBOX_ENV="SANDBOX_HOT_RECORDS=8 ...": environment for paysandbox only (trying settings)
  if (kind === 'sandbox') {
    for (const pair of (process.env.BENCH_SANDBOX_ENV ?? '').split(' ').filter(Boolean)) {
      const eq = pair.indexOf('=')
      if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1)
    }
  }
  return env
}

function spawnServer(kind, { port = 0, args = [], nodeFlags = [] } = {}) {
  // BENCH_SANDBOX_ARGS: extra `sandbox start` flags (trying options)
  const more = kind === 'sandbox' && process.env.BENCH_SANDBOX_ARGS ? process.env.BENCH_SANDBOX_ARGS.split(' ').filter(Boolean) : []
  // burn: the bare server spending a given CPU time per card charge (bare.mjs --burn-us)
  const script = kind === 'sandbox' ? [CLI, 'start', '--port', String(port), '--host', HOST, ...args, ...more] : [BARE, '--port', String(port), ...args]
  // BENCH_SANDBOX_NODE_FLAGS / BENCH_BARE_NODE_FLAGS: extra node flags (trying V8 options, --trace-gc)
  const extra = (process.env[`BENCH_${kind.toUpperCase()}_NODE_FLAGS`] ?? '').split(' ').filter(Boolean)
  const full = [...extra, ...nodeFlags, ...script]
  const child = PIN
    ? spawn('taskset', ['-c', '0', process.execPath, ...full], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv(kind) })
    : spawn(process.execPath, full, { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv(kind) })
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

/** Starts a server and resolves with its URL once its ready line is out. */
async function startServer(kind, opts = {}) {
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

async function stopServer(s, signal = 'SIGTERM', waitMs = 10_000) {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return
  s.child.kill(signal)
  const t = setTimeout(() => s.child.kill('SIGKILL'), waitMs)
  await s.child.exited
  clearTimeout(t)
}

function assertAlive(s) {
  if (s.child.exitInfo) throw new Error(`${s.kind} died (${JSON.stringify(s.child.exitInfo)}); stderr: ${s.child.stderrTail}`)
}

function killAll() {
  for (const c of children) {
    try { c.kill('SIGKILL') } catch { /* gone */ }
  }
}
process.on('exit', killAll)
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { killAll(); process.exit(130) })

// ---------------------------------------------------------------------------------------------
// HTTP helpers

function request(url, { method = 'GET', body, key = SECRET, timeoutMs = 10_000 } = {}) {
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

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.once('error', reject)
    srv.listen(0, HOST, () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

// ---------------------------------------------------------------------------------------------
// load

/**
 * One load run (load.mjs). Each request's body: `nextBody()`, or `bodies`, a fixed set cycled;
 * `amount` runs a fixed number of requests instead of a duration; `maxSeconds` stops the run
 * whatever happens (by default the duration + 30 s). Returns rate (2xx answers per second),
 * latency of the 2xx answers, and error counts.
 */
async function load(server, { method = 'GET', path: p, key = SECRET, nextBody, bodies, duration, amount, connections, maxSeconds }) {
  const { url, pid: serverPid } = server
  const headers = { authorization: `Bearer ${key}` }
  if (method === 'POST') headers['content-type'] = 'application/json'
  let body = nextBody
  if (!body && bodies) {
    let i = 0
    body = () => {
      const b = bodies[i]
      i = i + 1 === bodies.length ? 0 : i + 1
      return b
    }
  }
  if (amount !== undefined) connections = Math.max(1, Math.min(connections, amount))
  const hist = new LatHist()
  const statuses = {}
  let ok = 0
  const onAnswer = (status, ms) => {
    statuses[status] = (statuses[status] ?? 0) + 1
    if (status >= 200 && status < 300) {
      ok++
      hist.record(ms)
    }
  }
  const pids = ourPids()
  const c0 = cpuSnap(pids)
  const r = await runLoad({
    url, connections, method, path: p, headers, body, onAnswer, timeout: 10,
    ...(amount !== undefined ? { amount } : { duration }),
    maxSeconds: maxSeconds ?? (duration ?? 600) + 30,
  }).catch(async (e) => {
    // a server that died in the middle of the run: say which, with the end of its stderr
    await Promise.race([server.child.exited, sleep(1000)])
    assertAlive(server)
    throw e
  })
  const use = cpuUse(c0, cpuSnap(pids), NCPU)
  const out = {
    rate: round(ok / r.seconds, 0),
    p50: hist.pct(50),
    p90: hist.pct(90),
    p99: hist.pct(99),
    max: round(hist.max, 3),
    ok,
    total: r.sent,
    seconds: round(r.seconds, 3),
    non2xx: r.answered - ok,
    errors: r.errors,
    timeouts: r.timeouts,
    resets: r.resets,
    statuses,
    // cores busy during the run: the server, this load generator, everything else on the machine
    cpu: use && {
      server: serverPid ? use[serverPid] : null,
      // the server's CPU time over the run, ms
      server_ms: serverPid ? use.ms[serverPid] ?? null : null,
      loadgen: use[process.pid],
      // our other servers, idle in principle (background work, GC threads: they share core 0)
      siblings: round(pids.filter((p) => p !== serverPid && p !== process.pid).reduce((t, p) => t + (use[p] ?? 0), 0), 2),
      other: use.other,
    },
  }
  Object.defineProperty(out, 'hist', { value: hist, enumerable: false })
  return out
}

/**
 * Runs a measurement again (at most twice more) when other processes took more than 0.3 of a
 * core during it: the machine may be shared, and a measured run must be the servers' alone.
 */
async function quietRun(label, fn) {
  let r
  const attempts = WAIT_QUIET > 0 ? 5 : 3
  for (let attempt = 0; attempt < attempts; attempt++) {
    r = await fn()
    const other = r.cpu?.other ?? 0
    r.noisy_retries = attempt
    if (other <= NOISE) return r
    const again = attempt < attempts - 1
    log(`  (${label}: other processes took ${other} cores during the run; ${again ? 'measuring again' : 'keeping this one, marked noisy'})`)
    if (again) await (WAIT_QUIET > 0 ? quiet(WAIT_QUIET) : sleep(2000))
  }
  r.noisy = true
  return r
}

const NOISE = 0.3
let WAIT_QUIET = 0

// ---------------------------------------------------------------------------------------------
// scenarios

const SCENARIOS = {
  card: { label: 'card charge', method: 'POST', path: CARD_PATH },
  query: { label: 'charge query', method: 'GET', path: `/merchant/api/v1/charges/${QUERY_REF}` },
  mm: { label: 'mobile money charge', method: 'POST', path: MM_PATH },
}

function bodyMaker(scenario, server, estRate, seconds, connections, tag) {
  // bare: it ignores the reference, so 1,000 bodies built once are cycled and the load generator
  // does as little as it can; paysandbox: a fresh reference on every request
  if (server !== 'sandbox' && scenario === 'card') return { bodies: Array.from({ length: 1000 }, (_, i) => cardBody(`bench-${RUN_ID}-bare-${i}`)), pool: null }
  if (server === 'bare' && scenario === 'mm') return { bodies: Array.from({ length: 1000 }, (_, i) => mmBody(`bench-mm-${RUN_ID}-bare-${i}`)), pool: null }
  if (scenario === 'card') {
    const pool = new CardPool(tag, poolSize(estRate, seconds, connections))
    return { next: () => pool.next(), pool }
  }
  if (scenario === 'mm') return { next: nextMm, pool: null }
  return { next: undefined, pool: null }
}

/**
 * Interleaved rounds: in each round every server in turn gets `per` seconds of the scenario's
 * load, so that all of them see the same machine (the speed of a VM drifts by tens of percent
 * from one second to the next). Returns each server's figures over all its rounds.
 */
async function interleave(o, servers, makers, sc, rounds, per, label, afterRound = null) {
  const acc = new Map()
  for (const s of servers) acc.set(s, { hist: new LatHist(), ok: 0, total: 0, seconds: 0, non2xx: 0, errors: 0, timeouts: 0, resets: 0, statuses: {}, cpu: { server: 0, loadgen: 0, siblings: 0, other: 0 }, cpu_ms: 0, round_rates: [], noisy_retries: 0, noisy: false })
  for (let i = 0; i < rounds; i++) {
    for (const s of servers) {
      await sleep(100)
      const m = makers.get(s)
      const r = await quietRun(`${label} on ${s.kind}, round ${i + 1}`, async () => {
        const r = await load(s, { method: sc.method, path: sc.path, nextBody: m.next, bodies: m.bodies, duration: per, connections: o.connections })
        if (sc.method === 'POST') s.stored += r.ok
        return r
      })
      assertAlive(s)
      await afterRound?.(s, r)
      const a = acc.get(s)
      a.hist.merge(r.hist)
      for (const k of ['ok', 'total', 'seconds', 'non2xx', 'errors', 'timeouts', 'resets', 'noisy_retries']) a[k] += r[k]
      for (const [code, n] of Object.entries(r.statuses)) a.statuses[code] = (a.statuses[code] ?? 0) + n
      if (r.cpu) {
        a.cpu_ms += r.cpu.server_ms ?? 0
        a.cpu.server += (r.cpu.server ?? 0) * r.seconds
        a.cpu.loadgen += r.cpu.loadgen * r.seconds
        a.cpu.siblings += r.cpu.siblings * r.seconds
        a.cpu.other = Math.max(a.cpu.other, r.cpu.other)
      }
      a.noisy ||= Boolean(r.noisy)
      a.round_rates.push(r.rate)
    }
  }
  const out = new Map()
  for (const s of servers) {
    const a = acc.get(s)
    out.set(s, {
      rate: round(a.ok / a.seconds, 0),
      p50: a.hist.pct(50),
      p90: a.hist.pct(90),
      p99: a.hist.pct(99),
      max: round(a.hist.max, 3),
      ok: a.ok,
      total: a.total,
      seconds: round(a.seconds, 2),
      rounds,
      round_rates: a.round_rates,
      non2xx: a.non2xx,
      errors: a.errors,
      timeouts: a.timeouts,
      resets: a.resets,
      statuses: a.statuses,
      // cores: server and load generator averaged over the rounds; other, the worst round
      cpu: { server: round(a.cpu.server / a.seconds, 2), loadgen: round(a.cpu.loadgen / a.seconds, 2), siblings: round(a.cpu.siblings / a.seconds, 2), other: a.cpu.other },
      // server CPU time per answered request (µs)
      cpu_us: a.cpu_ms && a.ok ? round((a.cpu_ms / a.ok) * 1000, 1) : null,
      noisy_retries: a.noisy_retries,
      ...(a.noisy ? { noisy: true } : {}),
      on_the_fly_bodies: makers.get(s).pool?.onTheFly ?? 0,
    })
  }
  return out
}

/** CPU time of the server per answered request, in µs (NaN without a CPU reading). */
const cpuUs = (r) => r?.cpu_us ?? (r?.cpu?.server_ms && r.ok ? round((r.cpu.server_ms / r.ok) * 1000, 1) : NaN)

/**
 * The card charge's latency reference: a bare server made to cost, per card charge, the CPU time
 * paysandbox costs (bare.mjs --cpu-us; one round of paysandbox measures it, and every measured
 * round of paysandbox sets it again), started and warmed up now. Its latency, measured in the same
 * rounds, is what this machine gives any server that costs that much per request; what
 * paysandbox's latency has beyond it is its own (garbage collection, packing records).
 */
async function startBurn(o, sb, sc) {
  const per = o.duration / Math.max(1, Math.min(10, Math.round(o.duration)))
  const s = bodyMaker('card', 'sandbox', 8000, per, o.connections, 'card-calibrate')
  const rs = await quietRun('card calibration on paysandbox', () => load(sb, { method: sc.method, path: sc.path, nextBody: s.next, duration: per, connections: o.connections }))
  sb.stored += rs.ok
  const target = cpuUs(rs)
  if (!Number.isFinite(target)) return null
  const burn = await startServer('burn', { args: ['--cpu-us', String(Math.round(target))] })
  burn.stored = 0
  const w = bodyMaker('card', 'burn', 0, o.warmup, o.connections, 'card-warm')
  await load(burn, { method: sc.method, path: sc.path, bodies: w.bodies, duration: Math.max(2, o.warmup), connections: o.connections })
  return burn
}

/**
 * One scenario on bare and paysandbox: a warm-up of each, then interleaved 1-second rounds (for
 * the card charge, with the latency reference of startBurn as a third server unless --no-burn).
 */
async function runPair(o, bare, sb, scenario) {
  const sc = SCENARIOS[scenario]
  const rounds = Math.max(1, Math.min(10, Math.round(o.duration)))
  let est = 0
  if (o.warmup > 0) {
    for (const s of [bare, sb]) {
      const w = bodyMaker(scenario, s.kind, 0, o.warmup, o.connections, `${scenario}-warm`)
      const wr = await load(s, { method: sc.method, path: sc.path, nextBody: w.next, bodies: w.bodies, duration: o.warmup, connections: o.connections })
      if (sc.method === 'POST') s.stored += wr.ok
      // the warm-up runs cold (JIT, first allocations): the measured rounds go faster, up to 4-5x
      if (s === sb) est = Math.max(2000, 5 * wr.rate)
      assertAlive(s)
    }
  }
  const burn = scenario === 'card' && o.burn ? await startBurn(o, sb, sc) : null
  try {
    const makers = new Map([
      [bare, bodyMaker(scenario, 'bare', 0, o.duration, o.connections, scenario)],
      [sb, bodyMaker(scenario, 'sandbox', est, o.duration, o.connections, scenario)],
    ])
    if (burn) makers.set(burn, bodyMaker(scenario, 'burn', 0, o.duration, o.connections, scenario))
    // after each round of paysandbox, the reference is set to cost what that round cost
    const afterRound = burn ? (s, r) => (s === sb && Number.isFinite(cpuUs(r)) ? request(`${burn.url}/_bench/cpu-us/${Math.round(cpuUs(r))}`, { method: 'PUT' }) : null) : null
    const res = await interleave(o, [...makers.keys()], makers, sc, rounds, o.duration / rounds, sc.label, afterRound)
    const out = { bare: res.get(bare), sandbox: res.get(sb) }
    out.sandbox.round_ratios = out.sandbox.round_rates.map((r, i) => round(r / out.bare.round_rates[i], 3))
    if (burn) out.burn = res.get(burn)
    await sleep(300)
    return out
  } finally {
    if (burn) await stopServer(burn)
  }
}

async function coldStarts(o) {
  const one = async (kind) => {
    const port = await freePort()
    const t0 = performance.now()
    const child = spawnServer(kind, { port })
    let readyLine = NaN
    let out = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (d) => {
      if (!Number.isNaN(readyLine)) return
      out += d
      if (/listening on/.test(out)) readyLine = performance.now() - t0
    })
    const deadline = t0 + 20_000
    let ms = NaN
    while (performance.now() < deadline) {
      const r = await request(`http://${HOST}:${port}/_sandbox/health`, { timeoutMs: 2000 })
      if (r.status === 200) { ms = performance.now() - t0; break }
      if (child.exitInfo) break
      await sleep(1)
    }
    await stopServer({ child }, 'SIGKILL')
    if (Number.isNaN(ms)) throw new Error(`${kind} never answered 200 on /_sandbox/health within 20 s; stderr: ${child.stderrTail}`)
    return { ms: round(ms, 1), ready_line_ms: round(readyLine, 1) }
  }
  // one untimed start each (file cache), then alternate
  await one('bare')
  await one('sandbox')
  let runs
  let use
  for (let attempt = 0; attempt < 3; attempt++) {
    runs = { bare: [], sandbox: [] }
    const c0 = cpuSnap([process.pid])
    for (let i = 0; i < o.coldRuns; i++) {
      runs.bare.push(await one('bare'))
      runs.sandbox.push(await one('sandbox'))
    }
    use = cpuUse(c0, cpuSnap([process.pid]), NCPU)
    if ((use?.other ?? 0) <= NOISE) break
    log(`  (cold start: other processes took ${use.other} cores; ${attempt < 2 ? 'measuring again' : 'keeping this one, marked noisy'})`)
    if (attempt < 2 && WAIT_QUIET > 0) await quiet(WAIT_QUIET)
  }
  const med = (xs) => median(xs.map((x) => x.ms))
  return {
    other_cores: use?.other ?? null,
    bare: { median_ms: med(runs.bare), runs: runs.bare },
    sandbox: { median_ms: med(runs.sandbox), runs: runs.sandbox, ready_line_median_ms: median(runs.sandbox.map((x) => x.ready_line_ms)) },
  }
}

async function dataRun(o) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'paysandbox-bench-'))
  const file = path.join(dir, 'data.json')
  const s = await startServer('sandbox', { args: ['--data', file] })
  const out = { file_fs: machineInfo().tmp_fs, levels: [] }
  let bareD = null
  try {
    // warm up in a throwaway namespace, then reset it: the measured namespace starts empty
    const warmKey = 'sk_test_benchwarmup'
    let est = 0
    if (o.warmup > 0) {
      const pool = new CardPool('data-warm', poolSize(3000, o.warmup, o.connections))
      const w = await load(s, { method: 'POST', path: CARD_PATH, key: warmKey, nextBody: () => pool.next(), duration: o.warmup, connections: o.connections })
      est = 3 * w.rate // cold warm-up: see runPair
      const reset = await request(`${s.url}/_sandbox/reset`, { method: 'POST', key: warmKey, body: '{}' })
      if (reset.status !== 200) throw new Error(`reset of the warm-up namespace answered ${reset.status}: ${reset.text}`)
    }
    s.stored = 0
    // a bare server alongside, measured in the same interleaved rounds: the yardstick of how fast
    // the machine was during each level (see interleave)
    bareD = await startServer('bare')
    bareD.stored = 0
    out.bare_pid = bareD.pid
    const bareBodies = bodyMaker('card', 'bare', 0, 0, o.connections, 'data')
    await load(bareD, { method: 'POST', path: CARD_PATH, bodies: bareBodies.bodies, duration: Math.max(1, o.warmup), connections: o.connections })
    const rounds = Math.max(1, Math.min(5, Math.round(o.dataDuration)))
    const measure = async (label) => {
      await sleep(500)
      const before = s.stored
      const pool = new CardPool(`data-${label}`, poolSize(est, o.dataDuration, o.connections))
      const makers = new Map([[bareD, bareBodies], [s, { next: () => pool.next(), pool }]])
      const res = await interleave(o, [bareD, s], makers, SCENARIOS.card, rounds, o.dataDuration / rounds, `--data ${label}`)
      const r = res.get(s)
      const b = res.get(bareD)
      const level = { label, ...r, stored_before: before, stored_after: s.stored, bare_rate: b.rate, bare_round_rates: b.round_rates, bare_cpu: b.cpu, ...(b.noisy ? { bare_noisy: true } : {}) }
      level.rss_mb = procStatus(s.pid).rss_mb
      level.file_mb = round((await stat(file)).size / 2 ** 20, 1)
      est = r.rate
      out.levels.push(level)
      log(`  --data ${label.padEnd(6)} ${fmtInt(r.rate)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  max ${round(r.max, 0)} ms  (stored ${fmtInt(before)} -> ${fmtInt(s.stored)}, RSS ${level.rss_mb} MB, file ${level.file_mb} MB)  ${fmtCpu(r.cpu)}\n         bare alongside ${fmtInt(b.rate)} req/s  ${fmtCpu(b.cpu)}`)
      return level
    }
    await measure('empty')
    // one charge with a known reference, to check the reload at the end
    const known = `bench-${RUN_ID}-data-known`
    const k = await request(`${s.url}${CARD_PATH}`, { method: 'POST', body: cardBody(known) })
    if (k.status !== 200) throw new Error(`--data: a charge answered ${k.status}: ${k.text}`)
    s.stored++
    for (const target of o.levels) {
      const need = target - s.stored
      if (need > 0) {
        const fillConnections = 50
        const fills = []
        const t0 = performance.now()
        // pools of at most 50k bodies at a time
        for (let left = need; left > 0;) {
          const n = Math.min(left, 50_000)
          const pool = new CardPool(`fill-${target}-${left}`, n)
          const f = await load(s, { method: 'POST', path: CARD_PATH, nextBody: () => pool.next(), amount: n, connections: fillConnections, maxSeconds: 600 })
          assertAlive(s)
          fills.push(f)
          s.stored += f.ok
          left -= n
          if (f.ok < n) throw new Error(`filling to ${target}: only ${f.ok} of ${n} charges accepted (${JSON.stringify(f.statuses)}, errors ${f.errors})`)
        }
        const secs = (performance.now() - t0) / 1000
        log(`  --data fill to ${fmtInt(target)}: ${fmtInt(need)} charges in ${round(secs, 1)} s (${fmtInt(need / secs)}/s at ${fillConnections} connections)`)
        out[`fill_${target}`] = { charges: need, seconds: round(secs, 1), non2xx: sum(fills, 'non2xx'), errors: sum(fills, 'errors') }
      }
      await measure(`${target / 1000}k`)
    }
    out.final = { stored: s.stored, ...procStatus(s.pid), file_mb: round((await stat(file)).size / 2 ** 20, 1) }
    await stopServer(bareD)
    const t0 = performance.now()
    await stopServer(s)
    out.final.stop_ms = round(performance.now() - t0, 0)
    // it reloads: the file holds what was acknowledged
    const t1 = performance.now()
    const again = await startServer('sandbox', { args: ['--data', file] })
    out.final.restart_ready_ms = round(performance.now() - t1, 0)
    const q = await request(`${again.url}/merchant/api/v1/charges/${known}`)
    out.final.reload_check = q.status
    await stopServer(again)
  } finally {
    if (bareD) await stopServer(bareD, 'SIGKILL').catch(() => {})
    await stopServer(s, 'SIGKILL').catch(() => {})
    await rm(dir, { recursive: true, force: true })
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// targets and table

function readSoak() {
  const f = path.join(RESULTS, 'soak-latest.json')
  try {
    return JSON.parse(readFileSync(f, 'utf8'))
  } catch {
    return null
  }
}

function evaluate(res) {
  const rows = []
  const L = res.load
  // verdicts on the exact ratio; shown with 3 decimals so a near miss does not read as a hit
  const ratio = (a, b) => (a && b ? a / b : NaN)
  const x = (r) => `${round(r, 3)}x`
  const verdict = (okay, ...runs) => (okay === null ? 'n/a' : (okay ? 'PASS' : 'FAIL') + (runs.some((r) => r?.noisy) ? ' (noisy)' : ''))
  const lat = (r) => `${r.p50} / ${r.p99}`

  const card = ratio(L.sandbox.card.rate, L.bare.card.rate)
  rows.push({ metric: 'card charge, req/s', bare: fmtInt(L.bare.card.rate), sandbox: fmtInt(L.sandbox.card.rate), ratio: x(card), target: '>= 0.35x', result: verdict(card >= 0.35, L.bare.card, L.sandbox.card) })
  rows.push({ metric: 'card charge, p50 / p99 ms', bare: lat(L.bare.card), sandbox: lat(L.sandbox.card), ratio: '', target: 'p99 <= 4 ms', result: verdict(L.sandbox.card.p99 <= 4, L.sandbox.card) })
  const burn = L.burn?.card
  if (burn) {
    // the reference: what this machine's latency is for a server costing what paysandbox costs
    rows.push({ metric: `card charge, p50 / p99 ms, of a bare server costing paysandbox's CPU per request (${burn.cpu_us} vs ${L.sandbox.card.cpu_us} µs)`, bare: lat(burn), sandbox: lat(L.sandbox.card), ratio: '', target: '(reference)', result: '' })
  }
  const q = ratio(L.sandbox.query.rate, L.bare.query.rate)
  rows.push({ metric: 'charge query, req/s', bare: fmtInt(L.bare.query.rate), sandbox: fmtInt(L.sandbox.query.rate), ratio: x(q), target: '>= 0.8x', result: verdict(q >= 0.8, L.bare.query, L.sandbox.query) })
  rows.push({ metric: 'charge query, p50 / p99 ms', bare: lat(L.bare.query), sandbox: lat(L.sandbox.query), ratio: '', target: '', result: '' })
  const mm = ratio(L.sandbox.mm.rate, L.bare.mm.rate)
  rows.push({ metric: 'mobile money charge, req/s', bare: fmtInt(L.bare.mm.rate), sandbox: fmtInt(L.sandbox.mm.rate), ratio: x(mm), target: '(none)', result: '' })
  rows.push({ metric: 'mobile money charge, p50 / p99 ms', bare: lat(L.bare.mm), sandbox: lat(L.sandbox.mm), ratio: '', target: '', result: '' })

  const all = [...Object.values(L.bare), ...Object.values(L.sandbox)]
  const errs = (rs) => `${sum(rs, 'errors') + sum(rs, 'timeouts')} / ${sum(rs, 'non2xx')}`
  const dataLevels = res.data?.levels ?? []
  const bad = sum([...all, ...dataLevels], 'errors') + sum([...all, ...dataLevels], 'timeouts') + sum([...all, ...dataLevels], 'non2xx')
  rows.push({ metric: 'errors / non-2xx (all measured runs)', bare: errs(Object.values(L.bare)), sandbox: errs([...Object.values(L.sandbox), ...dataLevels]), ratio: '', target: '0 / 0', result: bad === 0 ? 'ok' : 'INVALID' })

  const cs = res.cold_start
  const c = ratio(cs.sandbox.median_ms, cs.bare.median_ms)
  rows.push({ metric: `cold start to first 200, median of ${cs.bare.runs.length} (ms)`, bare: String(cs.bare.median_ms), sandbox: String(cs.sandbox.median_ms), ratio: x(c), target: '<= 1.5x', result: verdict(c <= 1.5, { noisy: (cs.other_cores ?? 0) > NOISE }) })
  rows.push({ metric: `RSS after the card-charge run, in memory (MB)`, bare: String(res.rss.bare.rss_mb), sandbox: `${res.rss.sandbox.rss_mb} (${fmtK(res.rss.sandbox.stored)} charges)`, ratio: x(ratio(res.rss.sandbox.rss_mb, res.rss.bare.rss_mb)), target: '', result: '' })

  const rssSamples = []
  if (res.rss.sandbox.stored >= 50_000) rssSamples.push({ where: `in memory, ${fmtK(res.rss.sandbox.stored)} stored`, mb: res.rss.sandbox.rss_mb })
  if (res.data) {
    const empty = dataLevels.find((l) => l.label === 'empty')
    for (const l of dataLevels) {
      const raw = ratio(l.rate, empty.rate)
      // against the bare server measured in the same rounds (older results have no bare_rate)
      const r = l.bare_rate && empty.bare_rate ? ratio(l.rate / l.bare_rate, empty.rate / empty.bare_rate) : raw
      const is50 = l.label === '50k'
      rows.push({
        metric: `--data card charge, ${l.label === 'empty' ? 'from empty' : `at ${l.label}`} (${fmtK(l.stored_before)} -> ${fmtK(l.stored_after)} stored) (req/s; p50 / p99 / max ms)`,
        bare: l.bare_rate ? fmtInt(l.bare_rate) : '', sandbox: `${fmtInt(l.rate)}; ${l.p50} / ${l.p99} / ${round(l.max, 0)}`,
        ratio: l.label === 'empty' ? '1x' : l.bare_rate ? `${x(r)} (raw ${x(raw)})` : x(r),
        target: is50 ? '>= 0.9x of empty' : '', result: is50 ? verdict(r >= 0.9, l, empty) : '',
      })
      if (l.stored_before >= 50_000) rssSamples.push({ where: `--data, ${fmtK(l.stored_after)} stored`, mb: l.rss_mb })
    }
    if (!dataLevels.some((l) => l.label === '50k')) rows.push({ metric: '--data card charge at 50k stored', bare: '', sandbox: 'not measured', ratio: '', target: '>= 0.9x of empty', result: 'n/a' })
  } else {
    rows.push({ metric: '--data card charge at 50k stored', bare: '', sandbox: 'skipped (--no-data)', ratio: '', target: '>= 0.9x of empty', result: 'n/a' })
  }
  if (rssSamples.length) {
    const worst = rssSamples.reduce((a, b) => (b.mb > a.mb ? b : a))
    rows.push({ metric: 'RSS with 50k+ charges stored, worst (MB)', bare: '', sandbox: `${worst.mb} (${worst.where})`, ratio: '', target: '<= 200 MB', result: verdict(worst.mb <= 200) })
  } else {
    rows.push({ metric: 'RSS with 50k+ charges stored (MB)', bare: '', sandbox: 'not measured', ratio: '', target: '<= 200 MB', result: 'n/a' })
  }
  const soak = readSoak()
  if (soak?.flat) {
    rows.push({ metric: `memory flat over a long run (soak of ${soak.minutes} min, ${soak.date.slice(0, 10)})`, bare: '', sandbox: `middle ${soak.flat.middle_mb} MB, last ${soak.flat.last_mb} MB`, ratio: `${soak.flat.growth}x`, target: 'last third <= 1.1x middle', result: verdict(soak.flat.ok) })
  } else {
    rows.push({ metric: 'memory flat over a long run', bare: '', sandbox: 'not run here (npm run bench -- --soak 10)', ratio: '', target: 'last third <= 1.1x middle', result: 'n/a' })
  }
  return rows
}

function table(rows) {
  const cols = [['metric', 'metric'], ['bare', 'bare Hono'], ['sandbox', 'paysandbox'], ['ratio', 'ratio'], ['target', 'target (CONTRACT 12)'], ['result', 'result']]
  const w = cols.map(([k, h]) => Math.max(h.length, ...rows.map((r) => String(r[k] ?? '').length)))
  const line = (cells) => '| ' + cells.map((c, i) => String(c).padEnd(w[i])).join(' | ') + ' |'
  return [line(cols.map(([, h]) => h)), '|' + w.map((n) => '-'.repeat(n + 2)).join('|') + '|', ...rows.map((r) => line(cols.map(([k]) => r[k] ?? '')))].join('\n')
}

// ---------------------------------------------------------------------------------------------
// modes

async function bench(o, machine) {
  const started = performance.now()
  const res = { date: new Date().toISOString(), machine, pinned: PIN, options: o, run_id: RUN_ID }
  log(`paysandbox bench: ${machine.nproc} cores, ${machine.cpu}, node ${machine.node}; ${PIN ? 'servers on core 0, load generator on core 1' : 'NOT pinned (no taskset or < 2 cores)'}`)
  log(`scenarios ${o.duration} s each after ${o.warmup} s warm-up, ${o.connections} connections`)

  if (!o.only) {
    log('cold start ...')
    res.cold_start = await coldStarts(o)
    log(`  bare ${res.cold_start.bare.median_ms} ms, paysandbox ${res.cold_start.sandbox.median_ms} ms (median of ${o.coldRuns})`)
  }

  // a fresh pair of servers per scenario: what one scenario leaves behind (charges, garbage, a
  // larger heap) must not slow the next one down
  res.load = { bare: {}, sandbox: {} }
  res.rss_by_scenario = {}
  for (const scenario of o.only?.filter((x) => x !== 'data') ?? ['card', 'query', 'mm']) {
    const bare = await startServer('bare')
    const sb = await startServer('sandbox')
    try {
      bare.stored = 0
      sb.stored = 0
      res.affinity ??= { bench: procStatus(process.pid).cpus, bare: procStatus(bare.pid).cpus, sandbox: procStatus(sb.pid).cpus }
      if (scenario === 'query') {
        const created = await request(`${sb.url}${CARD_PATH}`, { method: 'POST', body: cardBody(QUERY_REF) })
        if (created.status !== 200) throw new Error(`could not create the charge to query: ${created.status} ${created.text}`)
        sb.stored++
        for (const s of [bare, sb]) {
          const q = await request(`${s.url}${SCENARIOS.query.path}`)
          if (q.status !== 200) throw new Error(`${s.kind}: the charge query answered ${q.status}: ${q.text}`)
        }
      }
      const pair = await runPair(o, bare, sb, scenario)
      for (const kind of ['bare', 'sandbox']) {
        const r = pair[kind]
        res.load[kind][scenario] = r
        log(`  ${SCENARIOS[scenario].label.padEnd(20)} ${kind.padEnd(8)} ${fmtInt(r.rate).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors + r.timeouts}  ${fmtCpu(r.cpu)}  rounds ${r.round_rates.map(fmtInt).join(' ')}`)
      }
      log(`  ${''.padEnd(20)} ratio per round ${pair.sandbox.round_ratios.join(' ')}`)
      // CPU time per request: what the other tenants of a shared machine (steal) do not change
      log(`  ${''.padEnd(20)} ratio ${round(pair.sandbox.rate / pair.bare.rate, 3)}x; server CPU per request: bare ${cpuUs(pair.bare)} µs, paysandbox ${cpuUs(pair.sandbox)} µs (${round(cpuUs(pair.bare) / cpuUs(pair.sandbox), 3)}x)`)
      if (pair.burn) {
        const r = pair.burn
        res.load.burn = { [scenario]: r }
        log(`  ${''.padEnd(20)} reference: bare made to cost paysandbox's CPU per request: ${fmtInt(r.rate)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, CPU per request ${cpuUs(r)} µs  ${fmtCpu(r.cpu)}`)
      }
      await sleep(1000)
      res.rss_by_scenario[scenario] = { bare: { ...procStatus(bare.pid) }, sandbox: { ...procStatus(sb.pid), stored: sb.stored } }
    } finally {
      await stopServer(bare)
      await stopServer(sb)
    }
  }
  if (o.only) {
    for (const [scenario, r] of Object.entries(res.rss_by_scenario)) log(`  RSS after ${scenario}: bare ${r.bare.rss_mb} MB, paysandbox ${r.sandbox.rss_mb} MB (${fmtInt(r.sandbox.stored)} stored)`)
    if (o.only.includes('data')) {
      log(`--data scaling run (${o.dataDuration} s per level) ...`)
      res.data = await dataRun(o)
    }
    if (o.out) await writeJson(o.out, res)
    return res
  }
  // the card-charge run is the one that leaves the most charges behind
  res.rss = res.rss_by_scenario.card
  log(`  RSS after the card-charge run: bare ${res.rss.bare.rss_mb} MB, paysandbox ${res.rss.sandbox.rss_mb} MB with ${fmtInt(res.rss.sandbox.stored)} charges stored in memory`)

  if (o.data) {
    log(`--data scaling run (${o.dataDuration} s per level) ...`)
    res.data = await dataRun(o)
  }

  res.table = evaluate(res)
  const builtNow = statSync(path.join(ROOT, 'dist', 'cli.js')).mtime.toISOString()
  if (builtNow !== machine.dist_built) {
    res.dist_rebuilt_during_run = builtNow
    process.stderr.write(`bench: warning: dist/ was rebuilt during the run (${builtNow}): some figures may be of the newer build\n`)
  }
  const measured = [...Object.values(res.load.bare), ...Object.values(res.load.sandbox), ...(res.data?.levels ?? [])]
  res.other_cpu_max = Math.max(0, res.cold_start.other_cores ?? 0, ...measured.map((r) => r.cpu?.other ?? 0))
  res.elapsed_s = round((performance.now() - started) / 1000, 0)
  const text = table(res.table)
  log('')
  log(text)
  log('')
  log(`(${res.date}, ${res.elapsed_s} s; ratios are paysandbox / bare in this run; p50/p99 measured client-side;`)
  log(` other processes used up to ${res.other_cpu_max} cores during the measured runs${res.other_cpu_max > NOISE ? ': NOISY, rerun on a quiet machine' : ''})`)
  await mkdir(RESULTS, { recursive: true })
  const out = o.out ?? path.join(RESULTS, 'latest.json')
  await writeJson(out, res)
  log(`results: ${path.relative(process.cwd(), out) || out}`)
  return res
}

async function report(o) {
  const file = o.out ?? path.join(RESULTS, 'latest.json')
  const res = JSON.parse(await readFile(file, 'utf8'))
  res.table = evaluate(res)
  // stored first, atomically: printing may be cut short (| head)
  await writeJson(file, res)
  log(table(res.table))
  log('')
  log(`(${res.date}, ${res.elapsed_s} s; ratios are paysandbox / bare in this run; p50/p99 measured client-side;`)
  log(` other processes used up to ${res.other_cpu_max} cores during the measured runs${res.other_cpu_max > NOISE ? ': NOISY, rerun on a quiet machine' : ''})`)
}

async function soak(o) {
  const minutes = o.soak
  const seconds = Math.round(minutes * 60)
  const s = await startServer('sandbox')
  log(`soak: card charges for ${minutes} min in memory, ${o.connections} connections, RSS every 10 s${o.soakReset ? `, namespace reset every ${o.soakReset} s` : ', never reset'}`)
  const pool = new CardPool('soak', 0) // bodies made on the fly: a pool for the whole soak would not fit
  const samples = []
  let okCount = 0
  let lastOk = 0
  let lastReset = performance.now()
  const t0 = performance.now()
  let cpu0 = cpuSnap(ourPids())
  const sampler = setInterval(async () => {
    const t = round((performance.now() - t0) / 1000, 0)
    const st = procStatus(s.pid)
    const rate = Math.round((okCount - lastOk) / 10)
    lastOk = okCount
    const cpu1 = cpuSnap(ourPids())
    const use = cpuUse(cpu0, cpu1, NCPU)
    cpu0 = cpu1
    const sample = { t, rss_mb: st.rss_mb, rate, server_cores: use?.[s.pid] ?? null, other_cores: use?.other ?? null }
    samples.push(sample)
    log(`  t=${String(t).padStart(4)} s  RSS ${st.rss_mb} MB  ${fmtInt(rate).padStart(6)} req/s  [cores: server ${sample.server_cores}, other ${sample.other_cores}]`)
    if (o.soakReset && performance.now() - lastReset >= o.soakReset * 1000 - 500) {
      lastReset = performance.now()
      sample.reset = (await request(`${s.url}/_sandbox/reset`, { method: 'POST', body: '{}' })).status
      if (sample.reset !== 200) log(`  (reset answered ${sample.reset})`)
    }
  }, 10_000)
  const hist = new LatHist()
  let non2xx = 0
  const r = await runLoad({
    url: s.url, connections: o.connections, duration: seconds, maxSeconds: seconds + 60, timeout: 10,
    method: 'POST', path: CARD_PATH, headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: () => pool.next(),
    onAnswer: (status, ms) => {
      if (status >= 200 && status < 300) {
        okCount++
        hist.record(ms)
      } else non2xx++
    },
  })
  clearInterval(sampler)
  assertAlive(s)
  await stopServer(s)
  const n = samples.length
  let flat = null
  if (n >= 3) {
    const avg = (xs) => round(xs.reduce((a, x) => a + x.rss_mb, 0) / xs.length, 1)
    const middle = samples.slice(Math.floor(n / 3), Math.floor((2 * n) / 3))
    const last = samples.slice(Math.floor((2 * n) / 3))
    const growth = round(avg(last) / avg(middle), 3)
    flat = { middle_mb: avg(middle), last_mb: avg(last), growth, ok: growth <= 1.1 }
  }
  const res = {
    date: new Date().toISOString(), machine: machineInfo(), pinned: PIN, minutes, reset_every_s: o.soakReset, connections: o.connections,
    requests_ok: okCount, non2xx, errors: r.errors + r.timeouts, rate: round(okCount / r.seconds, 0), p50: hist.pct(50), p99: hist.pct(99),
    first_rate: samples[0]?.rate, last_rate: samples.at(-1)?.rate, samples, flat,
  }
  log('')
  if (flat) log(`RSS middle third ${flat.middle_mb} MB, last third ${flat.last_mb} MB: ${flat.growth}x -> ${flat.ok ? 'PASS (flat)' : 'FAIL (growing)'}`)
  else log('too short to judge (fewer than 3 samples)')
  log(`${fmtInt(res.requests_ok)} card charges, ${fmtInt(res.rate)} req/s, p50 ${res.p50} ms, p99 ${res.p99} ms, non-2xx ${res.non2xx}, errors ${res.errors}; rate first 10 s ${fmtInt(res.first_rate)}, last 10 s ${fmtInt(res.last_rate)}`)
  await mkdir(RESULTS, { recursive: true })
  const out = o.out ?? path.join(RESULTS, 'soak-latest.json')
  await writeJson(out, res)
  log(`results: ${path.relative(process.cwd(), out)}`)
}

async function profile(o) {
  const scenario = o.profile
  const sc = SCENARIOS[scenario]
  const dir = await mkdtemp(path.join(os.tmpdir(), 'paysandbox-prof-'))
  const s = await startServer('sandbox', { nodeFlags: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-name', 'profile.cpuprofile'] })
  log(`profile: paysandbox with --cpu-prof under ${sc.label}, ${o.warmup} s warm-up + ${o.duration} s, ${o.connections} connections`)
  if (scenario === 'query') {
    const created = await request(`${s.url}${CARD_PATH}`, { method: 'POST', body: cardBody(QUERY_REF) })
    if (created.status !== 200) throw new Error(`could not create the charge to query: ${created.status} ${created.text}`)
  }
  const w = bodyMaker(scenario, 'sandbox', 0, o.warmup, o.connections, 'prof-warm')
  const wr = await load(s, { method: sc.method, path: sc.path, nextBody: w.next, duration: o.warmup, connections: o.connections })
  const m = bodyMaker(scenario, 'sandbox', Math.max(2000, 5 * wr.rate), o.duration, o.connections, 'prof')
  const r = await load(s, { method: sc.method, path: sc.path, nextBody: m.next, duration: o.duration, connections: o.connections })
  log(`  ${fmtInt(r.rate)} req/s (profiler on), p50 ${r.p50} ms, p99 ${r.p99} ms  ${fmtCpu(r.cpu)}`)
  await stopServer(s, 'SIGTERM', 30_000)
  const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'))
  if (!files.length) throw new Error('no .cpuprofile written')
  const prof = JSON.parse(await readFile(path.join(dir, files[0]), 'utf8'))
  await mkdir(RESULTS, { recursive: true })
  const profFile = path.join(RESULTS, `profile-${scenario}.cpuprofile`)
  await copyFile(path.join(dir, files[0]), profFile)
  await rm(dir, { recursive: true, force: true })
  const sum = summarizeProfile(prof)
  const pct = (x) => `${(x * 100).toFixed(1)}%`.padStart(6)
  log(`\nbusy ${pct(sum.busy)} of the profiled time (includes start-up and warm-up); shares below are of busy time\n`)
  log('self time by package:')
  for (const p of sum.packages.slice(0, 12)) log(`  ${pct(p.share)}  ${p.name}`)
  log('\nself time charged to the nearest paysandbox frame on the stack (what paysandbox code costs, with the library and node work it calls):')
  for (const f of sum.by_paysandbox_frame.slice(0, 20)) log(`  ${pct(f.share)}  ${f.frame}`)
  log('\ntop frames, self time:')
  for (const f of sum.self.slice(0, 20)) log(`  ${pct(f.share)}  ${f.frame}`)
  log('\ntop frames, total (inclusive) time:')
  for (const f of sum.inclusive.slice(0, 30)) log(`  ${pct(f.share)}  ${f.frame}`)
  const out = o.out ?? path.join(RESULTS, `profile-${scenario}.json`)
  await writeJson(out, { date: new Date().toISOString(), machine: machineInfo(), pinned: PIN, scenario, load: r, ...sum, self: sum.self.slice(0, 50), inclusive: sum.inclusive.slice(0, 80), by_paysandbox_frame: sum.by_paysandbox_frame.slice(0, 50) })
  log(`\nresults: ${path.relative(process.cwd(), out)}; profile: ${path.relative(process.cwd(), profFile)} (open in Chrome DevTools)`)
}

function shortUrl(url) {
  if (!url) return ''
  let u = url.replace(/^file:\/\//, '')
  const nm = u.lastIndexOf('/node_modules/')
  if (nm >= 0) return u.slice(nm + '/node_modules/'.length)
  if (u.startsWith(ROOT + '/')) u = u.slice(ROOT.length + 1)
  return u
}

function packageOf(url, fn) {
  if (!url) return fn.startsWith('(') ? fn : '(V8 builtins / native)'
  if (url.startsWith('node:')) return 'node internals'
  const s = shortUrl(url)
  if (url.includes('/node_modules/')) return s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]
  if (s.startsWith('dist/')) return `paysandbox ${s}`
  return s
}

function summarizeProfile(prof) {
  const byId = new Map(prof.nodes.map((n) => [n.id, n]))
  const selfUs = new Map()
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = prof.timeDeltas[i + 1] ?? 0
    selfUs.set(prof.samples[i], (selfUs.get(prof.samples[i]) ?? 0) + Math.max(0, dt))
  }
  const key = (n) => {
    const cf = n.callFrame
    const fn = cf.functionName || '(anonymous)'
    return cf.url ? `${fn}  ${shortUrl(cf.url)}:${cf.lineNumber + 1}` : fn
  }
  let total = 0
  let idle = 0
  const self = new Map()
  const packages = new Map()
  for (const n of prof.nodes) {
    const us = selfUs.get(n.id) ?? 0
    total += us
    if (n.callFrame.functionName === '(idle)') { idle += us; continue }
    const k = key(n)
    self.set(k, (self.get(k) ?? 0) + us)
    const p = packageOf(n.callFrame.url, n.callFrame.functionName)
    packages.set(p, (packages.get(p) ?? 0) + us)
  }
  const busy = total - idle
  // inclusive: each function counted once per stack (recursion not double counted)
  const incl = new Map()
  const onPath = new Map()
  const visit = (id) => {
    const n = byId.get(id)
    const k = key(n)
    const first = !onPath.get(k)
    onPath.set(k, (onPath.get(k) ?? 0) + 1)
    let t = selfUs.get(id) ?? 0
    for (const c of n.children ?? []) t += visit(c)
    onPath.set(k, onPath.get(k) - 1)
    if (first && !['(root)', '(idle)', '(program)', '(garbage collector)'].includes(n.callFrame.functionName)) incl.set(k, (incl.get(k) ?? 0) + t)
    return t
  }
  visit(prof.nodes[0].id)
  // each sample charged to the nearest paysandbox (dist/) frame on its stack, else to the
  // outermost library on it
  const parent = new Map()
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const ours = new Map()
  const distDir = path.join(ROOT, 'dist') + '/'
  for (const [id, us] of selfUs) {
    const fn = byId.get(id).callFrame.functionName
    if (fn === '(idle)') continue
    let k = null
    let lib = null
    for (let cur = id; cur !== undefined && !k; cur = parent.get(cur)) {
      const cf = byId.get(cur).callFrame
      if (cf.url.replace(/^file:\/\//, '').startsWith(distDir)) k = key(byId.get(cur))
      else if (cf.url.includes('/node_modules/')) lib = packageOf(cf.url, cf.functionName)
    }
    if (!k) k = ['(garbage collector)', '(program)'].includes(fn) ? fn : `(no paysandbox frame) ${lib ?? 'node'}`
    ours.set(k, (ours.get(k) ?? 0) + us)
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]).map(([frame, us]) => ({ frame, name: frame, ms: round(us / 1000, 1), share: busy ? us / busy : 0 }))
  return { total_ms: round(total / 1000, 0), busy: total ? busy / total : 0, packages: sorted(packages), by_paysandbox_frame: sorted(ours), self: sorted(self), inclusive: sorted(incl) }
}

/** Cores busy with other processes over `ms`; waits up to `maxS` seconds for that to drop under 0.2. */
async function quiet(maxS) {
  const deadline = performance.now() + maxS * 1000
  let calm = 0
  for (let i = 0; i < 10_000; i++) {
    const pids = ourPids()
    const a = cpuSnap(pids)
    await sleep(2000)
    const other = cpuUse(a, cpuSnap(pids), NCPU)?.other ?? 0
    // two quiet windows in a row (one when not asked to wait)
    calm = other < 0.2 ? calm + 1 : 0
    if (calm >= (maxS > 0 ? 2 : 1)) return other
    if (performance.now() >= deadline) {
      process.stderr.write(`bench: warning: other processes are using ${other} cores: figures will be noisy (--wait-quiet S waits for a quiet machine)\n`)
      return other
    }
    if (i % 15 === 0) log(`waiting for a quiet machine (other processes use ${other} cores) ...`)
  }
}

// ---------------------------------------------------------------------------------------------
// small helpers

/** Writes JSON through a temporary file and a rename: never a half-written results file. */
async function writeJson(file, value) {
  await writeFile(`${file}.tmp`, JSON.stringify(value, null, 2) + '\n')
  await rename(`${file}.tmp`, file)
}

function round(x, d) {
  if (!Number.isFinite(x)) return x
  const f = 10 ** d
  return Math.round(x * f) / f
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : round((s[m - 1] + s[m]) / 2, 1)
}
const sum = (rs, k) => rs.reduce((a, r) => a + (r?.[k] ?? 0), 0)
const fmtInt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : String(n))
const fmtCpu = (c) => (c ? `[cores: server ${c.server}, load gen ${c.loadgen}${c.siblings ? `, our idle server ${c.siblings}` : ''}, other ${c.other}]` : '')
const fmtK = (n) => (n >= 1000 ? `${round(n / 1000, 1)}k` : String(n))

// ---------------------------------------------------------------------------------------------

async function main() {
  const o = parseArgs(process.argv.slice(2))
  if (o.report) return report(o)
  if (!existsSync(path.join(ROOT, 'dist', 'cli.js'))) die('dist/ is missing: run `npm run build` first')
  const newer = sh('find', [path.join(ROOT, 'src'), '-newer', path.join(ROOT, 'dist', 'cli.js'), '-name', '*.ts'])
  if (newer) process.stderr.write(`bench: warning: src/ has files newer than dist/ (${newer.split('\n').length}); run \`npm run build\` to measure them\n`)
  const machine = machineInfo()
  PIN = pinSelf(machine)
  NCPU = machine.nproc
  WAIT_QUIET = o.waitQuiet
  await quiet(o.waitQuiet)
  if (o.soak !== null) return soak(o)
  if (o.profile) return profile(o)
  await bench(o, machine)
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`bench: ${e.stack ?? e}\n`)
    killAll()
    process.exit(1)
  },
)

// How the benchmarks keep latencies and read CPU time and memory from /proc: one definition for
// bench/run.mjs and bench/ab.mjs (bench/load.mjs makes the requests and times them).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { round } from './util.mjs'

/**
 * Latency histogram, 5 µs bins up to 1 s (the rare answer slower than that kept as it is): a
 * record is one increment, so timing a request allocates nothing in the process that times it.
 */
export class LatHist {
  constructor() {
    this.bins = new Uint32Array(200_000)
    this.over = []
    this.n = 0
    this.max = 0
  }

  record(ms) {
    const i = Math.floor(ms * 200)
    if (i < this.bins.length) this.bins[i]++
    else this.over.push(ms)
    this.n++
    if (ms > this.max) this.max = ms
  }

  merge(h) {
    for (let i = 0; i < this.bins.length; i++) this.bins[i] += h.bins[i]
    for (const v of h.over) this.over.push(v)
    this.n += h.n
    if (h.max > this.max) this.max = h.max
  }

  /** The p-th percentile in ms, to 0.01 ms (a bin's upper edge); NaN when empty. */
  pct(p) {
    if (!this.n) return NaN
    const want = Math.ceil((p / 100) * this.n)
    let seen = 0
    for (let i = 0; i < this.bins.length; i++) {
      seen += this.bins[i]
      if (seen >= want) return round2((i + 1) / 200)
    }
    const over = [...this.over].sort((a, b) => a - b)
    return round2(over[Math.min(over.length - 1, want - seen - 1)])
  }
}

const round2 = (x) => Math.round(x * 100) / 100

let CLK_TCK = 0
/** Clock ticks per second of /proc's CPU times (USER_HZ). */
export function clockTicks() {
  if (!CLK_TCK) {
    try {
      CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()) || 100
    } catch {
      CLK_TCK = 100
    }
  }
  return CLK_TCK
}

/** A process's CPU time so far (user + system), in ms; NaN once it is gone. */
export function cpuTimeMs(pid) {
  try {
    const st = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ')
    return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks()
  } catch {
    return NaN
  }
}

/** A process's resident memory now and at its highest (MB), and the CPUs it may run on. */
export function procStatus(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN)
    return { rss_mb: round(kb('VmRSS') / 1024, 1), hwm_mb: round(kb('VmHWM') / 1024, 1), cpus: /^Cpus_allowed_list:\s*(\S+)/m.exec(s)?.[1] ?? '?' }
  } catch {
    return { rss_mb: NaN, hwm_mb: NaN, cpus: '?' }
  }
}

/** CPU ticks: whole machine (busy, total) and per process (utime + stime). */
export function cpuSnap(pids) {
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
export function cpuUse(a, b, ncpu) {
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

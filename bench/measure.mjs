// How the benchmarks keep latencies and read CPU time: one definition for bench/run.mjs and
// bench/ab.mjs (bench/load.mjs makes the requests and times them).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

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

// How the benchmarks time requests and read CPU time: one definition for bench/run.mjs and
// bench/ab.mjs.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/**
 * Sorts an autocannon run's 2xx answers into steady state and start-up. The latency of a request
 * sent before every connection had its first answer times the load generator's own start-up:
 * autocannon builds its clients one after another in one synchronous loop, and each client's first
 * request is timed from its construction, not from when it leaves (10-250 ms, measured). Those go
 * to `startup(ms)`, every later one to `steady(ms)`.
 */
export function onSteadyLatency(inst, connections, { steady, startup = () => {} }) {
  const answered = new Set()
  let steadyAt = Infinity
  inst.on('response', (client, status, _bytes, ms) => {
    if (status < 200 || status >= 300) return
    const now = performance.now()
    if (steadyAt === Infinity) {
      answered.add(client)
      if (answered.size >= connections) steadyAt = now
    }
    if (now - ms >= steadyAt) steady(ms)
    else startup(ms)
  })
}

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

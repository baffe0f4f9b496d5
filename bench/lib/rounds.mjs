// Measured load runs on the servers: one run (load), and interleaved rounds on several servers
// that see the same machine (interleave).
import { setTimeout as sleep } from 'node:timers/promises'
import { runLoad } from '../load.mjs'
import { SECRET } from './bodies.mjs'
import { coresUsed, quietRun } from './machine.mjs'
import { LatHist, cpuSnap } from './measure.mjs'
import { assertAlive, ourPids } from './servers.mjs'
import { round } from './util.mjs'

/**
 * One load run (load.mjs). Each request's body: `nextBody()`, or `bodies`, a fixed set cycled;
 * `amount` runs a fixed number of requests instead of a duration; `maxSeconds` stops the run
 * whatever happens (by default the duration + 30 s). Returns rate (2xx answers per second),
 * latency of the 2xx answers, and error counts.
 */
export async function load(server, { method = 'GET', path: p, key = SECRET, nextBody, bodies, duration, amount, connections, maxSeconds }) {
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
  const use = coresUsed(c0, cpuSnap(pids))
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

/** CPU time of the server per answered request, in µs (NaN without a CPU reading). */
export const cpuUs = (r) => r?.cpu_us ?? (r?.cpu?.server_ms && r.ok ? round((r.cpu.server_ms / r.ok) * 1000, 1) : NaN)

/**
 * Interleaved rounds: in each round every server in turn gets `per` seconds of the scenario's
 * load (`sc`: its method and path; `makers`: each server's bodies, see bodyMaker in
 * scenarios.mjs), so that all of them see the same machine (the speed of a VM drifts by tens of
 * percent from one second to the next). `afterRound(server, figures)` runs after each server's
 * round. Returns each server's figures over all its rounds.
 */
export async function interleave(o, servers, makers, sc, rounds, per, label, afterRound = null) {
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

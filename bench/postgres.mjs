#!/usr/bin/env node
// The PostgreSQL store (`--store postgres://`, issue 53) measured beside the in-memory store and
// bare Hono in one run, and the failover time of two processes on one database. Not part of
// `npm test`.
//
//   npm run build
//   node bench/postgres.mjs                          # card charge and charge query, then failover
//   node bench/postgres.mjs --duration 10 --warmup 3 --failovers 5
//
// A throwaway cluster (bench/lib/pg-cluster.mjs: initdb in a temporary folder, a free port, fsync
// on) and, for each scenario, three fresh servers: bare Hono (bench/bare.mjs), paysandbox in memory
// and paysandbox with --store on a database of its own; a warm-up of each, then interleaved
// 1-second rounds through bench/lib/rounds.mjs (10 keep-alive connections, one request in flight
// on each), so all three see the same machine. Unpinned: the database is a process of its own.
//
// Failover: two paysandbox processes on one database (SANDBOX_LEASE_MS as given, default the
// sandbox's 5,000), a namespace served by one (its owner) under a card charge every moment; kill -9
// of the owner, then the time from the kill to the first card charge the other process accepts for
// that namespace (each try a real call through the survivor, one at a time), and whether every
// charge acknowledged before the kill is there.
import { parseArgs } from 'node:util'
import { cardBody } from './lib/bodies.mjs'
import { startCluster } from './lib/pg-cluster.mjs'
import { bodyMaker, CARD_PATH, QUERY_REF, SCENARIOS } from './lib/scenarios.mjs'
import { interleave, load } from './lib/rounds.mjs'
import { clockTicks, cpuSnap } from './lib/measure.mjs'
import { request, startServer, stopServer } from './lib/servers.mjs'
import { RESULTS, die, fmtInt, log, median, round, writeJson } from './lib/util.mjs'
import path from 'node:path'

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '6' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    failovers: { type: 'string', default: '3' },
    'lease-ms': { type: 'string', default: '5000' },
    only: { type: 'string', default: 'card,query,failover' },
  },
})
const o = { duration: Number(opts.duration), warmup: Number(opts.warmup), connections: Number(opts.connections) }
const leaseMs = Number(opts['lease-ms'])
const only = opts.only.split(',')
if (!(o.duration >= 1) || !(o.warmup >= 0) || !(o.connections >= 1) || !(leaseMs >= 500)) die('--duration, --warmup, --connections and --lease-ms must be numbers (--lease-ms 500 or more)')

const cluster = await startCluster()
let dbs = 0
const res = { date: new Date().toISOString(), postgres: cluster.version, options: { ...o, lease_ms: leaseMs }, load: {}, failover: null }
try {
  for (const scenario of ['card', 'query'].filter((s) => only.includes(s))) res.load[scenario] = await scenarioRun(scenario)
  if (only.includes('failover')) res.failover = await failovers(Number(opts.failovers))
} finally {
  cluster.remove()
}
await writeJson(path.join(RESULTS, 'postgres-latest.json'), res)
log(`\nwritten: bench/results/postgres-latest.json`)

async function scenarioRun(scenario) {
  const sc = SCENARIOS[scenario]
  const url = await cluster.createDatabase(`bench${++dbs}`)
  const bare = await startServer('bare')
  const mem = await startServer('sandbox')
  const pg = await startServer('sandbox', { args: ['--store', url] })
  const names = new Map([[bare, 'bare Hono'], [mem, 'paysandbox, in memory'], [pg, 'paysandbox, --store postgres']])
  try {
    for (const s of [bare, mem, pg]) s.stored = 0
    if (scenario === 'query') {
      for (const s of [mem, pg]) {
        const created = await request(`${s.url}${CARD_PATH}`, { method: 'POST', body: cardBody(QUERY_REF) })
        if (created.status !== 200) throw new Error(`could not create the charge to query: ${created.status} ${created.text}`)
      }
    }
    const kindOf = (s) => (s === bare ? 'bare' : 'sandbox')
    for (const s of [bare, mem, pg]) {
      const w = bodyMaker(scenario, kindOf(s), 0, o.warmup, o.connections, `${scenario}-warm-${names.get(s).length}`)
      if (o.warmup > 0) await load(s, { method: sc.method, path: sc.path, nextBody: w.next, bodies: w.bodies, duration: o.warmup, connections: o.connections })
    }
    const makers = new Map([bare, mem, pg].map((s) => [s, bodyMaker(scenario, kindOf(s), 8000, o.duration, o.connections, `${scenario}-${names.get(s).length}`)]))
    const rounds = Math.max(1, Math.min(10, Math.round(o.duration)))
    const db0 = cpuSnap(cluster.pids())
    const out = await interleave(o, [bare, mem, pg], makers, sc, rounds, o.duration / rounds, sc.label)
    const db1 = cpuSnap(cluster.pids())
    // the database's CPU over every round (it is idle in the other servers' rounds), per request of the store's server
    const dbTicks = Object.entries(db1.pids).reduce((t, [pid, v]) => t + v - (db0.pids[pid] ?? 0), 0)
    out.get(pg).database_cpu_us = round((dbTicks * 1e6) / clockTicks() / out.get(pg).ok, 1)
    const figures = {}
    for (const [s, r] of out) {
      figures[names.get(s)] = r
      log(`  ${sc.label.padEnd(14)} ${names.get(s).padEnd(30)} ${fmtInt(r.rate).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors + r.timeouts}  CPU per request ${r.cpu_us} µs${r.database_cpu_us !== undefined ? `, the database's ${r.database_cpu_us} µs` : ''}`)
    }
    return figures
  } finally {
    for (const s of [bare, mem, pg]) await stopServer(s)
  }
}

async function failovers(n) {
  const times = []
  const lost = []
  for (let i = 0; i < n; i++) {
    const url = await cluster.createDatabase(`failover${i}`)
    const env = { SANDBOX_LEASE_MS: String(leaseMs) }
    const [a, b] = await Promise.all([startServer('sandbox', { args: ['--store', url], env }), startServer('sandbox', { args: ['--store', url], env })])
    try {
      // a takes the namespace: it serves every call for it, b forwards to a
      const acknowledged = []
      for (let k = 0; k < 200; k++) {
        const reference = `failover-${i}-${k}`
        const r = await request(`${(k % 2 ? b : a).url}${CARD_PATH}`, { method: 'POST', body: cardBody(reference) })
        if (r.status !== 200) throw new Error(`a charge before the kill answered ${r.status}: ${r.text}`)
        acknowledged.push(reference)
      }
      a.child.kill('SIGKILL')
      const killed = performance.now()
      let k = 0
      for (;;) {
        const r = await request(`${b.url}${CARD_PATH}`, { method: 'POST', body: cardBody(`failover-${i}-after-${k++}`), timeoutMs: 30_000 })
        if (r.status === 200) break
        if (performance.now() - killed > leaseMs + 30_000) throw new Error(`no charge accepted ${leaseMs + 30_000} ms after the kill: ${r.status} ${r.text}`)
      }
      const ms = round(performance.now() - killed, 0)
      times.push(ms)
      for (const reference of acknowledged) {
        const q = await request(`${b.url}/merchant/api/v1/charges/${reference}`)
        if (q.status !== 200) lost.push(reference)
      }
      log(`  failover ${i + 1}: kill -9 of the owner to the first charge the other accepts: ${fmtInt(ms)} ms (SANDBOX_LEASE_MS=${leaseMs}); acknowledged before: ${acknowledged.length}, lost: ${lost.length}`)
    } finally {
      await stopServer(a)
      await stopServer(b)
    }
  }
  return { lease_ms: leaseMs, times_ms: times, median_ms: median(times), max_ms: Math.max(...times), lost }
}

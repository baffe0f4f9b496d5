#!/usr/bin/env node
// CPU per card charge (or per charge query, mobile money charge, checkout initialize or payout) of several paysandbox builds, measured at the same
// time on the same core.
//
//   node bench/ab.mjs [--scenario card|query|mm|init|payout] [--rounds 8] [--seconds 2] [--connections 10] BUILD BUILD ...
//
// BUILD is a checkout with dist/ built (`.` for this one), optionally followed by environment for
// that server: `.+SANDBOX_HOT_RECORDS=8+SANDBOX_COLD_BLOCK=16` (the servers are started as
// bench/run.mjs starts paysandbox, bench/lib/servers.mjs: its BENCH_SANDBOX_* variables apply
// here too). Every server is pinned to core 0 (this process to core 1, where `taskset` exists and
// there are two cores or more) and all of them are loaded at once, each on
// `--connections` connections of its own (bench/load.mjs, in this process), for `--rounds` rounds
// of `--seconds`. Sharing one core, they see the same machine: this VM's speed drifts by tens of
// percent from one minute to the next, which moves a build's CPU per request more than most
// changes do when builds are measured one after another, but moves every build alike here (two
// servers of one build agree within about 1 %). The core is shared by time slices, so each server
// also loses some of its caches at every switch, and the order the servers start in can favour one
// by a few percent (a change read -8 % in one order and -1.4 % in the other): compare two builds
// at a time, run it again with the order swapped, and take a difference smaller than about 5 % as
// none. Prints each build's CPU time per request (user + system of its process over the rounds,
// divided by the 2xx answers) and its p50 / p99 (not comparable with the bench's: the servers
// share the core).
//
// The cost of a card charge as the store grows (issue 51): `--data` starts each server with a data
// file of its own (a fresh one in the temp directory), and `@N` after a build fills its namespace
// with N card charges before the warm-up (`.@0 .@50000`: one build, empty and with 50k stored, side
// by side; `@0` resets the namespace before every round, so it stays near empty). The stored
// charges each server went through, and its RSS at the end, are printed beside its figure.
import { rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { runLoad } from './load.mjs'
import { CardBodies, SECRET, cardBody, disburseBody, initBody, mmBody } from './lib/bodies.mjs'
import { machineInfo } from './lib/machine.mjs'
import { LatHist, cpuTimeMs, procStatus } from './lib/measure.mjs'
import { QUERY_REF, SCENARIOS } from './lib/scenarios.mjs'
import { pinSelf, startServer } from './lib/servers.mjs'

const USAGE = 'usage: node bench/ab.mjs [--scenario card|query|mm|init|payout] [--rounds 8] [--seconds 2] [--connections 10] [--data] BUILD[+ENV=VALUE...][@STORED] ...'
const { values, positionals } = parseArgs({
  options: { data: { type: 'boolean' }, scenario: { type: 'string', default: 'card' }, rounds: { type: 'string', default: '8' }, seconds: { type: 'string', default: '2' }, connections: { type: 'string', default: '10' }, help: { type: 'boolean' } },
  allowPositionals: true,
})
if (positionals.length === 0 || values.help) {
  console.log(USAGE)
  process.exit(values.help ? 0 : 2)
}
const positive = (name) => {
  const v = Number(values[name])
  if (!(v > 0)) throw new Error(`--${name} takes a positive number`)
  return v
}
const rounds = positive('rounds')
const seconds = positive('seconds')
const connections = positive('connections')
const scenario = values.scenario
/** each --scenario: the bench's scenario it loads (its method, path and label: lib/scenarios.mjs) */
const OF = { card: 'card', query: 'query', mm: 'mm', init: 'init', payout: 'disburse' }
if (!(scenario in OF)) throw new Error('--scenario is card, query, mm, init or payout')
const { method, path: target, label } = SCENARIOS[OF[scenario]]

// the servers on core 0, this process on core 1 (where taskset exists and there are two cores)
pinSelf(machineInfo())

const builds = positionals.map((arg, k) => {
  const at = arg.lastIndexOf('@')
  const fillTo = at > 0 ? Number(arg.slice(at + 1)) : undefined
  if (fillTo !== undefined && !(fillTo >= 0)) throw new Error(`${arg}: the stored charges are written @N`)
  const [dir, ...pairs] = (at > 0 ? arg.slice(0, at) : arg).split('+')
  const env = {}
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new Error(`${arg}: environment is written +NAME=VALUE`)
    env[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  return { label: `${k + 1}: ${arg}`, dir: path.resolve(dir), env, fillTo, stored: 0, storedFrom: 0, lat: new LatHist(), ok: 0, cpu: 0 }
})

const dataDir = values.data ? await mkdtemp(path.join(os.tmpdir(), 'paysandbox-ab-')) : undefined
process.on('exit', () => dataDir && rmSync(dataDir, { recursive: true, force: true }))
for (const [k, b] of builds.entries()) {
  const s = await startServer('sandbox', { cli: path.join(b.dir, 'bin/sandbox.js'), env: b.env, args: dataDir ? ['--data', path.join(dataDir, `${k + 1}.json`)] : [] })
  b.pid = s.pid
  b.url = s.url
}

// the query scenario asks for one charge again and again, as a client polling it does
if (scenario === 'query') {
  for (const b of builds) {
    const res = await fetch(`${b.url}${SCENARIOS.card.path}`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: cardBody(QUERY_REF) })
    if (res.status !== 200) throw new Error(`${b.label}: could not create the charge to query: ${res.status} ${await res.text()}`)
  }
}

// payouts: a balance no run exhausts (each payout of 1,000 NGN costs 1,032.25 of it)
if (scenario === 'payout') {
  for (const b of builds) {
    const res = await fetch(`${b.url}/_sandbox/scenarios`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: JSON.stringify({ settings: { opening_balance: 1_000_000_000_000 } }) })
    if (res.status !== 200) throw new Error(`${b.label}: could not raise the opening balance: ${res.status} ${await res.text()}`)
  }
}
/** requests of the scenarios whose bodies are made on the fly, each with a reference of its own */
let sent = 0

// the servers share one core: together they make at most ~12k charges a second here (past the
// pool, bodies are made on the fly)
const pool = scenario === 'card' ? new CardBodies(`ab-${process.pid}`, Math.ceil(12_000 * (rounds * seconds + 3))) : undefined

/** the body of each request (none for the query), each with a reference of its own */
const BODY = {
  card: () => pool.next(),
  query: undefined,
  mm: () => mmBody(`ab-mm-${process.pid}-${sent++}`),
  init: () => initBody(`ab-co-${process.pid}-${sent++}`),
  payout: () => disburseBody(`ab-${process.pid}-${sent++}`),
}[scenario]

const headers = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }
/** One load run of `duration` s; with `record`, its 2xx answers are counted and their latencies kept. */
function load(b, duration, record) {
  return runLoad({
    url: b.url, connections, duration, maxSeconds: duration + 30, timeout: 10,
    method, path: target, headers, ...(BODY ? { body: BODY } : {}),
    onAnswer: (status, ms) => {
      if (status !== 200) {
        console.error(`${b.label}: answered ${status}`)
        process.exit(1)
      }
      b.stored++
      if (record) {
        b.ok++
        b.lat.record(ms)
      }
    },
  })
}

/** Empties the namespace (`@0`: before every round). */
async function reset(b) {
  const res = await fetch(`${b.url}/_sandbox/reset`, { method: 'POST', headers, body: '{}' })
  if (res.status !== 200) throw new Error(`${b.label}: reset answered ${res.status}`)
  b.stored = 0
}

// `@N`: the store filled first, 50 connections each, the servers one after another
for (const b of builds.filter((b) => b.fillTo > 0)) {
  let filled = 0
  await runLoad({
    url: b.url, connections: 50, amount: b.fillTo, maxSeconds: 900, timeout: 10, method: 'POST', path: SCENARIOS.card.path, headers,
    body: () => cardBody(`ab-fill-${process.pid}-${b.label.split(':')[0]}-${filled++}`),
    onAnswer: (status) => {
      if (status !== 200) {
        console.error(`${b.label}: a fill answered ${status}`)
        process.exit(1)
      }
      b.stored++
    },
  })
}

await Promise.all(builds.map((b) => load(b, 3, false)))
for (const b of builds) if (b.fillTo === 0) await reset(b)
for (const b of builds) b.storedFrom = b.stored
for (let r = 0; r < rounds; r++) {
  await sleep(100)
  if (r > 0) for (const b of builds) if (b.fillTo === 0) await reset(b)
  const before = builds.map((b) => cpuTimeMs(b.pid))
  await Promise.all(builds.map((b) => load(b, seconds, true)))
  builds.forEach((b, k) => {
    b.cpu += cpuTimeMs(b.pid) - before[k]
  })
}
for (const b of builds) {
  console.log(`${b.label.padEnd(40)} ${((b.cpu * 1000) / b.ok).toFixed(1).padStart(6)} µs CPU per ${label}  (${b.ok} requests; ${b.fillTo === undefined ? '' : `stored ${b.storedFrom} -> ${b.stored}${b.fillTo === 0 ? ', reset every round' : ''}, RSS ${procStatus(b.pid).rss_mb} MB; `}p50 ${b.lat.pct(50).toFixed(2)} ms, p99 ${b.lat.pct(99).toFixed(2)} ms)`)
}
process.exit(0)

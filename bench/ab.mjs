#!/usr/bin/env node
// CPU per card charge of several paysandbox builds, measured at the same time on the same core.
//
//   node bench/ab.mjs [--rounds 8] [--seconds 2] [--connections 10] BUILD BUILD ...
//
// BUILD is a checkout with dist/ built (`.` for this one), optionally followed by environment for
// that server: `.+SANDBOX_HOT_RECORDS=8+SANDBOX_COLD_BLOCK=16`. Every server is pinned to core 0
// (this process to core 1, where `taskset` exists) and all of them are loaded at once, each on
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
import { execFileSync, spawn } from 'node:child_process'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { CardBodies, SECRET } from './lib/bodies.mjs'
import { runLoad } from './load.mjs'
import { LatHist, cpuTimeMs } from './lib/measure.mjs'

const argv = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = argv.indexOf(name)
  if (i < 0) return fallback
  const v = Number(argv[i + 1])
  argv.splice(i, 2)
  if (!(v > 0)) throw new Error(`${name} takes a positive number`)
  return v
}
const rounds = opt('--rounds', 8)
const seconds = opt('--seconds', 2)
const connections = opt('--connections', 10)
if (argv.length === 0 || argv.includes('--help')) {
  console.log('usage: node bench/ab.mjs [--rounds 8] [--seconds 2] [--connections 10] BUILD[+ENV=VALUE...] ...')
  process.exit(argv.length ? 0 : 2)
}

const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
if (hasTaskset) execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' })

const builds = argv.map((arg, k) => {
  const [dir, ...pairs] = arg.split('+')
  const env = {}
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('SANDBOX_')) env[key] = value
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new Error(`${arg}: environment is written +NAME=VALUE`)
    env[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  return { label: `${k + 1}: ${arg}`, dir: path.resolve(dir), env, lat: new LatHist(), ok: 0, cpu: 0 }
})

const children = []
process.on('exit', () => children.forEach((c) => c.kill()))
for (const b of builds) {
  const cmd = [process.execPath, path.join(b.dir, 'bin/sandbox.js'), 'start', '--port', '0']
  const child = hasTaskset ? spawn('taskset', ['-c', '0', ...cmd], { env: b.env, stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(cmd[0], cmd.slice(1), { env: b.env, stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  b.pid = child.pid // taskset execs node: the same process
  b.url = await new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      const m = /(http:\/\/[\d.]+:\d+)/.exec(out)
      if (m) resolve(m[1])
    })
    child.once('exit', (code) => reject(new Error(`${b.label}: exited with ${code} before listening`)))
  })
}

// the servers share one core: together they make at most ~12k charges a second here (past the
// pool, bodies are made on the fly)
const pool = new CardBodies(`ab-${process.pid}`, Math.ceil(12_000 * (rounds * seconds + 3)))

const headers = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }
/** One load run of `duration` s; with `record`, its 2xx answers are counted and their latencies kept. */
function load(b, duration, record) {
  return runLoad({
    url: b.url, connections, duration, maxSeconds: duration + 30, timeout: 10,
    method: 'POST', path: '/merchant/api/v1/charges/card', headers, body: () => pool.next(),
    onAnswer: (status, ms) => {
      if (status !== 200) {
        console.error(`${b.label}: answered ${status}`)
        process.exit(1)
      }
      if (record) {
        b.ok++
        b.lat.record(ms)
      }
    },
  })
}

await Promise.all(builds.map((b) => load(b, 3, false)))
for (let r = 0; r < rounds; r++) {
  await sleep(100)
  const before = builds.map((b) => cpuTimeMs(b.pid))
  await Promise.all(builds.map((b) => load(b, seconds, true)))
  builds.forEach((b, k) => {
    b.cpu += cpuTimeMs(b.pid) - before[k]
  })
}
for (const b of builds) {
  console.log(`${b.label.padEnd(40)} ${((b.cpu * 1000) / b.ok).toFixed(1).padStart(6)} µs CPU per card charge  (${b.ok} charges; p50 ${b.lat.pct(50).toFixed(2)} ms, p99 ${b.lat.pct(99).toFixed(2)} ms)`)
}
process.exit(0)

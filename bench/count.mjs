#!/usr/bin/env node
// Instructions per request, counted by valgrind: an A/B measure that CPU steal does not move.
//
//   node bench/count.mjs [--scenario query|card|init|payout] [--from 2000] [--to 12000] [DIR|bare ...]
//
// For each build (a checkout with dist/ built; default: this one; `bare`: bench/bare.mjs) it runs
// this script twice under `valgrind --tool=cachegrind` (V8 made deterministic: --predictable, fixed
// seeds), once with --from and once with --to requests, and prints (count(to) - count(from)) /
// (to - from): the instructions one more request costs, start-up taken out. The requests go over
// one keep-alive connection from a minimal client in the same process (its instructions are in
// the figure, the same for every build). Runs of one build under the same machine load agree
// within about 1 %; V8's compiling is counted too and can move by several percent between builds
// whose code differs little. Compare builds side by side, in one invocation.
//
// Worker mode (what valgrind runs): node bench/count.mjs --worker DIR|bare SCENARIO N
import { spawn } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { SECRET, cardBody, disburseBody } from './lib/bodies.mjs'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.join(HERE, '..')
const QUERY_REF = 'count-query-0001'

async function startBuild(build) {
  if (build === 'bare') {
    const [{ serve }, { app }] = await Promise.all([import('@hono/node-server'), import('./bare.mjs')])
    const server = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
    })
    return { port: server.address().port, close: () => new Promise((resolve) => server.close(resolve)) }
  }
  const { startServer } = await import(pathToFileURL(path.join(build, 'dist/server.js')).href)
  const { resolveConfig } = await import(pathToFileURL(path.join(build, 'dist/config.js')).href)
  const server = await startServer(resolveConfig({ port: 0, host: '127.0.0.1' }, {}))
  return { port: server.port, close: () => server.close() }
}

/** Sends `requests` (raw HTTP/1.1 texts) one at a time on one connection; counts the non-200s. */
function drive(port, requests) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.setEncoding('latin1')
    let buf = ''
    let sent = 0
    let bad = 0
    const next = () => {
      if (sent === requests.length) {
        socket.end()
        resolve(bad)
        return
      }
      socket.write(requests[sent++])
    }
    socket.on('connect', next)
    socket.on('error', reject)
    socket.on('data', (d) => {
      buf += d
      for (;;) {
        const h = buf.indexOf('\r\n\r\n')
        if (h < 0) return
        const m = /content-length: (\d+)\r\n/i.exec(buf.slice(0, h + 2))
        const end = h + 4 + (m ? Number(m[1]) : 0)
        if (buf.length < end) return
        if (!buf.startsWith('HTTP/1.1 200')) bad++
        buf = buf.slice(end)
        next()
      }
    })
  })
}

async function worker(build, scenario, n) {
  const { port, close } = await startBuild(build)
  const head = `host: 127.0.0.1:${port}\r\nauthorization: Bearer ${SECRET}\r\n`
  const post = (body) => `POST /merchant/api/v1/charges/card HTTP/1.1\r\n${head}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  if ((await drive(port, [post(cardBody(QUERY_REF))])) > 0) throw new Error('the charge to query was refused')
  const get = `GET /merchant/api/v1/charges/${QUERY_REF} HTTP/1.1\r\n${head}\r\n`
  const json = (path, body) => `POST ${path} HTTP/1.1\r\n${head}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  // init: a checkout initialized, then paid by card through the control call (two requests each)
  const checkout = (ref) => [
    json('/merchant/api/v1/charges/initialize', JSON.stringify({ reference: ref, amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' } })),
    json(`/_sandbox/checkouts/${ref}/pay`, JSON.stringify({ channel: 'card' })),
  ]
  // payout: a balance no run exhausts (each payout of 1,000 NGN costs 1,032.25 of it), raised by a
  // pack, and payouts that end in a day, not 60 s: none ends during a run, whatever it lasts
  const pack = { settings: { opening_balance: 1_000_000_000_000, payout_delay_seconds: 86_400 } }
  if (scenario === 'payout' && (await drive(port, [json('/_sandbox/scenarios', JSON.stringify(pack))])) > 0) throw new Error('the pack could not be loaded')
  const requests = scenario === 'card' ? Array.from({ length: n }, (_, i) => post(cardBody(`count-card-${i}`))) : scenario === 'payout' ? Array.from({ length: n }, (_, i) => json('/merchant/api/v1/transactions/disburse', disburseBody(`count-po-${i}`))) : scenario === 'init' ? Array.from({ length: n }, (_, i) => checkout(`count-co-${i}`)).flat() : Array.from({ length: n }, () => get)
  const bad = await drive(port, requests)
  await close()
  if (bad) throw new Error(`${bad} answers were not 200`)
  process.exit(0)
}

function count(build, scenario, n) {
  return new Promise((resolve, reject) => {
    const args = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, '--predictable', '--hash-seed=1', '--random-seed=1', fileURLToPath(import.meta.url), '--worker', build, scenario, String(n)]
    const child = spawn('valgrind', args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    child.on('error', (e) => reject(new Error(`valgrind: ${e.message} (is it installed?)`)))
    child.on('exit', (code) => {
      const m = /I\s+refs:\s+([\d,]+)/.exec(err)
      if (code !== 0 || !m) reject(new Error(`${build} ${scenario} ${n}: exit ${code}\n${err.slice(-2000)}`))
      else resolve(Number(m[1].replaceAll(',', '')))
    })
  })
}

const USAGE = 'usage: node bench/count.mjs [--scenario query|card|init|payout] [--from N] [--to M] [DIR|bare ...]\n'
let parsed
try {
  parsed = parseArgs({ options: { worker: { type: 'boolean' }, scenario: { type: 'string', default: 'query' }, from: { type: 'string' }, to: { type: 'string' } }, allowPositionals: true })
} catch (e) {
  process.stderr.write(`${e.message}\n${USAGE}`)
  process.exit(2)
}
const { values, positionals } = parsed
if (values.worker) {
  const [build, scenario, n] = positionals
  await worker(build === 'bare' ? 'bare' : path.resolve(build), scenario, Number(n))
} else {
  const { scenario } = values
  const from = Number(values.from ?? (scenario === 'query' ? 2000 : scenario === 'init' ? 300 : 1000))
  const to = Number(values.to ?? (scenario === 'query' ? 12000 : scenario === 'init' ? 1200 : 4000))
  if (!['query', 'card', 'init', 'payout'].includes(scenario) || !(to > from) || !(from > 0)) {
    process.stderr.write(USAGE)
    process.exit(2)
  }
  const builds = positionals.length ? positionals.map((b) => (b === 'bare' ? 'bare' : path.resolve(b))) : [ROOT]
  // all runs at once: valgrind's counts do not depend on how busy the machine is
  const counts = await Promise.all(builds.flatMap((b) => [count(b, scenario, from), count(b, scenario, to)]))
  builds.forEach((b, i) => {
    const per = (counts[2 * i + 1] - counts[2 * i]) / (to - from)
    console.log(`${scenario}  ${(per / 1000).toFixed(1).padStart(7)} K instructions per ${scenario === 'init' ? 'checkout initialized and paid' : 'request'}  ${b === 'bare' ? 'bare Hono (bench/bare.mjs)' : b}`)
  })
}

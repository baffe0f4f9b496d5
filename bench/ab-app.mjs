#!/usr/bin/env node
// Time per card charge (or per payout) of several paysandbox builds in ONE process, their requests
// interleaved one by one.
//
//   node bench/ab-app.mjs [--scenario card|payout|init] [--requests 10000] [--rounds 2] BUILD BUILD ...
//
// BUILD is a checkout with dist/ built (`.` for this one). Each build's app is made as a test
// embeds it (`createApp(await createDeps(config))`, dist/index.js) and served in process
// (`app.request`, no socket); request i goes to every build in turn, the order turned around on
// every other request, and each call is timed alone (`process.hrtime`, from the call until its
// body is read). Whatever else the machine does (other processes, this VM's drift) lands on every
// build alike, within a request or two; the first round carries the builds' compiling, and the
// order the builds are given in can favour one by a few percent: run it both ways. What it leaves
// out, and `bench/ab.mjs` keeps: the socket, node's HTTP parser and the answer batch, and a build's
// own heap (the builds share one, so a build that keeps more live objects makes the collector
// slower for both, and the collector's background threads are not in the time of a call).
// Prints each round's time per request of each build, and its ratio to the first build's.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { SECRET, cardBody, disburseBody } from './lib/bodies.mjs'

const USAGE = 'usage: node bench/ab-app.mjs [--scenario card|payout|init] [--requests 10000] [--rounds 2] BUILD BUILD ...'
const { values, positionals } = parseArgs({
  options: { scenario: { type: 'string', default: 'card' }, requests: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '2' }, help: { type: 'boolean' } },
  allowPositionals: true,
})
if (positionals.length < 2 || values.help) {
  console.log(USAGE)
  process.exit(values.help ? 0 : 2)
}
const requests = Number(values.requests)
const rounds = Number(values.rounds)
if (!(requests > 0) || !(rounds > 0)) throw new Error('--requests and --rounds take a positive number')
const scenario = values.scenario
if (scenario !== 'card' && scenario !== 'payout' && scenario !== 'init') throw new Error('--scenario is card, payout or init')

const headers = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }
const builds = []
for (const dir of positionals) {
  const root = path.resolve(dir)
  const m = await import(pathToFileURL(path.join(root, 'dist/index.js')).href)
  const config = m.resolveConfig({ port: 0, secretKey: SECRET, encryptionKey: 'sandbox-encryption-key-012345678' }, {})
  const app = m.createApp(await m.createDeps(config))
  if (scenario === 'payout') {
    // a balance no run exhausts, as bench/ab.mjs gives its servers
    const res = await app.request('/_sandbox/scenarios', { method: 'POST', headers, body: JSON.stringify({ settings: { opening_balance: 1_000_000_000_000 } }) })
    if (res.status !== 200) throw new Error(`${dir}: could not raise the opening balance: ${res.status} ${await res.text()}`)
  }
  builds.push({ label: dir, app })
}

/** init: a checkout initialized, then paid by card through the control call (its first test card) */
async function checkout(app, ref) {
  const init = await app.request('/merchant/api/v1/charges/initialize', { method: 'POST', headers, body: JSON.stringify({ reference: ref, amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' } }) })
  if (init.status !== 200) return init
  await init.text()
  return app.request(`/_sandbox/checkouts/${ref}/pay`, { method: 'POST', headers, body: JSON.stringify({ channel: 'card' }) })
}

const call = scenario === 'card'
  ? (app, ref) => app.request('/merchant/api/v1/charges/card', { method: 'POST', headers, body: cardBody(ref) })
  : scenario === 'init'
    ? checkout
    : (app, ref) => app.request('/merchant/api/v1/transactions/disburse', { method: 'POST', headers, body: disburseBody(ref) })

let n = 0
for (let round = 1; round <= rounds; round++) {
  const spent = builds.map(() => 0n)
  for (let i = 0; i < requests; i++, n++) {
    const ref = `ab-app-${process.pid}-${n}`
    for (let k = 0; k < builds.length; k++) {
      const j = i % 2 ? builds.length - 1 - k : k
      const start = process.hrtime.bigint()
      const res = await call(builds[j].app, ref)
      await res.text()
      spent[j] += process.hrtime.bigint() - start
      if (res.status !== 200) throw new Error(`${builds[j].label}: answered ${res.status} to request ${n}`)
    }
  }
  const us = spent.map((t) => Number(t) / requests / 1000)
  console.log(`round ${round}: ` + builds.map((b, j) => `${b.label} ${us[j].toFixed(1)} µs${j ? ` (${((us[j] / us[0] - 1) * 100).toFixed(1)} %)` : ''}`).join(', ') + ` per ${scenario === 'card' ? 'card charge' : scenario === 'init' ? 'checkout initialized and paid' : 'payout'}`)
}

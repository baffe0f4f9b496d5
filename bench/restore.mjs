#!/usr/bin/env node
// A 16 MiB snapshot restored through the real CLI while other calls go on (docs/behaviour.md#snapshots):
// how long the restore takes, and how long /_sandbox/health and a call on another namespace wait
// meanwhile. Not part of `npm test`.
//
//   npm run build
//   node bench/restore.mjs                      # builds a snapshot of about 16 MiB (card charges) first
//   node bench/restore.mjs --file snap.json     # restores this one instead (`sandbox snapshot --output`)
//   node bench/restore.mjs --rounds 5 --mib 8
//
// Each round POSTs the snapshot to a new key and, until it is answered, sends one health call and
// one balance read of another key at a time, each as soon as the one before it was answered; it
// prints the restore's time and each poll's slowest and median answer during it.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { ROOT, die, log, round } from './lib/util.mjs'
import { request, startServer, stopServer } from './lib/servers.mjs'

const { values: opts } = parseArgs({ options: { file: { type: 'string' }, mib: { type: 'string', default: '16' }, rounds: { type: 'string', default: '3' } } })
const rounds = Number(opts.rounds)
if (!(rounds >= 1)) die('--rounds must be a whole number')

/** A snapshot of about `mib` MiB: a seeded namespace's card charges, made in this process through the built app. */
async function build(mib) {
  const { resolveConfig } = await import(`${ROOT}/dist/config.js`)
  const { createDeps, closeDeps } = await import(`${ROOT}/dist/deps.js`)
  const { createApp } = await import(`${ROOT}/dist/app.js`)
  const { encryptChargeData } = await import(`${ROOT}/dist/cards/crypto.js`)
  const deps = await createDeps(resolveConfig({ port: 0, seed: 7 }, {}))
  const app = createApp(deps)
  const key = 'sk_test_restore_bench'
  const call = async (method, path, body) => {
    const res = await app.request(path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) })
    return { status: res.status, text: await res.text() }
  }
  const enc = deps.namespaces.resolve(key).encryption_key
  // a stored card charge takes about 1.4 KB of a snapshot (docs/behaviour.md#snapshots)
  const charges = Math.floor((mib * 1024 * 1024 * 0.95) / 1460)
  for (let n = 1; n <= charges; n++) {
    const payload = { reference: `restore-bench-${n}`, card: { number: '4084127883172787', cvv: '123', expiry_month: '09', expiry_year: '30' }, amount: 1000, currency: 'NGN', customer: { email: 'buyer@example.com', name: 'Ada Buyer' }, metadata: { order: `o-${n}` } }
    const r = await call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(payload, enc) })
    if (r.status !== 200) die(`charge ${n}: ${r.text}`)
  }
  const text = JSON.stringify(JSON.parse((await call('GET', '/_sandbox/snapshot')).text).data)
  await closeDeps(deps)
  return text
}

const text = opts.file ? readFileSync(opts.file, 'utf8') : await build(Number(opts.mib))
log(`snapshot: ${round(Buffer.byteLength(text) / 1024 / 1024, 2)} MiB`)
const server = await startServer('sandbox', { args: ['--snapshot-bytes', String(Math.max(16 << 20, Buffer.byteLength(text)))] })
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
try {
  for (let r = 1; r <= rounds; r++) {
    let done = false
    const poll = async (path, key) => {
      const ms = []
      while (!done) {
        const t0 = performance.now()
        const res = await request(`${server.url}${path}`, { key })
        if (res.status !== 200) die(`${path} answered ${res.status}: ${res.text}`)
        ms.push(performance.now() - t0)
      }
      return ms
    }
    const t0 = performance.now()
    const restore = request(`${server.url}/_sandbox/snapshot`, { method: 'POST', body: text, key: `sk_test_restored_${r}`, timeoutMs: 120_000 }).then((res) => {
      done = true
      return res
    })
    const [res, health, other] = await Promise.all([restore, poll('/_sandbox/health'), poll('/merchant/api/v1/balances', 'sk_test_other')])
    if (res.status !== 200) die(`restore answered ${res.status}: ${res.text.slice(0, 300)}`)
    const ms = performance.now() - t0
    log(`round ${r}: restore ${Math.round(ms)} ms; health ${health.length} answers, slowest ${Math.round(Math.max(...health))} ms, median ${round(median(health), 1)} ms; another namespace's balances ${other.length} answers, slowest ${Math.round(Math.max(...other))} ms, median ${round(median(other), 1)} ms`)
  }
} finally {
  await stopServer(server)
}

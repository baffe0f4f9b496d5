// The memory soak (--soak MINUTES): card charges in memory for MINUTES, RSS sampled every 10 s,
// the namespace reset every --soak-reset seconds; flat = the last third's average RSS at most
// 1.1x the middle third's.
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { runLoad } from '../load.mjs'
import { SECRET } from './bodies.mjs'
import { coresUsed, machineInfo } from './machine.mjs'
import { LatHist, cpuSnap, procStatus } from './measure.mjs'
import { CARD_PATH, CardPool } from './scenarios.mjs'
import { assertAlive, isPinned, ourPids, request, startServer, stopServer } from './servers.mjs'
import { RESULTS, fmtInt, log, round, writeJson } from './util.mjs'

export async function soak(o) {
  const minutes = o.soak
  const seconds = Math.round(minutes * 60)
  const s = await startServer('sandbox')
  log(`soak: card charges for ${minutes} min in memory, ${o.connections} connections, RSS every 10 s${o.soakReset ? `, namespace reset every ${o.soakReset} s` : ', never reset'}`)
  const pool = new CardPool('soak', 0) // bodies made on the fly: a pool for the whole soak would not fit
  const samples = []
  let okCount = 0
  let lastOk = 0
  let lastReset = performance.now()
  const t0 = performance.now()
  let cpu0 = cpuSnap(ourPids())
  const sampler = setInterval(async () => {
    const t = round((performance.now() - t0) / 1000, 0)
    const st = procStatus(s.pid)
    const rate = Math.round((okCount - lastOk) / 10)
    lastOk = okCount
    const cpu1 = cpuSnap(ourPids())
    const use = coresUsed(cpu0, cpu1)
    cpu0 = cpu1
    const sample = { t, rss_mb: st.rss_mb, rate, server_cores: use?.[s.pid] ?? null, other_cores: use?.other ?? null }
    samples.push(sample)
    log(`  t=${String(t).padStart(4)} s  RSS ${st.rss_mb} MB  ${fmtInt(rate).padStart(6)} req/s  [cores: server ${sample.server_cores}, other ${sample.other_cores}]`)
    if (o.soakReset && performance.now() - lastReset >= o.soakReset * 1000 - 500) {
      lastReset = performance.now()
      sample.reset = (await request(`${s.url}/_sandbox/reset`, { method: 'POST', body: '{}' })).status
      if (sample.reset !== 200) log(`  (reset answered ${sample.reset})`)
    }
  }, 10_000)
  const hist = new LatHist()
  let non2xx = 0
  const r = await runLoad({
    url: s.url, connections: o.connections, duration: seconds, maxSeconds: seconds + 60, timeout: 10,
    method: 'POST', path: CARD_PATH, headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: () => pool.next(),
    onAnswer: (status, ms) => {
      if (status >= 200 && status < 300) {
        okCount++
        hist.record(ms)
      } else non2xx++
    },
  })
  clearInterval(sampler)
  assertAlive(s)
  await stopServer(s)
  const n = samples.length
  let flat = null
  if (n >= 3) {
    const avg = (xs) => round(xs.reduce((a, x) => a + x.rss_mb, 0) / xs.length, 1)
    const middle = samples.slice(Math.floor(n / 3), Math.floor((2 * n) / 3))
    const last = samples.slice(Math.floor((2 * n) / 3))
    const growth = round(avg(last) / avg(middle), 3)
    flat = { middle_mb: avg(middle), last_mb: avg(last), growth, ok: growth <= 1.1 }
  }
  const res = {
    date: new Date().toISOString(), machine: machineInfo(), pinned: isPinned(), minutes, reset_every_s: o.soakReset, connections: o.connections,
    requests_ok: okCount, non2xx, errors: r.errors + r.timeouts, rate: round(okCount / r.seconds, 0), p50: hist.pct(50), p99: hist.pct(99),
    first_rate: samples[0]?.rate, last_rate: samples.at(-1)?.rate, samples, flat,
  }
  log('')
  if (flat) log(`RSS middle third ${flat.middle_mb} MB, last third ${flat.last_mb} MB: ${flat.growth}x -> ${flat.ok ? 'PASS (flat)' : 'FAIL (growing)'}`)
  else log('too short to judge (fewer than 3 samples)')
  log(`${fmtInt(res.requests_ok)} card charges, ${fmtInt(res.rate)} req/s, p50 ${res.p50} ms, p99 ${res.p99} ms, non-2xx ${res.non2xx}, errors ${res.errors}; rate first 10 s ${fmtInt(res.first_rate)}, last 10 s ${fmtInt(res.last_rate)}`)
  await mkdir(RESULTS, { recursive: true })
  const out = o.out ?? path.join(RESULTS, 'soak-latest.json')
  await writeJson(out, res)
  log(`results: ${path.relative(process.cwd(), out)}`)
}

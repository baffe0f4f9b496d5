// The --data scaling run: paysandbox with --data on a fresh file, a bare server beside it, the
// card-charge rate measured on the empty store and again after filling it to each of --levels;
// at the end a restart on the same file, checked by querying a charge made before the fills.
import { mkdtemp, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { cardBody } from './bodies.mjs'
import { machineInfo } from './machine.mjs'
import { procStatus } from './measure.mjs'
import { interleave, load } from './rounds.mjs'
import { CARD_PATH, CardPool, RUN_ID, SCENARIOS, bodyMaker, poolSize } from './scenarios.mjs'
import { assertAlive, request, startServer, stopServer } from './servers.mjs'
import { fmtCpu, fmtInt, log, round, sum } from './util.mjs'

export async function dataRun(o) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'paysandbox-bench-'))
  const file = path.join(dir, 'data.json')
  const s = await startServer('sandbox', { args: ['--data', file] })
  const out = { file_fs: machineInfo().tmp_fs, levels: [] }
  let bareD = null
  try {
    // warm up in a throwaway namespace, then reset it: the measured namespace starts empty
    const warmKey = 'sk_test_benchwarmup'
    let est = 0
    if (o.warmup > 0) {
      const pool = new CardPool('data-warm', poolSize(3000, o.warmup, o.connections))
      const w = await load(s, { method: 'POST', path: CARD_PATH, key: warmKey, nextBody: () => pool.next(), duration: o.warmup, connections: o.connections })
      est = 3 * w.rate // cold warm-up: see runPair in scenarios.mjs
      const reset = await request(`${s.url}/_sandbox/reset`, { method: 'POST', key: warmKey, body: '{}' })
      if (reset.status !== 200) throw new Error(`reset of the warm-up namespace answered ${reset.status}: ${reset.text}`)
    }
    s.stored = 0
    // a bare server alongside, measured in the same interleaved rounds: the yardstick of how fast
    // the machine was during each level (see interleave in rounds.mjs)
    bareD = await startServer('bare')
    bareD.stored = 0
    out.bare_pid = bareD.pid
    const bareBodies = bodyMaker('card', 'bare', 0, 0, o.connections, 'data')
    await load(bareD, { method: 'POST', path: CARD_PATH, bodies: bareBodies.bodies, duration: Math.max(1, o.warmup), connections: o.connections })
    const rounds = Math.max(1, Math.min(5, Math.round(o.dataDuration)))
    const measure = async (label) => {
      await sleep(500)
      const before = s.stored
      const pool = new CardPool(`data-${label}`, poolSize(est, o.dataDuration, o.connections))
      const makers = new Map([[bareD, bareBodies], [s, { next: () => pool.next(), pool }]])
      const res = await interleave(o, [bareD, s], makers, SCENARIOS.card, rounds, o.dataDuration / rounds, `--data ${label}`)
      const r = res.get(s)
      const b = res.get(bareD)
      const level = { label, ...r, stored_before: before, stored_after: s.stored, bare_rate: b.rate, bare_round_rates: b.round_rates, bare_cpu: b.cpu, ...(b.noisy ? { bare_noisy: true } : {}) }
      level.rss_mb = procStatus(s.pid).rss_mb
      level.file_mb = round((await stat(file)).size / 2 ** 20, 1)
      est = r.rate
      out.levels.push(level)
      log(`  --data ${label.padEnd(6)} ${fmtInt(r.rate)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  max ${round(r.max, 0)} ms  (stored ${fmtInt(before)} -> ${fmtInt(s.stored)}, RSS ${level.rss_mb} MB, file ${level.file_mb} MB)  ${fmtCpu(r.cpu)}\n         bare alongside ${fmtInt(b.rate)} req/s  ${fmtCpu(b.cpu)}`)
      return level
    }
    await measure('empty')
    // one charge with a known reference, to check the reload at the end
    const known = `bench-${RUN_ID}-data-known`
    const k = await request(`${s.url}${CARD_PATH}`, { method: 'POST', body: cardBody(known) })
    if (k.status !== 200) throw new Error(`--data: a charge answered ${k.status}: ${k.text}`)
    s.stored++
    for (const target of o.levels) {
      const need = target - s.stored
      if (need > 0) out[`fill_${target}`] = await fill(s, target, need)
      await measure(`${target / 1000}k`)
    }
    out.final = { stored: s.stored, ...procStatus(s.pid), file_mb: round((await stat(file)).size / 2 ** 20, 1) }
    await stopServer(bareD)
    const t0 = performance.now()
    await stopServer(s)
    out.final.stop_ms = round(performance.now() - t0, 0)
    // it reloads: the file holds what was acknowledged
    const t1 = performance.now()
    const again = await startServer('sandbox', { args: ['--data', file] })
    out.final.restart_ready_ms = round(performance.now() - t1, 0)
    const q = await request(`${again.url}/merchant/api/v1/charges/${known}`)
    out.final.reload_check = q.status
    await stopServer(again)
  } finally {
    if (bareD) await stopServer(bareD, 'SIGKILL').catch(() => {})
    await stopServer(s, 'SIGKILL').catch(() => {})
    await rm(dir, { recursive: true, force: true })
  }
  return out
}

/** Adds `need` card charges to the store of `s`, to reach `target`, as fast as it takes them. */
async function fill(s, target, need) {
  const fillConnections = 50
  const fills = []
  const t0 = performance.now()
  // pools of at most 50k bodies at a time
  for (let left = need; left > 0;) {
    const n = Math.min(left, 50_000)
    const pool = new CardPool(`fill-${target}-${left}`, n)
    const f = await load(s, { method: 'POST', path: CARD_PATH, nextBody: () => pool.next(), amount: n, connections: fillConnections, maxSeconds: 600 })
    assertAlive(s)
    fills.push(f)
    s.stored += f.ok
    left -= n
    if (f.ok < n) throw new Error(`filling to ${target}: only ${f.ok} of ${n} charges accepted (${JSON.stringify(f.statuses)}, errors ${f.errors})`)
  }
  const secs = (performance.now() - t0) / 1000
  log(`  --data fill to ${fmtInt(target)}: ${fmtInt(need)} charges in ${round(secs, 1)} s (${fmtInt(need / secs)}/s at ${fillConnections} connections)`)
  return { charges: need, seconds: round(secs, 1), non2xx: sum(fills, 'non2xx'), errors: sum(fills, 'errors') }
}

// The bench proper: cold starts, the load scenarios, the --data run, then the table and the
// results file. With --only: the scenarios asked for (and `data`: the --data run) and their
// figures, no cold start, no table.
import { statSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { coldStarts } from './cold-start.mjs'
import { dataRun } from './data-levels.mjs'
import { evaluate, footer, table } from './report.mjs'
import { RUN_ID, runScenarios } from './scenarios.mjs'
import { isPinned } from './servers.mjs'
import { RESULTS, ROOT, fmtInt, log, round, writeJson } from './util.mjs'

export async function fullRun(o, machine) {
  const started = performance.now()
  const res = { date: new Date().toISOString(), machine, pinned: isPinned(), options: o, run_id: RUN_ID }
  log(`paysandbox bench: ${machine.nproc} cores, ${machine.cpu}, node ${machine.node}; ${isPinned() ? 'servers on core 0, load generator on core 1' : 'NOT pinned (no taskset or < 2 cores)'}`)
  log(`scenarios ${o.duration} s each after ${o.warmup} s warm-up, ${o.connections} connections`)

  if (!o.only) {
    log('cold start ...')
    res.cold_start = await coldStarts(o)
    log(`  bare ${res.cold_start.bare.median_ms} ms, paysandbox ${res.cold_start.sandbox.median_ms} ms (median of ${o.coldRuns})`)
  }

  await runScenarios(o, res)
  if (o.only) {
    for (const [scenario, r] of Object.entries(res.rss_by_scenario)) log(`  RSS after ${scenario}: bare ${r.bare.rss_mb} MB, paysandbox ${r.sandbox.rss_mb} MB (${fmtInt(r.sandbox.stored)} stored)`)
    if (o.only.includes('data')) {
      log(`--data scaling run (${o.dataDuration} s per level) ...`)
      res.data = await dataRun(o)
    }
    if (o.out) await writeJson(o.out, res)
    return res
  }
  // the card-charge run is the one that leaves the most charges behind
  res.rss = res.rss_by_scenario.card
  log(`  RSS after the card-charge run: bare ${res.rss.bare.rss_mb} MB, paysandbox ${res.rss.sandbox.rss_mb} MB with ${fmtInt(res.rss.sandbox.stored)} charges stored in memory`)

  if (o.data) {
    log(`--data scaling run (${o.dataDuration} s per level) ...`)
    res.data = await dataRun(o)
  }

  res.table = evaluate(res)
  const builtNow = statSync(path.join(ROOT, 'dist', 'cli.js')).mtime.toISOString()
  if (builtNow !== machine.dist_built) {
    res.dist_rebuilt_during_run = builtNow
    process.stderr.write(`bench: warning: dist/ was rebuilt during the run (${builtNow}): some figures may be of the newer build\n`)
  }
  const measured = [...Object.values(res.load.bare), ...Object.values(res.load.sandbox), ...(res.data?.levels ?? [])]
  res.other_cpu_max = Math.max(0, res.cold_start.other_cores ?? 0, ...measured.map((r) => r.cpu?.other ?? 0))
  res.elapsed_s = round((performance.now() - started) / 1000, 0)
  log('')
  log(table(res.table))
  log('')
  footer(res)
  await mkdir(RESULTS, { recursive: true })
  const out = o.out ?? path.join(RESULTS, 'latest.json')
  await writeJson(out, res)
  log(`results: ${path.relative(process.cwd(), out) || out}`)
  return res
}

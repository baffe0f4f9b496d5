// Cold starts: from spawn() to the first 200 of GET /_sandbox/health, bare and paysandbox
// alternating, the median of --cold-runs each.
import { setTimeout as sleep } from 'node:timers/promises'
import { NOISE, coresUsed, quietAgain, waitsForQuiet } from './machine.mjs'
import { cpuSnap } from './measure.mjs'
import { HOST, freePort, request, spawnServer, stopServer } from './servers.mjs'
import { log, median, round } from './util.mjs'

/** One start of a `kind` server: ms to its first 200, and to its ready line. */
async function coldStart(kind) {
  const port = await freePort()
  const t0 = performance.now()
  const child = spawnServer(kind, { port })
  let readyLine = NaN
  let out = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (d) => {
    if (!Number.isNaN(readyLine)) return
    out += d
    if (/listening on/.test(out)) readyLine = performance.now() - t0
  })
  const deadline = t0 + 20_000
  let ms = NaN
  while (performance.now() < deadline) {
    const r = await request(`http://${HOST}:${port}/_sandbox/health`, { timeoutMs: 2000 })
    if (r.status === 200) { ms = performance.now() - t0; break }
    if (child.exitInfo) break
    await sleep(1)
  }
  await stopServer({ child }, 'SIGKILL')
  if (Number.isNaN(ms)) throw new Error(`${kind} never answered 200 on /_sandbox/health within 20 s; stderr: ${child.stderrTail}`)
  return { ms: round(ms, 1), ready_line_ms: round(readyLine, 1) }
}

export async function coldStarts(o) {
  // one untimed start each (file cache), then alternate
  await coldStart('bare')
  await coldStart('sandbox')
  let runs
  let use
  for (let attempt = 0; attempt < 3; attempt++) {
    runs = { bare: [], sandbox: [] }
    const c0 = cpuSnap([process.pid])
    for (let i = 0; i < o.coldRuns; i++) {
      runs.bare.push(await coldStart('bare'))
      runs.sandbox.push(await coldStart('sandbox'))
    }
    use = coresUsed(c0, cpuSnap([process.pid]))
    if ((use?.other ?? 0) <= NOISE) break
    log(`  (cold start: other processes took ${use.other} cores; ${attempt < 2 ? 'measuring again' : 'keeping this one, marked noisy'})`)
    if (attempt < 2 && waitsForQuiet()) await quietAgain()
  }
  const med = (xs) => median(xs.map((x) => x.ms))
  return {
    other_cores: use?.other ?? null,
    bare: { median_ms: med(runs.bare), runs: runs.bare },
    sandbox: { median_ms: med(runs.sandbox), runs: runs.sandbox, ready_line_median_ms: median(runs.sandbox.map((x) => x.ready_line_ms)) },
  }
}

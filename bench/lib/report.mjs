// The table of the docs/behaviour.md#speed targets, judged from a full run's results (and the latest soak's),
// and --report: the table again from a results file, stored back into it.
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { NOISE } from './machine.mjs'
import { RESULTS, fmtInt, fmtK, log, round, sum, writeJson } from './util.mjs'

/** The latest soak's results (bench/results/soak-latest.json), or null. */
function readSoak() {
  const f = path.join(RESULTS, 'soak-latest.json')
  try {
    return JSON.parse(readFileSync(f, 'utf8'))
  } catch {
    return null
  }
}

/** The table's rows: each figure of a full run's results against its docs/behaviour.md#speed target. */
export function evaluate(res) {
  const rows = []
  const L = res.load
  // verdicts on the exact ratio; shown with 3 decimals so a near miss does not read as a hit
  const ratio = (a, b) => (a && b ? a / b : NaN)
  const x = (r) => `${round(r, 3)}x`
  const verdict = (okay, ...runs) => (okay === null ? 'n/a' : (okay ? 'PASS' : 'FAIL') + (runs.some((r) => r?.noisy) ? ' (noisy)' : ''))
  const lat = (r) => `${r.p50} / ${r.p99}`

  const card = ratio(L.sandbox.card.rate, L.bare.card.rate)
  rows.push({ metric: 'card charge, req/s', bare: fmtInt(L.bare.card.rate), sandbox: fmtInt(L.sandbox.card.rate), ratio: x(card), target: '>= 0.35x', result: verdict(card >= 0.35, L.bare.card, L.sandbox.card) })
  rows.push({ metric: 'card charge, p50 / p99 ms', bare: lat(L.bare.card), sandbox: lat(L.sandbox.card), ratio: '', target: 'p99 <= 4 ms', result: verdict(L.sandbox.card.p99 <= 4, L.sandbox.card) })
  const burn = L.burn?.card
  if (burn) {
    // the reference: what this machine's latency is for a server costing what paysandbox costs
    rows.push({ metric: `card charge, p50 / p99 ms, of a bare server costing paysandbox's CPU per request (${burn.cpu_us} vs ${L.sandbox.card.cpu_us} µs)`, bare: lat(burn), sandbox: lat(L.sandbox.card), ratio: '', target: '(reference)', result: '' })
  }
  const q = ratio(L.sandbox.query.rate, L.bare.query.rate)
  rows.push({ metric: 'charge query, req/s', bare: fmtInt(L.bare.query.rate), sandbox: fmtInt(L.sandbox.query.rate), ratio: x(q), target: '>= 0.8x', result: verdict(q >= 0.8, L.bare.query, L.sandbox.query) })
  rows.push({ metric: 'charge query, p50 / p99 ms', bare: lat(L.bare.query), sandbox: lat(L.sandbox.query), ratio: '', target: '', result: '' })
  const mm = ratio(L.sandbox.mm.rate, L.bare.mm.rate)
  rows.push({ metric: 'mobile money charge, req/s', bare: fmtInt(L.bare.mm.rate), sandbox: fmtInt(L.sandbox.mm.rate), ratio: x(mm), target: '(none)', result: '' })
  rows.push({ metric: 'mobile money charge, p50 / p99 ms', bare: lat(L.bare.mm), sandbox: lat(L.sandbox.mm), ratio: '', target: '', result: '' })
  // results of runs before the checkout scenario have none
  if (L.sandbox.init && L.bare.init) {
    const init = ratio(L.sandbox.init.rate, L.bare.init.rate)
    rows.push({ metric: 'checkout initialize, req/s', bare: fmtInt(L.bare.init.rate), sandbox: fmtInt(L.sandbox.init.rate), ratio: x(init), target: '>= 0.35x', result: verdict(init >= 0.35, L.bare.init, L.sandbox.init) })
    rows.push({ metric: 'checkout initialize, p50 / p99 ms', bare: lat(L.bare.init), sandbox: lat(L.sandbox.init), ratio: '', target: '', result: '' })
  }
  // results of runs before the payout scenario have none
  if (L.sandbox.disburse && L.bare.disburse) {
    const disburse = ratio(L.sandbox.disburse.rate, L.bare.disburse.rate)
    rows.push({ metric: 'payout (disburse), req/s', bare: fmtInt(L.bare.disburse.rate), sandbox: fmtInt(L.sandbox.disburse.rate), ratio: x(disburse), target: '>= 0.35x', result: verdict(disburse >= 0.35, L.bare.disburse, L.sandbox.disburse) })
    rows.push({ metric: 'payout (disburse), p50 / p99 ms', bare: lat(L.bare.disburse), sandbox: lat(L.sandbox.disburse), ratio: '', target: '', result: '' })
  }

  const all = [...Object.values(L.bare), ...Object.values(L.sandbox)]
  const errs = (rs) => `${sum(rs, 'errors') + sum(rs, 'timeouts')} / ${sum(rs, 'non2xx')}`
  const dataLevels = res.data?.levels ?? []
  const bad = sum([...all, ...dataLevels], 'errors') + sum([...all, ...dataLevels], 'timeouts') + sum([...all, ...dataLevels], 'non2xx')
  rows.push({ metric: 'errors / non-2xx (all measured runs)', bare: errs(Object.values(L.bare)), sandbox: errs([...Object.values(L.sandbox), ...dataLevels]), ratio: '', target: '0 / 0', result: bad === 0 ? 'ok' : 'INVALID' })

  const cs = res.cold_start
  const c = ratio(cs.sandbox.median_ms, cs.bare.median_ms)
  rows.push({ metric: `cold start to first 200, median of ${cs.bare.runs.length} (ms)`, bare: String(cs.bare.median_ms), sandbox: String(cs.sandbox.median_ms), ratio: x(c), target: '<= 1.5x', result: verdict(c <= 1.5, { noisy: (cs.other_cores ?? 0) > NOISE }) })
  rows.push({ metric: `RSS after the card-charge run, in memory (MB)`, bare: String(res.rss.bare.rss_mb), sandbox: `${res.rss.sandbox.rss_mb} (${fmtK(res.rss.sandbox.stored)} charges)`, ratio: x(ratio(res.rss.sandbox.rss_mb, res.rss.bare.rss_mb)), target: '', result: '' })

  const rssSamples = []
  if (res.rss.sandbox.stored >= 50_000) rssSamples.push({ where: `in memory, ${fmtK(res.rss.sandbox.stored)} stored`, mb: res.rss.sandbox.rss_mb })
  if (res.data) {
    const empty = dataLevels.find((l) => l.label === 'empty')
    for (const l of dataLevels) {
      const raw = ratio(l.rate, empty.rate)
      // against the bare server measured in the same rounds (older results have no bare_rate)
      const r = l.bare_rate && empty.bare_rate ? ratio(l.rate / l.bare_rate, empty.rate / empty.bare_rate) : raw
      const is50 = l.label === '50k'
      rows.push({
        metric: `--data card charge, ${l.label === 'empty' ? 'from empty' : `at ${l.label}`} (${fmtK(l.stored_before)} -> ${fmtK(l.stored_after)} stored) (req/s; p50 / p99 / max ms)`,
        bare: l.bare_rate ? fmtInt(l.bare_rate) : '', sandbox: `${fmtInt(l.rate)}; ${l.p50} / ${l.p99} / ${round(l.max, 0)}`,
        ratio: l.label === 'empty' ? '1x' : l.bare_rate ? `${x(r)} (raw ${x(raw)})` : x(r),
        target: is50 ? '>= 0.9x of empty' : '', result: is50 ? verdict(r >= 0.9, l, empty) : '',
      })
      if (l.stored_before >= 50_000) rssSamples.push({ where: `--data, ${fmtK(l.stored_after)} stored`, mb: l.rss_mb })
    }
    if (!dataLevels.some((l) => l.label === '50k')) rows.push({ metric: '--data card charge at 50k stored', bare: '', sandbox: 'not measured', ratio: '', target: '>= 0.9x of empty', result: 'n/a' })
  } else {
    rows.push({ metric: '--data card charge at 50k stored', bare: '', sandbox: 'skipped (--no-data)', ratio: '', target: '>= 0.9x of empty', result: 'n/a' })
  }
  if (rssSamples.length) {
    const worst = rssSamples.reduce((a, b) => (b.mb > a.mb ? b : a))
    rows.push({ metric: 'RSS with 50k+ charges stored, worst (MB)', bare: '', sandbox: `${worst.mb} (${worst.where})`, ratio: '', target: '<= 200 MB', result: verdict(worst.mb <= 200) })
  } else {
    rows.push({ metric: 'RSS with 50k+ charges stored (MB)', bare: '', sandbox: 'not measured', ratio: '', target: '<= 200 MB', result: 'n/a' })
  }
  const soak = readSoak()
  if (soak?.flat) {
    rows.push({ metric: `memory flat over a long run (soak of ${soak.minutes} min, ${soak.date.slice(0, 10)})`, bare: '', sandbox: `middle ${soak.flat.middle_mb} MB, last ${soak.flat.last_mb} MB`, ratio: `${soak.flat.growth}x`, target: 'last third <= 1.1x middle', result: verdict(soak.flat.ok) })
  } else {
    rows.push({ metric: 'memory flat over a long run', bare: '', sandbox: 'not run here (npm run bench -- --soak 10)', ratio: '', target: 'last third <= 1.1x middle', result: 'n/a' })
  }
  return rows
}

/** The rows as a Markdown table. */
export function table(rows) {
  const cols = [['metric', 'metric'], ['bare', 'bare Hono'], ['sandbox', 'paysandbox'], ['ratio', 'ratio'], ['target', 'target (behaviour.md#speed)'], ['result', 'result']]
  const w = cols.map(([k, h]) => Math.max(h.length, ...rows.map((r) => String(r[k] ?? '').length)))
  const line = (cells) => '| ' + cells.map((c, i) => String(c).padEnd(w[i])).join(' | ') + ' |'
  return [line(cols.map(([, h]) => h)), '|' + w.map((n) => '-'.repeat(n + 2)).join('|') + '|', ...rows.map((r) => line(cols.map(([k]) => r[k] ?? '')))].join('\n')
}

/** The two lines under the table: when the run was, and how busy the machine was. */
export function footer(res) {
  log(`(${res.date}, ${res.elapsed_s} s; ratios are paysandbox / bare in this run; p50/p99 measured client-side;`)
  log(` other processes used up to ${res.other_cpu_max} cores during the measured runs${res.other_cpu_max > NOISE ? ': NOISY, rerun on a quiet machine' : ''})`)
}

/** --report: the table again from `o.out` (default bench/results/latest.json), judged anew. */
export async function report(o) {
  const file = o.out ?? path.join(RESULTS, 'latest.json')
  const res = JSON.parse(await readFile(file, 'utf8'))
  res.table = evaluate(res)
  // stored first, atomically: printing may be cut short (| head)
  await writeJson(file, res)
  log(table(res.table))
  log('')
  footer(res)
}

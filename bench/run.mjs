#!/usr/bin/env node
// paysandbox benchmark (issue 10, docs/behaviour.md#speed). See bench/README.md.
//
//   npm run build && npm run bench                 # the full run (about 3-4 minutes)
//   npm run bench -- --quick                        # a shorter run
//   npm run bench -- --soak 10                      # 10-minute memory soak only
//   npm run bench -- --profile                      # CPU profile of the sandbox under card charges
//
// Servers are real child processes pinned to core 0 (taskset -c 0); this process, which runs
// the load generator (load.mjs), pins itself to core 1. Only loopback addresses; every loop is
// bounded. This file reads the options and calls the part asked for, in bench/lib/: full-run.mjs
// (cold-start.mjs, scenarios.mjs, data-levels.mjs, then report.mjs's table), soak.mjs,
// profile.mjs, or report.mjs alone.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { fullRun } from './lib/full-run.mjs'
import { machineInfo, waitQuiet } from './lib/machine.mjs'
import { profile } from './lib/profile.mjs'
import { report } from './lib/report.mjs'
import { killAll, pinSelf } from './lib/servers.mjs'
import { soak } from './lib/soak.mjs'
import { ROOT, die, sh } from './lib/util.mjs'

const USAGE = `usage: node bench/run.mjs [options]
  --quick               shorter run (3 s scenarios, 3 cold starts, --data levels 10k and 50k)
  --duration S          seconds per scenario (default 10)
  --data-duration S     seconds per --data level (default 5)
  --warmup S            warm-up seconds before each measured run (default 3)
  --connections N       load connections (default 10)
  --cold-runs N         cold starts per server, median taken (default 5)
  --levels A,B,C        stored charges of the --data run (default 10000,50000,100000)
  --no-data             skip the --data scaling run
  --no-burn             skip the card-charge latency reference (a bare server burning paysandbox's CPU)
  --only LIST           only these load scenarios (card,query,mm,init,disburse,data), side by side with bare; no cold
                        start, no table (for comparing builds while working; data: the --data run alone)
  --soak [MINUTES]      only the memory soak: card charges in memory for MINUTES (default 10)
  --soak-reset S        during the soak, reset the namespace every S seconds (default 10; 0 never)
  --profile [SCENARIO]  only a CPU profile (--cpu-prof) of the sandbox under load: card (default), query, mm, init or disburse
  --wait-quiet S        first wait up to S seconds for other processes to leave the CPUs (default 0)
  --report              run nothing: print the table again from bench/results/latest.json (and the
                        latest soak), and store it back there
  --out FILE            JSON results file (default bench/results/latest.json, soak-latest.json, profile-latest.json)`

const OPTIONS = {
  quick: { type: 'boolean' },
  duration: { type: 'string' },
  'data-duration': { type: 'string' },
  warmup: { type: 'string' },
  connections: { type: 'string' },
  'cold-runs': { type: 'string' },
  levels: { type: 'string' },
  'no-data': { type: 'boolean' },
  'no-burn': { type: 'boolean' },
  only: { type: 'string' },
  // --soak [MINUTES] and --profile [SCENARIO]: their value, if any, is the positional after them
  soak: { type: 'boolean' },
  'soak-reset': { type: 'string' },
  profile: { type: 'boolean' },
  'wait-quiet': { type: 'string' },
  report: { type: 'boolean' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
}
/** What an optional value looks like, by option. */
const OPTIONAL_VALUES = { soak: /^\d+(\.\d+)?$/, profile: /^(card|query|mm|init|disburse)$/ }

/** The options, defaults filled in (--quick's for what it shortens and was not given). */
function options(argv) {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, tokens: true })
  } catch (e) {
    die(e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? `${e.message}\n${USAGE}` : e.message)
  }
  const { values: v, tokens } = parsed
  if (v.help) {
    process.stdout.write(USAGE + '\n')
    process.exit(0)
  }
  const optional = {}
  tokens.forEach((t, i) => {
    if (t.kind !== 'positional') return
    const before = tokens[i - 1]
    if (before?.kind === 'option' && OPTIONAL_VALUES[before.name]?.test(t.value)) optional[before.name] = t.value
    else die(`unknown option ${t.value}\n${USAGE}`)
  })
  const num = (name, value, min, max) => {
    const n = Number(value)
    if (!Number.isFinite(n) || n < min || n > max) die(`--${name} must be a number from ${min} to ${max}`)
    return n
  }
  /** --name's number, else `fallback`. */
  const opt = (name, min, max, fallback) => (v[name] === undefined ? fallback : num(name, v[name], min, max))
  const quick = v.quick ?? false
  const only = v.only?.split(',') ?? null
  if (only && only.some((x) => !/^(card|query|mm|init|disburse|data)$/.test(x))) die('--only takes a list of card, query, mm, init, disburse, data')
  return {
    duration: opt('duration', 1, 600, quick ? 3 : 10),
    dataDuration: opt('data-duration', 1, 600, quick ? 3 : 5),
    warmup: opt('warmup', 0, 60, quick ? 2 : 3),
    connections: Math.round(opt('connections', 1, 1000, 10)),
    coldRuns: Math.round(opt('cold-runs', 1, 50, quick ? 3 : 5)),
    levels: v.levels?.split(',').map((s) => Math.round(num('levels', s, 1, 2_000_000))).sort((x, y) => x - y) ?? (quick ? [10_000, 50_000] : [10_000, 50_000, 100_000]),
    data: !v['no-data'],
    burn: !v['no-burn'],
    soak: v.soak ? (optional.soak === undefined ? 10 : num('soak', optional.soak, 0.5, 240)) : null,
    soakReset: opt('soak-reset', 0, 3600, 10),
    profile: v.profile ? (optional.profile ?? 'card') : false,
    only,
    quick,
    out: v.out === undefined ? null : path.resolve(v.out),
    waitQuiet: opt('wait-quiet', 0, 3600, 0),
    report: v.report ?? false,
  }
}

// `npm run bench | head` closes stdout early: not an error of the bench
process.stdout.on('error', (e) => { if (e.code === 'EPIPE') { killAll(); process.exit(0) } throw e })

async function main() {
  const o = options(process.argv.slice(2))
  if (o.report) return report(o)
  if (!existsSync(path.join(ROOT, 'dist', 'cli.js'))) die('dist/ is missing: run `npm run build` first')
  const newer = sh('find', [path.join(ROOT, 'src'), '-newer', path.join(ROOT, 'dist', 'cli.js'), '-name', '*.ts'])
  if (newer) process.stderr.write(`bench: warning: src/ has files newer than dist/ (${newer.split('\n').length}); run \`npm run build\` to measure them\n`)
  // read before pinning: its nproc counts the CPUs this process may use
  const machine = machineInfo()
  pinSelf(machine)
  await waitQuiet(o.waitQuiet)
  if (o.soak !== null) return soak(o)
  if (o.profile) return profile(o)
  await fullRun(o, machine)
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`bench: ${e.stack ?? e}\n`)
    killAll()
    process.exit(1)
  },
)

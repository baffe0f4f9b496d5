// The load scenarios (card charge, charge query, mobile money charge, checkout initialize, payout), each on a fresh pair of
// servers, paysandbox beside bare Hono, and for the card charge the latency reference: a bare
// server made to cost what paysandbox costs per request.
import { setTimeout as sleep } from 'node:timers/promises'
import { CardBodies, cardBody, disburseBody, initBody, mmBody } from './bodies.mjs'
import { quietRun } from './machine.mjs'
import { procStatus } from './measure.mjs'
import { cpuUs, interleave, load } from './rounds.mjs'
import { assertAlive, request, startServer, stopServer } from './servers.mjs'
import { fmtCpu, fmtInt, log, round } from './util.mjs'

export const CARD_PATH = '/merchant/api/v1/charges/card'
const MM_PATH = '/merchant/api/v1/charges/mobile-money'
const INIT_PATH = '/merchant/api/v1/charges/initialize'
const DISBURSE_PATH = '/merchant/api/v1/transactions/disburse'
export const QUERY_REF = 'bench-query-00000001'
const POOL_CAP = 400_000 // pre-generated bodies at most (~200 MB); beyond, bodies are made on the fly

export const SCENARIOS = {
  card: { label: 'card charge', method: 'POST', path: CARD_PATH },
  query: { label: 'charge query', method: 'GET', path: `/merchant/api/v1/charges/${QUERY_REF}` },
  mm: { label: 'mobile money charge', method: 'POST', path: MM_PATH },
  init: { label: 'checkout initialize', method: 'POST', path: INIT_PATH },
  disburse: { label: 'payout (disburse)', method: 'POST', path: DISBURSE_PATH },
}

/** This run's mark in every reference it sends: runs against one --data file never collide. */
export const RUN_ID = Date.now().toString(36)

/**
 * Card bodies with distinct references `bench-RUN-TAG-i`: `size` made up front (so the load
 * generator only picks them), then made on the fly if a run outlasts the pool (CardBodies).
 */
export class CardPool extends CardBodies {
  constructor(tag, size) {
    super(`${RUN_ID}-${tag}`, size)
  }
}

let mmSeq = 0
const nextMm = () => mmBody(`bench-mm-${RUN_ID}-${mmSeq++}`)
let initSeq = 0
const nextInit = () => initBody(`bench-co-${RUN_ID}-${initSeq++}`)
let disburseSeq = 0
const nextDisburse = () => disburseBody(`bench-po-${RUN_ID}-${disburseSeq++}`)

/** Card bodies for `seconds` at `rate` (5,000/s when unknown) and then some, POOL_CAP at most. */
export const poolSize = (rate, seconds, connections) => Math.min(POOL_CAP, Math.ceil((rate || 5000) * 1.5 * seconds) + 50 * connections + 1000)

/**
 * The bodies a server is sent in a scenario: `next()` makes (or picks) each one, or `bodies` are
 * cycled; `pool`: the card pool behind `next`, if any.
 */
export function bodyMaker(scenario, server, estRate, seconds, connections, tag) {
  // bare: it ignores the reference, so 1,000 bodies built once are cycled and the load generator
  // does as little as it can; paysandbox: a fresh reference on every request
  if (server !== 'sandbox' && scenario === 'card') return { bodies: Array.from({ length: 1000 }, (_, i) => cardBody(`bench-${RUN_ID}-bare-${i}`)), pool: null }
  if (server === 'bare' && scenario === 'mm') return { bodies: Array.from({ length: 1000 }, (_, i) => mmBody(`bench-mm-${RUN_ID}-bare-${i}`)), pool: null }
  if (server === 'bare' && scenario === 'disburse') return { bodies: Array.from({ length: 1000 }, (_, i) => disburseBody(`bench-po-${RUN_ID}-bare-${i}`)), pool: null }
  if (server === 'bare' && scenario === 'init') return { bodies: Array.from({ length: 1000 }, (_, i) => initBody(`bench-co-${RUN_ID}-bare-${i}`)), pool: null }
  if (scenario === 'card') {
    const pool = new CardPool(tag, poolSize(estRate, seconds, connections))
    return { next: () => pool.next(), pool }
  }
  if (scenario === 'mm') return { next: nextMm, pool: null }
  if (scenario === 'init') return { next: nextInit, pool: null }
  if (scenario === 'disburse') return { next: nextDisburse, pool: null }
  return { next: undefined, pool: null }
}

/**
 * The card charge's latency reference: a bare server made to cost, per card charge, the CPU time
 * paysandbox costs (bare.mjs --cpu-us; one round of paysandbox measures it, and every measured
 * round of paysandbox sets it again), started and warmed up now. Its latency, measured in the same
 * rounds, is what this machine gives any server that costs that much per request; what
 * paysandbox's latency has beyond it is its own (garbage collection, packing records).
 */
async function startBurn(o, sb, sc) {
  const per = o.duration / Math.max(1, Math.min(10, Math.round(o.duration)))
  const s = bodyMaker('card', 'sandbox', 8000, per, o.connections, 'card-calibrate')
  const rs = await quietRun('card calibration on paysandbox', () => load(sb, { method: sc.method, path: sc.path, nextBody: s.next, duration: per, connections: o.connections }))
  sb.stored += rs.ok
  const target = cpuUs(rs)
  if (!Number.isFinite(target)) return null
  const burn = await startServer('burn', { args: ['--cpu-us', String(Math.round(target))] })
  burn.stored = 0
  const w = bodyMaker('card', 'burn', 0, o.warmup, o.connections, 'card-warm')
  await load(burn, { method: sc.method, path: sc.path, bodies: w.bodies, duration: Math.max(2, o.warmup), connections: o.connections })
  return burn
}

/**
 * One scenario on bare and paysandbox: a warm-up of each, then interleaved 1-second rounds (for
 * the card charge, with the latency reference of startBurn as a third server unless --no-burn).
 */
async function runPair(o, bare, sb, scenario) {
  const sc = SCENARIOS[scenario]
  const rounds = Math.max(1, Math.min(10, Math.round(o.duration)))
  let est = 0
  if (o.warmup > 0) {
    for (const s of [bare, sb]) {
      const w = bodyMaker(scenario, s.kind, 0, o.warmup, o.connections, `${scenario}-warm`)
      const wr = await load(s, { method: sc.method, path: sc.path, nextBody: w.next, bodies: w.bodies, duration: o.warmup, connections: o.connections })
      if (sc.method === 'POST') s.stored += wr.ok
      // the warm-up runs cold (JIT, first allocations): the measured rounds go faster, up to 4-5x
      if (s === sb) est = Math.max(2000, 5 * wr.rate)
      assertAlive(s)
    }
  }
  const burn = scenario === 'card' && o.burn ? await startBurn(o, sb, sc) : null
  try {
    const makers = new Map([
      [bare, bodyMaker(scenario, 'bare', 0, o.duration, o.connections, scenario)],
      [sb, bodyMaker(scenario, 'sandbox', est, o.duration, o.connections, scenario)],
    ])
    if (burn) makers.set(burn, bodyMaker(scenario, 'burn', 0, o.duration, o.connections, scenario))
    // after each round of paysandbox, the reference is set to cost what that round cost
    const afterRound = burn ? (s, r) => (s === sb && Number.isFinite(cpuUs(r)) ? request(`${burn.url}/_bench/cpu-us/${Math.round(cpuUs(r))}`, { method: 'PUT' }) : null) : null
    const res = await interleave(o, [...makers.keys()], makers, sc, rounds, o.duration / rounds, sc.label, afterRound)
    const out = { bare: res.get(bare), sandbox: res.get(sb) }
    out.sandbox.round_ratios = out.sandbox.round_rates.map((r, i) => round(r / out.bare.round_rates[i], 3))
    if (burn) out.burn = res.get(burn)
    await sleep(300)
    return out
  } finally {
    if (burn) await stopServer(burn)
  }
}

/**
 * Runs the load scenarios (those of --only, else all five) and puts their figures in `res`:
 * `load` (bare's, paysandbox's and the reference's, by scenario), `rss_by_scenario`, and
 * `affinity` (the CPUs each process may use).
 */
export async function runScenarios(o, res) {
  // a fresh pair of servers per scenario: what one scenario leaves behind (charges, garbage, a
  // larger heap) must not slow the next one down
  res.load = { bare: {}, sandbox: {} }
  res.rss_by_scenario = {}
  for (const scenario of o.only?.filter((x) => x !== 'data') ?? ['card', 'query', 'mm', 'init', 'disburse']) {
    const bare = await startServer('bare')
    const sb = await startServer('sandbox')
    try {
      bare.stored = 0
      sb.stored = 0
      res.affinity ??= { bench: procStatus(process.pid).cpus, bare: procStatus(bare.pid).cpus, sandbox: procStatus(sb.pid).cpus }
      if (scenario === 'query') {
        const created = await request(`${sb.url}${CARD_PATH}`, { method: 'POST', body: cardBody(QUERY_REF) })
        if (created.status !== 200) throw new Error(`could not create the charge to query: ${created.status} ${created.text}`)
        sb.stored++
        for (const s of [bare, sb]) {
          const q = await request(`${s.url}${SCENARIOS.query.path}`)
          if (q.status !== 200) throw new Error(`${s.kind}: the charge query answered ${q.status}: ${q.text}`)
        }
      }
      if (scenario === 'disburse') {
        // a balance no run exhausts: each payout of 1,000 NGN costs 1,032.25 of it
        const funded = await request(`${sb.url}/_sandbox/scenarios`, { method: 'POST', body: JSON.stringify({ settings: { opening_balance: 1_000_000_000_000 } }) })
        if (funded.status !== 200) throw new Error(`could not raise the opening balance: ${funded.status} ${funded.text}`)
      }
      const pair = await runPair(o, bare, sb, scenario)
      for (const kind of ['bare', 'sandbox']) {
        const r = pair[kind]
        res.load[kind][scenario] = r
        log(`  ${SCENARIOS[scenario].label.padEnd(20)} ${kind.padEnd(8)} ${fmtInt(r.rate).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors + r.timeouts}  ${fmtCpu(r.cpu)}  rounds ${r.round_rates.map(fmtInt).join(' ')}`)
      }
      log(`  ${''.padEnd(20)} ratio per round ${pair.sandbox.round_ratios.join(' ')}`)
      // CPU time per request: what the other tenants of a shared machine (steal) do not change
      log(`  ${''.padEnd(20)} ratio ${round(pair.sandbox.rate / pair.bare.rate, 3)}x; server CPU per request: bare ${cpuUs(pair.bare)} µs, paysandbox ${cpuUs(pair.sandbox)} µs (${round(cpuUs(pair.bare) / cpuUs(pair.sandbox), 3)}x)`)
      if (pair.burn) {
        const r = pair.burn
        res.load.burn = { [scenario]: r }
        log(`  ${''.padEnd(20)} reference: bare made to cost paysandbox's CPU per request: ${fmtInt(r.rate)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, CPU per request ${cpuUs(r)} µs  ${fmtCpu(r.cpu)}`)
      }
      await sleep(1000)
      res.rss_by_scenario[scenario] = { bare: { ...procStatus(bare.pid) }, sandbox: { ...procStatus(sb.pid), stored: sb.stored } }
    } finally {
      await stopServer(bare)
      await stopServer(sb)
    }
  }
}

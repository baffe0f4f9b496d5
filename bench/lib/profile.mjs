// The CPU profile (--profile [card|query|mm|init|disburse]): paysandbox under node --cpu-prof and the
// scenario's load, then a summary of where its time went: by package, by the nearest paysandbox
// frame on the stack, and the top frames by self and by total time.
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { cardBody } from './bodies.mjs'
import { machineInfo } from './machine.mjs'
import { load } from './rounds.mjs'
import { CARD_PATH, QUERY_REF, SCENARIOS, bodyMaker } from './scenarios.mjs'
import { isPinned, request, startServer, stopServer } from './servers.mjs'
import { RESULTS, ROOT, fmtCpu, fmtInt, log, round, writeJson } from './util.mjs'

export async function profile(o) {
  const scenario = o.profile
  const sc = SCENARIOS[scenario]
  const dir = await mkdtemp(path.join(os.tmpdir(), 'paysandbox-prof-'))
  const s = await startServer('sandbox', { nodeFlags: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-name', 'profile.cpuprofile'] })
  log(`profile: paysandbox with --cpu-prof under ${sc.label}, ${o.warmup} s warm-up + ${o.duration} s, ${o.connections} connections`)
  if (scenario === 'query') {
    const created = await request(`${s.url}${CARD_PATH}`, { method: 'POST', body: cardBody(QUERY_REF) })
    if (created.status !== 200) throw new Error(`could not create the charge to query: ${created.status} ${created.text}`)
  }
  // payouts: a balance the run cannot exhaust
  if (scenario === 'disburse') await request(`${s.url}/_sandbox/scenarios`, { method: 'POST', body: JSON.stringify({ settings: { opening_balance: 1_000_000_000_000 } }) })
  const w = bodyMaker(scenario, 'sandbox', 0, o.warmup, o.connections, 'prof-warm')
  const wr = await load(s, { method: sc.method, path: sc.path, nextBody: w.next, duration: o.warmup, connections: o.connections })
  const m = bodyMaker(scenario, 'sandbox', Math.max(2000, 5 * wr.rate), o.duration, o.connections, 'prof')
  const r = await load(s, { method: sc.method, path: sc.path, nextBody: m.next, duration: o.duration, connections: o.connections })
  log(`  ${fmtInt(r.rate)} req/s (profiler on), p50 ${r.p50} ms, p99 ${r.p99} ms  ${fmtCpu(r.cpu)}`)
  await stopServer(s, 'SIGTERM', 30_000)
  const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'))
  if (!files.length) throw new Error('no .cpuprofile written')
  const prof = JSON.parse(await readFile(path.join(dir, files[0]), 'utf8'))
  await mkdir(RESULTS, { recursive: true })
  const profFile = path.join(RESULTS, `profile-${scenario}.cpuprofile`)
  await copyFile(path.join(dir, files[0]), profFile)
  await rm(dir, { recursive: true, force: true })
  const sum = summarizeProfile(prof)
  const pct = (x) => `${(x * 100).toFixed(1)}%`.padStart(6)
  log(`\nbusy ${pct(sum.busy)} of the profiled time (includes start-up and warm-up); shares below are of busy time\n`)
  log('self time by package:')
  for (const p of sum.packages.slice(0, 12)) log(`  ${pct(p.share)}  ${p.name}`)
  log('\nself time charged to the nearest paysandbox frame on the stack (what paysandbox code costs, with the library and node work it calls):')
  for (const f of sum.by_paysandbox_frame.slice(0, 20)) log(`  ${pct(f.share)}  ${f.frame}`)
  log('\ntop frames, self time:')
  for (const f of sum.self.slice(0, 20)) log(`  ${pct(f.share)}  ${f.frame}`)
  log('\ntop frames, total (inclusive) time:')
  for (const f of sum.inclusive.slice(0, 30)) log(`  ${pct(f.share)}  ${f.frame}`)
  const out = o.out ?? path.join(RESULTS, `profile-${scenario}.json`)
  await writeJson(out, { date: new Date().toISOString(), machine: machineInfo(), pinned: isPinned(), scenario, load: r, ...sum, self: sum.self.slice(0, 50), inclusive: sum.inclusive.slice(0, 80), by_paysandbox_frame: sum.by_paysandbox_frame.slice(0, 50) })
  log(`\nresults: ${path.relative(process.cwd(), out)}; profile: ${path.relative(process.cwd(), profFile)} (open in Chrome DevTools)`)
}

function shortUrl(url) {
  if (!url) return ''
  let u = url.replace(/^file:\/\//, '')
  const nm = u.lastIndexOf('/node_modules/')
  if (nm >= 0) return u.slice(nm + '/node_modules/'.length)
  if (u.startsWith(ROOT + '/')) u = u.slice(ROOT.length + 1)
  return u
}

function packageOf(url, fn) {
  if (!url) return fn.startsWith('(') ? fn : '(V8 builtins / native)'
  if (url.startsWith('node:')) return 'node internals'
  const s = shortUrl(url)
  if (url.includes('/node_modules/')) return s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]
  if (s.startsWith('dist/')) return `paysandbox ${s}`
  return s
}

function summarizeProfile(prof) {
  const byId = new Map(prof.nodes.map((n) => [n.id, n]))
  const selfUs = new Map()
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = prof.timeDeltas[i + 1] ?? 0
    selfUs.set(prof.samples[i], (selfUs.get(prof.samples[i]) ?? 0) + Math.max(0, dt))
  }
  const key = (n) => {
    const cf = n.callFrame
    const fn = cf.functionName || '(anonymous)'
    return cf.url ? `${fn}  ${shortUrl(cf.url)}:${cf.lineNumber + 1}` : fn
  }
  let total = 0
  let idle = 0
  const self = new Map()
  const packages = new Map()
  for (const n of prof.nodes) {
    const us = selfUs.get(n.id) ?? 0
    total += us
    if (n.callFrame.functionName === '(idle)') { idle += us; continue }
    const k = key(n)
    self.set(k, (self.get(k) ?? 0) + us)
    const p = packageOf(n.callFrame.url, n.callFrame.functionName)
    packages.set(p, (packages.get(p) ?? 0) + us)
  }
  const busy = total - idle
  // inclusive: each function counted once per stack (recursion not double counted)
  const incl = new Map()
  const onPath = new Map()
  const visit = (id) => {
    const n = byId.get(id)
    const k = key(n)
    const first = !onPath.get(k)
    onPath.set(k, (onPath.get(k) ?? 0) + 1)
    let t = selfUs.get(id) ?? 0
    for (const c of n.children ?? []) t += visit(c)
    onPath.set(k, onPath.get(k) - 1)
    if (first && !['(root)', '(idle)', '(program)', '(garbage collector)'].includes(n.callFrame.functionName)) incl.set(k, (incl.get(k) ?? 0) + t)
    return t
  }
  visit(prof.nodes[0].id)
  // each sample charged to the nearest paysandbox (dist/) frame on its stack, else to the
  // outermost library on it
  const parent = new Map()
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const ours = new Map()
  const distDir = path.join(ROOT, 'dist') + '/'
  for (const [id, us] of selfUs) {
    const fn = byId.get(id).callFrame.functionName
    if (fn === '(idle)') continue
    let k = null
    let lib = null
    for (let cur = id; cur !== undefined && !k; cur = parent.get(cur)) {
      const cf = byId.get(cur).callFrame
      if (cf.url.replace(/^file:\/\//, '').startsWith(distDir)) k = key(byId.get(cur))
      else if (cf.url.includes('/node_modules/')) lib = packageOf(cf.url, cf.functionName)
    }
    if (!k) k = ['(garbage collector)', '(program)'].includes(fn) ? fn : `(no paysandbox frame) ${lib ?? 'node'}`
    ours.set(k, (ours.get(k) ?? 0) + us)
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]).map(([frame, us]) => ({ frame, name: frame, ms: round(us / 1000, 1), share: busy ? us / busy : 0 }))
  return { total_ms: round(total / 1000, 0), busy: total ? busy / total : 0, packages: sorted(packages), by_paysandbox_frame: sorted(ours), self: sorted(self), inclusive: sorted(incl) }
}

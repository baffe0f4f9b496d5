// The machine the bench runs on: what it is (kept in every results file), and whether other
// processes leave it quiet enough to measure (--wait-quiet, and measuring a noisy run again).
import { existsSync, readFileSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { cpuSnap, cpuUse } from './measure.mjs'
import { ourPids } from './servers.mjs'
import { ROOT, log, sh } from './util.mjs'

/** Cores other processes may take during a measured run before it counts as noisy. */
export const NOISE = 0.3

let machine = null

/** Read once, before this process pins itself (nproc counts the CPUs it may use). */
export function machineInfo() {
  machine ??= readMachine()
  return machine
}

function readMachine() {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : ''
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown'
  const nproc = Number(sh('nproc', [])) || os.availableParallelism?.() || os.cpus().length
  const fs = sh('df', ['-T', os.tmpdir()])?.split('\n')[1]?.split(/\s+/)[1] ?? 'unknown'
  return {
    nproc,
    cpu: model,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    mem_gb: Math.round(os.totalmem() / 2 ** 30 * 10) / 10,
    tmp_fs: fs,
    taskset: Boolean(sh('sh', ['-c', 'command -v taskset'])),
    // what was measured: the checkout (read only) and when dist/ was built
    git_head: sh('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']),
    git_changed_files: (sh('git', ['-C', ROOT, 'status', '--porcelain']) ?? '').split('\n').filter(Boolean).length,
    dist_built: existsSync(path.join(ROOT, 'dist', 'cli.js')) ? statSync(path.join(ROOT, 'dist', 'cli.js')).mtime.toISOString() : null,
  }
}

/** Cores used over the interval from snapshot `a` to `b` (cpuUse, on this machine's cores). */
export const coresUsed = (a, b) => cpuUse(a, b, machineInfo().nproc)

let waitS = 0

/**
 * The first wait for a quiet machine (--wait-quiet S: up to S seconds; 0: one look); S is also
 * how long each wait between two attempts at a noisy measurement may take from now on.
 */
export function waitQuiet(maxS) {
  waitS = maxS
  return quiet(maxS)
}

/** Whether --wait-quiet asked to wait for a quiet machine. */
export const waitsForQuiet = () => waitS > 0

/** Waits, between two attempts at a noisy measurement, as --wait-quiet asked. */
export const quietAgain = () => quiet(waitS)

/** Cores busy with other processes over 2 s; waits up to `maxS` seconds for that to drop under 0.2. */
async function quiet(maxS) {
  const deadline = performance.now() + maxS * 1000
  let calm = 0
  for (let i = 0; i < 10_000; i++) {
    const pids = ourPids()
    const a = cpuSnap(pids)
    await sleep(2000)
    const other = coresUsed(a, cpuSnap(pids))?.other ?? 0
    // two quiet windows in a row (one when not asked to wait)
    calm = other < 0.2 ? calm + 1 : 0
    if (calm >= (maxS > 0 ? 2 : 1)) return other
    if (performance.now() >= deadline) {
      process.stderr.write(`bench: warning: other processes are using ${other} cores: figures will be noisy (--wait-quiet S waits for a quiet machine)\n`)
      return other
    }
    if (i % 15 === 0) log(`waiting for a quiet machine (other processes use ${other} cores) ...`)
  }
}

/**
 * Runs a measurement again (at most twice more, four times with --wait-quiet) when other
 * processes took more than NOISE of a core during it: the machine may be shared, and a measured
 * run must be the servers' alone.
 */
export async function quietRun(label, fn) {
  let r
  const attempts = waitsForQuiet() ? 5 : 3
  for (let attempt = 0; attempt < attempts; attempt++) {
    r = await fn()
    const other = r.cpu?.other ?? 0
    r.noisy_retries = attempt
    if (other <= NOISE) return r
    const again = attempt < attempts - 1
    log(`  (${label}: other processes took ${other} cores during the run; ${again ? 'measuring again' : 'keeping this one, marked noisy'})`)
    if (again) await (waitsForQuiet() ? quietAgain() : sleep(2000))
  }
  r.noisy = true
  return r
}

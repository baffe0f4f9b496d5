import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Job, readAction, ROOT } from '../e2e/action.js'
import { gone } from '../e2e/process.js'

/**
 * The GitHub Action's install path (docs/behaviour.md#github-action): a checkout as `uses:` gives it, with
 * no node_modules and no dist/, installed and built by the action's main step itself (`npm ci
 * --ignore-scripts`, then `npm run build`). Slow: in a copy of the checkout on the 2-core machine
 * (load 4-5, 2026-11-26 04:06 UTC), `npm ci --include=dev --ignore-scripts` took 40.2 s and the
 * build 9.4 s, 49.6 s in all, against 62.6 s for `npm ci --include=dev` with its scripts (which
 * then builds through `prepare` when dist/ is missing, and, with testcontainers' tree, meets native install scripts).
 */

/** what a checkout of the repository holds that the action's install and start read */
const CHECKOUT = ['package.json', 'package-lock.json', 'tsconfig.json', 'action.yml', 'action', 'bin', 'src', 'scripts', 'scenarios', 'fixtures']

const started: number[] = []
const copies: string[] = []
afterEach(() => {
  for (const pid of started.splice(0)) if (!gone(pid)) process.kill(pid, 'SIGKILL')
  // its node_modules is ~120 MB: removed here rather than by the run's end
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('the GitHub Action installs the sandbox from its own checkout', () => {
  it('runs npm ci (which builds) in a checkout without node_modules or dist/, then starts and stops the sandbox', async () => {
    const checkout = mkdtempSync(join(tmpdir(), 'paysandbox-action-checkout-'))
    copies.push(checkout)
    for (const entry of CHECKOUT) cpSync(join(ROOT, entry), join(checkout, entry), { recursive: true })
    expect(existsSync(join(checkout, 'node_modules'))).toBe(false)
    expect(existsSync(join(checkout, 'dist'))).toBe(false)
    // the action the copy declares is this one
    expect(readAction(checkout)).toEqual(readAction())

    const job = new Job(checkout)
    const main = await job.step('main', { port: '0' })
    expect(main.code).toBe(0)
    expect(main.stdout).toContain('install: npm ci --ignore-scripts, npm run build')
    // no dependency's install script ran (the native builds of testcontainers' tree)
    expect(existsSync(join(checkout, 'node_modules', 'cpu-features', 'build'))).toBe(false)
    expect(existsSync(join(checkout, 'dist', 'cli.js'))).toBe(true)
    const env = job.exported()
    const { pid } = JSON.parse(readFileSync(env.SANDBOX_PID_FILE, 'utf8')) as { pid: number }
    started.push(pid)
    // the server is the copy's own build
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain(join(checkout, 'bin', 'sandbox.js'))
    expect((await fetch(`${env.SANDBOX_URL}/_sandbox/health`)).status).toBe(200)

    // a second start finds the build up to date
    const stop = await job.step('main', { command: 'stop' })
    expect(stop.code).toBe(0)
    expect(gone(pid)).toBe(true)
    const again = await job.step('main', { port: '0' })
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('install: nothing (dist/ is up to date)')
    const post = await job.step('post', {}, again.state)
    expect(post.code).toBe(0)
    expect(post.stdout).toContain('paysandbox stopped')
  }, 300_000)
})

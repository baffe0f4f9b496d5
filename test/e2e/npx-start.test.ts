import { spawn } from 'node:child_process'
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ROOT } from './action.js'

/**
 * `npx sandbox start` in the checkout (docs/behaviour.md#package-and-start): npm installs the checkout's own
 * package into its npx cache as a link, running the package's `prepare` script, which built the
 * whole project, silently, on the first call (18 s on a busy machine). With a fresh npm cache (a
 * first call), it starts at once and leaves dist/ as it was.
 */

const groups: number[] = []
afterEach(() => {
  for (const pid of groups.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
})

/** spawns `npx ...args` in the checkout, in its own process group; resolves at the ready line */
function npx(args: string[], env: Record<string, string>): Promise<{ url: string; stderr: () => string }> {
  const child = spawn('npx', args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  groups.push(child.pid!)
  let out = ''
  let err = ''
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /paysandbox listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve({ url: m[1], stderr: () => err })
    })
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    child.on('exit', (code) => reject(new Error(`npx exited with ${code} before ready: ${err}`)))
  })
}

describe('npx sandbox start in the checkout', () => {
  it('starts on the first call (a fresh npm cache) without building dist/ again', async () => {
    const built = statSync(join(ROOT, 'dist', 'cli.js')).mtimeMs
    const cache = mkdtempSync(join(tmpdir(), 'paysandbox-npm-cache-'))
    const started = await npx(['--offline', 'sandbox', 'start', '--port', '0'], { npm_config_cache: cache })
    expect((await fetch(`${started.url}/_sandbox/health`)).status).toBe(200)
    expect(started.stderr()).not.toContain('building')
    // nothing rebuilt the checkout: the npx link ran no build script
    expect(statSync(join(ROOT, 'dist', 'cli.js')).mtimeMs).toBe(built)
  })
})

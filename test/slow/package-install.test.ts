import { execFile, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { ROOT } from '../e2e/action.js'
import { spawnUntilListening } from '../e2e/process.js'

/**
 * The package as any project gets it (docs/behaviour.md#package-and-start): `npm pack` gives a tarball that
 * installs into an empty project with no build at install time (dist/ is in it, built by
 * `prepack`), and there `npx paysandbox start`, the in-process API and the Testcontainers module
 * work. Slow: two installs from npm's cache (the tarball's dependencies, then testcontainers'
 * tree), about 30 s on the busy 2-core machine. The tarball is packed from this checkout's dist/ (the
 * project's script builds it first) with `--ignore-scripts`, so the test does not rebuild dist/
 * under the tests running beside it.
 */

const run = promisify(execFile)
const ROOT_PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
/** the lifecycle scripts npm runs when a package is installed from a tarball or the registry (`prepare` runs only for a checkout, a folder or git) */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall']

const groups: number[] = []
const dirs: string[] = []
afterEach(() => {
  for (const pid of groups.splice(0)) {
    // a process group (npx and what it started), or a process of its own
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL')
      } catch {
        // not a group, or already gone
      }
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund'], { cwd, maxBuffer: 16 << 20 })

describe('the npm package installs into any project', () => {
  it('packs, installs into an empty project without a build, and runs there: npx paysandbox start, the in-process API, the Testcontainers module', async () => {
    // nothing runs at install time; the tarball's dist/ is built when it is packed, and `prepare`
    // (npm ci in a checkout builds through it) only builds a checkout whose dist/ is missing or stale
    for (const script of INSTALL_SCRIPTS) expect(ROOT_PACKAGE.scripts[script], script).toBeUndefined()
    expect(ROOT_PACKAGE.scripts.prepack).toBe('npm run build')
    expect(ROOT_PACKAGE.scripts.prepare).toBe('node bin/built.mjs')

    const work = mkdtempSync(join(tmpdir(), 'paysandbox-package-'))
    dirs.push(work)
    const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT)
    const [{ filename, files }] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[]
    const paths = files.map((f) => f.path)
    expect(paths).toContain('dist/cli.js')
    expect(paths).toContain('dist/index.js')
    expect(paths).toContain('dist/testcontainers.js')
    expect(paths.some((p) => p.startsWith('src/'))).toBe(false)

    const project = join(work, 'project')
    await run('mkdir', [project])
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-project', private: true, type: 'module' }))
    const installed = await npm(['install', join(work, filename), '--prefer-offline'], project)
    // npm 11 names the package's `prepare` as a script it did not run; nothing was built: dist/ is
    // byte for byte what was packed, and there is no src/ to build from
    expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/npm run build|tsc/)
    const here = join(project, 'node_modules', 'paysandbox')
    expect(readFileSync(join(here, 'dist', 'cli.js'), 'utf8')).toBe(readFileSync(join(ROOT, 'dist', 'cli.js'), 'utf8'))
    expect(existsSync(join(here, 'src'))).toBe(false)

    // npx paysandbox start: the ready line, then a real request
    const child = spawn('npx', ['--offline', 'paysandbox', 'start', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    groups.push(child.pid!)
    let out = ''
    let err = ''
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        const m = /paysandbox listening on (http:\/\/\S+)/.exec(out)
        if (m) resolve(m[1])
      })
      child.on('exit', (code) => reject(new Error(`npx paysandbox start exited with ${code}: ${err}`)))
    })
    expect(err).not.toContain('building')
    const balances = await fetch(`${url}/merchant/api/v1/balances`, { headers: { authorization: 'Bearer sk_test_sandbox' } })
    expect(balances.status).toBe(200)
    expect(((await balances.json()) as { status: boolean }).status).toBe(true)

    // the in-process API, imported by name: a card charge, encrypted as a client does
    writeFileSync(
      join(project, 'charge.mjs'),
      `import { startSandbox, encryptChargeData } from 'paysandbox'
const sandbox = await startSandbox({ port: 0 })
const payload = { reference: 'first-0001', card: { number: '4084127883172787', cvv: '123', expiry_month: '09', expiry_year: '30' }, amount: 1000, currency: 'NGN', customer: { email: 'buyer@example.com' } }
const res = await fetch(sandbox.url + '/merchant/api/v1/charges/card', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + sandbox.keys.secretKey, 'content-type': 'application/json' },
  body: JSON.stringify({ charge_data: encryptChargeData(payload, sandbox.keys.encryptionKey) }),
})
const body = await res.json()
await sandbox.close()
console.log(JSON.stringify({ status: res.status, charge: body.data.status }))
`,
    )
    const charged = await run(process.execPath, ['charge.mjs'], { cwd: project })
    expect(JSON.parse(charged.stdout)).toEqual({ status: 200, charge: 'success' })

    // the Testcontainers module, beside the project's own testcontainers (an optional peer)
    await npm(['install', `testcontainers@${ROOT_PACKAGE.devDependencies.testcontainers}`, '--prefer-offline', '--ignore-scripts'], project)
    const imported = await run(process.execPath, ['--input-type=module', '-e', "const m = await import('paysandbox/testcontainers'); console.log(typeof m.PaysandboxContainer, m.PAYSANDBOX_IMAGE)"], { cwd: project })
    expect(imported.stdout.trim()).toBe('function paysandbox:local')
  }, 240_000)
})

describe('a checkout without dist/', () => {
  it('builds it on the first start, saying so in one line, once for starts made together; then starts at once', async () => {
    const checkout = mkdtempSync(join(tmpdir(), 'paysandbox-checkout-'))
    dirs.push(checkout)
    for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'bin', 'src', 'scripts', 'scenarios', 'fixtures']) cpSync(join(ROOT, entry), join(checkout, entry), { recursive: true })
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'))
    const bin = join(checkout, 'bin', 'sandbox.js')
    const start = () => spawnUntilListening('sandbox', process.execPath, [bin, 'start', '--port', '0'], {}, /paysandbox listening on (http:\/\/\S+)/)
    const both = await Promise.all([start(), start()])
    for (const s of both) groups.push(s.child.pid!)
    const said = both.map((s) => s.stderr())
    // one built, the other waited for it and said nothing
    expect(said.filter((e) => e === 'paysandbox: dist/ is missing; building it (npm run build, a few seconds)\n')).toHaveLength(1)
    expect(said.filter((e) => e === '')).toHaveLength(1)
    for (const s of both) expect((await fetch(`${s.url}/_sandbox/health`)).status).toBe(200)
    expect(existsSync(join(checkout, '.dist-building'))).toBe(false)
    const again = await start()
    groups.push(again.child.pid!)
    expect(again.stderr()).toBe('')
  }, 240_000)
})

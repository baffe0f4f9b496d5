import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Whether a checkout's dist/ is the build of its sources, and the build when it is not (docs/behaviour.md#package-and-start). The one home of the rule: `bin/sandbox.js` asks it before every start, the GitHub Action's
 * install (action/sandbox.mjs) too. An installed package (the tarball, the image) has no src/: its
 * dist/ is what was packed, and nothing is checked or built.
 */

/** what the build reads (tsc, then scripts/copy-assets.mjs): dist/ older than any of these is out of date */
export const BUILD_INPUTS = ['src', 'scripts/copy-assets.mjs', 'package-lock.json', 'tsconfig.json']

/** the newest modification time of a file or of any file under a directory (0 when missing) */
export function newest(path) {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((entry) => newest(join(path, entry))))
}

/**
 * `'package'` (no src/ beside bin/: an installed package, dist/ as packed), `'missing'` (no
 * dist/cli.js), `'stale'` (a build input is newer than dist/cli.js, which every build writes) or
 * `'built'`.
 */
export function distState(root) {
  if (!existsSync(join(root, 'src'))) return 'package'
  let built
  try {
    built = statSync(join(root, 'dist', 'cli.js')).mtimeMs
  } catch {
    return 'missing'
  }
  return Math.max(...BUILD_INPUTS.map((p) => newest(join(root, p)))) > built ? 'stale' : 'built'
}

/** the directory whose creation (atomic) makes one process the builder while others wait */
const LOCK = '.dist-building'
/** a lock older than this was left by a build that died */
const LOCK_STALE_MS = 5 * 60_000

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/**
 * Builds a checkout's dist/ when it is missing or older than its sources, saying so in one line
 * on stderr; nothing (and nothing said) when it is up to date or the package is installed. Runs
 * `npm run build` (tsc and the assets), its output shown only when it fails. Processes started
 * together (a test run's CLIs) build once: the first takes a lock, the others wait for it.
 * Returns the state it found; throws when the build fails.
 */
export function ensureBuilt(root, say = (line) => process.stderr.write(`${line}\n`)) {
  const found = distState(root)
  if (found === 'package' || found === 'built') return found
  if (!existsSync(join(root, 'node_modules'))) {
    throw new Error(`paysandbox: ${found === 'missing' ? 'dist/ is missing' : 'dist/ is older than src/'} and there is no node_modules to build it with: run npm ci in ${root} first`)
  }
  const lock = join(root, LOCK)
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch (err) {
      if (err.code !== 'EEXIST') throw err
      // another process builds: dist/ is read only once it is done (half written, cli.js may be new already)
      const since = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (since > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true })
      else sleep(100)
    }
  }
  try {
    if (distState(root) === 'built') return found
    say(`paysandbox: ${found === 'missing' ? 'dist/ is missing' : 'the sources changed since dist/ was built'}; building it (npm run build, a few seconds)`)
    const done = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, encoding: 'utf8', shell: process.platform === 'win32' })
    if (done.error) throw new Error(`paysandbox: cannot run npm run build: ${done.error.message}`)
    if (done.status !== 0) throw new Error(`paysandbox: npm run build failed (exit code ${done.status}); run it in ${root} to see why\n${done.stdout}${done.stderr}`)
    return found
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

// `node bin/built.mjs` (the package's `prepare`, run by `npm ci` in a checkout and by npx's install
// of it): build the checkout beside this file only when it needs it
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureBuilt(resolve(fileURLToPath(import.meta.url), '..', '..'))
  } catch (err) {
    process.stderr.write(`${err.message}\n`)
    process.exit(1)
  }
}

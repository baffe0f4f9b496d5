// `npm run image`: builds the container image paysandbox:local from the working tree, with no base
// image (none can be pulled where the sandbox is built): it stages a build context of node's own
// binary, the shared libraries it links and their loader, the sandbox (package.json, bin/, dist/
// without type declarations, source maps and the Testcontainers module, scenarios/, fixtures/),
// its production dependencies only, a non-root user, a writable /tmp and /data, then runs
// `docker build` on image/Dockerfile (FROM scratch). docs/architecture.md, "The container image",
// says why this shape.
//
//   node scripts/image.mjs [--tag paysandbox:local]
//
// Needs a built dist/ (`npm run build`) and node_modules (`npm ci`); uses `ldd` (glibc 2.34 or later),
// `npm ls`, `docker`, and `strip` when the machine has it (node's binary carries ~13 MB of symbols the image never uses).
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const tagAt = process.argv.indexOf('--tag')
const TAG = tagAt > 0 ? process.argv[tagAt + 1] : 'paysandbox:local'
/** the user the sandbox runs as: not root, and not a uid a host is likely to give a person */
const UID = 10001

function fail(message) {
  process.stderr.write(`image: ${message}\n`)
  process.exit(1)
}

/** Runs a tool to its end and gives its stdout; a tool that is missing or fails stops the build with one `image:` line. */
function run(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', cwd: ROOT, maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (e) {
    if (e.code === 'ENOENT') fail(`cannot run ${cmd}: it is not installed (or not on PATH)`)
    const said = String(e.stderr ?? '').trim().split('\n')[0]
    fail(`${cmd} ${args.join(' ')} failed (${e.status === null ? e.signal ?? e.message : `exit ${e.status}`})${said ? `: ${said}` : ''}`)
  }
}

/** the oldest glibc whose libc holds the `files` and `dns` name lookups itself (no libnss_* to copy) */
const GLIBC_MIN = [2, 34]

/** Stops the build unless `ldd` is glibc's, 2.34 or later: the image carries no libnss_* modules. */
function checkGlibc() {
  const done = spawnSync('ldd', ['--version'], { encoding: 'utf8' })
  if (done.error) fail(`cannot run ldd: ${done.error.code === 'ENOENT' ? 'it is not installed (or not on PATH)' : done.error.message}`)
  const first = `${done.stdout ?? ''}${done.stderr ?? ''}`.trim().split('\n')[0]
  const m = /(?:glibc|gnu libc)[^\n]*?(\d+)\.(\d+)\s*$/i.exec(first)
  if (!m) fail(`ldd --version names no glibc ("${first}"): the image is built from a node linked against glibc ${GLIBC_MIN.join('.')} or later`)
  const [major, minor] = [Number(m[1]), Number(m[2])]
  if (major < GLIBC_MIN[0] || (major === GLIBC_MIN[0] && minor < GLIBC_MIN[1])) fail(`glibc ${major}.${minor} is too old: the image needs ${GLIBC_MIN.join('.')} or later, whose libc holds the files and dns name lookups (docs/architecture.md, "The container image")`)
}

if (!existsSync(join(ROOT, 'dist', 'cli.js'))) fail('dist/ is missing: run npm run build first')
checkGlibc()

/** The libraries `node` links and the dynamic loader, as absolute paths (ldd's answer). */
function linkedLibraries(lddText) {
  const paths = []
  for (const line of lddText.split('\n')) {
    const m = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line)
    if (m) paths.push(m[1])
  }
  return paths
}

const started = Date.now()
const context = mkdtempSync(join(tmpdir(), 'paysandbox-image-'))
try {
  const rootfs = join(context, 'rootfs')
  const put = (from, to) => {
    mkdirSync(dirname(join(rootfs, to)), { recursive: true })
    copyFileSync(from, join(rootfs, to)) // follows symbolic links: the file itself under the name node asks for
  }

  // node and what it links
  const node = process.execPath
  put(node, '/usr/local/bin/node')
  const strip = spawnSync('strip', [join(rootfs, 'usr/local/bin/node')], { stdio: 'inherit' })
  if (strip.error || strip.status !== 0) process.stderr.write('image: strip is not available: node goes in with its symbols\n')
  const libs = linkedLibraries(run('ldd', [node]))
  if (!libs.some((p) => p.includes('ld-linux'))) fail(`ldd ${node} names no dynamic loader: is node linked statically or not for Linux?`)
  for (const lib of libs) put(lib, lib)

  // the sandbox: what it reads beside itself at run time
  const app = join(rootfs, 'app')
  mkdirSync(app, { recursive: true })
  copyFileSync(join(ROOT, 'package.json'), join(app, 'package.json'))
  for (const dir of ['bin', 'scenarios', 'fixtures']) cpSync(join(ROOT, dir), join(app, dir), { recursive: true })
  // (not the Testcontainers module: it runs beside the tests, never in the image)
  cpSync(join(ROOT, 'dist'), join(app, 'dist'), { recursive: true, filter: (src) => !/\.d\.ts$|\.map$|[/\\]testcontainers\.js$/.test(src) })

  // the production dependencies only, as npm resolved them in node_modules
  const deps = run('npm', ['ls', '--omit=dev', '--all', '--parseable']).split('\n').filter(Boolean).slice(1)
  for (const dep of deps) cpSync(dep, join(app, relative(ROOT, dep)), { recursive: true, dereference: true })

  // the user, name resolution from /etc/hosts first (host.docker.internal), /tmp and /data
  mkdirSync(join(rootfs, 'etc'), { recursive: true })
  writeFileSync(join(rootfs, 'etc/passwd'), `root:x:0:0:root:/root:/sbin/nologin\nsandbox:x:${UID}:${UID}:paysandbox:/data:/sbin/nologin\n`)
  writeFileSync(join(rootfs, 'etc/group'), `root:x:0:\nsandbox:x:${UID}:\n`)
  writeFileSync(join(rootfs, 'etc/nsswitch.conf'), 'hosts: files dns\n')
  mkdirSync(join(rootfs, 'tmp'))
  chmodSync(join(rootfs, 'tmp'), 0o1777)
  mkdirSync(join(context, 'data'))

  copyFileSync(join(ROOT, 'image', 'Dockerfile'), join(context, 'Dockerfile'))
  const build = spawnSync('docker', ['build', '--tag', TAG, context], { stdio: 'inherit' })
  if (build.error) fail(`cannot run docker: ${build.error.message}`)
  if (build.status !== 0) fail(`docker build failed (exit ${build.status})`)
  const size = Number(run('docker', ['image', 'inspect', '--format', '{{.Size}}', TAG]).trim())
  process.stdout.write(`image: built ${TAG}, ${(size / 1e6).toFixed(1)} MB, in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
} finally {
  rmSync(context, { recursive: true, force: true })
}

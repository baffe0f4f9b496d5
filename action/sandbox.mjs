import { spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { distState } from '../bin/built.mjs'
import { error, info, warning } from './runner.mjs'

/**
 * What the action does with the sandbox (docs/behaviour.md#github-action): install and build it from the
 * action's own checkout, start it detached, stop it and write its journal. Every sandbox command
 * is the CLI's own (`sandbox start --detach`, `replay`, `stop`), run with node from `bin/`.
 */

/** the action's checkout: the repository root */
export const ROOT = process.env.GITHUB_ACTION_PATH || fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'bin', 'sandbox.js')
/** where the job's files are: relative paths of inputs are read from here */
export const WORKSPACE = process.env.GITHUB_WORKSPACE || process.cwd()

export class ActionError extends Error {}

function npm(args) {
  info(`paysandbox: npm ${args.join(' ')} in ${ROOT}`)
  const done = spawnSync('npm', args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' })
  if (done.error) throw new ActionError(`cannot run npm: ${done.error.message}`)
  if (done.status !== 0) throw new ActionError(`npm ${args.join(' ')} failed with exit code ${done.status}`)
}

/**
 * `install`: `auto` runs `npm ci --ignore-scripts` then `npm run build` when node_modules is
 * missing, else `npm run build` when dist/ is missing or older than the sources, else nothing;
 * `always` runs the first two; `never` uses the checkout as it is. Returns what it did.
 */
export function install(mode) {
  if (!['auto', 'always', 'never'].includes(mode)) throw new ActionError(`install must be auto, always or never (got ${mode})`)
  let did = 'nothing (dist/ is up to date)'
  if (mode === 'never') did = 'nothing (install: never)'
  else if (mode === 'always' || !existsSync(join(ROOT, 'node_modules'))) {
    // the build needs the dev dependencies (typescript), also where NODE_ENV=production would omit
    // them; no dependency's install script runs: the sandbox needs none (the only ones are in
    // testcontainers' tree, native builds for the tests' docker client), so the build is run by name
    npm(['ci', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund'])
    npm(['run', 'build'])
    did = 'npm ci --ignore-scripts, npm run build'
  } else if (distState(ROOT) !== 'built') {
    npm(['run', 'build'])
    did = 'npm run build'
  }
  if (!existsSync(join(ROOT, 'dist', 'cli.js'))) throw new ActionError(`${join(ROOT, 'dist', 'cli.js')} is missing after install (${did})`)
  return did
}

/** a module of the built sandbox */
const built = (module) => import(pathToFileURL(join(ROOT, 'dist', module)).href)

/**
 * The sandbox's variables for the inputs given: every flag of the option table
 * (src/config-options.ts) is an input named as its long flag, and reaches `sandbox start` as the
 * option's own variable; a multi-line value (a list: `scenarios`, `intercept`) is joined with
 * commas. Read from the built option table, so no option is named here.
 */
export async function optionEnvironment(inputLines) {
  const { OPTIONS, optionName } = await built('config-options.js')
  const env = {}
  for (const option of Object.values(OPTIONS)) {
    if (!option.flag) continue
    const lines = inputLines(optionName(option).slice('--'.length))
    if (lines.length) env[option.env] = lines.join(',')
  }
  return env
}

/** runs a sandbox command to its end, its output in the step's log; returns its exit code */
export function sandbox(args, env = process.env) {
  const done = spawnSync(process.execPath, [BIN, ...args], { cwd: WORKSPACE, env, stdio: ['ignore', 'inherit', 'inherit'] })
  if (done.error) throw new ActionError(`cannot run the sandbox: ${done.error.message}`)
  return done.status ?? 1
}

/** how long the action waits for the health check once `start --detach` has returned */
const HEALTH_TIMEOUT_MS = 10_000

/** `sandbox start --detach` with the options' variables; its pid file's contents (`{pid, url, log, https?, proxy?, ca?}`, docs/behaviour.md#detach-and-stop) */
export function start(pidFile, env) {
  const code = sandbox(['start', '--detach', '--pid-file', pidFile], env)
  if (code !== 0) throw new ActionError(`sandbox start --detach failed with exit code ${code} (its reason is printed above)`)
  return JSON.parse(readFileSync(pidFile, 'utf8'))
}

/** resolves once `GET /_sandbox/health` answers 200, at most 10 s */
export async function healthy(url) {
  const until = Date.now() + HEALTH_TIMEOUT_MS
  for (;;) {
    const res = await fetch(`${url}/_sandbox/health`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined)
    if (res?.ok) return
    if (Date.now() > until) throw new ActionError(`the sandbox at ${url} did not answer its health check within ${HEALTH_TIMEOUT_MS / 1000} s`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** the keys of the `secret-key` merchant, by the server's own rule from the same variables (`servedKeys`, src/config.ts: a merchants file may give its public and encryption keys) */
export async function keysOf(env) {
  const { servedKeys } = await built('config.js')
  const keys = servedKeys(env)
  return { secret: keys.secretKey, public: keys.publicKey, encryption: keys.encryptionKey }
}

/** where a system keeps its CAs (Debian and Ubuntu, Fedora and RHEL, Alpine and macOS) */
const SYSTEM_CAS = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem']

/**
 * A CA file holding the system's CAs and the sandbox's: `SSL_CERT_FILE` and `REQUESTS_CA_BUNDLE`
 * replace a client's CAs, and the later steps still call real HTTPS hosts through the proxy's tunnel.
 */
export function caBundle(caPath) {
  const dir = join(process.env.RUNNER_TEMP || tmpdir(), 'paysandbox')
  mkdirSync(dir, { recursive: true })
  const system = SYSTEM_CAS.find((f) => existsSync(f))
  const bundle = join(dir, 'ca-bundle.pem')
  writeFileSync(bundle, `${system ? readFileSync(system, 'utf8').trimEnd() + '\n' : ''}${readFileSync(caPath, 'utf8')}`)
  return bundle
}

/** the files the action writes in the reports directory */
export const reportFiles = (dir) => ({ pidFile: join(dir, 'sandbox.pid'), log: join(dir, 'sandbox.log'), journal: join(dir, 'journal.json'), junit: join(dir, 'flows.xml') })

export const reportsDir = (given) => resolve(WORKSPACE, given || 'sandbox-reports')

/**
 * The `report` input as `sandbox report`'s arguments: empty or `false`, no report; `true`, the
 * report alone; otherwise its gate and scope as the command takes them (`--require card.otp --min 50`).
 */
export function reportArgs(given) {
  const text = (given ?? '').trim()
  if (!text || text === 'false') return null
  return text === 'true' ? [] : text.split(/\s+/)
}

/**
 * The readiness report of every namespace (docs/behaviour.md#readiness-report) as Markdown, appended to the
 * job's step summary (`GITHUB_STEP_SUMMARY`); its gate failing fails the step with the lines
 * `sandbox report` names. Run before the sandbox stops, while it still holds what the job did.
 */
export function readinessReport({ url, secretKey, controlToken, args }) {
  const env = { ...process.env, ...(controlToken && { SANDBOX_CONTROL_TOKEN: controlToken }) }
  const done = spawnSync(process.execPath, [BIN, 'report', '--all', ...args, '--format', 'markdown', '--base-url', url, '--key', secretKey], { cwd: WORKSPACE, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  if (done.error) throw new ActionError(`cannot run the sandbox: ${done.error.message}`)
  if (done.stdout && process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, done.stdout)
  if (done.stderr) process.stderr.write(done.stderr)
  if (done.status === 0) info(`paysandbox: the readiness report is in the job's summary`)
  else error(`paysandbox: sandbox report exited with ${done.status}: ${done.stderr.replace(/^sandbox: /, '').trim() || 'no reason given'}`)
  return done.status ?? 1
}

/**
 * Makes the readiness report when the action was asked for one (`report`), then writes the
 * journal of the key's namespace (`GET /_sandbox/requests`, PAN and CVV masked) to
 * journal.json, sending the control token when one is set, then `sandbox stop`. Returns the stop's exit code; a journal that cannot be read
 * is a warning, never a reason to leave the server running.
 */
export async function stopAndReport({ pidFile, url, secretKey, controlToken, journal, report }) {
  if (report) readinessReport({ url, secretKey, controlToken, args: report })
  try {
    // beyond loopback (a `host` that is not) the control API wants the control token (docs/behaviour.md#control-access)
    const headers = { authorization: `Bearer ${secretKey}`, ...(controlToken && { 'x-sandbox-control-token': controlToken }) }
    const res = await fetch(`${url}/_sandbox/requests`, { headers, signal: AbortSignal.timeout(10_000) })
    const body = await res.json()
    if (!res.ok || !body.status) throw new Error(`${res.status} ${body.message}`)
    writeFileSync(journal, JSON.stringify(body.data, null, 2) + '\n')
    info(`paysandbox: the journal of ${secretKey} (${body.data.length} calls) is in ${journal}`)
  } catch (e) {
    warning(`paysandbox: could not read the journal from ${url}: ${e.message}`)
  }
  return sandbox(['stop', '--pid-file', pidFile])
}

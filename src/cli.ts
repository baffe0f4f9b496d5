import { Command, CommanderError } from 'commander'
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { decryptChargeText, encryptChargeData } from './cards/crypto.js'
import { clientFromEnv, ConfigError, keysFromEnv, resolveConfig, type ConfigInput } from './config.js'
import { OPTIONS, redactUrl, type AnyOption } from './config-options.js'
import { VERSION } from './version.js'
import { collect, flagOption } from './flags.js'
import { registerExportFlow, registerReplay } from './replay/cli.js'
import { registerVerify } from './replay/verify-cli.js'
import { registerConformance } from './replay/conformance-cli.js'
import { registerReport } from './report-cli.js'
import { callSandbox } from './sandbox-client.js'

/** One line on stderr and exit code 2: never a stack trace for a user's mistake. */
function die(message: string, code = 2): never {
  process.stderr.write(`sandbox: ${message}\n`)
  process.exit(code)
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export function buildProgram(): Command {
  const program = new Command()
  program
    .name('sandbox')
    .description('paysandbox: a local sandbox of the payments, direct-debit and identity-verification API')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(`sandbox: ${str.split('\n')[0].replace(/^error: /, '')} (see --help)\n`) })

  const start = program.command('start').description('serve the whole API on a local port')
  // the flags of the option table, each with its key in ConfigInput
  const flags = Object.entries(OPTIONS as Record<string, AnyOption>)
    .filter(([, o]) => o.flag)
    .map(([key, o]) => [key, flagOption(o)] as const)
  for (const [, option] of flags) start.addOption(option)
  start
    .option('--detach', 'run in the background: return once ready, write a pid file (stop with sandbox stop)')
    .option('--pid-file <file>', 'pid file written by --detach (its log goes beside it, .log)', '.sandbox.pid')
    .option('--no-exit-with-parent', 'keep running when the process that launched it exits (by default a foreground server stops then)')
    .addHelpText(
      'after',
      `
Examples:
  $ sandbox start                          # http://127.0.0.1:4010, in-memory store
  $ sandbox start --port 0                 # a free port, printed in the ready line
  $ sandbox start --data .sandbox.json     # persisted; reloaded on the next start
  $ sandbox start --load test/fixtures/funded.snapshot.json   # a namespace restored from a snapshot (sandbox snapshot)
  $ sandbox start --scenarios my-cards.yaml --secret-key sk_test_ci
  $ sandbox start --detach --port 4010     # returns once ready; writes .sandbox.pid (stop: sandbox stop)
  $ sandbox start --tls --proxy            # https://127.0.0.1:4443 and a proxy on http://127.0.0.1:4080
  $ sandbox start --seed 42 --data run.json   # every run alike: ids from the seed, clocks frozen at 2026-01-01
  $ HTTPS_PROXY=http://127.0.0.1:4080 SSL_CERT_FILE="$(sandbox ca --path)" python3 my_client.py
  $ sandbox start --proxy --tls --record live.yaml   # forward api.korapay.com to the live service, record a flow`,
    )
    .action(async (opts: Record<string, string | string[] | boolean | undefined>, cmd: Command) => {
      if (opts.detach) process.exit(await (await import('./detach.js')).startDetached(cmd, opts.pidFile as string))
      // the flags as given: config.ts checks and converts them, and reads the environment for the others
      const input: Record<string, unknown> = {}
      for (const [key, option] of flags) input[key] = opts[option.attributeName()]
      await runStart(input as ConfigInput, opts.exitWithParent !== false)
    })

  program
    .command('stop')
    .description('stop a sandbox started with start --detach (SIGTERM, then SIGKILL after 10 s)')
    .option('--pid-file <file>', 'pid file written by start --detach', '.sandbox.pid')
    .addHelpText('after', `\nExamples:\n  $ sandbox start --detach && npm test; sandbox stop\n  $ sandbox stop --pid-file /tmp/ci-sandbox.pid`)
    .action(async (opts: { pidFile: string }) => {
      process.exit(await (await import('./detach.js')).stopDetached(opts.pidFile))
    })

  program
    .command('encrypt')
    .description('encrypt a JSON charge payload from stdin into charge_data (stdout)')
    .option('-k, --key <key>', 'encryption key', keysFromEnv().encryptionKey)
    .addHelpText('after', `\nExample:\n  $ echo '{"reference":"order-0001",...}' | sandbox encrypt > charge_data.txt`)
    .action(async (opts: { key: string }) => {
      const text = (await readStdin()).trim()
      try {
        JSON.parse(text)
      } catch {
        die('stdin is not valid JSON')
      }
      try {
        process.stdout.write(encryptChargeData(text, opts.key) + '\n')
      } catch (e) {
        die((e as Error).message)
      }
    })

  program
    .command('decrypt')
    .description('decrypt charge_data from stdin to its JSON (stdout)')
    .option('-k, --key <key>', 'encryption key', keysFromEnv().encryptionKey)
    .addHelpText('after', `\nExample:\n  $ sandbox decrypt < charge_data.txt`)
    .action(async (opts: { key: string }) => {
      const text = decryptChargeText((await readStdin()).trim(), opts.key)
      if (text === undefined) die('Unable to decrypt charge data, please check encryption and try again', 1)
      process.stdout.write(text + '\n')
    })

  program
    .command('magic')
    .description('print the active test values (cards, wallets, identities, accounts)')
    .option('--json', 'print them as JSON, in the shape of GET /_sandbox/scenarios')
    .option('--scenarios <file>', 'add a scenario pack; repeatable', collect, [])
    .addHelpText('after', `\nExamples:\n  $ sandbox magic\n  $ sandbox magic --json | jq '.cards[] | select(.outcome == "failed")'`)
    .action(async (opts: { json?: boolean; scenarios: string[] }) => {
      const [{ ActiveScenarios, PackError, Scenarios, packRules }, { AREAS }] = await Promise.all([import('./scenario/index.js'), import('./areas.js')])
      // the packs as the areas take them: their own settings too (`Area.settings`)
      const rules = packRules(AREAS)
      let view
      try {
        view = new ActiveScenarios(Scenarios.loadPacks(opts.scenarios, { rules }), rules)
      } catch (e) {
        if (e instanceof PackError) die(e.message)
        throw e
      }
      const data = view.toJSON()
      if (opts.json) {
        process.stdout.write(JSON.stringify(data, null, 2) + '\n')
        return
      }
      const { testValuesText } = await import('./test-values.js')
      process.stdout.write(testValuesText(data, AREAS))
    })

  program
    .command('ca')
    .description('print the local CA certificate (created on first use) and how to make clients trust it')
    .addOption(flagOption(OPTIONS.caDir))
    .option('--path', "print only the CA certificate's path")
    .addHelpText('after', `\nExamples:\n  $ sandbox ca\n  $ NODE_EXTRA_CA_CERTS="$(sandbox ca --path)" node my-client.js`)
    .action(async (opts: { caDir?: string; path?: boolean }) => {
      const { caDirFrom } = await import('./config.js')
      const { CaError, loadOrCreateCa } = await import('./reach/ca.js')
      let ca
      try {
        ca = await loadOrCreateCa(caDirFrom(opts.caDir))
      } catch (e) {
        if (e instanceof CaError) die(e.message)
        throw e
      }
      const { trustText } = await import('./reach/trust.js')
      process.stdout.write(opts.path ? `${ca.certPath}\n` : trustText(ca.certPath, ca.created))
    })

  program
    .command('snapshot')
    .description("write a running sandbox's namespace as a snapshot (JSON), for --load or POST /_sandbox/snapshot")
    .option('--key <key>', "the namespace's secret key", keysFromEnv().secretKey)
    .option('--output <file>', 'write the snapshot here instead of stdout')
    .option('--base-url <url>', 'the running sandbox (env: SANDBOX_URL)', clientFromEnv().baseUrl)
    .option('--control-token <token>', `the sandbox's control token, when it is called beyond loopback (env: ${OPTIONS.controlToken.env})`, clientFromEnv().controlToken)
    .addHelpText('after', `\nExamples:\n  $ sandbox snapshot --key sk_test_ci --output test/fixtures/funded.snapshot.json\n  $ sandbox start --load test/fixtures/funded.snapshot.json`)
    .action(async (opts: { key: string; output?: string; baseUrl: string; controlToken?: string }) => {
      const { res, body } = await callSandbox<unknown>(opts, '/_sandbox/snapshot', die)
      if (!res.ok || !body?.status || !body.data) die(`the sandbox answered ${res.status}: ${body?.message ?? 'no snapshot'}`, 1)
      // two spaces a level and a newline at the end: a committed snapshot reads well in a diff
      const text = `${JSON.stringify(body.data, null, 2)}\n`
      if (!opts.output) return void process.stdout.write(text)
      // whole or not at all: a snapshot cut short by a failed write never replaces the one there
      const temp = `${opts.output}.${process.pid}.tmp`
      try {
        writeFileSync(temp, text)
        renameSync(temp, opts.output)
      } catch (e) {
        rmSync(temp, { force: true })
        die(`cannot write ${opts.output}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 1)
      }
    })

  program
    .command('probe-webhook')
    .description("probe a webhook handler: deliveries signed well and badly, renamed, repeated, out of order; each judged by the answer, its time and whether the handler queried the transaction")
    .argument('<url>', 'the handler, which queries this sandbox with the key')
    .option('--key <key>', "the namespace's secret key: the deliveries are signed with it", keysFromEnv().secretKey)
    .option('--base-url <url>', 'the running sandbox (env: SANDBOX_URL)', clientFromEnv().baseUrl)
    .option('--control-token <token>', `the sandbox's control token, when it is called beyond loopback (env: ${OPTIONS.controlToken.env})`, clientFromEnv().controlToken)
    .option('--webhook-timeout <ms>', "how long the handler has to answer (default: the sandbox's --webhook-timeout)")
    .option('--format <format>', 'text or json (the control call\'s answer)', 'text')
    .addHelpText('after', `\nExamples:\n  $ sandbox probe-webhook http://127.0.0.1:3000/webhooks --key sk_test_ci\n  $ sandbox probe-webhook http://127.0.0.1:3000/webhooks --webhook-timeout 2000 --format json`)
    .action(async (url: string, opts: { key: string; baseUrl: string; controlToken?: string; webhookTimeout?: string; format: string }) => {
      if (opts.format !== 'text' && opts.format !== 'json') die('--format must be text or json')
      const timeout = opts.webhookTimeout === undefined ? undefined : Number(opts.webhookTimeout)
      if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 1 && timeout <= 600_000)) die('--webhook-timeout must be a whole number of ms from 1 to 600000')
      const { res, body } = await callSandbox<import('./control/probe-report.js').ProbeReport>(opts, '/_sandbox/webhooks/probe', die, {
        method: 'POST',
        json: { url, ...(timeout !== undefined && { timeout_ms: timeout }) },
      })
      if (!res.ok || !body?.status || !body.data) {
        // a refused body names its fields (docs/behaviour.md#invalid-request-data)
        const fields = Object.values((body?.data ?? {}) as Record<string, { message?: unknown }>).flatMap((f) => (typeof f?.message === 'string' ? [f.message] : []))
        die(`the sandbox answered ${res.status}: ${body?.message ?? 'no report'}${fields.length ? ` (${fields.join('; ')})` : ''}`, 1)
      }
      const { probeText } = await import('./control/probe-report.js')
      process.stdout.write(opts.format === 'json' ? `${JSON.stringify(body.data, null, 2)}\n` : probeText(body.data))
      process.exitCode = body.data.passed ? 0 : 1
    })

  registerReport(program, die)
  registerReplay(program, die)
  program
    .command('health')
    .description('exit 0 when a running sandbox answers its health check, else 1 (the container image\'s HEALTHCHECK)')
    .option('--url <url>', `the sandbox to ask (default: http://127.0.0.1 on ${OPTIONS.port.env}, or ${OPTIONS.host.env} when it is one address)`)
    .addHelpText('after', `\nExamples:\n  $ sandbox health\n  $ sandbox health --url http://127.0.0.1:4010`)
    .action(async (opts: { url?: string }) => {
      const { checkHealth } = await import('./health-check.js')
      try {
        process.exit(await checkHealth(opts.url))
      } catch (e) {
        if (e instanceof ConfigError) die(e.message)
        throw e
      }
    })

  registerExportFlow(program, die)
  registerVerify(program, die)
  registerConformance(program, die)

  return program
}

/**
 * The V8 flags `sandbox start` sets for its own process (startSandbox() leaves the host's V8
 * alone), each unless node was started with it (`given`: node's flags and NODE_OPTIONS):
 *
 * - Between two full collections V8 lets the old generation grow to up to 4 times what stayed
 *   live on a machine with much memory; a server that keeps 100k+ charges and makes garbage at
 *   thousands of requests a second then sits at 3x its live heap. 1.5x keeps `sandbox start`
 *   under 200 MB with 125k charges stored (bench/README.md), for full collections a few seconds
 *   apart.
 * - With one CPU to run on (`cpus`: taskset, a container's cpuset), no parallel scavenging: V8
 *   would share each young collection out to helper threads that can only take turns on that
 *   CPU. Under card charges on one core: 0.5-5 % less CPU per charge in six of seven interleaved
 *   runs, young pauses 2.07 -> 1.92 ms and 2.41 -> 2.27 ms (bench/README.md).
 */
export function v8Tuning(given: string, cpus: number): string[] {
  const flags: string[] = []
  if (!/heap[-_]growing[-_]percent/.test(given)) flags.push('--heap-growing-percent=50')
  if (cpus <= 1 && !/parallel[-_]scavenge/.test(given)) flags.push('--no-parallel-scavenge')
  return flags
}

function tuneV8(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ')
  for (const flag of v8Tuning(given, availableParallelism())) setFlagsFromString(flag)
}

/** how often a foreground server looks for its launcher (docs/behaviour.md#detach-and-stop) */
const LAUNCHER_POLL_MS = 500

/** The parent pid of `pid` from /proc, or undefined where there is none (macOS, Windows) or it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

/** Each ancestor of this process, with the parent it had as the CLI started: [pid, its parent]. */
type Ancestry = [pid: number, parent: number][]

/** This process's ancestors up to init, read as the CLI starts (before any can have gone away). */
function ancestryNow(): Ancestry {
  const chain: Ancestry = [[process.pid, process.ppid]]
  for (let pid = process.ppid; pid > 1 && chain.length < 64; ) {
    const parent = parentOf(pid)
    if (parent === undefined) break
    chain.push([pid, parent])
    pid = parent
  }
  return chain
}

/**
 * A foreground `sandbox start` stops when the process that launched it goes away
 * (docs/behaviour.md#detach-and-stop): every 500 ms it checks that each of its ancestors, as they were when it
 * started, still has the same parent. One that has not means a process above it ended: npm killed
 * above its `sh -c` wrapper (which outlives npm and passes no signal on), the wrapper itself, the
 * shell of a CI step. Where /proc is missing (macOS, Windows) only the parent is watched; an
 * ancestor already gone at start is not. Calls `onGone` once, with the pid that went away.
 */
function watchLauncher(ancestry: Ancestry, onGone: (pid: number) => void): void {
  const [, first] = ancestry[0]
  if (first <= 1) return
  const timer = setInterval(() => {
    for (const [pid, parent] of ancestry) {
      const now = pid === process.pid ? process.ppid : parentOf(pid)
      if (now === parent) continue
      clearInterval(timer)
      onGone(now === undefined ? pid : parent)
      return
    }
  }, LAUNCHER_POLL_MS)
  timer.unref()
}

async function runStart(input: ConfigInput, exitWithParent: boolean): Promise<void> {
  const ancestry = ancestryNow()
  tuneV8()
  let config
  try {
    config = resolveConfig(input)
  } catch (e) {
    if (e instanceof ConfigError) die(e.message)
    throw e
  }
  const { startServer } = await import('./server.js')
  let running
  try {
    running = await startServer(config, { lazy: true })
  } catch (e) {
    // by name: the classes live in modules that start-up does not load
    if (e instanceof Error && ['PackError', 'DataFileError', 'StoreError', 'CaError', 'ReachError', 'SnapshotError'].includes(e.name)) die(e.message)
    const err = e as NodeJS.ErrnoException
    if (err.code === 'EADDRINUSE') die(`port ${config.port} on ${config.host} is already in use (try --port 0)`)
    if (err.code === 'EACCES' || err.code === 'EADDRNOTAVAIL') die(`cannot listen on ${config.host}:${config.port} (${err.code})`)
    die(`cannot start: ${err.message}`, 1)
  }
  const m = config.merchants[0]
  const out = process.stdout
  out.write(`paysandbox ${VERSION}\n`)
  out.write(`  secret key:     ${m.secret_key}\n`)
  out.write(`  public key:     ${m.public_key}\n`)
  out.write(`  encryption key: ${m.encryption_key}\n`)
  if (config.merchants.length > 1) out.write(`  merchants:      ${config.merchants.length} configured\n`)
  out.write(`  store:          ${config.dataFile ? `file ${config.dataFile}` : config.storeUrl ? `postgres ${redactUrl(config.storeUrl)}` : 'in memory'}\n`)
  // with --load the app loaded before the socket opened: what each file put, by namespace
  if (config.loadFiles.length) {
    const { describeLoaded } = await import('./store/snapshot.js')
    for (const { source, key, records } of (await running.loaded).namespaces.loaded) out.write(`  loaded:         ${source} into ${describeLoaded(key, records)}\n`)
  }
  if (running.caPath) out.write(`  CA certificate: ${running.caPath} (intercepting ${config.interceptHosts.join(', ')})\n`)
  if (config.recordFile) out.write(`  recording:      ${config.recordFile} (forwarding ${config.interceptHosts.join(', ')} to ${config.upstream})\n`)
  if (config.host !== '127.0.0.1' && config.host !== 'localhost' && config.host !== '::1' && !config.controlToken) {
    process.stderr.write('sandbox: warning: listening beyond loopback without --control-token: the control API answers loopback only\n')
  }
  if (running.proxyUrl && !['127.0.0.1', 'localhost', '::1'].includes(config.host) && !config.proxyOnlyIntercepted) {
    process.stderr.write('sandbox: warning: the proxy listens beyond loopback and tunnels to any host for whoever reaches it (--proxy-only-intercepted refuses other hosts)\n')
  }
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    running!
      .close()
      .then(() => process.exit(0))
      .catch((e) => {
        process.stderr.write(`sandbox: error while stopping on ${signal}: ${(e as Error).message}\n`)
        process.exit(1)
      })
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  if (exitWithParent) {
    watchLauncher(ancestry, (pid) => {
      // its reader may be gone with it: a write that fails must not stop the flush
      process.stdout.on('error', () => {})
      process.stderr.on('error', () => {})
      process.stderr.write(`sandbox: the process that launched it (pid ${pid}) has exited: stopping\n`)
      stop('launcher exit')
    })
  }
  if (running.proxyUrl) out.write(`paysandbox proxy on ${running.proxyUrl}\n`)
  if (running.httpsUrl) out.write(`paysandbox https on ${running.httpsUrl}\n`)
  out.write(`paysandbox listening on ${running.url}\n`)
}

/** Runs the CLI; exit code 2 for usage errors. */
export async function main(argv: string[] = process.argv): Promise<void> {
  const program = buildProgram()
  try {
    await program.parseAsync(argv)
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') process.exit(0)
      process.exit(2)
    }
    die(`unexpected error: ${(e as Error).message}`, 1)
  }
}

import { Command, CommanderError, Option } from 'commander'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { decryptChargeText, encryptChargeData } from './cards/crypto.js'
import { ConfigError, keysFromEnv, resolveConfig, truthy, type ConfigInput } from './config.js'
import { VERSION } from './version.js'
import { registerExportFlow, registerReplay } from './replay/cli.js'

/** One line on stderr and exit code 2: never a stack trace for a user's mistake. */
function die(message: string, code = 2): never {
  process.stderr.write(`sandbox: ${message}\n`)
  process.exit(code)
}

const collect = (value: string, previous: string[] = []) => [...previous, value]

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

  program
    .command('start')
    .description('serve the whole API on a local port')
    .addOption(new Option('-p, --port <port>', 'port to listen on; 0 picks a free port').env('SANDBOX_PORT').default('4010'))
    .addOption(new Option('--host <host>', 'address to listen on').env('SANDBOX_HOST').default('127.0.0.1'))
    .addOption(new Option('--data <file>', 'persist the store to this JSON file and reload it on start').env('SANDBOX_DATA'))
    .option('--scenarios <file>', 'add a scenario pack (YAML or JSON); repeatable, later wins', collect, [])
    .addOption(new Option('--secret-key <key>', 'default merchant secret key').env('SANDBOX_SECRET_KEY'))
    .addOption(new Option('--encryption-key <key>', 'encryption key (32 characters) of the default merchant and of namespaces made on the fly').env('SANDBOX_ENCRYPTION_KEY'))
    .addOption(new Option('--merchants <file>', 'merchants file (YAML or JSON) with several keys').env('SANDBOX_MERCHANTS'))
    .addOption(new Option('--strict-keys', 'accept only configured keys').env('SANDBOX_STRICT_KEYS'))
    .addOption(new Option('--webhook-url <url>', 'default webhook URL of every namespace').env('SANDBOX_WEBHOOK_URL'))
    .addOption(new Option('--control-token <token>', 'open the control API beyond loopback to requests carrying this token').env('SANDBOX_CONTROL_TOKEN'))
    .addOption(new Option('--journal-size <n>', 'request journal entries kept per namespace').env('SANDBOX_JOURNAL_SIZE'))
    .addOption(new Option('--journal-body-bytes <n>', 'bytes of each request and response body the journal keeps; longer ones are cut (default 4096)').env('SANDBOX_JOURNAL_BODY_BYTES'))
    .addOption(new Option('--journal-bytes <n>', 'bytes of journal entries kept per namespace (default 4194304)').env('SANDBOX_JOURNAL_BYTES'))
    .addOption(new Option('--journal-total-bytes <n>', 'bytes of journal entries kept in all namespaces (default 67108864)').env('SANDBOX_JOURNAL_TOTAL_BYTES'))
    .addOption(new Option('--max-namespaces <n>', 'namespaces (secret keys) kept at most (default 1000)').env('SANDBOX_MAX_NAMESPACES'))
    .addOption(new Option('--max-events <n>', 'settled events kept per namespace; pending deliveries are not counted (default 10000)').env('SANDBOX_MAX_EVENTS'))
    .addOption(new Option('--webhook-retry-schedule <seconds>', 'delays between webhook attempts, comma-separated (default 1,2,4,8,16)').env('SANDBOX_WEBHOOK_RETRY_SCHEDULE'))
    .addOption(new Option('--debit-limit <ngn>', "the merchant's transaction limit on a direct debit, NGN (default 10000000)").env('SANDBOX_DEBIT_LIMIT'))
    .addOption(new Option('--max-virtual-accounts <n>', 'virtual bank accounts one namespace may open (default 50)').env('SANDBOX_MAX_VIRTUAL_ACCOUNTS'))
    .addOption(new Option('--webhook-timeout <ms>', 'how long a receiver has to answer 2xx (default 5000)').env('SANDBOX_WEBHOOK_TIMEOUT'))
    .addOption(new Option('--webhook-concurrency <n>', 'webhook attempts in flight at once, all namespaces (default 8)').env('SANDBOX_WEBHOOK_CONCURRENCY'))
    .addOption(new Option('--webhook-namespace-concurrency <n>', 'webhook attempts of one namespace in flight at once (default 4)').env('SANDBOX_WEBHOOK_NAMESPACE_CONCURRENCY'))
    .option('--tls', 'also serve HTTPS, with a certificate signed by the local CA (SANDBOX_TLS)')
    .addOption(new Option('--tls-port <port>', 'HTTPS port with --tls; 0 picks a free port (default 4443)').env('SANDBOX_TLS_PORT'))
    .option('--proxy', 'also listen as an HTTP(S) forward proxy that answers the intercepted hosts (SANDBOX_PROXY)')
    .addOption(new Option('--proxy-port <port>', 'proxy port with --proxy; 0 picks a free port (default 4080)').env('SANDBOX_PROXY_PORT'))
    .option('--intercept <host>', 'a host the proxy answers from the sandbox; repeatable (default api.korapay.com; SANDBOX_INTERCEPT, comma-separated)', collect, [])
    .option('--proxy-only-intercepted', 'the proxy refuses other hosts instead of tunnelling to them (SANDBOX_PROXY_ONLY_INTERCEPTED)')
    .addOption(new Option('--ca-dir <dir>', 'directory of the local CA, created on first use (default ~/.local/share/paysandbox/ca)').env('SANDBOX_CA_DIR'))
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
  $ sandbox start --scenarios my-cards.yaml --secret-key sk_test_ci
  $ sandbox start --detach --port 4010     # returns once ready; writes .sandbox.pid (stop: sandbox stop)
  $ sandbox start --tls --proxy            # https://127.0.0.1:4443 and a proxy on http://127.0.0.1:4080
  $ HTTPS_PROXY=http://127.0.0.1:4080 SSL_CERT_FILE="$(sandbox ca --path)" python3 my_client.py`,
    )
    .action(async (opts: Record<string, string | string[] | boolean | undefined>, cmd: Command) => {
      if (opts.detach) process.exit(await (await import('./detach.js')).startDetached(cmd, opts.pidFile as string))
      // the flags that pass to the config as the text given (config.ts checks and converts them)
      const input: ConfigInput = {
        scenarios: opts.scenarios as string[],
        tls: opts.tls === true ? true : undefined,
        proxy: opts.proxy === true ? true : undefined,
        proxyOnlyIntercepted: opts.proxyOnlyIntercepted === true ? true : undefined,
        interceptHosts: (opts.intercept as string[]).length ? (opts.intercept as string[]) : undefined,
        strictKeys: opts.strictKeys === undefined ? undefined : opts.strictKeys === true || truthy(String(opts.strictKeys)),
      }
      for (const name of TEXT_FLAGS) if (typeof opts[name] === 'string') input[name] = opts[name]
      await runStart(input, opts.exitWithParent !== false)
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
      const { ActiveScenarios, PackError, Scenarios } = await import('./scenario/index.js')
      let view
      try {
        view = new ActiveScenarios(Scenarios.loadPacks(opts.scenarios))
      } catch (e) {
        if (e instanceof PackError) die(e.message)
        throw e
      }
      const data = view.toJSON()
      if (opts.json) {
        process.stdout.write(JSON.stringify(data, null, 2) + '\n')
        return
      }
      const { formatMagic } = await import('./magic.js')
      process.stdout.write(formatMagic(data))
    })

  program
    .command('ca')
    .description('print the local CA certificate (created on first use) and how to make clients trust it')
    .addOption(new Option('--ca-dir <dir>', 'directory of the local CA (default ~/.local/share/paysandbox/ca)').env('SANDBOX_CA_DIR'))
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

  registerReplay(program, die)
  registerExportFlow(program, die)

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

/** how often a foreground server looks for its launcher (docs/behaviour.md 0.3) */
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
 * (docs/behaviour.md 0.3): every 500 ms it checks that each of its ancestors, as they were when it
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

/** The `start` flags config.ts takes as text (the option's camelCase name is the config field's). */
const TEXT_FLAGS = [
  'port', 'host', 'data', 'secretKey', 'encryptionKey', 'merchants', 'webhookUrl', 'controlToken', 'journalSize', 'journalBodyBytes',
  'journalBytes', 'journalTotalBytes', 'maxNamespaces', 'maxEvents', 'webhookRetrySchedule', 'webhookTimeout', 'webhookConcurrency',
  'webhookNamespaceConcurrency', 'debitLimit', 'maxVirtualAccounts', 'tlsPort', 'proxyPort', 'caDir',
] as const satisfies readonly (keyof ConfigInput)[]

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
    if (e instanceof Error && ['PackError', 'DataFileError', 'CaError', 'ReachError'].includes(e.name)) die(e.message)
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
  out.write(`  store:          ${config.dataFile ? `file ${config.dataFile}` : 'in memory'}\n`)
  if (running.caPath) out.write(`  CA certificate: ${running.caPath} (intercepting ${config.interceptHosts.join(', ')})\n`)
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

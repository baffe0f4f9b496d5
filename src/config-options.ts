import { homedir } from 'node:os'
import { join } from 'node:path'
import { isoAt } from './time.js'

/**
 * Every configuration option, declared once (docs/architecture.md, "Configuration"): its flag, its
 * environment variable, its default, how its value is read and checked, its help, and the `Config`
 * field it fills. `Config` and `ConfigInput` (src/config.ts), the flags of `sandbox start`
 * (src/cli.ts) and the table of docs/behaviour.md#flags-and-environment are derived from it; test/config-options.test.ts
 * holds the three together.
 */

export const DEFAULT_SECRET_KEY = 'sk_test_sandbox'
export const DEFAULT_PUBLIC_KEY = 'pk_test_sandbox'
export const DEFAULT_ENCRYPTION_KEY = 'sandbox-encryption-key-012345678'

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

/** What a call's secret key must look like to name a namespace (docs/behaviour.md#keys-and-namespaces): the API's and a snapshot's `key` alike. */
export const KEY_SHAPE = /^sk_test_[A-Za-z0-9_-]{1,200}$/

/**
 * Plain checks, no zod: resolving a config is on the start-up path of every `sandbox start`, and
 * zod is loaded only when a merchants file has to be validated.
 */
export function checkSecretKey(k: string, name: string): string {
  if (k.startsWith('sk_live_')) throw new ConfigError(`${name} live keys are never accepted by the sandbox`)
  if (!/^sk_test_[A-Za-z0-9_-]+$/.test(k)) throw new ConfigError(`${name} must start with sk_test_ (letters, digits, _ and - after it)`)
  return k
}

export function checkEncryptionKey(k: string, name: string): string {
  if (Buffer.byteLength(k, 'utf8') !== 32) throw new ConfigError(`${name} must be 32 bytes (AES-256)`)
  return k
}

export function checkWebhookUrl(u: string, name: string): string {
  let ok = false
  try {
    ok = /^https?:$/.test(new URL(u).protocol)
  } catch {
    ok = false
  }
  if (!ok) throw new ConfigError(`${name} must be an http(s) URL`)
  return u
}

/** an environment switch that is on: `1`, `true` or `yes`, any case */
const truthy = (v: string | undefined) => ['1', 'true', 'yes'].includes((v ?? '').toLowerCase())

/** The CA's directory when none is given: per user, `$XDG_DATA_HOME/paysandbox/ca` or `~/.local/share/paysandbox/ca`. */
function defaultCaDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share'), 'paysandbox', 'ca')
}

/**
 * How an option's value is read. `given` is what the flag or `startSandbox()` gave (`In`), else the
 * environment variable's text, else undefined; `name` is what a refusal calls it (the flag, or the
 * variable when there is no flag).
 */
export interface Reader<In, Out> {
  read(given: In | string | undefined, name: string, env: NodeJS.ProcessEnv): Out
  /** the default as `--help` and docs/behaviour.md#flags-and-environment show it */
  default?: string
  /** `switch`: a flag without a value, on in the environment as `1`, `true` or `yes`; `list`: a repeatable flag, comma-separated in the environment */
  kind?: 'switch' | 'list'
}

/** One option. `In` is what `startSandbox()` takes for it (never, for an option of the environment only). */
export interface ConfigOption<In, Out, Field extends string> {
  /** as commander writes it: `-p, --port <port>`, `--tls` */
  flag?: string
  env: string
  /** one line for `--help` */
  help: string
  /** the `Config` field it fills; none for the options the merchants are made of (src/config.ts) */
  field?: Field
  reader: Reader<In, Out>
}

/**
 * An option with a flag; its variable is the long flag's name after `SANDBOX_`, upper case
 * (`--tls-port`: `SANDBOX_TLS_PORT`), unless it names the one the service's own tools read.
 */
function option<In, Out, const Field extends string = never>(decl: Omit<ConfigOption<In, Out, Field>, 'reader' | 'env'> & { flag: string; env?: string }, reader: Reader<In, Out>): ConfigOption<In, Out, Field> {
  const env = decl.env ?? `SANDBOX_${/--([a-z-]+)/.exec(decl.flag)![1].replaceAll('-', '_').toUpperCase()}`
  return { ...decl, env, reader }
}

function envOnly<Out, const Field extends string>(decl: Omit<ConfigOption<never, Out, Field>, 'reader' | 'flag'>, reader: Reader<never, Out>): ConfigOption<never, Out, Field> {
  return { ...decl, reader }
}

function whole(min: number, max: number, dflt: number): Reader<number | string, number> {
  return {
    default: String(dflt),
    read(value, name) {
      if (value === undefined || value === '') return dflt
      const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : NaN
      if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got ${value})`)
      return n
    },
  }
}

const text = (dflt: string): Reader<string, string> => ({ default: dflt, read: (v) => v ?? dflt })

/** a value that may be absent, such as a file; empty is absent */
const maybe: Reader<string, string | undefined> = { read: (v) => v || undefined }

const onOff: Reader<boolean, boolean> = { kind: 'switch', read: (v) => (typeof v === 'boolean' ? v : truthy(v)) }

const files: Reader<string[], string[]> = { kind: 'list', read: (v) => (Array.isArray(v) ? v : (v?.split(',').filter(Boolean) ?? [])) }

/** a tuning knob: unset, 0 or not a number gives the default, and at least 1 */
const atLeastOne = (dflt: number): Reader<string, number> => ({ default: String(dflt), read: (v) => Math.max(1, Number(v) || dflt) })

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/

/** the host a client's code calls, answered by the sandbox under --proxy and intercept (docs/behaviour.md#reaching) */
const DEFAULT_INTERCEPT = 'api.korapay.com'

/**
 * A host name as the sandbox compares it (docs/behaviour.md#proxy): lower case, without the one
 * trailing dot of a fully qualified name, so `API.korapay.com.` is `api.korapay.com`. Every
 * comparison of a host with the intercepted ones asks this.
 */
export function hostKey(name: string): string {
  const lower = name.toLowerCase()
  return lower.endsWith('.') ? lower.slice(0, -1) : lower
}

const hosts: Reader<string[] | string, string[]> = {
  kind: 'list',
  default: DEFAULT_INTERCEPT,
  read(value, name) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return [DEFAULT_INTERCEPT]
    const list = (Array.isArray(value) ? value : value.split(',')).map((h) => hostKey(h.trim())).filter(Boolean)
    const bad = list.find((h) => !HOST_NAME.test(h))
    if (bad !== undefined || list.length === 0 || list.length > 100) {
      throw new ConfigError(`${name} must be host names (at most 100), such as api.korapay.com (got ${bad ?? value})`)
    }
    return [...new Set(list)]
  },
}

const schedule: Reader<string | number[], number[]> = {
  default: '1,2,4,8,16',
  read(value, name) {
    if (value === undefined || value === '') return [1, 2, 4, 8, 16]
    const list = Array.isArray(value) ? value : value.split(',').map((s) => (s.trim() === '' ? NaN : Number(s.trim())))
    if (list.length > 20 || list.some((n) => !Number.isFinite(n) || n < 0 || n > 86_400)) {
      throw new ConfigError(`${name} must be a comma-separated list of at most 20 delays in seconds, each 0-86400 (got ${value})`)
    }
    return list
  },
}

const checked = (dflt: string, check: (v: string, name: string) => string): Reader<string, string> => ({ default: dflt, read: (v, name) => check(v ?? dflt, name) })

const webhookUrl: Reader<string, string | null> = { read: (v, name) => (v ? checkWebhookUrl(v, name) : null) }

const queryCache: Reader<never, 'on' | 'off'> = { default: 'on', read: (v) => (v === 'off' ? 'off' : 'on') }

/** `--seed`: a whole number; absent is no seed (docs/behaviour.md#seed-and-clock-start) */
const seed: Reader<number | string, number | undefined> = {
  read(value, name) {
    if (value === undefined || value === '') return undefined
    const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : NaN
    if (!Number.isSafeInteger(n) || n < 0) throw new ConfigError(`${name} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER} (got ${value})`)
    return n
  },
}

/** where the namespace clocks start under `--seed` */
const DEFAULT_CLOCK_START = '2026-01-01T00:00:00.000Z'

/** `--clock-start`: an ISO 8601 time with a date, a time and a zone; given back as the instant's ISO text */
const clockStart: Reader<string, string> = {
  default: DEFAULT_CLOCK_START,
  read(value, name) {
    if (value === undefined || value === '') return DEFAULT_CLOCK_START
    const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value) ? Date.parse(value) : NaN
    if (!Number.isFinite(ms)) throw new ConfigError(`${name} must be an ISO 8601 time with its zone, such as ${DEFAULT_CLOCK_START} (got ${value})`)
    return isoAt(ms)
  },
}

/** A connection URL as a message prints it: its user's password and any `password=` of its query hidden. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^@/]*@/i, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***')
}

/** `--store`: a PostgreSQL connection URL (docs/behaviour.md#persistence); absent is memory or `--data` */
const storeUrl: Reader<string, string | undefined> = {
  read(v, name) {
    if (!v) return undefined
    if (!/^postgres(ql)?:\/\/./.test(v)) throw new ConfigError(`${name} must be a PostgreSQL URL, postgres://user:password@host:port/database (got ${redactUrl(v)})`)
    return v
  },
}

/** the flow file of --record: written as YAML, so its name says so */
const recordFile: Reader<string, string | undefined> = {
  read(v, name) {
    if (v && !/\.ya?ml$/i.test(v)) throw new ConfigError(`${name} writes a YAML flow: name the file .yaml or .yml (got ${v})`)
    return v || undefined
  },
}

const upstreamKey: Reader<string, string | undefined> = { read: (v, name) => (v ? checkEncryptionKey(v, name) : undefined) }

/** `--profile`: which source answers where a live recording contradicts the interface document (docs/api.md) (CONTRACT 15, docs/behaviour.md#live-profile) */
const profile: Reader<string, 'default' | 'live'> = {
  default: 'default',
  read(value, name) {
    if (value === undefined || value === '' || value === 'default') return 'default'
    if (value === 'live') return 'live'
    throw new ConfigError(`${name} must be default or live (got ${value})`)
  },
}

const caDir: Reader<string, string> = { default: '~/.local/share/paysandbox/ca', read: (v, _name, env) => v || defaultCaDir(env) }

/** In the order of docs/behaviour.md#flags-and-environment; the key is the option's name in `ConfigInput`. */
/** The environment variables of the live service's own test keys (`--record`, `sandbox verify --against`). */
export const LIVE_KEY_ENV = { secretKey: 'KORAPAY_SECRET_KEY', publicKey: 'KORAPAY_PUBLIC_KEY', encryptionKey: 'KORAPAY_ENCRYPTION_KEY' } as const

export const OPTIONS = {
  port: option({ flag: '-p, --port <port>', help: 'port to listen on; 0 picks a free port', field: 'port' }, whole(0, 65535, 4010)),
  host: option({ flag: '--host <host>', help: 'address to listen on', field: 'host' }, text('127.0.0.1')),
  data: option({ flag: '--data <file>', help: 'persist the store to this JSON file and reload it on start', field: 'dataFile' }, maybe),
  store: option({ flag: '--store <url>', help: 'keep the store in PostgreSQL (postgres://...) instead of memory or a data file', field: 'storeUrl' }, storeUrl),
  load: option({ flag: '--load <file>', help: 'restore a namespace from this snapshot at start, under its key (sandbox snapshot writes one); repeatable', field: 'loadFiles' }, files),
  scenarios: option({ flag: '--scenarios <file>', help: 'add a scenario pack (YAML or JSON); repeatable, later wins', field: 'scenarioFiles' }, files),
  secretKey: option({ flag: '--secret-key <key>', help: 'default merchant secret key' }, checked(DEFAULT_SECRET_KEY, checkSecretKey)),
  encryptionKey: option({ flag: '--encryption-key <key>', help: 'encryption key (32 characters) of the default merchant and of namespaces made on the fly', field: 'encryptionKey' }, checked(DEFAULT_ENCRYPTION_KEY, checkEncryptionKey)),
  merchants: option({ flag: '--merchants <file>', help: 'merchants file (YAML or JSON) with several keys' }, maybe),
  strictKeys: option({ flag: '--strict-keys', help: 'accept only configured keys', field: 'strictKeys' }, onOff),
  webhookUrl: option({ flag: '--webhook-url <url>', help: 'default webhook URL of every namespace' }, webhookUrl),
  controlToken: option({ flag: '--control-token <token>', help: 'open the control API beyond loopback to requests carrying this token', field: 'controlToken' }, maybe),
  journalSize: option({ flag: '--journal-size <n>', help: 'request journal entries kept per namespace', field: 'journalSize' }, whole(1, 100_000, 1000)),
  journalBodyBytes: option({ flag: '--journal-body-bytes <n>', help: 'bytes of each request and response body the journal keeps; longer ones are cut', field: 'journalBodyBytes' }, whole(256, 1 << 20, 4096)),
  journalBytes: option({ flag: '--journal-bytes <n>', help: 'bytes of journal entries kept per namespace', field: 'journalBytes' }, whole(64 << 10, 64 << 20, 4 << 20)),
  journalTotalBytes: option({ flag: '--journal-total-bytes <n>', help: 'bytes of journal entries kept in all namespaces', field: 'journalTotalBytes' }, whole(64 << 10, 4 << 30, 64 << 20)),
  snapshotBytes: option({ flag: '--snapshot-bytes <n>', help: 'bytes a snapshot sent to POST /_sandbox/snapshot may have', field: 'snapshotBytes' }, whole(1 << 20, 1 << 30, 16 << 20)),
  maxNamespaces: option({ flag: '--max-namespaces <n>', help: 'namespaces (secret keys) kept at most', field: 'maxNamespaces' }, whole(1, 100_000, 1000)),
  maxEvents: option({ flag: '--max-events <n>', help: 'settled events kept per namespace; pending deliveries are not counted', field: 'maxEvents' }, whole(1, 1_000_000, 10_000)),
  webhookRetrySchedule: option({ flag: '--webhook-retry-schedule <seconds>', help: 'delays between webhook attempts, comma-separated', field: 'webhookRetrySchedule' }, schedule),
  webhookTimeout: option({ flag: '--webhook-timeout <ms>', help: 'how long a receiver has to answer 2xx', field: 'webhookTimeoutMs' }, whole(1, 600_000, 5_000)),
  webhookConcurrency: option({ flag: '--webhook-concurrency <n>', help: 'webhook attempts in flight at once, all namespaces', field: 'webhookConcurrency' }, whole(1, 1024, 8)),
  webhookNamespaceConcurrency: option({ flag: '--webhook-namespace-concurrency <n>', help: 'webhook attempts of one namespace in flight at once', field: 'webhookNamespaceConcurrency' }, whole(1, 1024, 4)),
  debitLimit: option({ flag: '--debit-limit <ngn>', help: "the merchant's transaction limit on a direct debit, NGN", field: 'debitLimit' }, whole(1, 1_000_000_000_000, 10_000_000)),
  maxVirtualAccounts: option({ flag: '--max-virtual-accounts <n>', help: 'virtual bank accounts one namespace may open', field: 'maxVirtualAccounts' }, whole(1, 100_000, 50)),
  profile: option({ flag: '--profile <profile>', help: 'default (the interface document, docs/api.md) or live: answer as recorded from the live test environment where the two differ', field: 'profile' }, profile),
  seed: option({ flag: '--seed <n>', help: 'repeat runs exactly: every reference, id and code drawn from this seed, the namespace clocks frozen at --clock-start', field: 'seed' }, seed),
  clockStart: option({ flag: '--clock-start <iso>', help: 'with --seed: the time every namespace clock starts frozen at', field: 'clockStart' }, clockStart),
  tls: option({ flag: '--tls', help: 'also serve HTTPS, with a certificate signed by the local CA', field: 'tls' }, onOff),
  tlsPort: option({ flag: '--tls-port <port>', help: 'HTTPS port with --tls; 0 picks a free port', field: 'tlsPort' }, whole(0, 65535, 4443)),
  proxy: option({ flag: '--proxy', help: 'also listen as an HTTP(S) forward proxy that answers the intercepted hosts', field: 'proxy' }, onOff),
  proxyPort: option({ flag: '--proxy-port <port>', help: 'proxy port with --proxy; 0 picks a free port', field: 'proxyPort' }, whole(0, 65535, 4080)),
  /** host names the proxy and in-process interception answer from the sandbox (lower case) */
  interceptHosts: option({ flag: '--intercept <host>', help: 'a host the proxy answers from the sandbox; repeatable', field: 'interceptHosts' }, hosts),
  proxyOnlyIntercepted: option({ flag: '--proxy-only-intercepted', help: 'the proxy refuses other hosts instead of tunnelling to them', field: 'proxyOnlyIntercepted' }, onOff),
  /** the local certificate authority's directory (`ca.pem`, `ca-key.pem`), per user unless given */
  caDir: option({ flag: '--ca-dir <dir>', help: 'directory of the local CA, created on first use', field: 'caDir' }, caDir),
  /** docs/behaviour.md#record: the proxy forwards the intercepted hosts to the upstream and writes each exchange to this flow */
  record: option({ flag: '--record <file>', help: 'with --proxy: forward the intercepted hosts to --upstream and record each exchange to this flow file (YAML)', field: 'recordFile' }, recordFile),
  upstream: option({ flag: '--upstream <url>', help: 'the service --record forwards to', field: 'upstream' }, checked('https://api.korapay.com', checkWebhookUrl)),
  upstreamEncryptionKey: option({ flag: '--upstream-encryption-key <key>', env: LIVE_KEY_ENV.encryptionKey, help: "the upstream account's encryption key, with which --record decrypts charge_data", field: 'upstreamEncryptionKey' }, upstreamKey),
  // tuning knobs, environment only
  /** with a data file: compact once the appended deltas exceed this many bytes and the snapshot (the durability test compacts a small store with it) */
  compactMinBytes: envOnly({ env: 'SANDBOX_COMPACT_MIN_BYTES', help: 'with --data: compact once the appended changes exceed this many bytes', field: 'compactMinBytes' }, whole(1024, 1 << 30, 1 << 20)),
  /** with --store: how long a namespace's lease lasts unrenewed, the bound of a takeover (src/store/pg-lease.ts) */
  leaseMs: envOnly({ env: 'SANDBOX_LEASE_MS', help: 'with --store: how long a namespace stays with a process that stopped renewing it', field: 'leaseMs' }, whole(500, 600_000, 5_000)),
  /** with --store: the URL other processes forward a namespace's calls to (docs/architecture.md, "Several processes, one database") */
  advertiseUrl: envOnly({ env: 'SANDBOX_ADVERTISE_URL', help: 'with --store: the URL other processes reach this one at', field: 'advertiseUrl' }, maybe),
  /**
   * charge queries answered again from the text kept while nothing changed (engine/charge-query.ts):
   * `on`; `off` keeps nothing; `check` computes every answer anyway and fails the call when a kept
   * one differs (the test suite's setting)
   */
  queryCache: envOnly({ env: 'SANDBOX_QUERY_CACHE', help: 'charge queries answered from the answer kept: on or off', field: 'queryCache' }, queryCache),
  /**
   * How many records of a collection stay live objects (the ones used last); the others are kept
   * as JSON text, which takes about half the memory of the object tree and costs the garbage
   * collector nothing to trace: what keeps a store of 100k charges small and its pauses short.
   * Which form a record is in changes nothing a caller sees (docs/architecture.md, "The store").
   */
  hotRecords: envOnly({ env: 'SANDBOX_HOT_RECORDS', help: 'records kept as live objects per collection', field: 'hotRecords' }, atLeastOne(128)),
  /**
   * How many cold texts are compressed together into one block (deflate): records of one
   * collection share most of their text, so a block of 64 charges takes ~30 bytes per charge
   * instead of ~520.
   */
  coldBlock: envOnly({ env: 'SANDBOX_COLD_BLOCK', help: 'cold records compressed together in one block', field: 'coldBlock' }, atLeastOne(64)),
}

export type Options = typeof OPTIONS
export type OptionKey = keyof Options

/** an option of any kind, as code that handles them all sees it */
export type AnyOption = ConfigOption<unknown, unknown, string>

export type InputOf<O> = O extends ConfigOption<infer In, unknown, string> ? In : never
export type OutputOf<O> = O extends ConfigOption<unknown, infer Out, string> ? Out : never
export type FieldOf<O> = O extends ConfigOption<unknown, unknown, infer F> ? F : never

/** The name a refusal gives an option: its long flag, or its variable when it has no flag. */
export function optionName(o: AnyOption): string {
  return o.flag ? /--[a-z-]+/.exec(o.flag)![0] : o.env
}

import { homedir } from 'node:os'
import { join } from 'node:path'
import { readDocumentFile } from './files.js'

export const DEFAULT_SECRET_KEY = 'sk_test_sandbox'
export const DEFAULT_PUBLIC_KEY = 'pk_test_sandbox'
export const DEFAULT_ENCRYPTION_KEY = 'sandbox-encryption-key-012345678'
export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'
/** the host a client's code calls, answered by the sandbox under --proxy and intercept (docs/behaviour.md 14) */
export const DEFAULT_INTERCEPT = ['api.korapay.com']
export const DEFAULT_TLS_PORT = 4443
export const DEFAULT_PROXY_PORT = 4080

/** A merchant: one secret key, one namespace. */
export interface Merchant {
  secret_key: string
  public_key: string
  encryption_key: string
  name: string
  email: string
  webhook_url: string | null
}

export interface Config {
  port: number
  host: string
  /** JSON file for the store; in memory when absent */
  dataFile?: string
  /** extra scenario packs, in order (later wins) */
  scenarioFiles: string[]
  /** configured merchants; the first is the default one printed at start */
  merchants: Merchant[]
  /** encryption key of namespaces created on the fly */
  encryptionKey: string
  /** only configured keys are accepted */
  strictKeys: boolean
  /** token that opens the control API beyond loopback */
  controlToken?: string
  /** request journal entries kept per namespace */
  journalSize: number
  /** bytes of a request or response body the journal keeps; longer ones are kept cut */
  journalBodyBytes: number
  /** bytes of journal entries kept per namespace */
  journalBytes: number
  /** bytes of journal entries kept in all */
  journalTotalBytes: number
  /** namespaces kept at most */
  maxNamespaces: number
  /** settled events kept per namespace (events whose delivery is pending are not counted) */
  maxEvents: number
  /** body limits in bytes */
  bodyLimit: number
  identityBodyLimit: number
  /** seconds between webhook attempts (docs/behaviour.md 8: 1, 2, 4, 8, 16) */
  webhookRetrySchedule: number[]
  /** ms a receiver has to answer 2xx */
  webhookTimeoutMs: number
  /** webhook attempts in flight at once, all namespaces together (docs/behaviour.md 8.5) */
  webhookConcurrency: number
  /** webhook attempts of one namespace in flight at once: what one namespace can hold of the above */
  webhookNamespaceConcurrency: number
  /** the merchant's transaction limit on a direct debit, NGN (major units) */
  debitLimit: number
  /** virtual bank accounts one namespace may open (docs/behaviour.md 13.3) */
  maxVirtualAccounts: number
  /** with a data file: compact once the appended deltas exceed this many bytes and the snapshot */
  compactMinBytes: number
  /**
   * charge queries answered again from the text kept while nothing changed (charges/charge-query.ts):
   * `on`; `off` keeps nothing; `check` computes every answer anyway and fails the call when a kept
   * one differs (the test suite's setting)
   */
  queryCache: 'on' | 'off' | 'check'
  /**
   * How many records of a collection stay live objects (the ones used last); the others are kept
   * as JSON text, which takes about half the memory of the object tree and costs the garbage
   * collector nothing to trace: what keeps a store of 100k charges small and its pauses short.
   * `npm run test:cold` runs the suite with 1, which shows that no code relies on an object
   * staying the stored one.
   */
  hotRecords: number
  /**
   * How many cold texts are compressed together into one block (deflate): records of one
   * collection share most of their text, so a block of 64 charges takes ~30 bytes per charge
   * instead of ~520 (`npm run test:cold` uses 2).
   */
  coldBlock: number
  /** docs/behaviour.md 14: HTTPS beside HTTP (`--tls`), on `tlsPort` */
  tls: boolean
  tlsPort: number
  /** docs/behaviour.md 14: a forward proxy (`--proxy`), on `proxyPort` */
  proxy: boolean
  proxyPort: number
  /** host names the proxy and in-process interception answer from the sandbox (lower case) */
  interceptHosts: string[]
  /** the proxy refuses every other host instead of tunnelling to it */
  proxyOnlyIntercepted: boolean
  /** the local certificate authority's directory (`ca.pem`, `ca-key.pem`) */
  caDir: string
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

/**
 * Plain checks, no zod: resolving a config is on the start-up path of every `sandbox start`, and
 * zod is loaded only when a merchants file has to be validated.
 */
function checkSecretKey(k: string, name: string): string {
  if (k.startsWith('sk_live_')) throw new ConfigError(`${name} live keys are never accepted by the sandbox`)
  if (!/^sk_test_[A-Za-z0-9_-]+$/.test(k)) throw new ConfigError(`${name} must start with sk_test_ (letters, digits, _ and - after it)`)
  return k
}

function checkEncryptionKey(k: string, name: string): string {
  if (Buffer.byteLength(k, 'utf8') !== 32) throw new ConfigError(`${name} must be 32 bytes (AES-256)`)
  return k
}

function checkWebhookUrl(u: string, name: string): string {
  let ok = false
  try {
    ok = /^https?:$/.test(new URL(u).protocol)
  } catch {
    ok = false
  }
  if (!ok) throw new ConfigError(`${name} must be an http(s) URL`)
  return u
}

interface MerchantEntry {
  secret_key: string
  public_key?: string
  encryption_key?: string
  name?: string
  email?: string
  webhook_url?: string | null
}

/** Reads and validates a merchants file (YAML or JSON), loading yaml and zod only now. */
function readMerchantsFile(file: string): MerchantEntry[] {
  const raw = readDocumentFile(file, (why) => new ConfigError(`cannot read merchants file ${file}: ${why.detail}`))
  const list = (raw as { merchants?: unknown })?.merchants
  const fail = (path: string, why: string): never => {
    throw new ConfigError(`merchants file ${file}: ${path}: ${why}`)
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail('(root)', 'must be an object with a merchants list')
  for (const k of Object.keys(raw as object)) if (k !== 'merchants') fail('(root)', `unknown field: ${k}`)
  if (!Array.isArray(list) || list.length === 0) fail('merchants', 'must be a list of at least one merchant')
  const allowed = new Set(['secret_key', 'public_key', 'encryption_key', 'name', 'email', 'webhook_url'])
  return (list as unknown[]).map((m, i) => {
    const at = `merchants.${i}`
    if (!m || typeof m !== 'object' || Array.isArray(m)) fail(at, 'must be an object')
    const e = m as Record<string, unknown>
    for (const k of Object.keys(e)) if (!allowed.has(k)) fail(at, `unknown field: ${k}`)
    const str = (k: string, required = false) => {
      const v = e[k]
      if (v === undefined || (k === 'webhook_url' && v === null)) return required ? fail(`${at}.${k}`, 'is required') : undefined
      if (typeof v !== 'string' || v === '') return fail(`${at}.${k}`, 'must be a non-empty string')
      return v
    }
    const secret = str('secret_key', true)!
    try {
      checkSecretKey(secret, '')
      const enc = str('encryption_key')
      if (enc !== undefined) checkEncryptionKey(enc, '')
      const hook = str('webhook_url')
      if (hook !== undefined) checkWebhookUrl(hook, '')
    } catch (err) {
      fail(at, (err as Error).message.trim())
    }
    const email = str('email')
    if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) fail(`${at}.email`, 'must be a valid e-mail address')
    return { secret_key: secret, public_key: str('public_key'), encryption_key: str('encryption_key'), name: str('name'), email, webhook_url: (e.webhook_url as string | null | undefined) ?? undefined }
  })
}

/** yaml, loaded only for a merchants file: start-up should not pay for it. */

export interface ConfigInput {
  port?: number | string
  host?: string
  data?: string
  scenarios?: string[]
  secretKey?: string
  encryptionKey?: string
  merchants?: string
  strictKeys?: boolean
  webhookUrl?: string
  controlToken?: string
  journalSize?: number | string
  journalBodyBytes?: number | string
  journalBytes?: number | string
  journalTotalBytes?: number | string
  maxNamespaces?: number | string
  maxEvents?: number | string
  /** "1,2,4,8,16" or an array of seconds */
  webhookRetrySchedule?: string | number[]
  webhookTimeout?: number | string
  webhookConcurrency?: number | string
  webhookNamespaceConcurrency?: number | string
  debitLimit?: number | string
  maxVirtualAccounts?: number | string
  tls?: boolean
  tlsPort?: number | string
  proxy?: boolean
  proxyPort?: number | string
  /** host names to intercept: a list, or comma-separated */
  interceptHosts?: string[] | string
  proxyOnlyIntercepted?: boolean
  caDir?: string
}

/** an environment switch that is on: `1`, `true` or `yes`, any case */
export const truthy = (v: string | undefined) => ['1', 'true', 'yes'].includes((v ?? '').toLowerCase())

/** The CA's directory when none is given: per user, `$XDG_DATA_HOME/paysandbox/ca` or `~/.local/share/paysandbox/ca`. */
export function defaultCaDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share'), 'paysandbox', 'ca')
}

/** The CA's directory: `--ca-dir`, else SANDBOX_CA_DIR, else the per-user default. */
export function caDirFrom(given: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return given || env.SANDBOX_CA_DIR || defaultCaDir(env)
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/

function interceptList(value: string[] | string | undefined): string[] {
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return DEFAULT_INTERCEPT
  const list = (Array.isArray(value) ? value : value.split(',')).map((h) => h.trim().toLowerCase()).filter(Boolean)
  const bad = list.find((h) => !HOST_NAME.test(h))
  if (bad !== undefined || list.length === 0 || list.length > 100) {
    throw new ConfigError(`--intercept must be host names (at most 100), such as api.korapay.com (got ${bad ?? value})`)
  }
  return [...new Set(list)]
}

function retrySchedule(value: string | number[] | undefined): number[] {
  if (value === undefined || value === '') return [1, 2, 4, 8, 16]
  const list = Array.isArray(value) ? value : value.split(',').map((s) => (s.trim() === '' ? NaN : Number(s.trim())))
  if (list.length > 20 || list.some((n) => !Number.isFinite(n) || n < 0 || n > 86_400)) {
    throw new ConfigError(`--webhook-retry-schedule must be a comma-separated list of at most 20 delays in seconds, each 0-86400 (got ${value})`)
  }
  return list
}

function intIn(value: number | string | undefined, name: string, min: number, max: number, dflt: number): number {
  if (value === undefined || value === '') return dflt
  const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : NaN
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got ${value})`)
  return n
}

/** The keys a command uses when no flag gives one (encrypt, decrypt, replay): SANDBOX_* or the defaults. */
export function keysFromEnv(env: NodeJS.ProcessEnv = process.env): { secretKey: string; encryptionKey: string } {
  return { secretKey: env.SANDBOX_SECRET_KEY ?? DEFAULT_SECRET_KEY, encryptionKey: env.SANDBOX_ENCRYPTION_KEY ?? DEFAULT_ENCRYPTION_KEY }
}

/** Flags win over environment variables, which win over defaults. */
export function resolveConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const port = intIn(input.port ?? env.SANDBOX_PORT, '--port', 0, 65535, DEFAULT_PORT)
  const host = input.host ?? env.SANDBOX_HOST ?? DEFAULT_HOST
  const encKey = checkEncryptionKey(input.encryptionKey ?? env.SANDBOX_ENCRYPTION_KEY ?? DEFAULT_ENCRYPTION_KEY, '--encryption-key')
  const sk = checkSecretKey(input.secretKey ?? env.SANDBOX_SECRET_KEY ?? DEFAULT_SECRET_KEY, '--secret-key')
  const hook = input.webhookUrl ?? env.SANDBOX_WEBHOOK_URL
  const defaultWebhook = hook ? checkWebhookUrl(hook, '--webhook-url') : null

  const merchants: Merchant[] = []
  const merchantsFile = input.merchants ?? env.SANDBOX_MERCHANTS
  if (merchantsFile) {
    for (const [i, m] of readMerchantsFile(merchantsFile).entries()) {
      if (merchants.some((x) => x.secret_key === m.secret_key)) {
        throw new ConfigError(`merchants file ${merchantsFile}: merchants.${i}.secret_key: appears twice`)
      }
      merchants.push({
        secret_key: m.secret_key,
        public_key: m.public_key ?? m.secret_key.replace(/^sk_/, 'pk_'),
        encryption_key: m.encryption_key ?? encKey,
        name: m.name ?? `Sandbox merchant ${i + 1}`,
        email: m.email ?? `merchant${i + 1}@sandbox.test`,
        webhook_url: m.webhook_url ?? defaultWebhook,
      })
    }
  }
  if (!merchants.some((m) => m.secret_key === sk)) {
    merchants.unshift({
      secret_key: sk,
      public_key: sk === DEFAULT_SECRET_KEY ? DEFAULT_PUBLIC_KEY : sk.replace(/^sk_/, 'pk_'),
      encryption_key: encKey,
      name: 'Sandbox Merchant',
      email: 'merchant@sandbox.test',
      webhook_url: defaultWebhook,
    })
  }

  return {
    port,
    host,
    dataFile: input.data ?? (env.SANDBOX_DATA || undefined),
    scenarioFiles: input.scenarios?.length ? input.scenarios : (env.SANDBOX_SCENARIOS?.split(',').filter(Boolean) ?? []),
    merchants,
    encryptionKey: encKey,
    strictKeys: input.strictKeys ?? truthy(env.SANDBOX_STRICT_KEYS),
    controlToken: input.controlToken ?? (env.SANDBOX_CONTROL_TOKEN || undefined),
    journalSize: intIn(input.journalSize ?? env.SANDBOX_JOURNAL_SIZE, '--journal-size', 1, 100_000, 1000),
    maxNamespaces: intIn(input.maxNamespaces ?? env.SANDBOX_MAX_NAMESPACES, '--max-namespaces', 1, 100_000, 1000),
    journalBodyBytes: intIn(input.journalBodyBytes ?? env.SANDBOX_JOURNAL_BODY_BYTES, '--journal-body-bytes', 256, 1 << 20, 4096),
    journalBytes: intIn(input.journalBytes ?? env.SANDBOX_JOURNAL_BYTES, '--journal-bytes', 64 << 10, 64 << 20, 4 << 20),
    journalTotalBytes: intIn(input.journalTotalBytes ?? env.SANDBOX_JOURNAL_TOTAL_BYTES, '--journal-total-bytes', 64 << 10, 4 << 30, 64 << 20),
    maxEvents: intIn(input.maxEvents ?? env.SANDBOX_MAX_EVENTS, '--max-events', 1, 1_000_000, 10_000),
    bodyLimit: 1 << 20,
    identityBodyLimit: 4 << 20,
    webhookRetrySchedule: retrySchedule(input.webhookRetrySchedule ?? env.SANDBOX_WEBHOOK_RETRY_SCHEDULE),
    debitLimit: intIn(input.debitLimit ?? env.SANDBOX_DEBIT_LIMIT, '--debit-limit', 1, 1_000_000_000_000, 10_000_000),
    maxVirtualAccounts: intIn(input.maxVirtualAccounts ?? env.SANDBOX_MAX_VIRTUAL_ACCOUNTS, '--max-virtual-accounts', 1, 100_000, 50),
    webhookTimeoutMs: intIn(input.webhookTimeout ?? env.SANDBOX_WEBHOOK_TIMEOUT, '--webhook-timeout', 1, 600_000, 5_000),
    webhookConcurrency: intIn(input.webhookConcurrency ?? env.SANDBOX_WEBHOOK_CONCURRENCY, '--webhook-concurrency', 1, 1024, 8),
    webhookNamespaceConcurrency: intIn(input.webhookNamespaceConcurrency ?? env.SANDBOX_WEBHOOK_NAMESPACE_CONCURRENCY, '--webhook-namespace-concurrency', 1, 1024, 4),
    // a tuning knob, environment only (the durability test compacts a small store with it)
    compactMinBytes: intIn(env.SANDBOX_COMPACT_MIN_BYTES, 'SANDBOX_COMPACT_MIN_BYTES', 1024, 1 << 30, 1 << 20),
    // environment only: the test suite checks every kept answer
    queryCache: env.SANDBOX_QUERY_CACHE === 'off' || env.SANDBOX_QUERY_CACHE === 'check' ? env.SANDBOX_QUERY_CACHE : 'on',
    // tuning knobs too, environment only: unset, 0 or not a number gives the default, and at least 1
    hotRecords: Math.max(1, Number(env.SANDBOX_HOT_RECORDS) || 128),
    coldBlock: Math.max(1, Number(env.SANDBOX_COLD_BLOCK) || 64),
    tls: input.tls ?? truthy(env.SANDBOX_TLS),
    tlsPort: intIn(input.tlsPort ?? env.SANDBOX_TLS_PORT, '--tls-port', 0, 65535, DEFAULT_TLS_PORT),
    proxy: input.proxy ?? truthy(env.SANDBOX_PROXY),
    proxyPort: intIn(input.proxyPort ?? env.SANDBOX_PROXY_PORT, '--proxy-port', 0, 65535, DEFAULT_PROXY_PORT),
    interceptHosts: interceptList(input.interceptHosts ?? env.SANDBOX_INTERCEPT),
    proxyOnlyIntercepted: input.proxyOnlyIntercepted ?? truthy(env.SANDBOX_PROXY_ONLY_INTERCEPTED),
    caDir: caDirFrom(input.caDir, env),
  }
}

import { readDocumentFile } from './files.js'
import {
  checkEncryptionKey,
  checkSecretKey,
  checkWebhookUrl,
  ConfigError,
  DEFAULT_ENCRYPTION_KEY,
  DEFAULT_PUBLIC_KEY,
  DEFAULT_SECRET_KEY,
  LIVE_KEY_ENV,
  OPTIONS,
  optionName,
  type AnyOption,
  type FieldOf,
  type InputOf,
  type OptionKey,
  type Options,
  type OutputOf,
} from './config-options.js'

export { ConfigError, DEFAULT_ENCRYPTION_KEY, DEFAULT_PUBLIC_KEY, DEFAULT_SECRET_KEY }

/** A merchant: one secret key, one namespace. */
export interface Merchant {
  secret_key: string
  public_key: string
  encryption_key: string
  name: string
  email: string
  webhook_url: string | null
}

/**
 * What the rest of the code is given: a field for each option of the table that fills one
 * (src/config-options.ts, where each is described), the merchants, and the body limits.
 */
export type Config = { [K in OptionKey as FieldOf<Options[K]>]: OutputOf<Options[K]> } & {
  /** configured merchants; the first is the default one printed at start */
  merchants: Merchant[]
  /** body limits in bytes */
  bodyLimit: number
  identityBodyLimit: number
}

/** The flags of `sandbox start` as `startSandbox()` and `resolveConfig()` take them: each option of the table that has a flag (an option of the environment only takes nothing). */
export type ConfigInput = { [K in OptionKey as [InputOf<Options[K]>] extends [never] ? never : K]?: InputOf<Options[K]> }

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

/** An option's value: the one given (an empty list is none), else its environment variable's, else its default. */
function valueOf(o: AnyOption, given: unknown, env: NodeJS.ProcessEnv): unknown {
  const absent = given === undefined || (Array.isArray(given) && given.length === 0)
  return o.reader.read(absent ? env[o.env] : given, optionName(o), env)
}

/** The local CA's directory (`sandbox ca`): `--ca-dir`, else SANDBOX_CA_DIR, else the per-user default. */
export const caDirFrom = (given: string | undefined, env: NodeJS.ProcessEnv = process.env) => valueOf(OPTIONS.caDir, given, env) as string

/** Where `sandbox start` listens by its environment alone (`sandbox health`): SANDBOX_HOST and SANDBOX_PORT, else the defaults. */
export const listenFrom = (env: NodeJS.ProcessEnv = process.env) => ({ host: valueOf(OPTIONS.host, undefined, env) as string, port: valueOf(OPTIONS.port, undefined, env) as number })

/**
 * `--seed` and `--clock-start` of a command that starts a sandbox of its own (src/flags.ts
 * `seedFlags`): the flag, else its variable; what `startSandbox` takes (docs/behaviour.md#seed-and-clock-start).
 */
export function seedFrom(given: { seed?: string; clockStart?: string }, env: NodeJS.ProcessEnv = process.env): { seed: number | undefined; clockStart: string } {
  return { seed: valueOf(OPTIONS.seed, given.seed, env) as number | undefined, clockStart: valueOf(OPTIONS.clockStart, given.clockStart, env) as string }
}

/** The keys a command uses when no flag gives one (encrypt, decrypt, replay): SANDBOX_* or the defaults. */
export function keysFromEnv(env: NodeJS.ProcessEnv = process.env): { secretKey: string; encryptionKey: string } {
  return { secretKey: env[OPTIONS.secretKey.env] ?? DEFAULT_SECRET_KEY, encryptionKey: env[OPTIONS.encryptionKey.env] ?? DEFAULT_ENCRYPTION_KEY }
}

/**
 * Where a command that calls a running sandbox (`sandbox snapshot`) finds it when no flag says:
 * `SANDBOX_URL` (as the GitHub Action exports it), else the default port on loopback; and the
 * control token of `SANDBOX_CONTROL_TOKEN`.
 */
export function clientFromEnv(env: NodeJS.ProcessEnv = process.env): { baseUrl: string; controlToken?: string } {
  return { baseUrl: env.SANDBOX_URL || `http://127.0.0.1:${OPTIONS.port.reader.default}`, controlToken: env[OPTIONS.controlToken.env] || undefined }
}

/** The live service's test keys `sandbox verify --against` uses (docs/behaviour.md#verify): KORAPAY_*, unset when absent. */
export function liveKeysFromEnv(env: NodeJS.ProcessEnv = process.env): { secretKey?: string; publicKey?: string; encryptionKey?: string } {
  return { secretKey: env[LIVE_KEY_ENV.secretKey] || undefined, publicKey: env[LIVE_KEY_ENV.publicKey] || undefined, encryptionKey: env[LIVE_KEY_ENV.encryptionKey] || undefined }
}

/** A merchant's public key when none is given: its secret key's, `sk_` made `pk_` (`sk_test_sandbox`: `pk_test_sandbox`). */
export const publicKeyOf = (secretKey: string) => secretKey.replace(/^sk_/, 'pk_')

/**
 * The keys `sandbox start` serves for its default merchant (`--secret-key`) under `env`, checked as
 * it checks them (a live key refused): the secret key, and the public and encryption keys a
 * merchants file holding that key gives, else its own (`pk_` for `sk_`, the encryption key). The
 * one rule of the GitHub Action (action/sandbox.mjs) and the container module
 * (src/testcontainers.ts). `merchantsFile` is where the merchants file is read when it is not
 * where `env` names it (a file on this machine that the container reads under another path).
 */
export function servedKeys(env: NodeJS.ProcessEnv, merchantsFile?: string): { secretKey: string; publicKey: string; encryptionKey: string } {
  const secretKey = valueOf(OPTIONS.secretKey, undefined, env) as string
  const encryptionKey = valueOf(OPTIONS.encryptionKey, undefined, env) as string
  const file = merchantsFile ?? (valueOf(OPTIONS.merchants, undefined, env) as string | undefined)
  const merchant = merchantsOf(file, secretKey, encryptionKey, null).find((m) => m.secret_key === secretKey)!
  return { secretKey, publicKey: merchant.public_key, encryptionKey: merchant.encryption_key }
}

/** The merchants: those of the merchants file, and the default one (its key, unless the file has it). */
function merchantsOf(file: string | undefined, sk: string, encKey: string, defaultWebhook: string | null): Merchant[] {
  const merchants: Merchant[] = []
  if (file) {
    for (const [i, m] of readMerchantsFile(file).entries()) {
      if (merchants.some((x) => x.secret_key === m.secret_key)) {
        throw new ConfigError(`merchants file ${file}: merchants.${i}.secret_key: appears twice`)
      }
      merchants.push({
        secret_key: m.secret_key,
        public_key: m.public_key ?? publicKeyOf(m.secret_key),
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
      public_key: publicKeyOf(sk),
      encryption_key: encKey,
      name: 'Sandbox Merchant',
      email: 'merchant@sandbox.test',
      webhook_url: defaultWebhook,
    })
  }
  return merchants
}

/** Flags win over environment variables, which win over defaults (docs/behaviour.md#flags-and-environment). */
export function resolveConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const given = input as Record<string, unknown>
  const values: Record<string, unknown> = {}
  const fields: Record<string, unknown> = {}
  for (const [key, o] of Object.entries(OPTIONS as Record<OptionKey, AnyOption>)) {
    values[key] = valueOf(o, given[key], env)
    if (o.field) fields[o.field] = values[key]
  }
  const { merchants, secretKey, encryptionKey, webhookUrl, record, proxy } = values as { [K in OptionKey]: OutputOf<Options[K]> }
  if (record && !proxy) throw new ConfigError('--record records what goes through the proxy: add --proxy')
  if (values.data && values.store) throw new ConfigError('--data and --store name two stores: choose one')
  return {
    ...(fields as Omit<Config, 'merchants' | 'bodyLimit' | 'identityBodyLimit'>),
    merchants: merchantsOf(merchants, secretKey, encryptionKey, webhookUrl),
    bodyLimit: 1 << 20,
    identityBodyLimit: 4 << 20,
  }
}

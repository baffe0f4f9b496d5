import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'
import { describeIssues } from './scenario/index.js'

export const DEFAULT_SECRET_KEY = 'sk_test_sandbox'
export const DEFAULT_PUBLIC_KEY = 'pk_test_sandbox'
export const DEFAULT_ENCRYPTION_KEY = 'sandbox-encryption-key-012345678'
export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'

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
  /** namespaces kept at most */
  maxNamespaces: number
  /** events kept per namespace */
  maxEvents: number
  /** body limits in bytes */
  bodyLimit: number
  identityBodyLimit: number
  /** seconds between webhook attempts (CONTRACT.md 8: 1, 2, 4, 8, 16) */
  webhookRetrySchedule: number[]
  /** ms a receiver has to answer 2xx */
  webhookTimeoutMs: number
  /** the merchant's transaction limit on a direct debit, NGN (major units) */
  debitLimit: number
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

const secretKey = z
  .string()
  .refine((k) => !k.startsWith('sk_live_'), 'live keys are never accepted by the sandbox')
  .refine((k) => /^sk_test_[A-Za-z0-9_-]+$/.test(k), 'must start with sk_test_ (letters, digits, _ and - after it)')
const encryptionKey = z.string().refine((k) => Buffer.byteLength(k, 'utf8') === 32, 'must be 32 bytes (AES-256)')
const webhookUrl = z.string().url().refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')

const merchantsFileSchema = z
  .object({
    merchants: z
      .array(
        z
          .object({
            secret_key: secretKey,
            public_key: z.string().optional(),
            encryption_key: encryptionKey.optional(),
            name: z.string().min(1).optional(),
            email: z.string().email().optional(),
            webhook_url: webhookUrl.nullable().optional(),
          })
          .strict(),
      )
      .min(1),
  })
  .strict()

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
  maxNamespaces?: number | string
  /** "1,2,4,8,16" or an array of seconds */
  webhookRetrySchedule?: string | number[]
  webhookTimeout?: number | string
  debitLimit?: number | string
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

function check<T>(schema: z.ZodType<T>, value: unknown, name: string): T {
  const r = schema.safeParse(value)
  if (!r.success) throw new ConfigError(`${name} ${r.error.issues[0].message}`)
  return r.data
}

/** Flags win over environment variables, which win over defaults. */
export function resolveConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const port = intIn(input.port ?? env.SANDBOX_PORT, '--port', 0, 65535, DEFAULT_PORT)
  const host = input.host ?? env.SANDBOX_HOST ?? DEFAULT_HOST
  const encKey = check(encryptionKey, input.encryptionKey ?? env.SANDBOX_ENCRYPTION_KEY ?? DEFAULT_ENCRYPTION_KEY, '--encryption-key')
  const sk = check(secretKey, input.secretKey ?? env.SANDBOX_SECRET_KEY ?? DEFAULT_SECRET_KEY, '--secret-key')
  const hook = input.webhookUrl ?? env.SANDBOX_WEBHOOK_URL
  const defaultWebhook = hook ? check(webhookUrl, hook, '--webhook-url') : null

  const merchants: Merchant[] = []
  const merchantsFile = input.merchants ?? env.SANDBOX_MERCHANTS
  if (merchantsFile) {
    let raw: unknown
    try {
      const text = readFileSync(merchantsFile, 'utf8')
      raw = merchantsFile.endsWith('.json') ? JSON.parse(text) : parseYaml(text)
    } catch (e) {
      const err = e as NodeJS.ErrnoException
      throw new ConfigError(`cannot read merchants file ${merchantsFile}: ${err.code ?? err.message.split('\n')[0]}`)
    }
    const parsed = merchantsFileSchema.safeParse(raw)
    if (!parsed.success) throw new ConfigError(`merchants file ${merchantsFile}: ${describeIssues(parsed.error)[0]}`)
    for (const [i, m] of parsed.data.merchants.entries()) {
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
    strictKeys: input.strictKeys ?? ['1', 'true', 'yes'].includes((env.SANDBOX_STRICT_KEYS ?? '').toLowerCase()),
    controlToken: input.controlToken ?? (env.SANDBOX_CONTROL_TOKEN || undefined),
    journalSize: intIn(input.journalSize ?? env.SANDBOX_JOURNAL_SIZE, '--journal-size', 1, 100_000, 1000),
    maxNamespaces: intIn(input.maxNamespaces ?? env.SANDBOX_MAX_NAMESPACES, '--max-namespaces', 1, 100_000, 1000),
    maxEvents: 10_000,
    bodyLimit: 1 << 20,
    identityBodyLimit: 4 << 20,
    webhookRetrySchedule: retrySchedule(input.webhookRetrySchedule ?? env.SANDBOX_WEBHOOK_RETRY_SCHEDULE),
    debitLimit: intIn(input.debitLimit ?? env.SANDBOX_DEBIT_LIMIT, '--debit-limit', 1, 1_000_000_000_000, 10_000_000),
    webhookTimeoutMs: intIn(input.webhookTimeout ?? env.SANDBOX_WEBHOOK_TIMEOUT, '--webhook-timeout', 1, 600_000, 5_000),
  }
}

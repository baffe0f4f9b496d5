import { mkdtempSync } from 'node:fs'
import { afterEach } from 'vitest'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app.js'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { resolveConfig, type ConfigInput } from '../../src/config.js'
import { closeDeps, collectionsOf, createDeps, type Deps } from '../../src/deps.js'
import { AREAS } from '../../src/areas.js'
import { Store, type StoreOptions } from '../../src/store/store.js'
import { keptPaths } from '../../src/store/card-numbers.js'

export const SECRET = 'sk_test_sandbox'
export const ENC_KEY = 'sandbox-encryption-key-012345678'

/** This machine's own IPv4 address beyond loopback: a connection made to it comes from it, not from loopback (undefined where there is none). */
export const FAR_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === 'IPv4')?.address

export interface TestSandbox {
  app: ReturnType<typeof createApp>
  deps: Deps
  /** JSON request with the key (or `key: null` for none); returns status and parsed body */
  call(method: string, path: string, body?: unknown, opts?: { key?: string | null; raw?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>
  /** POST /charges/card with the payload encrypted with the namespace's key */
  charge(payload: unknown, opts?: { key?: string; encKey?: string }): Promise<{ status: number; body: any }>
  close(): Promise<void>
}

let counter = 0
/** A fresh unique payment reference. */
export const ref = (prefix = 'ref') => `${prefix}-${Date.now().toString(36)}-${(++counter).toString(36)}`

/** A valid card charge payload for `number`, overridable. */
export function cardPayload(number: string, overrides: Record<string, unknown> = {}, card: Record<string, unknown> = {}) {
  return {
    reference: ref('order'),
    card: { number, cvv: '123', expiry_month: '09', expiry_year: '30', ...card },
    amount: 1000,
    currency: 'NGN',
    customer: { email: 'buyer@example.com', name: 'Ada Buyer' },
    ...overrides,
  }
}

/**
 * The environment a test's config reads: only the store's sizes of this process (not its keys,
 * ports or files), so a run may try the suite with other sizes. Not the answer
 * cache's switch, SANDBOX_QUERY_CACHE: a setting for users and the bench, which no test sets.
 */
const TUNING_ENV: NodeJS.ProcessEnv = {}
for (const name of ['SANDBOX_HOT_RECORDS', 'SANDBOX_COLD_BLOCK']) if (process.env[name] !== undefined) TUNING_ENV[name] = process.env[name]

/** The store's hot-set and block sizes as the config gives them to it (see TUNING_ENV). */
export const STORE_LIMITS = (({ hotRecords, coldBlock }) => ({ hotRecords, coldBlock }))(resolveConfig({}, TUNING_ENV))

/** The collections the store's own tests name, beside the sandbox's. */
const TEST_COLLECTIONS = ['c', 'x', 'y', 'things', 'other', 'plain', 'big', 'new', 'fresh']

/**
 * Opens a store with STORE_LIMITS, unless `options` says otherwise. A store hands out only the
 * collections declared to it: those `options` declares, and every other name a test uses (the
 * sandbox's own among them) declared without indexes or rules.
 */
export function openStore(options: Partial<StoreOptions> = {}): Promise<Store> {
  const given = options.collections ?? []
  // the sandbox's collections keep as written what their specs keep (its moments, its references): the store masks the rest
  const plain = [...collectionsOf(AREAS).map((spec) => ({ name: spec.name, asWritten: keptPaths(spec) })), ...TEST_COLLECTIONS.map((name) => ({ name }))].filter((spec) => !given.some((g) => g.name === spec.name))
  return Store.open({ ...STORE_LIMITS, ...options, collections: [...given, ...plain] })
}

/**
 * Builds the app over an in-memory store (or a file, with `data`) and calls it without a socket.
 * `env`: tuning variables of its own, over this process's.
 */
export async function makeSandbox(input: ConfigInput & { frozen?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<TestSandbox> {
  const { frozen, env, ...rest } = input
  // the flags given and the tuning variables
  const config = resolveConfig({ port: 0, ...rest }, { ...TUNING_ENV, ...env })
  const deps = await createDeps(config)
  const app = createApp(deps)
  const call: TestSandbox['call'] = async (method, path, body, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) }
    const key = opts.key === undefined ? SECRET : opts.key
    if (key !== null) headers.authorization = `Bearer ${key}`
    let payload: string | undefined
    if (opts.raw !== undefined) payload = opts.raw
    else if (body !== undefined) payload = JSON.stringify(body)
    if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json'
    const res = await app.request(path, { method, headers, body: payload })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      /* HTML pages */
    }
    return { status: res.status, body: parsed, headers: res.headers }
  }
  // a frozen clock moves only when advanced: timing checks cannot depend on how long a test takes
  if (frozen) await call('POST', '/_sandbox/clock/freeze', { frozen: true })
  return {
    app,
    deps,
    call,
    charge: (payload, opts = {}) =>
      call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(payload, opts.encKey ?? ENC_KEY) }, { key: opts.key }),
    close: () => closeDeps(deps),
  }
}

/** The whole store as one JSON text, as a compaction writes it: for checking what it holds. */
export function storeText(store: Store): string {
  return [...store.snapshotPieces()].join('')
}

export function tempFile(name = 'data.json'): string {
  return join(mkdtempSync(join(tmpdir(), 'paysandbox-')), name)
}

/**
 * What `read` answers of the data file `file` after a restart: closes `first` (a sandbox over the
 * file), opens the file again with a frozen clock, reads it and closes it.
 */
export async function readAfterRestart<T>(first: TestSandbox, file: string, read: (sb: TestSandbox) => Promise<T>): Promise<T> {
  await first.close()
  const second = await makeSandbox({ data: file, frozen: true })
  try {
    return await read(second)
  } finally {
    await second.close()
  }
}

/** Waits, without polling on a timer, until the payment's first event (default key) satisfies `check`. */
export async function eventWhen(sb: TestSandbox, reference: string, check: (ev: any) => boolean) {
  for (;;) {
    const change = sb.deps.events.waitForChange(SECRET, 10_000)
    const ev = sb.deps.events.list(SECRET, { reference })[0]
    if (ev && check(ev)) return ev
    await change
  }
}

/**
 * `sandbox(input)` makes a sandbox that is closed after the test that made it: call at the top
 * of a test file, `const sandbox = sandboxPerTest()`.
 */
export function sandboxPerTest(): (input?: Parameters<typeof makeSandbox>[0]) => Promise<TestSandbox> {
  const open: TestSandbox[] = []
  afterEach(async () => {
    for (const sb of open.splice(0)) await sb.close()
  })
  return async (input = {}) => {
    const sb = await makeSandbox(input)
    open.push(sb)
    return sb
  }
}

/**
 * A validation refusal's `data` (docs/behaviour.md#invalid-request-data): each field's bare reason as its
 * `{message}`, the path before it (an asymmetric matcher, `expect.any(String)`, stands as it is).
 */
export const fieldMessages = (fields: Record<string, unknown>): Record<string, { message: unknown }> =>
  Object.fromEntries(Object.entries(fields).map(([k, why]) => [k, { message: typeof why === 'string' ? `${k} ${why}` : why }]))

/** The whole body of a validation refusal (docs/behaviour.md#invalid-request-data), the fields with their bare reasons. */
export const invalidBody = (fields: Record<string, unknown>) => ({ status: false, error: 'validation_error', message: 'Invalid request data', data: fieldMessages(fields) })

/**
 * paysandbox: a local sandbox of the payments, direct-debit and identity-verification API.
 *
 * @example
 * import { startSandbox, encryptChargeData } from 'paysandbox'
 * const sandbox = await startSandbox({ port: 0 })
 * const res = await fetch(`${sandbox.url}/merchant/api/v1/charges/card`, {
 *   method: 'POST',
 *   headers: { authorization: `Bearer ${sandbox.keys.secretKey}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ charge_data: encryptChargeData(payload, sandbox.keys.encryptionKey) }),
 * })
 * await sandbox.close()
 */
import { resolveConfig, type ConfigInput } from './config.js'
import { startServer } from './server.js'

export { encryptChargeData, decryptChargeData } from './cards/crypto.js'
export { verifyWebhookSignature, signWebhook } from './webhooks/signature.js'
export { resolveConfig, DEFAULT_ENCRYPTION_KEY, DEFAULT_PUBLIC_KEY, DEFAULT_SECRET_KEY } from './config.js'
export type { Config, ConfigInput, Merchant } from './config.js'
export { createApp } from './app.js'
export { createDeps, type Deps } from './deps.js'

/**
 * The flags of `sandbox start`, as options. Environment variables (SANDBOX_*) are not read here:
 * a test gets exactly what it asks for.
 * @example
 * await startSandbox({
 *   port: 0,                                        // a free port (the default here)
 *   secretKey: 'sk_test_ci',                        // the default merchant's key
 *   encryptionKey: 'ci-encryption-key-0123456789abcd', // 32 characters
 *   scenarios: ['test/fixtures/my-cards.yaml'],     // extra scenario packs, later wins
 *   merchants: 'test/fixtures/merchants.yaml',      // several merchants with their own keys
 *   data: '/tmp/sandbox.json',                      // persist, and reload on the next start
 *   strictKeys: true,                               // only configured keys are accepted
 * })
 */
export interface StartSandboxOptions extends Omit<ConfigInput, 'port'> {
  /** 0 (the default here) picks a free port */
  port?: number
}

export interface Sandbox {
  /** base URL, e.g. http://127.0.0.1:53121 */
  url: string
  port: number
  /** the default merchant's keys */
  keys: { secretKey: string; publicKey: string; encryptionKey: string }
  /** stops the server and flushes the store */
  close(): Promise<void>
}

/**
 * Starts a sandbox in this process, on a free port by default.
 * @example
 * const sandbox = await startSandbox()
 * process.env.API_BASE_URL = sandbox.url
 * afterAll(() => sandbox.close())
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const config = resolveConfig({ ...options, port: options.port ?? 0 }, {})
  const running = await startServer(config)
  const m = config.merchants[0]
  return {
    url: running.url,
    port: running.port,
    keys: { secretKey: m.secret_key, publicKey: m.public_key, encryptionKey: m.encryption_key },
    close: running.close,
  }
}

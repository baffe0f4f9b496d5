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
 *   load: ['test/fixtures/funded.snapshot.json'],   // namespaces restored from snapshots at start (sandbox snapshot writes them)
 *   strictKeys: true,                               // only configured keys are accepted
 *   intercept: true,                                // this process's calls to https://api.korapay.com answered here
 *   tls: true, proxy: true,                         // HTTPS and the proxy, on free ports (httpsUrl, proxyUrl)
 *   caDir: '/tmp/ci-ca',                            // the local CA (default ~/.local/share/paysandbox/ca)
 *   seed: 42, clockStart: '2030-06-01T09:00:00Z',   // every run alike: ids from the seed, clocks frozen at the start
 * })
 */
export interface StartSandboxOptions extends Omit<ConfigInput, 'port' | 'tlsPort' | 'proxyPort'> {
  /** 0 (the default here) picks a free port */
  port?: number
  /** with `tls`: 0 (the default here) picks a free port */
  tlsPort?: number
  /** with `proxy`: 0 (the default here) picks a free port */
  proxyPort?: number
  /**
   * Requests this process makes to the intercepted hosts (`interceptHosts`, by default
   * api.korapay.com) through `fetch`, `http` or `https` are answered by this sandbox until
   * `close()` (docs/behaviour.md#intercept). One sandbox of a process intercepts at a time.
   */
  intercept?: boolean
}

export interface Sandbox {
  /** base URL, e.g. http://127.0.0.1:53121 */
  url: string
  port: number
  /** with `tls`: the HTTPS base URL, e.g. https://127.0.0.1:53122 */
  httpsUrl?: string
  /** with `proxy`: the proxy's URL, for HTTPS_PROXY */
  proxyUrl?: string
  /** with `tls` or `proxy`: the CA certificate a client must trust */
  caPath?: string
  /** the default merchant's keys */
  keys: { secretKey: string; publicKey: string; encryptionKey: string }
  /** stops the interception (with `intercept`) and the server, and flushes the store */
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
  const { intercept, ...input } = options
  const config = resolveConfig({ ...input, port: options.port ?? 0, tlsPort: options.tlsPort ?? 0, proxyPort: options.proxyPort ?? 0 }, {})
  const running = await startServer(config)
  let restore: (() => void) | undefined
  if (intercept) {
    try {
      restore = (await import('./reach/intercept.js')).interceptHosts(config.interceptHosts, running.url)
    } catch (e) {
      await running.close()
      throw e
    }
  }
  const m = config.merchants[0]
  return {
    url: running.url,
    port: running.port,
    httpsUrl: running.httpsUrl,
    proxyUrl: running.proxyUrl,
    caPath: running.caPath,
    keys: { secretKey: m.secret_key, publicKey: m.public_key, encryptionKey: m.encryption_key },
    close: () => {
      restore?.()
      return running.close()
    },
  }
}

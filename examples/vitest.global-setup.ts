/**
 * A vitest globalSetup that runs one paysandbox for the whole test run, in the same process as
 * vitest, on a free port. Tests read its URL with `inject('sandboxUrl')`.
 *
 * vitest.config.ts:
 *   export default defineConfig({ test: { globalSetup: ['./vitest.global-setup.ts'] } })
 */
import { startSandbox, type Sandbox } from 'paysandbox'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    sandboxUrl: string
    sandboxSecretKey: string
    sandboxEncryptionKey: string
  }
}

let sandbox: Sandbox | undefined

export async function setup(project: TestProject) {
  sandbox = await startSandbox({ port: 0 })
  project.provide('sandboxUrl', sandbox.url)
  project.provide('sandboxSecretKey', sandbox.keys.secretKey)
  project.provide('sandboxEncryptionKey', sandbox.keys.encryptionKey)
}

export async function teardown() {
  await sandbox?.close()
}

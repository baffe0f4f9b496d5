import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'

/** Debian's chromium, driven by playwright-core: never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium'
export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** where the browser tests leave their screenshots */
export const SHOTS = `${ROOT}test-results/screenshots`

/** Launches headless chromium for a test file; fails, never skips, where it is missing (CI installs it: .ci/run). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`)
  mkdirSync(SHOTS, { recursive: true })
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}

let keys = 0
/** A secret key of its own, so every test has a namespace of its own. */
export const newKey = (prefix: string, name: string) => `sk_test_${prefix}_${name}_${Date.now().toString(36)}_${++keys}`

/** A JSON call with `key` (test/e2e/process.ts) */
export { api } from './process.js'

import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/index.js'
import { startReceiver, type Receiver } from '../helpers/receiver.js'
import { api } from './process.js'

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
export { api }

/** What a test file's pages are, unless a call says otherwise; `stepTimeoutMs` bounds a page's every step. */
export interface PageDefaults {
  width?: number
  height?: number
  stepTimeoutMs?: number
}

/**
 * One headless chromium for a test file, launched before its tests and closed after them. The
 * `newPage` it returns opens each page in a browser context of its own, closed after its test.
 */
export function browserPerFile(defaults: PageDefaults = {}): (width?: number, height?: number, javaScriptEnabled?: boolean) => Promise<Page> {
  let browser: Browser | undefined
  const contexts: BrowserContext[] = []
  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterEach(async () => {
    while (contexts.length) await contexts.pop()!.close()
  })
  afterAll(async () => {
    await browser?.close()
  })
  return async (width = defaults.width ?? 1280, height = defaults.height ?? 900, javaScriptEnabled = true) => {
    if (!browser) throw new Error('the browser is not launched: call newPage from a test')
    const context = await browser.newContext({ viewport: { width, height }, javaScriptEnabled })
    contexts.push(context)
    if (defaults.stepTimeoutMs !== undefined) context.setDefaultTimeout(defaults.stepTimeoutMs)
    return context.newPage()
  }
}

/** What the browser tests of the dashboard and the checkout page stand on: see `browserStand`. */
export interface BrowserStand {
  /** a sandbox on a real socket, port 0 */
  sandbox: Sandbox
  /** a real webhook receiver */
  receiver: Receiver
  newPage: ReturnType<typeof browserPerFile>
  /** a secret key of its own, so every test has a namespace of its own */
  newKey(name: string): string
  /** a JSON call to the sandbox with `key` */
  api(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>
}

/**
 * A browser (`browserPerFile`), a sandbox on a real socket and a webhook receiver for a test file,
 * started before its tests and closed after them; its keys start with `prefix`.
 */
export function browserStand(prefix: string, defaults: PageDefaults = {}): BrowserStand {
  const stand = {
    newPage: browserPerFile(defaults),
    newKey: (name: string) => newKey(prefix, name),
    api: (key: string, method: string, path: string, body?: unknown) => api(stand.sandbox.url, key, method, path, body),
  } as BrowserStand
  beforeAll(async () => {
    stand.sandbox = await startSandbox({ port: 0 })
    stand.receiver = await startReceiver()
  })
  afterAll(async () => {
    await stand.sandbox?.close()
    await stand.receiver?.close()
  })
  return stand
}

/** A full-page screenshot of `page` into SHOTS, as `name`.png. */
export const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })

// `npm run docs:screenshots`: the pictures of the README (docs/images/checkout.png,
// docs/images/dashboard.png), taken from a real run so they stay true: the built CLI started on a
// free port under a seed (its clock stands at --clock-start, so the dates are the same every run),
// a few calls a newcomer's first ten minutes make (card charges, a mobile-money charge, a checkout
// paid after a declined card, another left open), then headless Chromium (Debian's, driven by
// playwright-core: no browser is downloaded) on the open checkout's page, its test values opened,
// and on the dashboard. `--out DIR` writes them elsewhere (the test does).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
const at = process.argv.indexOf('--out')
const OUT = resolve(at > 0 ? process.argv[at + 1] : join(ROOT, 'docs', 'images'))
const KEY = 'sk_test_sandbox'

const { encryptChargeData, DEFAULT_ENCRYPTION_KEY } = await import(join(ROOT, 'dist', 'index.js'))

/** starts the CLI and resolves with its URL once the ready line is printed */
function start() {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'sandbox.js'), 'start', '--port', '0', '--seed', '52', '--clock-start', '2026-11-29T09:30:00Z'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  return new Promise((resolveUrl, reject) => {
    child.stdout.on('data', (d) => {
      out += d
      const m = /paysandbox listening on (http:\/\/\S+)/.exec(out)
      if (m) resolveUrl({ child, url: m[1] })
    })
    child.on('exit', (code) => reject(new Error(`sandbox start exited with ${code}`)))
  })
}

async function call(url, method, path, body) {
  const res = await fetch(url + path, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  const json = await res.json()
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
  return json.data
}

const card = (reference, number, amount, cvv = '123') =>
  ({ charge_data: encryptChargeData({ reference, card: { number, cvv, expiry_month: '09', expiry_year: '30' }, amount, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada Obi' } }, DEFAULT_ENCRYPTION_KEY) })

if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (no browser is downloaded)`)
mkdirSync(OUT, { recursive: true })
const { child, url } = await start()
try {
  // the first ten minutes: a card charge that succeeds, one that is declined, a mobile-money charge
  await call(url, 'POST', '/merchant/api/v1/charges/card', card('order-1001', '4084127883172787', 12500))
  await call(url, 'POST', '/merchant/api/v1/charges/card', card('order-1002', '506066506066506067', 4800, '408'))
  await call(url, 'POST', '/merchant/api/v1/charges/mobile-money', { reference: 'order-1003', amount: 1500, currency: 'KES', mobile_money: { number: '254700000000' }, customer: { email: 'wanjiku@example.com', name: 'Wanjiku Kamau' } })
  // a checkout paid by card after a declined one, and another left open for its page
  const paid = await call(url, 'POST', '/merchant/api/v1/charges/initialize', { reference: 'order-1004', amount: 25000, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada Obi' }, narration: 'Two concert tickets' })
  await call(url, 'POST', `/_sandbox/checkouts/${paid.reference}/pay`, { channel: 'card', outcome: 'failed' })
  await call(url, 'POST', `/_sandbox/checkouts/${paid.reference}/pay`, { channel: 'card' })
  const open = await call(url, 'POST', '/merchant/api/v1/charges/initialize', { reference: 'order-1005', amount: 18000, currency: 'NGN', customer: { email: 'tunde@example.com', name: 'Tunde Bello' }, narration: 'A year of the magazine' })

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] })
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } })
    await page.goto(open.checkout_url)
    await page.locator('details.tests summary').click()
    await page.screenshot({ path: join(OUT, 'checkout.png') })
    await page.setViewportSize({ width: 1280, height: 1000 })
    await page.goto(`${url}/_sandbox/ui`)
    await page.screenshot({ path: join(OUT, 'dashboard.png') })
  } finally {
    await browser.close()
  }
  for (const name of ['checkout.png', 'dashboard.png']) console.log(join(OUT, name))
} finally {
  child.kill('SIGTERM')
}

#!/usr/bin/env node
// The yardstick of the benchmark: a bare Hono server on @hono/node-server with the routes the
// benchmark calls (card charge, charge query, mobile money charge, checkout initialize, payout, health),
// answering canned envelopes of the same shape as paysandbox's. It reads and
// parses the JSON body of a POST (as any mock server does) but does no work with it: no
// decryption, validation, store, journal or events.
//
//   node bench/bare.mjs [--port 0] [--host 127.0.0.1] [--cpu-us N]
//
// Prints `bare listening on http://HOST:PORT` once the socket listens.
//
// `--cpu-us N`: every card charge costs this server N µs of CPU time in all (the process's user +
// system time per request, measured over every 200 card charges): it spends what its own work
// leaves of N in a loop (no allocation, no system call) before answering; `PUT
// /_bench/cpu-us/N` changes N. The bench uses it as a reference for the card charge's latency:
// a server that costs what paysandbox costs per request, with none of paysandbox's work.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

/** µs of CPU time per card charge in all (--cpu-us; 0: no burning). */
let cpuUs = 0
const startedAt = Date.now()

const card = {
  amount: 1000,
  amount_charged: 1000,
  auth_model: 'NO_AUTH',
  currency: 'NGN',
  fee: 14,
  vat: 1.05,
  response_message: 'Card charged successfully',
  payment_reference: 'bench-ref-00000001',
  transaction_reference: 'KPY-CA-X49Q54OVD6FBNY',
  status: 'success',
  card: { card_type: 'visa', first_six: '408412', last_four: '2787', expiry: '09/30' },
}

const query = (reference) => ({
  reference,
  transaction_reference: 'KPY-CA-X49Q54OVD6FBNY',
  status: 'success',
  amount: '1000.00',
  amount_paid: '1000.00',
  fee: '14.00',
  vat: '1.05',
  currency: 'NGN',
  description: 'Card payment',
  payment_method: 'card',
  created_at: '2026-01-01T00:00:00.000Z',
  completed_at: '2026-01-01T00:00:00.001Z',
  card: { card_type: 'visa', first_six: '408412', last_four: '2787', expiry: '09/30' },
  customer: { email: 'bench@example.com', name: 'Bench' },
  settled: false,
})

const mobileMoney = (reference, number) => ({
  amount: 100,
  amount_expected: 101.61,
  currency: 'KES',
  fee: 1.5,
  vat: 0.11,
  auth_model: 'STK_PROMPT',
  transaction_reference: 'KPY-MO-TIH3CIKH2GDXC4',
  payment_reference: reference,
  status: 'processing',
  narration: '',
  message: `A PIN prompt has been sent to +${number}: the customer enters the wallet PIN to approve the payment`,
  mobile_money: { number: `+${number}` },
  customer: { name: 'Bench', email: 'bench@example.com' },
})

/** Spins `n` rounds of xorshift: pure CPU, no allocation, no system call. */
let sink = 1
function spin(n) {
  let x = sink
  for (let i = 0; i < n; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
  }
  sink = x | 1
}

/** Rounds of spin() per µs of CPU, measured once (50 ms) at start. */
function spinRate() {
  spin(1e5)
  const t = process.cpuUsage()
  let n = 0
  let used = 0
  while (used < 50_000) {
    spin(1e5)
    n += 1e5
    const d = process.cpuUsage(t)
    used = d.user + d.system
  }
  return n / used
}
/** spinRate(), measured at start when there is a --cpu-us. */
let perUs = 0

/** The loop's rounds per card charge, adjusted every WINDOW charges towards `cpuUs` in all. */
let burnRounds = 0
const WINDOW = 200
let windowStart = process.cpuUsage()
let windowCharges = 0

/** Brings a card charge's CPU time up to `cpuUs`. */
function burn() {
  if (!cpuUs) return
  if (++windowCharges === WINDOW) {
    const used = process.cpuUsage(windowStart)
    burnRounds = Math.max(0, burnRounds + ((cpuUs - (used.user + used.system) / WINDOW) / 2) * perUs)
    windowStart = process.cpuUsage()
    windowCharges = 0
  }
  spin(Math.round(burnRounds))
}

const readJson = async (c) => {
  try {
    return await c.req.json()
  } catch {
    return null
  }
}

export const app = new Hono()

app.get('/_sandbox/health', (c) =>
  c.json({ status: true, message: 'paysandbox is running', data: { version: '0.0.0-bare', uptime_s: Math.round((Date.now() - startedAt) / 1000) } }),
)

app.post('/merchant/api/v1/charges/card', async (c) => {
  const body = await readJson(c)
  if (!body || typeof body.charge_data !== 'string') return c.json({ status: false, message: 'Invalid request data', data: { charge_data: 'is required' } }, 400)
  burn()
  return c.json({ status: true, message: 'Card charged successfully', data: card })
})

app.get('/merchant/api/v1/charges/:reference', (c) =>
  c.json({ status: true, message: 'Charge retrieved successfully', data: query(c.req.param('reference')) }),
)

app.post('/merchant/api/v1/charges/mobile-money', async (c) => {
  const body = await readJson(c)
  if (!body || typeof body.reference !== 'string') return c.json({ status: false, message: 'Invalid request data', data: { reference: 'is required' } }, 400)
  return c.json({ status: true, code: 'AA001', message: 'Authorization required', data: mobileMoney(body.reference, body.mobile_money?.number ?? '254700000000') })
})

// Checkout Standard: the answer carries the merchant's reference and a checkout URL on the
// server's own origin, as paysandbox's does
let checkoutSeq = 0
app.post('/merchant/api/v1/charges/initialize', async (c) => {
  const body = await readJson(c)
  if (!body || typeof body.reference !== 'string') return c.json({ status: false, message: 'Invalid request data', data: { reference: 'is required' } }, 400)
  const id = `KPY-PI-${(++checkoutSeq).toString(36).toUpperCase().padStart(14, '0')}`
  return c.json({ status: true, message: 'Charge created successfully', data: { reference: body.reference, checkout_url: `${new URL(c.req.url).origin}/checkout/${id}/pay` } })
})

// a payout: the answer echoes the destination's amount and customer, amounts as strings, as paysandbox's does
app.post('/merchant/api/v1/transactions/disburse', async (c) => {
  const body = await readJson(c)
  if (!body || typeof body.reference !== 'string') return c.json({ status: false, message: 'Invalid request data', data: { reference: 'is required' } }, 400)
  const d = body.destination ?? {}
  return c.json({ status: true, message: 'Transfer initiated successfully.', data: { amount: Number(d.amount ?? 0).toFixed(2), fee: '30.00', currency: d.currency ?? 'NGN', status: 'processing', reference: body.reference, message: 'Payout processing', customer: { name: d.customer?.name ?? null, email: d.customer?.email ?? null } } })
})

app.put('/_bench/cpu-us/:us', (c) => {
  cpuUs = Math.max(0, Number(c.req.param('us')) || 0)
  return c.json({ status: true, message: 'set', data: { cpu_us: cpuUs, burn_us: Math.round(burnRounds / (perUs || 1)) } })
})

app.notFound((c) => c.json({ status: false, message: 'Route not found', data: null }, 404))

// run as a script (the bench spawns it); bench/count.mjs imports the app and serves it itself
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' }, 'cpu-us': { type: 'string', default: '0' } } })
  const port = Number(values.port)
  const host = values.host
  cpuUs = Math.max(0, Number(values['cpu-us']) || 0)
  perUs = cpuUs ? spinRate() : 0
  const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
    process.stdout.write(`bare listening on http://${host}:${info.port}\n`)
  })
  server.keepAliveTimeout = 65_000

  const stop = () => server.close(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

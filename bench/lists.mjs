// The balance history, the pay-ins list and the transactions list over one namespace of N card
// charges and N/20 payouts, in-process (app.request(), no socket): ms per call, five calls each,
// plainly and with a filter that matches none (so the page passes over every item). The first
// history call after the clock passes the credits builds the history's rows (docs/behaviour.md#ledger-and-balances). `npm run build`, then `node bench/lists.mjs 20000` (docs/behaviour.md#ledger-and-balances, docs/behaviour.md#lists, docs/behaviour.md#pay-ins-list, docs/behaviour.md#pay-with-bank).
import { resolveConfig } from '../dist/config.js'
import { createDeps, closeDeps } from '../dist/deps.js'
import { createApp } from '../dist/app.js'
import { encryptChargeData } from '../dist/cards/crypto.js'
const N = Number(process.argv[2] ?? 20000)
const deps = await createDeps(resolveConfig({ port: 0 }, {}))
const app = createApp(deps)
const key = 'sk_test_measure'
const call = async (method, path, body) => {
  const res = await app.request(path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) })
  return res.json()
}
const t0 = performance.now()
for (let i = 0; i < N; i++) {
  const payload = { reference: `m-${i}-xxxxxxxx`, card: { number: '4084127883172787', cvv: '123', expiry_month: '09', expiry_year: '30' }, amount: 1000, currency: 'NGN', customer: { email: 'a@b.co' } }
  await call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(payload, 'sandbox-encryption-key-012345678') })
  if (i % 20 === 0) {
    const destination = { type: 'bank_account', amount: 1000, currency: 'NGN', bank_account: { bank: '033', account: '0000000000' }, customer: { email: 'a@b.co' } }
    const r = await call('POST', '/merchant/api/v1/transactions/disburse', { reference: `payout-${i}`, destination })
    if (!r.status) throw new Error(JSON.stringify(r))
  }
}
console.log(`${N} charges and ${Math.ceil(N / 20)} payouts in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
await call('POST', '/_sandbox/clock/advance', { seconds: 25 * 3600 })
for (const path of ['/merchant/api/v1/transactions', '/merchant/api/v1/transactions?limit=100', '/merchant/api/v1/transactions?currency=KES', '/merchant/api/v1/pay-ins', '/merchant/api/v1/pay-ins?status=failed', '/merchant/api/v1/balances/history', '/merchant/api/v1/balances/history?limit=100', '/merchant/api/v1/balances/history?direction=debit']) {
  const times = []
  for (let i = 0; i < 5; i++) {
    const s = performance.now()
    const r = await call('GET', path)
    times.push(performance.now() - s)
    if (!r.status) throw new Error(JSON.stringify(r))
  }
  console.log(path, times.map((t) => t.toFixed(0)).join(' '), 'ms')
}
await closeDeps(deps)

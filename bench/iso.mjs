#!/usr/bin/env node
// Time to write a moment as ISO 8601 text: the sandbox's isoAt (src/time.ts) beside
// Date.prototype.toISOString, in one process, interleaved over a few rounds.
//
//   npm run build && node bench/iso.mjs [--calls 1000000] [--rounds 4]
import { parseArgs } from 'node:util'
import { isoAt } from '../dist/time.js'

const { values } = parseArgs({ options: { calls: { type: 'string', default: '1000000' }, rounds: { type: 'string', default: '4' } } })
const calls = Number(values.calls)
const rounds = Number(values.rounds)
if (!(calls > 0) || !(rounds > 0)) throw new Error('--calls and --rounds take a positive number')

const start = Date.UTC(2026, 10, 26)
const ways = { isoAt, toISOString: (ms) => new Date(ms).toISOString() }
for (let r = 1; r <= rounds; r++) {
  const line = []
  for (const [name, write] of Object.entries(ways)) {
    let length = 0
    const t = process.hrtime.bigint()
    // a new second each call: no two calls write the same text
    for (let i = 0; i < calls; i++) length += write(start + i * 1001).length
    const ns = Number(process.hrtime.bigint() - t) / calls
    if (length !== calls * 24) throw new Error(`${name} wrote texts of an unexpected length`)
    line.push(`${name} ${ns.toFixed(0)} ns`)
  }
  console.log(`round ${r}: ${line.join(', ')} per call`)
}

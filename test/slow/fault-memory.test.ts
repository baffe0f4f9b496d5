import { describe, expect, it } from 'vitest'
import { killedAfterEach, rssMb, startCli } from '../e2e/process.js'

/** Faults cleared leave nothing behind (docs/behaviour.md#fault-injection): RSS sampled on the real CLI. */

const { running } = killedAfterEach()

const KEY_A = 'sk_test_fault_memory'
const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' })

describe('fault memory', () => {
  it('24,000 fault arm/clear cycles of 500-character paths keep the RSS bounded: cleared faults are freed', async () => {
    const cli = await startCli([])
    running.push(cli)
    const { url, child } = cli
    // paths of the longest kind accepted (500 characters): a cleared fault that kept its compiled
    // path and random source would keep ~1 KB, so a leak shows in fewer cycles
    const arm = (i: number) => {
      const path = `/merchant/api/v1/charges/${i}*x*${i}*`
      return { kind: 'error', path: path + 'y'.repeat(500 - path.length), times: 1, probability: 0.5, seed: i }
    }
    const WORKERS = 20
    const cycles = async (n: number, base: number) => {
      await Promise.all(Array.from({ length: WORKERS }, async (_, w) => {
        for (let i = w; i < n; i += WORKERS) {
          const res = await fetch(`${url}/_sandbox/faults`, { method: 'POST', headers: auth(KEY_A), body: JSON.stringify(arm(base + i)) })
          expect(res.status).toBe(200)
          await res.arrayBuffer()
          // cleared in tens (each worker's every tenth): 24,000 armed and cleared in fewer calls
          if (i % (WORKERS * 10) >= WORKERS) continue
          const del = await fetch(`${url}/_sandbox/faults`, { method: 'DELETE', headers: auth(KEY_A) })
          expect(del.status).toBe(200)
          await del.arrayBuffer()
        }
      }))
    }
    // warm-up: the heap grows to its steady size
    await cycles(4_000, 0)
    const before = rssMb(child.pid!)
    const samples: number[] = []
    for (let round = 0; round < 10; round++) {
      await cycles(2_000, 4_000 + 2_000 * round)
      samples.push(rssMb(child.pid!))
    }
    console.log(`RSS over 20,000 fault arm/clear cycles: ${before.toFixed(0)} MB after warm-up, then ${samples.map((s) => s.toFixed(0)).join(', ')} MB`)
    // freed: ~2 MB; kept: ~20 MB
    expect(Math.max(...samples) - before).toBeLessThan(12)
    await fetch(`${url}/_sandbox/faults`, { method: 'DELETE', headers: auth(KEY_A) })
    const left = (await (await fetch(`${url}/_sandbox/faults`, { headers: auth(KEY_A) })).json()) as any
    expect(left.data).toEqual([])
  }, 600_000)

})

import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, resolveConfig } from '../src/config.js'
import { Random } from '../src/random.js'
import { cardPayload, sandboxPerTest, tempFile, type TestSandbox } from './helpers/sandbox.js'
import { startReceiver } from './helpers/receiver.js'

/**
 * docs/behaviour.md#seed-and-clock-start: what a seed draws, per namespace, and where the clocks start. Two whole
 * processes compared byte for byte are test/e2e/seed.test.ts.
 */

const sandbox = sandboxPerTest()
const OTHER = 'sk_test_other'

/** transaction references of card charges in a namespace, in order */
async function references(sb: TestSandbox, n: number, key?: string, from = 0): Promise<string[]> {
  const out: string[] = []
  for (let i = from; i < from + n; i++) {
    const res = await sb.charge(cardPayload('4084127883172787', { reference: `seeded-order-${i}` }), { key })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    out.push((res.body as { data: { transaction_reference: string } }).data.transaction_reference)
  }
  return out
}

describe('a seed (docs/behaviour.md#seed-and-clock-start)', () => {
  it('draws a stream per namespace: another namespace\'s traffic changes nothing of its answers', async () => {
    const alone = await sandbox({ seed: 5 })
    const mine = await references(alone, 3)
    const busy = await sandbox({ seed: 5 })
    await references(busy, 4, OTHER)
    const interleaved = [...(await references(busy, 1)), ...(await references(busy, 1, OTHER, 4)), ...(await references(busy, 2, undefined, 1))]
    expect([interleaved[0], interleaved[2], interleaved[3]]).toEqual(mine)
    expect(new Set([...mine, ...(await references(busy, 1, OTHER, 5))]).size).toBe(4)
  })

  it('goes on where it stopped after a restart with --data, and starts again after a reset', async () => {
    const data = tempFile()
    const first = await sandbox({ seed: 9, data })
    const before = await references(first, 2)
    await first.close()
    const again = await sandbox({ seed: 9, data })
    const after = await references(again, 2, undefined, 2)
    expect(new Set([...before, ...after]).size).toBe(4)
    const fresh = await sandbox({ seed: 9 })
    expect(await references(fresh, 4)).toEqual([...before, ...after])

    await again.call('POST', '/_sandbox/clock/advance', { seconds: 60 })
    expect((await again.call('POST', '/_sandbox/reset')).status).toBe(200)
    expect((await again.call('GET', '/_sandbox/clock')).body).toMatchObject({ data: { now: '2026-01-01T00:00:00.000Z', frozen: true } })
    expect(await references(again, 2)).toEqual(before)
  })

  it('moves the clock only once the webhook attempts under way have their answers: a retry falls where it would for a fast receiver', async () => {
    const sb = await sandbox({ seed: 7 })
    // the first post is held until the test answers it (500); the others answer 200 at once
    let answerFirst: (() => void) | undefined
    const rx = await startReceiver((n, _req, res) => {
      if (n > 1) return 200
      answerFirst = () => {
        res.statusCode = 500
        res.end('no')
      }
      return 'handled'
    })
    try {
      expect((await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })).status).toBe(200)
      const payload = cardPayload('4084127883172787')
      expect((await sb.charge(payload)).status).toBe(200)
      await rx.waitFor(1)
      // asked while the first attempt waits for its answer
      const advance = sb.call('POST', '/_sandbox/clock/advance', { seconds: 3 })
      answerFirst!()
      expect((await advance).status).toBe(200)
      const [event] = (await sb.call('GET', `/_sandbox/events?reference=${payload.reference}&status=delivered&wait=10000`)).body.data
      // the retry was due 1 s after the first attempt and fired at that moment as the clock moved
      // past it, not at the 3 s the clock reached
      expect(event.attempts.map((a: { at: string; status_code: number }) => [a.at, a.status_code])).toEqual([
        ['2026-01-01T00:00:00.000Z', 500],
        ['2026-01-01T00:00:01.000Z', 200],
      ])
    } finally {
      await rx.close()
    }
  })

  it('starts every namespace clock frozen at the clock start; a call moves it', async () => {
    const sb = await sandbox({ seed: 1, clockStart: '2031-02-03T04:05:06.007Z' })
    expect((await sb.call('GET', '/_sandbox/clock', undefined, { key: OTHER })).body).toMatchObject({ data: { now: '2031-02-03T04:05:06.007Z', frozen: true } })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 1 })
    expect((await sb.call('GET', '/_sandbox/clock')).body).toMatchObject({ data: { now: '2031-02-03T04:05:07.007Z', frozen: true } })
    expect(sb.deps.namespaces.get(OTHER)?.created_at).toBe('2031-02-03T04:05:06.007Z')
    const unseeded = await sandbox({ clockStart: '2031-02-03T04:05:06.007Z' })
    expect((await unseeded.call('GET', '/_sandbox/clock')).body).toMatchObject({ data: { frozen: false } })
  })

  it('measures no duration, and draws ids and UUIDs of the shapes an unseeded sandbox gives', () => {
    const seeded = new Random(3)
    const plain = new Random()
    expect(seeded.stopwatch()()).toBe(0)
    for (const r of [seeded, plain]) {
      expect(r.uuid('ns')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(r.id('ns', 16)).toMatch(/^[A-Za-z0-9_-]{16}$/)
      expect(r.int('ns', 9)).toBeLessThan(9)
    }
    expect(new Random(3).uuid('ns')).toBe(new Random(3).uuid('ns'))
    expect(new Random(3).uuid('ns')).not.toBe(new Random(3).uuid('other'))
  })

  it('is the one home of chance: no other file of src/ draws or times by itself (docs/architecture.md)', () => {
    const src = join(import.meta.dirname, '../src')
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f) && f !== 'random.ts')
    const drawing = files.filter((f) => /from 'nanoid'|\brandomUUID\(|\brandomInt\(|Math\.random\(|performance\.now\(/.test(readFileSync(join(src, f), 'utf8')))
    expect(drawing).toEqual([])
  })

  it('refuses a seed that is no whole number and a clock start without a zone', () => {
    expect(() => resolveConfig({ seed: '1.5' }, {})).toThrow(ConfigError)
    expect(() => resolveConfig({ seed: '-1' }, {})).toThrow('--seed must be a whole number')
    expect(() => resolveConfig({ clockStart: '2026-01-01T00:00:00' }, {})).toThrow('--clock-start must be an ISO 8601 time with its zone')
    expect(resolveConfig({ seed: '12', clockStart: '2026-03-01T10:00:00+02:00' }, {})).toMatchObject({ seed: 12, clockStart: '2026-03-01T08:00:00.000Z' })
    expect(resolveConfig({}, { SANDBOX_SEED: '4' })).toMatchObject({ seed: 4, clockStart: '2026-01-01T00:00:00.000Z' })
    expect(resolveConfig({}, {}).seed).toBeUndefined()
  })
})

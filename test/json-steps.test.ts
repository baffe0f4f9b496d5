import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseInSteps } from '../src/http/json-steps.js'

/** The same answer as JSON.parse, or the same refusal: what `POST /_sandbox/snapshot` reads in steps (docs/behaviour.md#snapshots). */
async function same(text: string, depth?: number, step?: number): Promise<void> {
  let expected: unknown
  let threw = false
  try {
    expected = JSON.parse(text)
  } catch {
    threw = true
  }
  if (threw) await expect(parseInSteps(text, depth, step)).rejects.toThrow()
  else {
    const got = await parseInSteps(text, depth, step)
    expect(got).toEqual(expected)
    // an own __proto__ key stays a key, as JSON.parse keeps it
    expect(JSON.stringify(got)).toBe(JSON.stringify(expected))
  }
}

describe('parseInSteps', () => {
  it('gives what JSON.parse gives for any JSON text, however it is spaced, in steps of any size', async () => {
    const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'a"b', 'é\\', '\u2028'))
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { arbitrary: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('"', '\\', '\\"', '}', ']', ',', ' ', 'é'), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null)), weight: 3 },
        { arbitrary: fc.array(tie('node'), { maxLength: 5 }), weight: 1 },
        { arbitrary: fc.array(fc.tuple(key, tie('node')), { maxLength: 5 }).map((pairs) => Object.fromEntries(pairs)), weight: 1 },
      ),
    })).node
    await fc.assert(
      fc.asyncProperty(value, fc.constantFrom(0, 1, 2, '\t'), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 64 }), async (v, space, depth, step) => {
        await same(JSON.stringify(v, null, space), depth, step)
        await same(` \n${JSON.stringify(v)}\r\n\t`, depth, step)
      }),
      { numRuns: 400 },
    )
  })

  it('refuses what JSON.parse refuses: a text cut short, a character in the wrong place, a second value', async () => {
    const doc = JSON.stringify({ paysandbox: 4, key: 'sk_test_a', clock: { now: 'x', frozen: true }, records: { charges: { a: { b: [1, { c: 'd"}' }] } }, ledger: {} } }, null, 1)
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: doc.length }), fc.constantFrom('', ',', '}', ']', '"', ':', 'x', ' 1', '{'), fc.integer({ min: 0, max: 4 }), async (at, insert, depth) => {
        await same(doc.slice(0, at) + insert + doc.slice(at), depth, 8)
        await same(doc.slice(0, at), depth, 8)
      }),
      { numRuns: 400 },
    )
    await same(`${doc} {}`)
    await same('')
  })
})

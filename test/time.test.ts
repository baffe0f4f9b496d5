import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isoAt, realDay } from '../src/time.js'

/** What the sandbox wrote before: the engine's own spelling of a moment. */
const dateIso = (ms: number) => new Date(ms).toISOString()
/** Date's whole range: ±100,000,000 days from the epoch. */
const MAX_DATE_MS = 8.64e15

describe('isoAt writes a moment exactly as Date.prototype.toISOString does', () => {
  it('for any whole millisecond in the years 0000-9999, where it writes the text itself', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => isoAt(ms) === dateIso(ms)),
      { numRuns: 20_000 },
    )
  })

  it('for any millisecond Date can hold, a fraction or a year outside 0000-9999 included', () => {
    fc.assert(
      fc.property(fc.double({ min: -MAX_DATE_MS, max: MAX_DATE_MS, noNaN: true }), (ms) => isoAt(ms) === dateIso(ms)),
      { numRuns: 20_000 },
    )
  })

  it('at the edges: the epoch, leap days, the last moment of 9999 and the first of 10000, before the epoch', () => {
    const edges = [0, -0, 1, -1, 951_782_400_000 /* 2000-02-29 */, 4_107_542_400_000 /* 2100-03-01 */, 1_709_164_800_000 /* 2024-02-29 */, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_000 /* 0000-01-01 */, -62_167_219_200_001, MAX_DATE_MS, -MAX_DATE_MS]
    for (const ms of edges) expect(isoAt(ms), String(ms)).toBe(dateIso(ms))
    expect(isoAt(951_782_400_000)).toBe('2000-02-29T00:00:00.000Z')
    expect(isoAt(253_402_300_799_999)).toBe('9999-12-31T23:59:59.999Z')
  })

  it('refuses what Date refuses, with the same RangeError', () => {
    for (const ms of [Number.NaN, Infinity, -Infinity, MAX_DATE_MS + 1]) expect(() => isoAt(ms)).toThrow(RangeError)
  })
})

describe('realDay', () => {
  it('takes the days of the calendar and refuses the ones Date.parse would roll over', () => {
    for (const d of ['2024-02-29', '2000-02-29', '2026-12-31', '0001-01-01']) expect(realDay(d), d).toBe(true)
    for (const d of ['2026-02-29', '2100-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '2026-1-01', 'not a day']) expect(realDay(d), d).toBe(false)
  })

  it('agrees with reading the day back, for any day of the years 0000-9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, m, d) => {
        const text = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
        // setUTCFullYear takes the years 0-99 as they are (Date.UTC would read them as 1900-1999)
        const back = new Date(0)
        back.setUTCFullYear(y, m - 1, d)
        return realDay(text) === (back.getUTCMonth() === m - 1 && back.getUTCDate() === d)
      }),
      { numRuns: 20_000 },
    )
  })

  it('takes 29 February of the years 0000 and 2000 (leap: divisible by 400) and refuses it in 1900 and 0100', () => {
    for (const d of ['0000-02-29', '2000-02-29']) expect(realDay(d), d).toBe(true)
    for (const d of ['1900-02-29', '0100-02-29']) expect(realDay(d), d).toBe(false)
  })
})

import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { Journal, cutBody } from '../src/http/journal.js'
import { maskSecrets } from '../src/http/mask.js'

const head = (i: number) => ({ at: '2026-01-01T00:00:00.000Z', method: 'POST', path: `/p/${i}`, query: '', status: 200, ms: 0.5 })

describe('the request journal', () => {
  it('keeps the newest entries in order, each exactly as added, dropping the oldest first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(
          fc.oneof(
            { arbitrary: fc.string({ maxLength: 300 }), weight: 1 },
            { arbitrary: fc.string({ unit: 'grapheme', maxLength: 200 }), weight: 1 },
            { arbitrary: fc.integer({ min: 1_000, max: 5_000 }).map((n) => 'é'.repeat(n)), weight: 6 },
            { arbitrary: fc.integer({ min: 5_000, max: 40_000 }).map((n) => 'é'.repeat(n)), weight: 1 },
          ),
          { minLength: 1, maxLength: 200, size: 'max' },
        ),
        (size, bodies) => {
          const journal = new Journal(size)
          bodies.forEach((body, i) => journal.add('ns', head(i), { body }, true, `{"n":${i}}`))
          const list = journal.list('ns')
          // the last `size` entries, in order, each intact
          expect(list.length).toBe(Math.min(size, bodies.length))
          const first = bodies.length - list.length
          list.forEach((e, k) => {
            expect(e.id).toBe(first + k + 1)
            expect(e.path).toBe(`/p/${first + k}`)
            expect(e.request).toEqual({ body: bodies[first + k] })
            expect(e.response).toEqual({ n: first + k })
          })
        },
      ),
      { numRuns: 100 },
    )
  })

  it('writes the slabs of evicted entries again instead of taking new buffers, every entry intact', () => {
    const journal = new Journal(100)
    const spy = vi.spyOn(Buffer, 'allocUnsafeSlow')
    try {
      for (let i = 0; i < 20_000; i++) journal.add('ns', head(i), { body: 'x'.repeat(900 + (i % 7) * 50), i }, true, `{"n":${i}}`)
      // 100 entries of ~1 KB span two or three 64 KiB slabs: once the first ones are full, the
      // same few are written again (a new buffer every ~60 entries would be ~330 of them)
      expect(spy.mock.calls.length).toBeLessThanOrEqual(10)
    } finally {
      spy.mockRestore()
    }
    const list = journal.list('ns')
    expect(list.map((e) => e.id)).toEqual(Array.from({ length: 100 }, (_, k) => 19_901 + k))
    list.forEach((e, k) => {
      const i = 19_900 + k
      expect(e.request).toEqual({ body: 'x'.repeat(900 + (i % 7) * 50), i })
      expect(e.response).toEqual({ n: i })
    })
  })

  it('keeps any method, path and query as given (escaped only where JSON needs it), and a null or absent request as null', () => {
    const text = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 }), fc.constantFrom('', 'GET', '/a"b', 'a\\b', '?token=***', '\u2028', '\ud800', 'é'))
    fc.assert(
      fc.property(text, text, text, fc.constantFrom(null, undefined), (method, path, query, request) => {
        const journal = new Journal(5)
        journal.add('ns', { at: '2026-01-01T00:00:00.000Z', method, path, query, status: 200, ms: 1 }, request, false, undefined)
        const [e] = journal.list('ns')
        expect([e.method, e.path, e.query, e.request, e.response]).toEqual([method, path, query, null, null])
      }),
      { numRuns: 300 },
    )
  })

  it('keeps namespaces apart, filters, limits and clears', () => {
    const journal = new Journal(1000)
    for (let i = 0; i < 2500; i++) journal.add(i % 2 ? 'a' : 'b', { ...head(i), method: i % 3 ? 'POST' : 'GET' }, null, false, undefined)
    expect(journal.list('a')).toHaveLength(1000)
    expect(journal.list('a').at(-1)!.path).toBe('/p/2499')
    expect(journal.list('b').at(-1)!.path).toBe('/p/2498')
    expect(journal.list('a', { method: 'get' }).every((e) => e.method === 'GET')).toBe(true)
    expect(journal.list('a', { limit: 3 }).map((e) => e.path)).toEqual(['/p/2495', '/p/2497', '/p/2499'])
    journal.clear('a')
    expect(journal.list('a')).toEqual([])
    expect(journal.list('b')).toHaveLength(1000)
  })

  it('masks what it is given unmasked, and keeps a body too deep to serialize as a note', () => {
    const journal = new Journal(10)
    journal.add('ns', head(0), { card: { number: '4084127883172787', cvv: '123' } }, false, undefined)
    let deep: unknown = null
    for (let i = 0; i < 20_000; i++) deep = [deep]
    journal.add('ns', head(1), deep, true, undefined)
    const [masked, tooDeep] = journal.list('ns')
    expect(masked.request).toEqual({ card: { number: '408412******2787', cvv: '***' } })
    expect(tooDeep.request).toBe('[not journaled: too deep]')
  })

  it('masks only the start of a body it keeps cut: the same start as the whole body masked, named with the size of the body as sent', () => {
    const PAN = '4084127883172787'
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { arbitrary: fc.constantFrom(PAN, `${PAN.slice(0, 8)} ${PAN.slice(8)}`, 'é"\\', 'plain text', 4084127883172787, 12, true, null), weight: 4 },
        { arbitrary: fc.string({ maxLength: 80 }), weight: 2 },
        { arbitrary: fc.array(tie('node'), { maxLength: 6 }), weight: 1 },
        { arbitrary: fc.dictionary(fc.constantFrom('number', 'cvv', 'pin', 'otp', 'token', 'a', 'b', PAN, 'card', 'mobile_money'), tie('node'), { maxKeys: 6 }), weight: 1 },
      ),
    })).node
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 40 }), fc.integer({ min: 64, max: 2000 }), (items, bodyBytes) => {
        const body = { items }
        const sent = JSON.stringify(body, null, 1)
        const journal = new Journal(2, { bodyBytes })
        journal.add('ns', head(0), body, false, undefined, sent)
        const whole = JSON.stringify(maskSecrets(body))
        const expected = Buffer.byteLength(whole) <= bodyBytes ? whole : cutBody(whole, bodyBytes, () => Buffer.byteLength(sent))
        expect(journal.list('ns')[0].request).toEqual(JSON.parse(expected))
      }),
      { numRuns: 300 },
    )
  })

  it('cuts a body over bodyBytes to a marked string of at most that many bytes, and keeps the others whole', () => {
    const journal = new Journal(10, { bodyBytes: 300 })
    journal.add('ns', head(0), { d: 'é"\\'.repeat(500) }, true, JSON.stringify({ ok: 'x'.repeat(1000) }))
    journal.add('ns', head(1), { d: 'short' }, true, '{"ok":true}')
    const [cut, whole] = journal.list('ns')
    expect(cut.request).toMatch(/^\[cut: \d+ bytes\] \{"d":"é/)
    expect(Buffer.byteLength(JSON.stringify(cut.request))).toBeLessThanOrEqual(300)
    expect(cut.response).toMatch(/^\[cut: 1009 bytes\] \{"ok":"xxx/)
    expect([whole.request, whole.response]).toEqual([{ d: 'short' }, { ok: true }])
  })

  it('keeps each namespace within nsBytes and all within totalBytes, trimming the namespace holding the most', () => {
    const journal = new Journal(1000, { nsBytes: 20_000, totalBytes: 30_000 })
    const body = { d: 'x'.repeat(900) }
    for (let i = 0; i < 100; i++) journal.add('big', head(i), body, true, undefined)
    expect(journal.bytes).toBeLessThanOrEqual(20_000)
    const big = journal.list('big')
    expect(big.at(-1)!.path).toBe('/p/99')
    expect(big.length).toBeLessThan(25)
    for (let i = 0; i < 15; i++) journal.add('small', head(i), body, true, undefined)
    // over 30,000 in all: the entries that go are the big namespace's, the small one keeps all 15
    expect(journal.bytes).toBeLessThanOrEqual(30_000)
    expect(journal.list('small')).toHaveLength(15)
    expect(journal.list('big').length).toBeLessThan(big.length)
    expect(journal.list('big').at(-1)!.path).toBe('/p/99')
    journal.clear('big')
    journal.clear('small')
    expect(journal.bytes).toBe(0)
  })
})

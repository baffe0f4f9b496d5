import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Shapes } from '../src/store/shapes.js'

// A compaction writes every cold record as its plain JSON text (Shapes.json), which splices the
// cold text's values beside their shape's keys instead of parsing them: it must give the very text
// JSON.stringify gives of the record, whatever the record holds.
describe('a cold record written back as plain JSON', () => {
  it('is the text JSON.stringify gives of the record', () => {
    const shapes = new Shapes()
    const record = fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.string({ unit: 'grapheme' })))
    fc.assert(
      fc.property(record, (r) => {
        const cold = shapes.freeze(r)
        expect(shapes.json(cold)).toBe(JSON.stringify(r))
        expect(JSON.stringify(shapes.thaw(cold))).toBe(JSON.stringify(r))
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps strings with quotes, escapes, brackets and commas, nested values, and no keys', () => {
    const shapes = new Shapes()
    const records = [
      {},
      { a: 'x"],[{}\\', b: ['a,b', { c: '}]', d: [1, [2, [3]]] }], e: null, f: -0, g: 1e21, h: '\\' },
      { 7: 'seven', 1: 'one', name: 'n', nested: { 2: 'two', z: { '"': '\\"' } } },
      { a: undefined, b: () => 1, c: 'kept', d: new Date(0) },
      { '\u2028': '\ud800', emoji: '💳', empty: '', arr: [] },
    ]
    for (const r of records) expect(shapes.json(shapes.freeze(r))).toBe(JSON.stringify(r))
  })
})

import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import type { CollectionSpec } from '../src/store/collection.js'
import type { Store } from '../src/store/store.js'
import { openStore, tempFile } from './helpers/sandbox.js'

/**
 * The order a collection keeps when its spec declares one (src/store/order.ts): the lists read
 * it instead of sorting (docs/behaviour.md#lists), so it must be what sorting gave: by date, ties
 * in the order the keys were first written, through puts, deletes, a restart from the data file,
 * a reset and a failed write's restore.
 */

interface Rec {
  at: number
  tag: string
}

const SPEC: CollectionSpec<Rec> = { name: 'c', order: { by: (r) => r.at, facts: { tag: (r) => r.tag } } }

const opened: Store[] = []
async function open(file?: string): Promise<Store> {
  const s = await openStore({ collections: [SPEC], ...(file ? { file } : {}) })
  opened.push(s)
  return s
}
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close()
})

/** The keys in the collection's kept order, with their facts. */
function kept(store: Store, ns = 'ns'): [string, unknown][] {
  const order = store.col<Rec>(ns, 'c').ordered!
  return Array.from({ length: order.size }, (_, i) => [order.keyAt(i), order.factsAt(i).tag])
}

/** What sorting the collection gives: by date, ties in the collection's own (insertion) order. */
function sorted(store: Store, ns = 'ns'): [string, unknown][] {
  return [...store.col<Rec>(ns, 'c').entries()]
    .map(([k, r], i) => ({ k, r, i }))
    .sort((a, b) => a.r.at - b.r.at || a.i - b.i)
    .map(({ k, r }) => [k, r.tag])
}

const op = fc.oneof(
  fc.record({ put: fc.integer({ min: 0, max: 7 }), at: fc.integer({ min: 0, max: 4 }), tag: fc.constantFrom('a', 'b') }),
  fc.record({ del: fc.integer({ min: 0, max: 7 }) }),
)

describe('the order a collection keeps (src/store/order.ts)', () => {
  it('is the collection sorted by date, ties as first written, whatever the puts and deletes (property)', async () => {
    const store = await open()
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        store.resetNamespace('ns')
        const col = store.col<Rec>('ns', 'c')
        for (const o of ops) {
          if ('put' in o) col.put(`k${o.put}`, { at: o.at, tag: o.tag })
          else col.delete(`k${o.del}`)
        }
        expect(kept(store)).toEqual(sorted(store))
        for (const [i, [key]] of kept(store).entries()) expect(col.ordered!.position(key)).toBe(i)
      }),
      { numRuns: 200 },
    )
  })

  it('keeps each record\'s facts through a column\'s growth and past 256 distinct values, whatever the puts and deletes (property)', async () => {
    // a fact column keeps a byte a record while it has met at most 256 distinct values, the values
    // themselves past that; 300 records take the columns and the positions past their first size
    const store = await open()
    const more = fc.oneof(
      fc.record({ put: fc.integer({ min: 0, max: 310 }), at: fc.integer({ min: 0, max: 40 }), tag: fc.constantFrom('a', 't7', 't299', 'new') }),
      fc.record({ del: fc.integer({ min: 0, max: 310 }) }),
    )
    for (const distinct of [3, 256, 300]) {
      await fc.assert(
        fc.asyncProperty(fc.array(more, { maxLength: 60 }), async (ops) => {
          store.resetNamespace('ns')
          const col = store.col<Rec>('ns', 'c')
          for (let i = 0; i < 300; i++) col.put(`k${i}`, { at: (i * 7) % 40, tag: `t${i % distinct}` })
          for (const o of ops) {
            if ('put' in o) col.put(`k${o.put}`, { at: o.at, tag: o.tag })
            else col.delete(`k${o.del}`)
          }
          expect(kept(store)).toEqual(sorted(store))
        }),
        { numRuns: 40 },
      )
    }
  })

  it('comes back the same from the data file, compacted or not, and after a reset and a restore', async () => {
    const file = tempFile()
    let store = await open(file)
    const col = store.col<Rec>('ns', 'c')
    // equal dates: only the order written tells them apart
    for (const k of ['m', 'b', 'z', 'a']) col.put(k, { at: 5, tag: 'a' })
    col.put('early', { at: 1, tag: 'b' })
    col.put('b', { at: 5, tag: 'b' })
    await store.sync()
    const before = kept(store)
    expect(before).toEqual([['early', 'b'], ['m', 'a'], ['b', 'b'], ['z', 'a'], ['a', 'a']])
    await store.close()
    opened.pop()
    store = await open(file)
    expect(kept(store)).toEqual(before)
    await store.compact()
    await store.close()
    opened.pop()
    store = await open(file)
    expect(kept(store)).toEqual(before)

    // a failed write's restore puts records back as the file holds them
    store.restore('ns', 'c', 'z', undefined)
    expect(kept(store).map(([k]) => k)).toEqual(['early', 'm', 'b', 'a'])
    store.restore('ns', 'c', 'z', { at: 0, tag: 'a' })
    expect(kept(store)[0]).toEqual(['z', 'a'])
    store.restoreNamespace('ns', { c: { y: { at: 2, tag: 'a' }, x: { at: 2, tag: 'b' } } })
    expect(kept(store)).toEqual([['y', 'a'], ['x', 'b']])
    store.resetNamespace('ns')
    expect(kept(store)).toEqual([])
  })
})

import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { DataFileError, FORMAT } from '../src/store/recovery.js'
import { indexHash } from '../src/store/secondary-index.js'
import { Store } from '../src/store/store.js'
import { STORE_LIMITS, openStore, tempFile } from './helpers/sandbox.js'

/** records kept live per collection (as the config gives it) */
const HOT_RECORDS = STORE_LIMITS.hotRecords

type Rec = Record<string, unknown>
/** ns -> collection -> key -> record, the plain model of what a store holds */
type Model = Record<string, Record<string, Record<string, unknown>>>

interface Doc {
  paysandbox: number
  snapshot: Model
  deltas: { n: string; c?: string; k?: string; v?: unknown; d?: 1; reset?: string[] }[]
}

/** Reads the data file with fs + JSON.parse, never through the store. */
function readDoc(file: string): Doc {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Doc
  expect(doc.paysandbox).toBe(FORMAT)
  expect(Array.isArray(doc.deltas)).toBe(true)
  return doc
}

/** An independent replay of the file format: snapshot, then every delta in order. */
function replay(doc: Doc): Model {
  const out: Model = structuredClone(doc.snapshot)
  for (const d of doc.deltas) {
    if (d.reset) {
      const cols = out[d.n]
      if (!cols) continue
      for (const name of Object.keys(cols)) if (!d.reset.includes(name)) delete cols[name]
      continue
    }
    const cols = (out[d.n] ??= {})
    const col = (cols[d.c!] ??= {})
    if (d.d) delete col[d.k!]
    else col[d.k!] = d.v
  }
  return normalize(out)
}

/** Drops empty collections and namespaces so models compare by content. */
function normalize(m: Model): Model {
  const out: Model = {}
  for (const [ns, cols] of Object.entries(m)) {
    for (const [name, recs] of Object.entries(cols)) {
      if (Object.keys(recs).length === 0) continue
      ;((out[ns] ??= {})[name] = { ...recs })
    }
  }
  return out
}

/** The store's content for the given namespaces and collections, as a model. */
function dump(store: Store, namespaces: string[], collections: string[]): Model {
  const out: Model = {}
  for (const ns of namespaces) {
    for (const name of collections) {
      if (!store.hasNamespace(ns)) continue
      const col = store.col<Rec>(ns, name)
      for (const [k, v] of col.entries()) ((out[ns] ??= {})[name] ??= {})[k] = v
    }
  }
  return out
}

const opened: Store[] = []
async function open(options: Parameters<typeof openStore>[0] = {}): Promise<Store> {
  const s = await openStore(options)
  opened.push(s)
  return s
}
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close()
})

/** A store over a fresh file, and the model a test keeps of what it writes to it. */
async function storeWithModel() {
  const file = tempFile()
  return { file, s: await open({ file }), model: {} as Model }
}

/** The file opened again holds `model` in namespace ns, collection c. */
async function expectReopenedAs(file: string, model: Model) {
  expect(dump(await open({ file }), ['ns'], ['c'])).toEqual(model)
}

describe('Store in memory', () => {
  const charges = {
    name: 'charges',
    indexes: {
      payment_reference: (c: Rec) => c.payment_reference as string | undefined,
      tags: (c: Rec) => (c.tags as string[] | undefined) ?? null,
    },
  }

  it('is not persistent and sync resolves at once', async () => {
    const s = await open()
    s.col('ns', 'x').put('a', { v: 1 })
    expect(s.dirty).toBe(false)
    await expect(s.sync()).resolves.toBeUndefined()
  })

  it('puts, gets, replaces and deletes records', async () => {
    const s = await open()
    const col = s.col<Rec>('ns', 'things')
    expect(col.get('a')).toBeUndefined()
    expect(col.has('a')).toBe(false)
    const rec = { v: 1 }
    expect(col.put('a', rec)).toBe(rec)
    expect(col.get('a')).toEqual({ v: 1 })
    expect(col.has('a')).toBe(true)
    expect(col.size).toBe(1)
    col.put('a', { v: 2 })
    expect(col.get('a')).toEqual({ v: 2 })
    expect(col.size).toBe(1)
    col.put('b', { v: 3 })
    expect([...col.entries()]).toEqual([
      ['a', { v: 2 }],
      ['b', { v: 3 }],
    ])
    expect(col.delete('a')).toBe(true)
    expect(col.delete('a')).toBe(false)
    expect(col.get('a')).toBeUndefined()
    expect(col.size).toBe(1)
    // the same collection object comes back, and namespaces are separate
    expect(s.col('ns', 'things')).toBe(col)
    expect(s.col<Rec>('other', 'things').get('b')).toBeUndefined()
    expect(s.namespaces().sort()).toEqual(['ns', 'other'])
  })

  it('finds records by a secondary index', async () => {
    const s = await open({ collections: [charges] })
    const col = s.col<Rec>('ns', 'charges')
    col.put('tx1', { payment_reference: 'order-1' })
    col.put('tx2', { payment_reference: 'order-2' })
    expect(col.findBy('payment_reference', 'order-1')).toEqual({ payment_reference: 'order-1' })
    expect(col.findBy('payment_reference', 'order-2')).toEqual({ payment_reference: 'order-2' })
    expect(col.findBy('payment_reference', 'order-3')).toBeUndefined()
    // indexes belong to their namespace
    expect(s.col<Rec>('other', 'charges').findBy('payment_reference', 'order-1')).toBeUndefined()
    // a collection without that index refuses the lookup
    expect(() => s.col<Rec>('ns', 'plain').findBy('payment_reference', 'x')).toThrow(/no index payment_reference/)
  })

  it('updates the index when a replaced record changes its indexed value', async () => {
    const s = await open({ collections: [charges] })
    const col = s.col<Rec>('ns', 'charges')
    col.put('tx1', { payment_reference: 'old' })
    col.put('tx1', { payment_reference: 'new' })
    expect(col.findBy('payment_reference', 'old')).toBeUndefined()
    expect(col.findBy('payment_reference', 'new')).toEqual({ payment_reference: 'new' })
  })

  it('updates the index when a record is changed by update', async () => {
    const s = await open({ collections: [charges] })
    const col = s.col<Rec>('ns', 'charges')
    col.put('tx1', { payment_reference: 'old' })
    const stored = col.update('tx1', (r) => {
      r.payment_reference = 'new'
    })
    expect(col.findBy('payment_reference', 'old')).toBeUndefined()
    expect(col.findBy('payment_reference', 'new')).toBe(stored)
  })

  it('gives reads the caller cannot change: a change to a read record throws, hot or cold, and changes nothing', async () => {
    const s = await open({ collections: [charges], hotRecords: 1, coldBlock: 2 })
    const col = s.col<Rec>('ns', 'charges')
    const given: Rec = { payment_reference: 'r0', history: [{ step: 'created' }] }
    const stored = col.put('tx0', given)
    // the caller gave its record up: it is the stored one, frozen all the way down once a read hands it out
    expect(stored).toBe(given)
    const hot = col.get('tx0')! as Rec
    expect(hot).toBe(given)
    expect(() => {
      given.payment_reference = 'changed'
    }).toThrow(TypeError)
    expect(() => (hot.history as Rec[]).push({ step: 'PIN' })).toThrow(TypeError)
    // tx0 goes cold; read back, then listed, it is frozen all the same
    col.put('tx1', { payment_reference: 'r1' })
    col.put('tx2', { payment_reference: 'r2' })
    const listed = [...col.values()][0] as Rec
    expect(() => {
      listed.payment_reference = 'changed'
    }).toThrow(TypeError)
    const cold = col.findBy('payment_reference', 'r0')! as Rec
    expect(() => {
      ;((cold.history as Rec[])[0] as Rec).step = 'changed'
    }).toThrow(TypeError)
    expect(col.get('tx0')).toEqual({ payment_reference: 'r0', history: [{ step: 'created' }] })
  })

  it('update stores a changed copy, hot or cold, and a throwing change stores nothing', async () => {
    const s = await open({ collections: [charges], hotRecords: 1, coldBlock: 2 })
    const col = s.col<Rec>('ns', 'charges')
    const version = () => s.version
    const first = col.put('tx0', { payment_reference: 'r0', n: 1, history: [{ step: 'created' }] })
    // hot: the change is made to a copy, the record read before stays as it was
    const second = col.update('tx0', (r) => {
      r.n = 2
      ;(r.history as Rec[]).push({ step: 'PIN' })
    })
    expect(first).toEqual({ payment_reference: 'r0', n: 1, history: [{ step: 'created' }] })
    expect(second).toEqual({ payment_reference: 'r0', n: 2, history: [{ step: 'created' }, { step: 'PIN' }] })
    expect(col.get('tx0')).toBe(second)
    // read, it is frozen all the way down
    expect(Object.isFrozen(second) && Object.isFrozen(second.history)).toBe(true)
    // a change that throws, hot then cold, leaves the record, its index and the store's version alone
    for (const state of ['hot', 'cold']) {
      if (state === 'cold') col.put('tx1', { payment_reference: 'r1' })
      const before = version()
      expect(() =>
        col.update('tx0', (r) => {
          r.payment_reference = 'moved'
          throw new Error('refused')
        }),
      ).toThrow('refused')
      expect(version()).toBe(before)
      expect(col.findBy('payment_reference', 'moved')).toBeUndefined()
      expect(col.findBy('payment_reference', 'r0')).toEqual(second)
    }
    // cold: the copy is parsed from its text, and stored hot again
    col.put('tx2', { payment_reference: 'r2' })
    expect(col.coldStats().hot).toBe(1)
    const third = col.update('tx0', (r) => ({ ...r, n: 3 }))
    expect(third).toEqual({ payment_reference: 'r0', n: 3, history: [{ step: 'created' }, { step: 'PIN' }] })
    expect(JSON.parse(col.json('tx0')!)).toEqual(third)
    expect(() => col.update('nope', () => {})).toThrow()
  })

  it('drops the index entry when the indexed value goes away', async () => {
    const s = await open({ collections: [charges] })
    const col = s.col<Rec>('ns', 'charges')
    col.put('tx1', { payment_reference: 'ref-1' })
    col.put('tx1', { other: true })
    expect(col.findBy('payment_reference', 'ref-1')).toBeUndefined()
  })

  it('removes index entries on delete', async () => {
    const s = await open({ collections: [charges] })
    const col = s.col<Rec>('ns', 'charges')
    col.put('tx1', { payment_reference: 'ref-1', tags: ['t1', 't2'] })
    expect(col.findBy('tags', 't2')).toBeDefined()
    col.delete('tx1')
    expect(col.findBy('payment_reference', 'ref-1')).toBeUndefined()
    expect(col.findBy('tags', 't1')).toBeUndefined()
    expect(col.findBy('tags', 't2')).toBeUndefined()
  })

  it('finds by an index, of the records holding a value, the one written last, hot or cold, whatever the puts, updates and deletes (property)', async () => {
    // kept live: none, two, or all of them; a cold record is read back from its text or its block
    for (const hotRecords of [0, 2, 64]) {
      const s = await open({ collections: [charges], hotRecords, coldBlock: 3 })
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.record({ put: fc.integer({ min: 0, max: 5 }), ref: fc.constantFrom('r0', 'r1', 'r2', 'r3', undefined), tags: fc.subarray(['t0', 't1', 't2']) }),
              fc.record({ update: fc.integer({ min: 0, max: 5 }), ref: fc.constantFrom('r0', 'r1', 'r2', 'r3', undefined) }),
              fc.record({ del: fc.integer({ min: 0, max: 5 }) }),
            ),
            { maxLength: 50 },
          ),
          async (ops) => {
            s.resetNamespace('ns')
            const col = s.col<Rec>('ns', 'charges')
            // the model: each key's record and when it was last written
            const records = new Map<string, { record: Rec; at: number }>()
            ops.forEach((o, at) => {
              if ('put' in o) {
                const record: Rec = o.ref === undefined ? { tags: o.tags } : { payment_reference: o.ref, tags: o.tags }
                col.put(`k${o.put}`, record)
                records.set(`k${o.put}`, { record, at })
              } else if ('update' in o) {
                const key = `k${o.update}`
                if (!records.has(key)) return
                const updated = col.update(key, (d) => {
                  if (o.ref === undefined) delete d.payment_reference
                  else d.payment_reference = o.ref
                })
                records.set(key, { record: updated as Rec, at })
              } else {
                col.delete(`k${o.del}`)
                records.delete(`k${o.del}`)
              }
            })
            const lastHolding = (has: (r: Rec) => boolean): Rec | undefined =>
              [...records.values()].filter(({ record }) => has(record)).sort((a, b) => b.at - a.at)[0]?.record
            for (const v of ['r0', 'r1', 'r2', 'r3']) expect(col.findBy('payment_reference', v) ?? undefined).toEqual(lastHolding((r) => r.payment_reference === v))
            for (const v of ['t0', 't1', 't2']) expect(col.findBy('tags', v) ?? undefined).toEqual(lastHolding((r) => ((r.tags as string[] | undefined) ?? []).includes(v)))
          },
        ),
        { numRuns: 150 },
      )
    }
  })

  it('finds each of two values of one hash, and each of two records of one value, through a put, a replace and a delete', async () => {
    // an index keys its entries by a 32-bit hash of the value (src/store/secondary-index.ts): find
    // two references of one hash, as a store of a few hundred thousand charges holds about one pair
    const seen = new Map<number, string>()
    let pair: [string, string] | undefined
    for (let i = 0; !pair; i++) {
      const ref = `ref-${i}`
      const other = seen.get(indexHash(ref))
      if (other !== undefined) pair = [other, ref]
      else seen.set(indexHash(ref), ref)
    }
    const [a, b] = pair
    expect(a).not.toBe(b)
    const s = await open({ collections: [charges], hotRecords: 0, coldBlock: 2 })
    const col = s.col<Rec>('ns', 'charges')
    col.put('tx-a', { payment_reference: a })
    col.put('tx-b', { payment_reference: b })
    col.put('tx-c', { payment_reference: a })
    expect(col.findBy('payment_reference', a)).toEqual({ payment_reference: a })
    expect(col.findBy('payment_reference', b)).toEqual({ payment_reference: b })
    // of two records holding one value, the one written last; then the other once it is gone
    col.put('tx-a', { payment_reference: a, again: true })
    expect(col.findBy('payment_reference', a)).toEqual({ payment_reference: a, again: true })
    col.delete('tx-a')
    expect(col.findBy('payment_reference', a)).toEqual({ payment_reference: a })
    col.put('tx-c', { payment_reference: 'elsewhere' })
    expect(col.findBy('payment_reference', a)).toBeUndefined()
    expect(col.findBy('payment_reference', b)).toEqual({ payment_reference: b })
    col.delete('tx-b')
    expect(col.findBy('payment_reference', b)).toBeUndefined()
    expect(col.findBy('payment_reference', 'elsewhere')).toEqual({ payment_reference: 'elsewhere' })
  })

  it('indexes every value an index function returns, and only strings', async () => {
    const s = await open({ collections: [charges] })
    const col = s.col<Rec>('ns', 'charges')
    col.put('tx1', { tags: ['a', 'b'] })
    expect(col.findBy('tags', 'a')).toEqual({ tags: ['a', 'b'] })
    expect(col.findBy('tags', 'b')).toEqual({ tags: ['a', 'b'] })
    col.put('tx1', { tags: ['b', 'c'] })
    expect(col.findBy('tags', 'a')).toBeUndefined()
    expect(col.findBy('tags', 'c')).toEqual({ tags: ['b', 'c'] })
    col.put('tx2', { payment_reference: '' })
    expect(col.findBy('payment_reference', '')).toBeUndefined()
  })

  it('empties a namespace on reset, except the collections kept, and not other namespaces', async () => {
    const s = await open({ collections: [charges] })
    s.col<Rec>('a', 'charges').put('tx1', { payment_reference: 'r1' })
    s.col<Rec>('a', 'meta').put('ns', { name: 'A' })
    s.col<Rec>('b', 'charges').put('tx1', { payment_reference: 'r1' })
    s.resetNamespace('a', ['meta'])
    expect(s.col<Rec>('a', 'charges').size).toBe(0)
    expect(s.col<Rec>('a', 'charges').findBy('payment_reference', 'r1')).toBeUndefined()
    expect(s.col<Rec>('a', 'meta').get('ns')).toEqual({ name: 'A' })
    expect(s.col<Rec>('b', 'charges').findBy('payment_reference', 'r1')).toEqual({ payment_reference: 'r1' })
  })

  it(`keeps the ${HOT_RECORDS} records used last as live objects and the others as JSON text`, async () => {
    const s = await open({ collections: [charges] })
    const col = s.col<Rec>('ns', 'charges')
    const first = col.put('tx0', { payment_reference: 'r0', history: [{ step: 'created' }] })
    expect(col.get('tx0')).toBe(first)
    for (let i = 1; i <= HOT_RECORDS; i++) col.put(`tx${i}`, { payment_reference: `r${i}` })
    // tx0 went cold: read back, a new object equal to the old one
    const again = col.get('tx0')!
    expect(again).not.toBe(first)
    expect(again).toEqual({ payment_reference: 'r0', history: [{ step: 'created' }] })
    expect(col.get('tx0')).toBe(again)
    // the index still finds a cold record, and the JSON views agree with the records
    for (let i = 1; i <= HOT_RECORDS; i++) col.get(`tx${HOT_RECORDS + 1 - i}`)
    expect(col.findBy('payment_reference', 'r0')).toEqual(again)
    expect(JSON.parse(col.json('tx0')!)).toEqual(again)
    expect(new Map([...col.jsonEntries()].map(([k, v]) => [k, JSON.parse(v)]))).toEqual(new Map(col.entries()))
    expect(col.size).toBe(HOT_RECORDS + 1)
    expect(col.delete('tx0')).toBe(true)
    expect(col.findBy('payment_reference', 'r0')).toBeUndefined()
    expect(col.json('tx0')).toBeUndefined()
  })

  it('keeps no record live where the spec says hot: 0, and reads, updates, indexes and deletes the same', async () => {
    const entries = { ...charges, name: 'entries', hot: 0 }
    const s = await open({ collections: [entries], coldBlock: 2 })
    const col = s.col<Rec>('ns', 'entries')
    for (let i = 0; i < 3; i++) col.put(`e${i}`, { payment_reference: `r${i}`, n: i, nested: { i } })
    // two texts packed in a block, the third waiting as text; nothing live
    expect(col.coldStats()).toMatchObject({ hot: 0, texts: 1, blocks: 1, packed: 2 })
    const read = col.get('e0')!
    expect(read).toEqual({ payment_reference: 'r0', n: 0, nested: { i: 0 } })
    expect(Object.isFrozen(read) && Object.isFrozen(read.nested)).toBe(true)
    // a read parses the text each time and keeps nothing live
    expect(col.get('e0')).not.toBe(read)
    expect(col.coldStats().hot).toBe(0)
    expect(col.findBy('payment_reference', 'r2')).toEqual({ payment_reference: 'r2', n: 2, nested: { i: 2 } })
    const changed = col.update('e1', (r) => {
      r.n = 10
    })
    expect(changed).toEqual({ payment_reference: 'r1', n: 10, nested: { i: 1 } })
    expect(col.get('e1')).toEqual(changed)
    expect(JSON.parse(col.json('e1')!)).toEqual(changed)
    expect(col.coldStats().hot).toBe(0)
    expect(col.delete('e2')).toBe(true)
    expect(col.findBy('payment_reference', 'r2')).toBeUndefined()
    expect([...col.keys()]).toEqual(['e0', 'e1'])
  })

  it('keeps cold texts compressed in blocks, and a block it no longer needs is dropped', async () => {
    const s = await open({ collections: [charges], hotRecords: 1, coldBlock: 4 })
    const col = s.col<Rec>('ns', 'charges')
    const rec = (i: number) => ({ payment_reference: `r${i}`, note: 'x'.repeat(200), i })
    // five records, the last one hot: the four others packed into one block
    for (let i = 0; i < 5; i++) col.put(`tx${i}`, rec(i))
    const stats = col.coldStats()
    expect(stats).toEqual({ hot: 1, texts: 0, blocks: 1, packed: 4, blockBytes: expect.any(Number) })
    // 4 texts of ~230 characters that differ in a few: far smaller packed
    expect(stats.blockBytes).toBeLessThan(230)
    // reading one back makes it hot and frees its slot (tx4 goes cold as text); the block stays
    expect(col.get('tx0')).toEqual(rec(0))
    expect(col.coldStats()).toMatchObject({ hot: 1, texts: 1, blocks: 1, packed: 3 })
    expect(col.findBy('payment_reference', 'r2')).toEqual(rec(2))
    expect(col.coldStats()).toMatchObject({ hot: 1, texts: 2, blocks: 1, packed: 2 })
    // a replacement frees a slot too; a block left with a quarter of its slots in use after reads
    // or replacements gives them back as texts (their records are held twice otherwise): tx3
    // waits with tx4, tx0 and tx2 (cold as tx1 is touched), and the four are packed
    col.put('tx1', rec(1))
    expect(col.coldStats()).toMatchObject({ hot: 1, texts: 0, blocks: 1, packed: 4 })
    // deletes free slots without packing again (nothing is held twice); an empty block is dropped
    col.delete('tx4')
    col.delete('tx0')
    col.delete('tx3')
    expect(col.coldStats()).toMatchObject({ hot: 1, texts: 0, blocks: 1, packed: 1 })
    expect(col.get('tx2')).toEqual(rec(2))
    expect(col.coldStats()).toMatchObject({ hot: 1, texts: 1, blocks: 0, packed: 0 })
    expect(new Map(col.entries())).toEqual(new Map([['tx1', rec(1)], ['tx2', rec(2)]]))
    expect(col.findBy('payment_reference', 'r3')).toBeUndefined()
    expect(col.findBy('payment_reference', 'r1')).toEqual(rec(1))
  })

  it('keeps fewer records live in the collections whose spec says so', async () => {
    const rec = (i: number) => ({ payment_reference: `r${i}`, i })
    const fill = (s: Store, name: string) => {
      const col = s.col<Rec>('ns', name)
      for (let i = 0; i < 10; i++) col.put(`k${i}`, rec(i))
      return col.coldStats()
    }
    const cold = (stats: ReturnType<typeof fill>) => stats.texts + stats.packed
    const s = await open({ collections: [{ name: 'events', hot: 2 }] })
    expect(fill(s, 'events')).toMatchObject({ hot: 2 })
    expect(cold(fill(s, 'events'))).toBe(8)
    // the others keep the store's (SANDBOX_HOT_RECORDS when a run sets it)
    expect(fill(s, 'charges').hot).toBe(Math.min(10, HOT_RECORDS))
    // what goes on being read stays the same object while it is hot
    const events = s.col<Rec>('ns', 'events')
    expect(events.get('k0')).toBe(events.get('k0'))
    expect(events.get('k0')).toEqual(rec(0))
  })

  it('property: with tiny hot sets and blocks, a collection equals a Map model', async () => {
    type CollOp =
      | { op: 'put'; key: string; value: Rec }
      | { op: 'mutate'; key: string; n: number }
      | { op: 'delete'; key: string }
      | { op: 'get'; key: string }
      | { op: 'find'; ref: string }
      | { op: 'list' }
    const KEYS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l\n"m']
    const valueArb = fc.record({ payment_reference: fc.constantFrom('r1', 'r2', 'r3', 'r4'), s: fc.string({ unit: 'binary', maxLength: 8 }), n: fc.integer() })
    const opArb: fc.Arbitrary<CollOp> = fc.oneof(
      { weight: 5, arbitrary: fc.record({ op: fc.constant('put' as const), key: fc.constantFrom(...KEYS), value: valueArb }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constant('mutate' as const), key: fc.constantFrom(...KEYS), n: fc.integer() }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), key: fc.constantFrom(...KEYS) }) },
      { weight: 3, arbitrary: fc.record({ op: fc.constant('get' as const), key: fc.constantFrom(...KEYS) }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('find' as const), ref: fc.constantFrom('r1', 'r2', 'r3', 'r4') }) },
      { weight: 1, arbitrary: fc.constant({ op: 'list' as const }) },
    )
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 30, maxLength: 150 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 6 }), async (ops, hot, block) => {
        const s = await openStore({ collections: [{ name: 'x', indexes: { payment_reference: (r: Rec) => r.payment_reference as string } }], hotRecords: hot, coldBlock: block })
        const col = s.col<Rec>('ns', 'x')
        const model = new Map<string, Rec>()
        // the index: of the records holding a reference, the one written last
        const written = new Map<string, number>()
        let clock = 0
        for (const o of ops) {
          switch (o.op) {
            case 'put':
              col.put(o.key, { ...o.value })
              model.set(o.key, { ...o.value })
              written.set(o.key, ++clock)
              break
            case 'mutate': {
              // a change goes through update, hot or cold
              if (col.has(o.key))
                col.update(o.key, (r) => {
                  r.n = o.n
                })
              const r = model.get(o.key)
              if (r) {
                r.n = o.n
                written.set(o.key, ++clock)
              }
              break
            }
            case 'delete':
              expect(col.delete(o.key)).toBe(model.delete(o.key))
              break
            case 'get':
              expect(col.get(o.key)).toEqual(model.get(o.key))
              break
            case 'find': {
              const holding = [...model].filter(([, r]) => r.payment_reference === o.ref).sort(([a], [b]) => written.get(b)! - written.get(a)!)
              expect(col.findBy('payment_reference', o.ref)).toEqual(holding[0]?.[1])
              break
            }
            case 'list':
              expect(new Map(col.entries())).toEqual(model)
              break
          }
        }
        expect(col.size).toBe(model.size)
        expect(new Map(col.entries())).toEqual(model)
        expect(new Map([...col.jsonEntries()].map(([k, v]) => [k, JSON.parse(v)]))).toEqual(model)
        for (const [k, v] of model) expect(JSON.parse(col.json(k)!)).toEqual(v)
        const stats = col.coldStats()
        expect(stats.hot + stats.texts + stats.packed).toBe(model.size)
        expect(stats.hot).toBeLessThanOrEqual(hot)
      }),
      { numRuns: 300 },
    )
  })

  it('gives back exactly what went cold: records of many shapes, undefined fields left out, an own __proto__ key kept', async () => {
    const s = await open()
    const col = s.col<Rec>('ns', 'things')
    const records: Record<string, Rec> = {
      plain: { a: 1, b: 'two', c: null, d: [1, { e: 'f' }], g: { h: true } },
      sameKeys: { a: 2, b: 'x', c: 3, d: [], g: {} },
      otherOrder: { b: 'y', a: 3 },
      empty: {},
      undef: { a: undefined, b: 1, c: undefined },
      proto: JSON.parse('{"__proto__":{"polluted":"yes"},"a":1}'),
      unicode: { 'k\u0000ey': 'välue ✓', n: -0.5 },
    }
    for (const [k, v] of Object.entries(records)) col.put(k, v)
    // push all of them out of the hot set
    for (let i = 0; i < HOT_RECORDS; i++) col.put(`filler${i}`, { i })
    for (const [k, v] of Object.entries(records)) {
      const back = col.get(k)!
      expect(back).toEqual(JSON.parse(JSON.stringify(v)))
      expect(JSON.parse(col.json(k)!)).toEqual(JSON.parse(JSON.stringify(v)))
    }
    expect(Object.getPrototypeOf(col.get('proto'))).toBe(Object.prototype)
    expect(Object.keys(col.get('proto')!)).toEqual(['__proto__', 'a'])
    expect(({} as Rec).polluted).toBeUndefined()
  })
})

describe('Store with a file', () => {
  it('creates the file on open, as an empty paysandbox document', async () => {
    const file = tempFile()
    await open({ file })
    expect(readDoc(file)).toEqual({ paysandbox: FORMAT, snapshot: {}, deltas: [] })
  })

  it('has every change in the file, as valid JSON, after each sync()', async () => {
    const { file, s, model } = await storeWithModel()
    let lastDeltas = 0
    for (let i = 0; i < 20; i++) {
      const key = `k${i % 7}`
      if (i % 5 === 4) {
        s.col<Rec>('ns1', 'things').delete(key)
        delete model.ns1?.things?.[key]
      } else {
        const value = { i, text: `line\n"${i}"`, nested: { list: [i, null, true] } }
        s.col<Rec>('ns1', 'things').put(key, value)
        ;((model.ns1 ??= {}).things ??= {})[key] = value
      }
      s.col<Rec>('ns2', 'other').put('same', { i })
      ;((model.ns2 ??= {}).other ??= {}).same = { i }
      expect(s.dirty).toBe(true)
      await s.sync()
      expect(s.dirty).toBe(false)
      const doc = readDoc(file)
      expect(replay(doc)).toEqual(normalize(model))
      // appended, not rewritten: the deltas array only grows while below the compaction threshold
      expect(doc.deltas.length).toBeGreaterThan(lastDeltas)
      lastDeltas = doc.deltas.length
    }
    expect(readDoc(file).snapshot).toEqual({})
  })

  it('groups the changes of one turn into the file and coalesces puts of one key', async () => {
    const file = tempFile()
    const s = await open({ file })
    const col = s.col<Rec>('ns', 'c')
    col.put('a', { v: 1 })
    col.put('a', { v: 2 })
    col.put('a', { v: 3 })
    col.put('b', { v: 1 })
    await s.sync()
    const doc = readDoc(file)
    expect(doc.deltas).toEqual([
      { n: 'ns', c: 'c', k: 'a', v: { v: 3 } },
      { n: 'ns', c: 'c', k: 'b', v: { v: 1 } },
    ])
  })

  it('keeps changes across close and reopen', async () => {
    const file = tempFile()
    const collections = [{ name: 'charges', indexes: { payment_reference: (c: Rec) => c.payment_reference as string } }]
    const s = await openStore({ file, collections })
    s.col<Rec>('ns', 'charges').put('tx1', { payment_reference: 'order-1', amount: 100 })
    s.col<Rec>('ns', 'charges').put('tx2', { payment_reference: 'order-2', amount: 200 })
    s.col<Rec>('ns', 'charges').delete('tx2')
    s.col<Rec>('other', 'meta').put('clock', { offset_ms: 5 })
    await s.close()

    const again = await open({ file, collections })
    expect(again.col<Rec>('ns', 'charges').get('tx1')).toEqual({ payment_reference: 'order-1', amount: 100 })
    expect(again.col<Rec>('ns', 'charges').get('tx2')).toBeUndefined()
    expect(again.col<Rec>('ns', 'charges').size).toBe(1)
    // the index is rebuilt on load
    expect(again.col<Rec>('ns', 'charges').findBy('payment_reference', 'order-1')).toEqual({ payment_reference: 'order-1', amount: 100 })
    expect(again.col<Rec>('ns', 'charges').findBy('payment_reference', 'order-2')).toBeUndefined()
    expect(again.col<Rec>('other', 'meta').get('clock')).toEqual({ offset_ms: 5 })
  })

  it('close() writes changes not yet synced', async () => {
    const file = tempFile()
    const s = await openStore({ file })
    s.col<Rec>('ns', 'c').put('a', { v: 'unsynced' })
    await s.close()
    expect(replay(readDoc(file))).toEqual({ ns: { c: { a: { v: 'unsynced' } } } })
  })

  it('persists resetNamespace, keeping the collections named and other namespaces', async () => {
    const file = tempFile()
    const s = await openStore({ file })
    s.col<Rec>('a', 'charges').put('tx1', { v: 1 })
    s.col<Rec>('a', 'meta').put('ns', { v: 2 })
    s.col<Rec>('b', 'charges').put('tx1', { v: 3 })
    await s.sync()
    s.resetNamespace('a', ['meta'])
    await s.sync()
    expect(replay(readDoc(file))).toEqual({ a: { meta: { ns: { v: 2 } } }, b: { charges: { tx1: { v: 3 } } } })
    // a put right after a reset comes after it in the file
    s.col<Rec>('a', 'charges').put('tx9', { v: 9 })
    s.resetNamespace('b')
    await s.close()
    expect(replay(readDoc(file))).toEqual({ a: { meta: { ns: { v: 2 } }, charges: { tx9: { v: 9 } } } })

    const again = await open({ file })
    expect(again.col<Rec>('a', 'charges').get('tx1')).toBeUndefined()
    expect(again.col<Rec>('a', 'charges').get('tx9')).toEqual({ v: 9 })
    expect(again.col<Rec>('a', 'meta').get('ns')).toEqual({ v: 2 })
    expect(again.col<Rec>('b', 'charges').size).toBe(0)
  })

  it('persists a put made before a reset in the same group as gone', async () => {
    const file = tempFile()
    const s = await openStore({ file })
    s.col<Rec>('a', 'c').put('k', { v: 1 })
    s.resetNamespace('a')
    await s.close()
    expect(replay(readDoc(file))).toEqual({})
    const again = await open({ file })
    expect(again.col<Rec>('a', 'c').get('k')).toBeUndefined()
  })

  it('compact() writes everything into the snapshot and leaves deltas: []', async () => {
    const file = tempFile()
    const s = await open({ file })
    for (let i = 0; i < 10; i++) {
      s.col<Rec>('ns', 'c').put(`k${i}`, { i })
      await s.sync()
    }
    s.col<Rec>('ns', 'c').delete('k3')
    s.resetNamespace('gone')
    await s.sync()
    expect(readDoc(file).deltas.length).toBeGreaterThan(0)
    const before = replay(readDoc(file))

    await s.compact()
    const doc = readDoc(file)
    expect(doc.deltas).toEqual([])
    expect(normalize(doc.snapshot)).toEqual(before)
    expect(Object.keys(doc.snapshot.ns.c)).toHaveLength(9)
    expect(doc.snapshot.ns.c.k3).toBeUndefined()

    // and appending goes on from the compacted file
    s.col<Rec>('ns', 'c').put('after', { ok: true })
    await s.sync()
    const next = readDoc(file)
    expect(next.deltas).toEqual([{ n: 'ns', c: 'c', k: 'after', v: { ok: true } }])
    await s.close()
    const again = await open({ file })
    expect(again.col<Rec>('ns', 'c').size).toBe(10)
    expect(again.col<Rec>('ns', 'c').get('after')).toEqual({ ok: true })
  })

  it('compacts by itself once the deltas outweigh the snapshot (tiny compactMinBytes), losing nothing', async () => {
    const file = tempFile()
    const s = await open({ file, compactMinBytes: 1 })
    const model: Model = {}
    let compactions = 0
    let lastDeltas = 0
    for (let i = 0; i < 60; i++) {
      const key = `k${i % 9}`
      const value = { i, pad: 'x'.repeat(i % 13) }
      s.col<Rec>('ns', 'c').put(key, value)
      ;((model.ns ??= {}).c ??= {})[key] = value
      await s.sync()
      const doc = readDoc(file)
      if (doc.deltas.length < lastDeltas) compactions++
      lastDeltas = doc.deltas.length
      expect(replay(doc)).toEqual(model)
    }
    expect(compactions).toBeGreaterThan(0)
    // the file stays small: at most about twice the snapshot it compacts into
    const snapshotBytes = JSON.stringify(model).length
    expect(statSync(file).size).toBeLessThan(snapshotBytes * 3 + 200)
    await s.close()
    await expectReopenedAs(file, model)
  })

  it('acknowledges and keeps every change made while a compaction writes a document of many pieces', async () => {
    const { file, s, model } = await storeWithModel()
    const put = (ns: string, c: string, k: string, v: Rec) => {
      s.col<Rec>(ns, c).put(k, v)
      ;((model[ns] ??= {})[c] ??= {})[k] = v
    }
    // about 3 MB: several pieces of the compaction, each written with the event loop free between
    for (let i = 0; i < 10_000; i++) put('a', 'big', `k${i}`, { i, pad: 'x'.repeat(300) })
    put('b', 'big', 'keep', { b: true })
    await s.sync()
    let compacted = false
    const compaction = s.compact().then(() => (compacted = true))
    let during = 0
    let acknowledgedDuring = 0
    for (let round = 0; round < 40; round++) {
      await new Promise((r) => setImmediate(r))
      if (!compacted) during++
      put('a', 'big', `k${round * 100}`, { changed: round })
      put('a', 'new', `n${round}`, { round })
      s.col<Rec>('a', 'big').delete(`k${round * 100 + 1}`)
      delete model.a.big[`k${round * 100 + 1}`]
      if (round === 20) {
        s.resetNamespace('b')
        delete model.b
        put('b', 'fresh', 'after-reset', { ok: true })
      }
      // a change is acknowledged (in the current file) without waiting for the compaction
      await s.sync()
      if (!compacted) acknowledgedDuring++
    }
    await compaction
    await s.sync()
    // the changes did land, and were acknowledged, while the compaction was writing
    expect(during).toBeGreaterThan(2)
    expect(acknowledgedDuring).toBeGreaterThan(0)
    // the file alone (snapshot, then deltas) holds the latest state of every record
    expect(replay(readDoc(file))).toEqual(normalize(model))
    await s.close()
    const again = await open({ file })
    expect(dump(again, ['a', 'b'], ['big', 'new', 'fresh'])).toEqual(normalize(model))
  })

  it('on a restart appends where a clean file ends, without rewriting it', async () => {
    const file = tempFile()
    const s = await open({ file })
    for (let i = 0; i < 50; i++) s.col<Rec>('ns', 'c').put(`k${i}`, { i })
    await s.sync()
    await s.close()
    const before = readFileSync(file, 'utf8')
    const withDeltas = readDoc(file).deltas.length
    expect(withDeltas).toBeGreaterThan(0)
    const again = await open({ file })
    // opening changed nothing in the file
    expect(readFileSync(file, 'utf8')).toBe(before)
    again.col<Rec>('ns', 'c').put('after', { ok: true })
    again.col<Rec>('ns', 'c').delete('k0')
    await again.sync()
    const after = readFileSync(file, 'utf8')
    expect(after.startsWith(before.slice(0, -2))).toBe(true)
    const doc = readDoc(file)
    expect(doc.deltas.length).toBe(withDeltas + 2)
    const model = replay(doc)
    expect(model.ns.c.after).toEqual({ ok: true })
    expect(model.ns.c.k0).toBeUndefined()
    expect(model.ns.c.k49).toEqual({ i: 49 })
    await again.close()
    await expectReopenedAs(file, model)
  })

  it('repairs a torn last delta on open, keeping every complete delta', async () => {
    const file = tempFile()
    const s = await openStore({ file })
    for (let i = 0; i < 5; i++) {
      s.col<Rec>('ns', 'c').put(`k${i}`, { i, text: 'some text to cut in the middle' })
      await s.sync()
    }
    await s.close()
    const text = readFileSync(file, 'utf8')
    expect(readDoc(file).deltas).toHaveLength(5)
    // cut the file in the middle of the last delta line, as a crash mid-write would
    const lastLine = text.lastIndexOf('\n')
    const cutAt = lastLine + Math.floor((text.length - lastLine) / 2)
    truncateSync(file, Buffer.byteLength(text.slice(0, cutAt)))
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).toThrow()

    const again = await open({ file })
    const col = again.col<Rec>('ns', 'c')
    expect(col.size).toBe(4)
    for (let i = 0; i < 4; i++) expect(col.get(`k${i}`)).toEqual({ i, text: 'some text to cut in the middle' })
    expect(col.get('k4')).toBeUndefined()
    // the repaired file is valid JSON again, and the store keeps writing to it
    expect(replay(readDoc(file))).toEqual({ ns: { c: Object.fromEntries([0, 1, 2, 3].map((i) => [`k${i}`, { i, text: 'some text to cut in the middle' }])) } })
    col.put('k5', { i: 5 })
    await again.sync()
    expect(replay(readDoc(file)).ns.c.k5).toEqual({ i: 5 })
  })

  it.each([
    ['only the newline of the next delta', '\n'],
    ['the newline and comma of the next delta', '\n,'],
    ['half of the next delta', '\n,{"n":"ns","c":"c","k":"k9","v":{"i"'],
  ])('repairs a torn append that wrote %s over the tail', async (_what, partial) => {
    const file = tempFile()
    const s = await openStore({ file })
    s.col<Rec>('ns', 'c').put('k0', { i: 0 })
    await s.sync()
    s.col<Rec>('ns', 'c').put('k1', { i: 1 })
    await s.sync()
    await s.close()
    const text = readFileSync(file, 'utf8')
    expect(text.endsWith(']}')).toBe(true)
    // a positional append starts over the old tail `]}`: simulate one cut short
    writeFileSync(file, text.slice(0, -2) + partial)

    const again = await open({ file })
    expect(again.col<Rec>('ns', 'c').get('k0')).toEqual({ i: 0 })
    expect(again.col<Rec>('ns', 'c').get('k1')).toEqual({ i: 1 })
    expect(again.col<Rec>('ns', 'c').get('k9')).toBeUndefined()
    expect(replay(readDoc(file))).toEqual({ ns: { c: { k0: { i: 0 }, k1: { i: 1 } } } })
  })

  it('repairs a torn first delta after a compaction', async () => {
    const file = tempFile()
    const s = await openStore({ file })
    s.col<Rec>('ns', 'c').put('k0', { i: 0 })
    await s.compact()
    await s.close()
    const text = readFileSync(file, 'utf8')
    writeFileSync(file, text.slice(0, -2) + '\n{"n":"ns","c":"c","k":"k1","v":{"i":1')
    const again = await open({ file })
    expect(dump(again, ['ns'], ['c'])).toEqual({ ns: { c: { k0: { i: 0 } } } })
  })

  it.each([
    ['not JSON at all', 'this is not json\n'],
    ['a JSON array', '[1,2,3]'],
    ['a JSON object of another program', '{"users":[{"id":1}]}'],
    ['a paysandbox doc without deltas', '{"paysandbox":1,"snapshot":{}}'],
    ['a paysandbox doc with a string format', '{"paysandbox":"1","snapshot":{},"deltas":[]}'],
    ['a doc of a newer format', '{"paysandbox":99,"snapshot":{},"deltas":[]}'],
    ['a doc cut inside its snapshot', '{"paysandbox":1,"snapshot":{"ns":{"c":{"k":{"v"'],
    ['a doc with a damaged delta before the last line', '{"paysandbox":1,"snapshot":{},"deltas":[\n{"n":"ns","c":"c","k":"a","v":{}}\n,{"n":"ns",GARBAGE\n,{"n":"ns","c":"c","k":"b","v":{}}]}'],
    ['a doc followed by a complete change (never set aside as a damaged tail)', '{"paysandbox":1,"snapshot":{},"deltas":[]}\n,{"n":"ns","c":"c","k":"b","v":{}}]}'],
    ['a record that is not an object', '{"paysandbox":1,"snapshot":{"ns":{"c":{"k":5}}},"deltas":[]}'],
    ['a change that puts a record that is not an object', '{"paysandbox":1,"snapshot":{},"deltas":[\n{"n":"ns","c":"c","k":"a","v":"text"}]}'],
    ['a change without its namespace', '{"paysandbox":1,"snapshot":{},"deltas":[\n{"c":"c","k":"a","v":{}}]}'],
  ])('refuses %s with DataFileError naming the file, and leaves it untouched', async (_what, content) => {
    const file = tempFile('corrupt.json')
    writeFileSync(file, content)
    const before = readFileSync(file)
    const err = await openStore({ file }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(DataFileError)
    expect((err as DataFileError).file).toBe(file)
    expect((err as Error).message).toContain(file)
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it('keeps every change of a file with junk appended, and sets the junk aside beside it', async () => {
    const file = tempFile()
    const s = await openStore({ file })
    s.col<Rec>('ns', 'c').put('k0', { i: 0 })
    s.col<Rec>('ns', 'c').put('k1', { i: 1 })
    await s.close()
    writeFileSync(file, readFileSync(file, 'utf8') + 'junk\nmore junk')
    const again = await open({ file })
    expect(dump(again, ['ns'], ['c'])).toEqual({ ns: { c: { k0: { i: 0 }, k1: { i: 1 } } } })
    const aside = readdirSync(dirname(file)).filter((f) => f.startsWith('data.json.damaged-'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dirname(file), aside[0]), 'utf8')).toBe('junk\nmore junk')
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow()
  })

  it('locks the file: a second open is refused naming the pid, a close lets it go, a dead owner\'s lock is taken over', async () => {
    const file = tempFile()
    const s = await openStore({ file })
    expect(readFileSync(`${file}.lock`, 'utf8')).toContain(`"pid":${process.pid}`)
    const err = await openStore({ file }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(DataFileError)
    expect((err as Error).message).toContain(`pid ${process.pid}`)
    await s.close()
    expect(existsSync(`${file}.lock`)).toBe(false)
    // a pid no process has (above the kernel's pid_max)
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: 2 ** 22 + 1 }))
    const again = await open({ file })
    again.col<Rec>('ns', 'c').put('k', { i: 1 })
    await again.sync()
    expect(readFileSync(`${file}.lock`, 'utf8')).toContain(`"pid":${process.pid}`)
  })

  it('refuses a directory given as the file with DataFileError naming it', async () => {
    const dir = dirname(tempFile())
    const err = await openStore({ file: dir }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(DataFileError)
    expect((err as Error).message).toContain(dir)
  })

  it('refuses a file in a missing directory with DataFileError naming the file', async () => {
    const file = join(dirname(tempFile()), 'no-such-dir', 'data.json')
    const err = await openStore({ file }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(DataFileError)
    expect((err as Error).message).toContain(file)
  })

  it('treats an empty file as an empty store', async () => {
    const file = tempFile()
    writeFileSync(file, '')
    const s = await open({ file })
    expect(s.namespaces()).toEqual([])
    expect(readDoc(file)).toEqual({ paysandbox: FORMAT, snapshot: {}, deltas: [] })
  })

  it('still writes the file when NODE_ENV=test (no silent in-memory mode)', async () => {
    const saved = process.env.NODE_ENV
    process.env.NODE_ENV = 'test'
    try {
      const file = tempFile()
      const s = await openStore({ file })
      s.col<Rec>('ns', 'c').put('k', { written: true })
      await s.sync()
      expect(existsSync(file)).toBe(true)
      expect(replay(readDoc(file))).toEqual({ ns: { c: { k: { written: true } } } })
      await s.compact()
      expect(readDoc(file).snapshot).toEqual({ ns: { c: { k: { written: true } } } })
      await s.close()
      const again = await open({ file })
      expect(again.col<Rec>('ns', 'c').get('k')).toEqual({ written: true })
    } finally {
      process.env.NODE_ENV = saved
    }
  })
})

describe('Store with a file: property', () => {
  const NS = ['a', 'b']
  const COLS = ['x', 'y']
  const KEYS = ['k1', 'k2', 'k"\n3']

  type Op =
    | { op: 'put'; ns: string; col: string; key: string; value: Rec }
    | { op: 'delete'; ns: string; col: string; key: string }
    | { op: 'reset'; ns: string; keep: string[] }
    | { op: 'sync' }
    | { op: 'compact' }
    | { op: 'compactLater' }
    | { op: 'yield' }

  const opArb: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        op: fc.constant('put' as const),
        ns: fc.constantFrom(...NS),
        col: fc.constantFrom(...COLS),
        key: fc.constantFrom(...KEYS),
        value: fc.record({ n: fc.integer(), s: fc.string({ unit: 'binary', maxLength: 12 }), f: fc.boolean() }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        op: fc.constant('delete' as const),
        ns: fc.constantFrom(...NS),
        col: fc.constantFrom(...COLS),
        key: fc.constantFrom(...KEYS),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ op: fc.constant('reset' as const), ns: fc.constantFrom(...NS), keep: fc.subarray(COLS) }),
    },
    { weight: 2, arbitrary: fc.constant({ op: 'sync' as const }) },
    { weight: 1, arbitrary: fc.constant({ op: 'compact' as const }) },
    // a compaction not awaited, and a turn of the event loop: later changes land while a write is in flight
    { weight: 1, arbitrary: fc.constant({ op: 'compactLater' as const }) },
    { weight: 2, arbitrary: fc.constant({ op: 'yield' as const }) },
  )

  it('a reopened store equals a Map model after random put/delete/reset', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), fc.boolean(), async (ops, tiny) => {
        const file = tempFile()
        const store = await openStore({ file, compactMinBytes: tiny ? 1 : undefined })
        const model = new Map<string, Map<string, Map<string, Rec>>>()
        const inFlight: Promise<void>[] = []
        const modelCol = (ns: string, col: string) => {
          let cols = model.get(ns)
          if (!cols) model.set(ns, (cols = new Map()))
          let c = cols.get(col)
          if (!c) cols.set(col, (c = new Map()))
          return c
        }
        try {
          for (const o of ops) {
            switch (o.op) {
              case 'put':
                store.col<Rec>(o.ns, o.col).put(o.key, o.value)
                modelCol(o.ns, o.col).set(o.key, o.value)
                break
              case 'delete':
                store.col<Rec>(o.ns, o.col).delete(o.key)
                modelCol(o.ns, o.col).delete(o.key)
                break
              case 'reset':
                store.resetNamespace(o.ns, o.keep)
                for (const name of [...(model.get(o.ns)?.keys() ?? [])]) if (!o.keep.includes(name)) model.get(o.ns)!.delete(name)
                break
              case 'sync':
                await store.sync()
                break
              case 'compact':
                await store.compact()
                break
              case 'compactLater':
                inFlight.push(store.compact())
                break
              case 'yield':
                await new Promise((r) => setImmediate(r))
                break
            }
          }
          await Promise.all(inFlight)
          await store.sync()
          const expected: Model = {}
          for (const [ns, cols] of model) for (const [name, recs] of cols) for (const [k, v] of recs) ((expected[ns] ??= {})[name] ??= {})[k] = v
          // the file itself, read directly, holds every change
          expect(replay(readDoc(file))).toEqual(expected)
        } finally {
          await store.close()
        }
        const again = await openStore({ file })
        try {
          const expected: Model = {}
          for (const [ns, cols] of model) for (const [name, recs] of cols) for (const [k, v] of recs) ((expected[ns] ??= {})[name] ??= {})[k] = v
          expect(dump(again, NS, COLS)).toEqual(expected)
          for (const ns of NS) for (const col of COLS) {
            if (!again.hasNamespace(ns)) continue
            expect(again.col<Rec>(ns, col).size).toBe(model.get(ns)?.get(col)?.size ?? 0)
          }
        } finally {
          await again.close()
        }
      }),
      { numRuns: 150 },
    )
  })
})

describe('the collections a store holds', () => {
  it('hands out only a collection declared to it', async () => {
    const s = await Store.open({ ...STORE_LIMITS, collections: [{ name: 'declared' }] })
    opened.push(s)
    s.col<Rec>('ns', 'declared').put('k', { v: 1 })
    expect(() => s.col('ns', 'undeclared')).toThrow('no collection "undeclared" was declared to the store')
    // and the refused look-up left no namespace behind
    expect(() => s.col('other', 'undeclared')).toThrow()
    expect(s.hasNamespace('other')).toBe(false)
  })

  it.each([
    ['in the snapshot', '{"paysandbox":1,"snapshot":{"ns":{"gone":{"k":{}}}},"deltas":[]}', 'collection "gone", key ""'],
    ['in a change', '{"paysandbox":1,"snapshot":{},"deltas":[\n{"n":"ns","c":"gone","k":"k","v":{}}]}', 'collection "gone", key "k"'],
    ['in a deletion', '{"paysandbox":1,"snapshot":{},"deltas":[\n{"n":"ns","c":"gone","k":"k","d":1}]}', 'collection "gone", key "k"'],
  ])('refuses a file holding a collection no module declares (%s), naming it', async (_where, content, named) => {
    const file = tempFile()
    writeFileSync(file, content)
    const err = await Store.open({ ...STORE_LIMITS, file, collections: [{ name: 'declared' }] }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(DataFileError)
    expect((err as Error).message).toContain(`invalid record in namespace "ns", ${named}: no such collection is kept`)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { joinCollections, type CollectionSpec, type VariantSpec } from '../src/store/collection.js'
import type { Store } from '../src/store/store.js'
import { STRING } from '../src/store/validate.js'
import { openStore } from './helpers/sandbox.js'

/**
 * What a module declares of its variant of a collection another owns (src/store/collection.ts,
 * docs/architecture.md "A collection is declared by the module that owns it"): the indexes it finds
 * its records by and what its records give a fact of the order, as a kind's area declares a bank
 * transfer's account number and a pre-authorization's status in the pay-ins list.
 */

interface Rec {
  key: string
  kind: string
  at: number
  status: string
  account?: { number: string }
  hold?: string
}

const OWNER: CollectionSpec<Rec> = { name: 'c', keyOf: 'key', indexes: { key: (r) => r.key }, order: { by: (r) => r.at, facts: { status: (r) => r.status } } }
const TRANSFER: VariantSpec = { name: 'c', variant: { by: 'kind', value: 'transfer', fields: { kind: STRING }, indexes: { account: (r: Rec) => r.account?.number } } }
const HOLD: VariantSpec = { name: 'c', variant: { by: 'kind', value: 'hold', fields: { kind: STRING }, facts: { status: (r: Rec) => r.hold ?? r.status } } }
const PLAIN: VariantSpec = { name: 'c', variant: { by: 'kind', value: 'plain', fields: { kind: STRING } } }

const opened: Store[] = []
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close()
})

describe("a variant's own indexes and facts", () => {
  it('finds a record by its variant\'s index, and reads a fact by its variant\'s reading', async () => {
    const store = await openStore({ collections: joinCollections([OWNER, TRANSFER, HOLD, PLAIN]) })
    opened.push(store)
    const col = store.col<Rec>('ns', 'c')
    col.put('t', { key: 't', kind: 'transfer', at: 1, status: 'processing', account: { number: '0123456789' } })
    col.put('h', { key: 'h', kind: 'hold', at: 2, status: 'success', hold: 'pre_authorized' })
    col.put('p', { key: 'p', kind: 'plain', at: 3, status: 'success', hold: 'not mine' })
    expect(col.findBy('account', '0123456789')?.key).toBe('t')
    expect(col.findBy('account', 'nothing')).toBeUndefined()
    const order = col.ordered!
    expect(Array.from({ length: order.size }, (_, i) => [order.keyAt(i), order.factsAt(i).status])).toEqual([
      ['t', 'processing'],
      ['h', 'pre_authorized'],
      ['p', 'success'],
    ])
  })

  it('refuses an index declared twice and a fact the order does not keep', () => {
    const again: VariantSpec = { name: 'c', variant: { by: 'kind', value: 'again', fields: {}, indexes: { key: (r: Rec) => r.key } } }
    expect(() => joinCollections([OWNER, again])).toThrow('index key is declared twice')
    const unkept: VariantSpec = { name: 'c', variant: { by: 'kind', value: 'unkept', fields: {}, facts: { currency: () => 'NGN' } } }
    expect(() => joinCollections([OWNER, unkept])).toThrow('reads a fact currency its order does not keep')
  })
})

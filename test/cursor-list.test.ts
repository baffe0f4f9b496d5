import { describe, expect, it } from 'vitest'
import { listQuerySchema, listTime, orderedPage, type OrderedItems } from '../src/http/cursor-list.js'
import { keptInOrder } from './helpers/ordered.js'

// items as kept, oldest first: p1 (the 1st of the month) ... p9; the list reads them newest first
const kept = Array.from({ length: 9 }, (_, i) => ({ id: `p${i + 1}`, at: Date.parse(`2026-11-0${i + 1}T12:00:00Z`) }))
const items: OrderedItems<{ id: string; at: number }> = keptInOrder(kept, (x) => x.id)
const page = (query: Record<string, string>, matches: (x: { id: string }) => boolean = () => true) => {
  const q = listQuerySchema.safeParse(query)
  if (!q.success) throw new Error(JSON.stringify(q.error.issues.map((i) => [i.path.join('.'), i.message])))
  const p = orderedPage(items, q.data, matches)
  return { has_more: p.has_more, ids: p.items.map((x) => x.id) }
}

describe('cursor lists (docs/behaviour.md#lists)', () => {
  it('pages newest first by starting_after and back by ending_before (or starting_before)', () => {
    expect(page({ limit: '4' })).toEqual({ has_more: true, ids: ['p9', 'p8', 'p7', 'p6'] })
    expect(page({ limit: '4', starting_after: 'p6' })).toEqual({ has_more: true, ids: ['p5', 'p4', 'p3', 'p2'] })
    expect(page({ limit: '4', starting_after: 'p2' })).toEqual({ has_more: false, ids: ['p1'] })
    expect(page({ limit: '4', starting_after: 'p1' })).toEqual({ has_more: false, ids: [] })
    expect(page({ limit: '4', ending_before: 'p2' })).toEqual({ has_more: true, ids: ['p6', 'p5', 'p4', 'p3'] })
    expect(page({ limit: '4', starting_before: 'p6' })).toEqual({ has_more: false, ids: ['p9', 'p8', 'p7'] })
    expect(page({ limit: '4', ending_before: 'p9' })).toEqual({ has_more: false, ids: [] })
    expect(page({})).toEqual({ has_more: false, ids: kept.map((x) => x.id).reverse() })
    expect(page({ limit: '9' }).has_more).toBe(false)
    expect(page({ limit: '8' }).has_more).toBe(true)
  })

  it('filters by date: a day alone in date_to means all of that day', () => {
    expect(page({ date_from: '2026-11-03', date_to: '2026-11-05' }).ids).toEqual(['p5', 'p4', 'p3'])
    expect(page({ date_from: '2026-11-03-12-00-01', date_to: '2026-11-05-11-59-59' }).ids).toEqual(['p4'])
    expect(page({ date_from: '2026-11-03', date_to: '2026-11-05', limit: '2', starting_after: 'p4' })).toEqual({ has_more: false, ids: ['p3'] })
  })

  it("takes only the items the list's filter matches, the cursor's item among them", () => {
    const odd = (x: { id: string }) => Number(x.id.slice(1)) % 2 === 1
    expect(page({ limit: '2' }, odd)).toEqual({ has_more: true, ids: ['p9', 'p7'] })
    expect(page({ limit: '2', starting_after: 'p7' }, odd)).toEqual({ has_more: true, ids: ['p5', 'p3'] })
    expect(page({ limit: '2', ending_before: 'p3' }, odd)).toEqual({ has_more: true, ids: ['p7', 'p5'] })
    expect(page({ limit: '2', ending_before: 'p5' }, odd)).toEqual({ has_more: false, ids: ['p9', 'p7'] })
    expect(() => page({ starting_after: 'p4' }, odd)).toThrow('Invalid request data')
  })

  it('refuses what it cannot read, field by field', () => {
    const errors = (query: Record<string, string>) => {
      const r = listQuerySchema.safeParse(query)
      return r.success ? null : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]))
    }
    expect(errors({ limit: '0' })).toEqual({ limit: 'must be from 1 to 100' })
    expect(errors({ limit: '101' })).toEqual({ limit: 'must be from 1 to 100' })
    expect(errors({ limit: 'ten' })).toEqual({ limit: 'must be a whole number' })
    expect(errors({ date_from: '2026-02-30' })).toEqual({ date_from: 'must be a real date' })
    expect(errors({ date_to: '24/11/2026' })).toEqual({ date_to: 'must be a date as YYYY-MM-DD-HH-MM-SS' })
    expect(errors({ date_from: '2026-11-05', date_to: '2026-11-04' })).toEqual({ date_to: 'must not be before date_from' })
    expect(errors({ starting_after: 'p1', ending_before: 'p2' })).toEqual({ starting_after: 'cannot be used with ending_before' })
    expect(errors({ currency: 'ngn' })).toEqual({ currency: 'must be a currency code such as NGN' })
    expect(() => page({ starting_after: 'nope' })).toThrow('Invalid request data')
  })

  it('writes times as YYYY-MM-DD HH:MM:SS', () => {
    expect(listTime('2026-11-24T20:45:15.123Z')).toBe('2026-11-24 20:45:15')
    expect(listTime(null)).toBeNull()
  })
})

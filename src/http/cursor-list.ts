import { invalid } from '../errors.js'
import type { Collection } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import type { Facts } from '../store/order.js'
import { z } from '../zod-messages.js'
import { isoAt } from '../time.js'

/**
 * The lists of pay-ins, payouts, transactions, balance history and refunds (docs/behaviour.md#lists): newest
 * first, filtered by currency and date, a page of `limit` items (10 unless asked, at most 100)
 * found by cursor: `starting_after=<pointer>` the items after that one (older),
 * `ending_before=<pointer>` (or the misspelt `starting_before` some clients send) the items before
 * it (newer). Each list answers `{has_more, <name>: [...]}`.
 */

export const LIST_LIMIT = { default: 10, max: 100 } as const

/** `YYYY-MM-DD-HH-MM-SS` (a day alone, `YYYY-MM-DD`, is also taken), as a time in UTC */
const listDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(-\d{2}-\d{2}-\d{2})?$/, { message: 'must be a date as YYYY-MM-DD-HH-MM-SS', abort: true })
  .refine((s) => !Number.isNaN(parseListDate(s)), 'must be a real date')

function parseListDate(s: string): number {
  const [y, mo, d, h = '00', mi = '00', se = '00'] = s.split('-')
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${se}Z`
  const ms = Date.parse(iso)
  // Date.parse rolls 2026-02-30 over to March: a date that does not round-trip is not real
  return Number.isNaN(ms) || isoAt(ms).slice(0, 19) !== iso.slice(0, 19) ? Number.NaN : ms
}

/** a balance-history pointer holds a reference of up to 100 characters and what frames it */
const pointer = z.string().min(1).max(200)

/** The query every list takes; a list adds its own filters with `.extend()`. */
export const listQuerySchema = z
  .object({
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be a currency code such as NGN').optional(),
    date_from: listDate.optional(),
    date_to: listDate.optional(),
    limit: z
      .string()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .refine((n) => n >= 1 && n <= LIST_LIMIT.max, `must be from 1 to ${LIST_LIMIT.max}`)
      .optional(),
    starting_after: pointer.optional(),
    ending_before: pointer.optional(),
    starting_before: pointer.optional(),
  })
  .passthrough()
  .superRefine((q, ctx) => {
    if (q.starting_after && (q.ending_before || q.starting_before)) {
      ctx.addIssue({ code: 'custom', path: ['starting_after'], message: 'cannot be used with ending_before' })
    }
    if (q.date_from && q.date_to && parseListDate(q.date_to) < parseListDate(q.date_from)) {
      ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'must not be before date_from' })
    }
  })
export type ListQuery = z.infer<typeof listQuerySchema>

/**
 * A list's items as they are kept in order, oldest first (a collection's declared order,
 * src/store/order.ts, or the balance history's rows): how many, the date (ms) of the `i`th, the
 * facts its filters read and the item itself, and the position of the item a pointer names.
 */
export interface OrderedItems<T, F = T> {
  readonly size: number
  dateAt(i: number): number
  factsAt(i: number): F
  itemAt(i: number): T
  positionOf(pointer: string): number | undefined
}

/**
 * A collection's records in its declared order: the pointer is a record's key, the date its
 * order's first, the facts those the order keeps. `show` makes each item a list reads of its
 * record (only the page's items are read).
 */
export function recordsInOrder<T extends object>(col: Collection<T>): OrderedItems<Frozen<T>, Facts>
export function recordsInOrder<T extends object, I>(col: Collection<T>, show: (record: Frozen<T>) => I): OrderedItems<I, Facts>
export function recordsInOrder<T extends object, I>(col: Collection<T>, show?: (record: Frozen<T>) => I): OrderedItems<I | Frozen<T>, Facts> {
  const order = col.ordered
  if (!order) throw new Error(`the collection ${col.name} declares no order`)
  return {
    get size() {
      return order.size
    },
    dateAt: (i) => order.dateAt(i),
    factsAt: (i) => order.factsAt(i),
    itemAt: (i) => {
      const record = col.get(order.keyAt(i))!
      return show ? show(record) : record
    },
    positionOf: (pointer) => order.position(pointer),
  }
}

/** One of the lists `byDate` merges: its name, which its items' pointers carry in the merge, and its items. */
export interface Named<T, F> {
  name: string
  items: OrderedItems<T, F>
}

/**
 * The items of two lists as one, in date order; at the same date `a`'s come first (so a list,
 * newest first, shows `b`'s first). The transactions list reads the pay-ins and the payouts so
 * (docs/behaviour.md#transactions-list). An item's pointer in the merge is `<its list's name>:<its pointer
 * there>`: the two lists' pointers may be the same text (a payout's reference chosen as a pay-in's
 * transaction reference), the merge's never are, and a pointer is looked up in the list it names
 * only. Nothing is copied: where a position stands is how many of the
 * positions before it are `a`'s (its split), found by a binary search, or by one step from the
 * split found last when a page walks to the next position. So a page costs about its size, never
 * the lists' length, and a filter passes over each item in one step.
 */
export function byDate<T extends { pointer: string }, F>(named: Named<T, F>, other: Named<T, F>): OrderedItems<T, F> {
  if (named.name === other.name) throw new Error(`two lists merged under one name, ${named.name}`)
  const a = named.items
  const b = other.items
  /** whether `a`'s item i comes before `b`'s item j */
  const aFirst = (i: number, j: number) => a.dateAt(i) <= b.dateAt(j)
  /** whether the item at the position whose split is (i, j) is `a`'s */
  const isA = (i: number, j: number) => i < a.size && (j === b.size || aFirst(i, j))
  const search = (k: number) => {
    let lo = Math.max(0, k - b.size)
    let hi = Math.min(k, a.size)
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (aFirst(mid, k - mid - 1)) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  let known = { k: 0, i: 0 }
  /** how many of the first k positions are `a`'s */
  const split = (k: number): number => {
    const { k: was, i } = known
    let found: number
    if (k === was) found = i
    // past the item at `was`, or back over the item at `was - 1` (the later of a[i - 1] and b[j - 1])
    else if (k === was + 1) found = isA(i, was - i) ? i + 1 : i
    else if (k === was - 1) found = i > 0 && (was - i === 0 || !aFirst(i - 1, was - i - 1)) ? i - 1 : i
    else found = search(k)
    known = { k, i: found }
    return found
  }
  /** the list holding position k, and the item's position in it */
  const at = (k: number): [OrderedItems<T, F>, number] => {
    const i = split(k)
    return isA(i, k - i) ? [a, i] : [b, k - i]
  }
  return {
    get size() {
      return a.size + b.size
    },
    dateAt: (k) => {
      const [list, i] = at(k)
      return list.dateAt(i)
    },
    factsAt: (k) => {
      const [list, i] = at(k)
      return list.factsAt(i)
    },
    itemAt: (k) => {
      const [list, i] = at(k)
      const item = list.itemAt(i)
      return { ...item, pointer: `${list === a ? named.name : other.name}:${item.pointer}` }
    },
    positionOf: (pointer) => {
      const colon = pointer.indexOf(':')
      const name = pointer.slice(0, colon)
      const own = pointer.slice(colon + 1)
      if (colon < 0) return undefined
      if (name === named.name) {
        const i = a.positionOf(own)
        return i === undefined ? undefined : i + firstWhere(b, (date) => date >= a.dateAt(i))
      }
      if (name !== other.name) return undefined
      const j = b.positionOf(own)
      return j === undefined ? undefined : j + firstWhere(a, (date) => date > b.dateAt(j))
    },
  }
}

/** The records of `items`, newest first (the dashboard's panels read them so). */
export function* newestFirst<T, F>(items: OrderedItems<T, F>): Generator<T> {
  for (let i = items.size - 1; i >= 0; i--) yield items.itemAt(i)
}

/** The first position in [0, size) whose date passes `ok` (dates ascending), `size` when none does. */
function firstWhere<T, F>(items: OrderedItems<T, F>, ok: (date: number) => boolean): number {
  let lo = 0
  let hi = items.size
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (ok(items.dateAt(mid))) hi = mid
    else lo = mid + 1
  }
  return lo
}

/**
 * A list's filter by its query (docs/behaviour.md#lists): each of `fields` the query gives must equal
 * the item's fact of the same name (`?status=success&currency=NGN`); a field not given passes all.
 */
export function byQuery<Q extends object>(q: Q, ...fields: (keyof Q & string)[]): (facts: Readonly<Record<string, unknown>>) => boolean {
  const given = fields.filter((k) => q[k])
  return (f) => given.every((k) => f[k] === q[k])
}

/**
 * One page of a list, newest first: the items whose facts `matches` takes (the list's own
 * filters) within the date range (`date_to` a day alone means the whole of that day), then the
 * cursor and the limit. `has_more` says whether items lie beyond the page in the direction it was
 * read. The date range and the cursor are found by position (a binary search, a Map lookup); from
 * there the facts are read one by one until the page and one more match, and only those items
 * are read: a page costs its size, plus one look at the facts of each item a filter passes over
 * (docs/behaviour.md#lists).
 */
export function orderedPage<T, F>(items: OrderedItems<T, F>, q: ListQuery, matches: (facts: F) => boolean): { has_more: boolean; items: T[] } {
  const from = q.date_from ? parseListDate(q.date_from) : -Infinity
  const to = q.date_to ? parseListDate(q.date_to) + (q.date_to.length === 10 ? 86_399_999 : 999) : Infinity
  const lo = firstWhere(items, (at) => at >= from)
  const hi = firstWhere(items, (at) => at > to)
  const limit = q.limit ?? LIST_LIMIT.default
  const before = q.ending_before ?? q.starting_before
  const cursor = q.starting_after ?? before
  const found: number[] = []
  const take = (i: number) => {
    if (matches(items.factsAt(i))) found.push(i)
  }
  const read = (at: number[]) => at.map((i) => items.itemAt(i))
  let newest = hi - 1
  if (cursor !== undefined) {
    const at = items.positionOf(cursor)
    if (at === undefined || at < lo || at >= hi || !matches(items.factsAt(at))) {
      throw invalid({ [q.starting_after ? 'starting_after' : before === q.ending_before ? 'ending_before' : 'starting_before']: 'is not the pointer of an item of this list' })
    }
    if (!q.starting_after) {
      // the newer items nearest the cursor
      for (let i = at + 1; i < hi && found.length <= limit; i++) take(i)
      return { has_more: found.length > limit, items: read(found.slice(0, limit).reverse()) }
    }
    newest = at - 1
  }
  for (let i = newest; i >= lo && found.length <= limit; i--) take(i)
  return { has_more: found.length > limit, items: read(found.slice(0, limit)) }
}

/** A time as the lists write it: `YYYY-MM-DD HH:MM:SS` (UTC). */
export function listTime(iso: string | null | undefined): string | null {
  return iso ? iso.slice(0, 19).replace('T', ' ') : null
}

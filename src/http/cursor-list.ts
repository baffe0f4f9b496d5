import { invalid } from '../errors.js'
import { z } from './zod-messages.js'

/**
 * The lists of pay-ins, payouts, balance history and refunds (docs/behaviour.md 13.6): newest
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
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== iso.slice(0, 19) ? Number.NaN : ms
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

/** How a list reads its items: the cursor of one, and its date (ms). */
export interface ListItems<T> {
  pointerOf(item: T): string
  dateOf(item: T): number
}

/**
 * One page of `items` (newest first, already filtered by the list's own fields): the date range
 * (`date_to` a day alone means the whole of that day), then the cursor and the limit. `has_more`
 * says whether items lie beyond the page in the direction it was read.
 */
export function listPage<T>(items: readonly T[], q: ListQuery, read: ListItems<T>): { has_more: boolean; items: T[] } {
  const from = q.date_from ? parseListDate(q.date_from) : -Infinity
  const to = q.date_to ? parseListDate(q.date_to) + (q.date_to.length === 10 ? 86_399_999 : 999) : Infinity
  const dated = items.filter((item) => {
    const at = read.dateOf(item)
    return at >= from && at <= to
  })
  const limit = q.limit ?? LIST_LIMIT.default
  const before = q.ending_before ?? q.starting_before
  const cursor = q.starting_after ?? before
  if (cursor === undefined) return { has_more: dated.length > limit, items: dated.slice(0, limit) }
  const at = dated.findIndex((item) => read.pointerOf(item) === cursor)
  if (at < 0) throw invalid({ [q.starting_after ? 'starting_after' : before === q.ending_before ? 'ending_before' : 'starting_before']: 'is not the pointer of an item of this list' })
  if (q.starting_after) return { has_more: dated.length > at + 1 + limit, items: dated.slice(at + 1, at + 1 + limit) }
  const start = Math.max(0, at - limit)
  return { has_more: start > 0, items: dated.slice(start, at) }
}

/**
 * Records newest first, as every list reads them: by `created_at`, the last written first among
 * those of the same time (each date parsed once).
 */
export function newestFirst<T extends { created_at: string }>(records: Iterable<T>): T[] {
  return [...records]
    .map((r, i) => ({ r, i, at: Date.parse(r.created_at) }))
    .sort((a, b) => b.at - a.at || b.i - a.i)
    .map((x) => x.r)
}

/** A time as the lists write it: `YYYY-MM-DD HH:MM:SS` (UTC). */
export function listTime(iso: string | null | undefined): string | null {
  return iso ? iso.slice(0, 19).replace('T', ' ') : null
}

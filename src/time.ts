/**
 * How the sandbox writes a moment: ISO 8601 in UTC with milliseconds, as `Date.prototype.toISOString`
 * writes it (`2026-11-26T05:51:17.042Z`), the one spelling of every time in a record, an answer and
 * an event.
 *
 * Written out here for the years 0000-9999, because `toISOString` takes 3-4 times as long
 * (1.0-1.4 µs a call on this VM against 0.25-0.3 µs: `node bench/iso.mjs`) and a card charge writes
 * several; any other moment (and an invalid one, which throws a RangeError) is left to
 * `toISOString` itself. `test/time.test.ts` holds the two to the same text over Date's whole range.
 */

const DAY_MS = 86_400_000
/** 10000-01-01T00:00:00.000Z: the first moment `toISOString` writes with a sign and six digits */
const YEAR_10000_MS = 253_402_300_800_000

const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'))
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'))

/** `ms` since the epoch, written as `toISOString` writes it. */
export function isoAt(ms: number): string {
  // a fraction of a millisecond is dropped by Date itself, as is anything out of this range
  if (!(ms >= 0 && ms < YEAR_10000_MS && ms % 1 === 0)) return new Date(ms).toISOString()
  const days = Math.floor(ms / DAY_MS)
  let rest = ms - days * DAY_MS
  // the civil date of a day count (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms"):
  // eras of 400 years, years starting on 1 March so that a leap day is a year's last
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  const hours = Math.floor(rest / 3_600_000)
  rest -= hours * 3_600_000
  const minutes = Math.floor(rest / 60_000)
  rest -= minutes * 60_000
  const seconds = Math.floor(rest / 1000)
  const millis = rest - seconds * 1000
  return `${TWO[Math.floor(year / 100)]}${TWO[year % 100]}-${TWO[month]}-${TWO[day]}T${TWO[hours]}:${TWO[minutes]}:${TWO[seconds]}.${THREE[millis]}Z`
}

/** Whether `YYYY-MM-DD` names a day of the calendar (Date.parse rolls 2026-02-30 over to March: such a day does not come back). */
export function realDay(d: string): boolean {
  const ms = Date.parse(`${d}T00:00:00Z`)
  return !Number.isNaN(ms) && isoAt(ms).startsWith(d)
}

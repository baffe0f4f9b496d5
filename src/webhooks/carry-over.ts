import type { Snapshot, CarryOver } from '../store/persistence.js'

/**
 * A data file of format 3 carried over to format 4 (docs/behaviour.md#persistence): builds before the
 * event counter was kept in memory stored it in each namespace's `meta` as `event_seq` (`{n}`),
 * and files carried over since still hold that record. The counter goes on from the newest event
 * (`Events`); so the record goes, and the newest event takes the counter as its sequence number
 * when it is behind it (the number only orders a namespace's events, and it stays the newest).
 * With no event left there is nothing to order after, and the record just goes.
 *
 * The collection names and the key below are format 3's, fixed: they are what old files hold.
 */
export const EVENT_SEQ_CARRY_OVER: CarryOver = {
  to: 4,
  apply(state: Snapshot): void {
    for (const cols of Object.values(state)) {
      if (!cols.meta || !('event_seq' in cols.meta)) continue
      const counter = (cols.meta.event_seq as { n?: unknown }).n
      delete cols.meta.event_seq
      const events = Object.values(cols.events ?? {}) as { seq: number }[]
      const newest = events[events.length - 1]
      if (newest && typeof counter === 'number' && newest.seq < counter) newest.seq = counter
    }
  },
}

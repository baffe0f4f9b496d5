import { KEY_SHAPE } from '../config-options.js'
import type { CollectionSpec } from './collection.js'
import type { Snapshot, CarryOver } from './persistence.js'
import { FORMAT } from './recovery.js'
import { isObject, recordIssue } from './validate.js'

/**
 * A snapshot of one namespace (docs/behaviour.md#snapshots): the namespace whole as one JSON document,
 * which `GET /_sandbox/snapshot` gives and `POST /_sandbox/snapshot`, `--load` and
 * `startSandbox({ load })` take back. Its records are checked as a data file's are on open
 * (validate.ts, with the collection specs the store holds) and carried over from an older format
 * by the same `CarryOver`s; what is wrong is named field by field, by its path in the document.
 */
export interface NamespaceSnapshot {
  /** the format of its records: the data file's (recovery.ts) */
  paysandbox: number
  /** the namespace's secret key */
  key: string
  /** what the namespace clock read when it was taken, and whether it stood still */
  clock: { now: string; frozen: boolean }
  /** collection -> key -> record, every collection that holds a record, by name */
  records: Record<string, Record<string, unknown>>
}

/** What is wrong with a snapshot: a path in the document (`records.charges.<key>.amount`) -> what. */
export type SnapshotIssues = Record<string, string>

export class SnapshotError extends Error {
  constructor(
    readonly issues: SnapshotIssues,
    /** where the snapshot came from, for the message (a file) */
    readonly source?: string,
  ) {
    super(`${source ? `cannot load the snapshot ${source}` : 'invalid snapshot'}: ${Object.entries(issues).map(([path, what]) => `${path}: ${what}`).join('; ')}`)
    this.name = 'SnapshotError'
  }
}

/** The most issues named: a document wrong everywhere is refused with the first of them. */
const MAX_ISSUES = 20
const FIELDS = ['paysandbox', 'key', 'clock', 'records']
/** the fields of the answer envelope GET /_sandbox/snapshot wraps the document in */
const ENVELOPE = ['status', 'message', 'data']
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/

/** How many records are checked (or put aside) between two turns of the event loop, when a snapshot is read in steps. */
export const STEP_RECORDS = 100

/**
 * The snapshot `raw` stands for, its records carried over to the current format, or throws
 * SnapshotError naming each bad field. `collections` are the store's (no other may be held).
 */
export function readSnapshot(raw: unknown, collections: readonly CollectionSpec[], carryOvers: readonly CarryOver[], source?: string): NamespaceSnapshot {
  const steps = snapshotSteps(raw, collections, carryOvers, source)
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value
}

/**
 * `readSnapshot` in steps, the event loop free between them (every STEP_RECORDS records checked):
 * a 16 MiB snapshot sent to `POST /_sandbox/snapshot` stops no other call while it is read.
 */
export async function readSnapshotInSteps(raw: unknown, collections: readonly CollectionSpec[], carryOvers: readonly CarryOver[]): Promise<NamespaceSnapshot> {
  const steps = snapshotSteps(raw, collections, carryOvers)
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value
    await nextTurn()
  }
}

/** Resolves on a later turn of the event loop, once what waits on I/O has run. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * The document itself: the whole answer of `GET /_sandbox/snapshot` as a client saved it (the
 * envelope, `{status, message, data}`, with no snapshot field of its own) is read as its `data`
 * (docs/behaviour.md#snapshots).
 */
function document(raw: Record<string, unknown>): Record<string, unknown> {
  const fields = Object.keys(raw)
  const wrapped = fields.includes('data') && fields.every((f) => ENVELOPE.includes(f)) && isObject(raw.data)
  return wrapped ? (raw.data as Record<string, unknown>) : raw
}

/** Reads a snapshot (`readSnapshot`), yielding between every STEP_RECORDS records checked. */
function* snapshotSteps(raw: unknown, collections: readonly CollectionSpec[], carryOvers: readonly CarryOver[], source?: string): Generator<void, NamespaceSnapshot> {
  const issues: SnapshotIssues = {}
  const note = (path: string, what: string) => {
    if (Object.keys(issues).length < MAX_ISSUES && !(path in issues)) issues[path] = what
  }
  const fail = () => new SnapshotError(issues, source)
  if (!isObject(raw)) {
    note('snapshot', 'must be a JSON object')
    throw fail()
  }
  const doc = document(raw as Record<string, unknown>)
  for (const field of Object.keys(doc)) if (!FIELDS.includes(field)) note(field, 'is not allowed')
  const format = doc.paysandbox
  if (!Number.isInteger(format) || (format as number) < 1) note('paysandbox', `must be the snapshot's format, a whole number (this version writes ${FORMAT})`)
  else if ((format as number) > FORMAT) note('paysandbox', `was written by a newer paysandbox (format ${format}); this one reads up to ${FORMAT}`)
  const key = doc.key
  if (typeof key !== 'string') note('key', 'must be a test secret key (sk_test_...)')
  else if (key.startsWith('sk_live_')) note('key', 'live keys are never accepted by the sandbox')
  else if (!KEY_SHAPE.test(key)) note('key', 'must be a test secret key (sk_test_ and 1-200 letters, digits, _ or -)')
  const clock = doc.clock
  if (!isObject(clock)) note('clock', 'must be an object: { "now": an ISO 8601 time, "frozen": true or false }')
  else {
    const { now, frozen } = clock as Record<string, unknown>
    for (const field of Object.keys(clock as object)) if (field !== 'now' && field !== 'frozen') note(`clock.${field}`, 'is not allowed')
    if (typeof now !== 'string' || !ISO_TIME.test(now) || !Number.isFinite(Date.parse(now))) note('clock.now', 'must be an ISO 8601 time with its zone, such as 2026-01-01T00:00:00.000Z')
    if (typeof frozen !== 'boolean') note('clock.frozen', 'must be true or false')
  }
  const records = doc.records
  if (!isObject(records)) note('records', 'must be an object: collection -> key -> record')
  if (Object.keys(issues).length) throw fail()

  // carried over as a data file of its format is (Store.carryOver), once every record is an object
  const specs = new Map(collections.map((s) => [s.name, s]))
  const held = records as Record<string, unknown>
  let seen = 0
  for (const [name, recs] of Object.entries(held)) {
    if (!specs.has(name)) note(`records.${name}`, 'no such collection is kept')
    else if (!isObject(recs)) note(`records.${name}`, 'must be an object: key -> record')
    else
      for (const k in recs as object) {
        if (++seen % (STEP_RECORDS * 10) === 0) yield
        if (!isObject((recs as Record<string, unknown>)[k])) note(`records.${name}.${k}`, 'must be an object')
      }
  }
  if (Object.keys(issues).length) throw fail()
  const state: Snapshot = { [key as string]: held as Snapshot[string] }
  for (const u of [...carryOvers].sort((a, b) => a.to - b.to)) if (u.to > (format as number)) u.apply(state)
  const carried = state[key as string]

  let checked = 0
  for (const [name, recs] of Object.entries(carried)) {
    const rules = specs.get(name)
    for (const [k, record] of Object.entries(recs)) {
      if (++checked % STEP_RECORDS === 0) yield
      const issue = recordIssue(rules, k, record)
      if (issue) note(`records.${name}.${k}${issue.field === undefined ? '' : `.${issue.field}`}`, issue.problem)
    }
  }
  if (Object.keys(issues).length) throw fail()
  return { paysandbox: FORMAT, key: key as string, clock: clock as NamespaceSnapshot['clock'], records: carried }
}

/** How many records a snapshot holds in each collection but the namespace's own (`meta`: its merchant, clock and stream), by name. */
export function recordCounts(snap: NamespaceSnapshot): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const [name, recs] of Object.entries(snap.records)) if (name !== 'meta') counts[name] = Object.keys(recs).length
  return counts
}

/** What a loaded snapshot put, in words: `sk_test_x: 7 records (charges 2, events 4, ledger 1)`. */
export function describeLoaded(key: string, records: Record<string, number>): string {
  const held = Object.entries(records).filter(([, n]) => n > 0)
  const total = held.reduce((sum, [, n]) => sum + n, 0)
  if (!total) return `${key}: no records`
  return `${key}: ${total} record${total === 1 ? '' : 's'} (${held.map(([name, n]) => `${name} ${n}`).join(', ')})`
}

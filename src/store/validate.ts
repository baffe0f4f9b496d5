import { INTAKE_LIMIT } from '../money.js'
import type { Delta, Snapshot } from './persistence.js'

/**
 * The light schema every record of the data file is checked against on open (docs/behaviour.md#persistence): a record is an object, and the fields the sandbox reads without looking first have their
 * type. A file that breaks it is refused at start, naming the first bad record, instead of being
 * loaded and then answering 500 (or crashing) when that record is read. The module that owns a
 * collection declares its fields in the collection's spec (collection.ts); fields the code tests
 * before use, and collections without rules, are only required to be objects. A collection no
 * module declares is refused: the store could not hand it out.
 */

/** A field's test and what it must be; `inner`: the fields it holds (an object), or each of its items holds (a list). */
export type Check = [test: (v: unknown) => boolean, what: string, inner?: RecordFields]

export const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)
export const STRING: Check = [(v) => typeof v === 'string', 'a string']
export const NUMBER: Check = [(v) => typeof v === 'number' && Number.isFinite(v), 'a finite number']
export const OBJECT: Check = [isObject, 'an object']
export const ARRAY: Check = [Array.isArray, 'an array']
export const STRINGS: Check = [(v) => Array.isArray(v) && v.every((s) => typeof s === 'string'), 'a list of strings']
/** an ISO 8601 time, as the records stamp them */
export const TIME: Check = [(v) => typeof v === 'string' && Number.isFinite(Date.parse(v)), 'an ISO 8601 time']
/** a URL the sandbox sends a browser to (a charge's `redirect_url`) */
export const URL_TEXT: Check = [(v) => typeof v === 'string' && URL.canParse(v), 'a URL']
/** a time in milliseconds since 1970, within what a date can hold */
export const EPOCH_MS: Check = [(v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 8.64e15, 'a time in milliseconds since 1970']
/** one of these names */
export const oneOf = (names: readonly string[]): Check => [(v) => typeof v === 'string' && names.includes(v), `one of ${names.join(', ')}`]
/** an amount of money: a whole number of minor units, none to the most a namespace takes in (money.ts) */
export const MINOR: Check = [(v) => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= INTAKE_LIMIT, `a whole number of minor units, 0 to ${INTAKE_LIMIT}`]
/**
 * A check whose description is read when a refusal names it, not when the check is made: a check
 * whose names grow as the areas load (the checkout's channels, declared by their areas) says them all.
 */
export function described(test: Check[0], describe: () => string, inner?: Check[2]): Check {
  const check: Check = [test, '', inner]
  Object.defineProperty(check, 1, { get: describe })
  return check
}
/** a list whose every item passes this check */
export const each = (check: Check): Check => described((v) => Array.isArray(v) && v.every(check[0]), () => `a list, each item ${check[1]}`)
/** absent or null, or else of this type (and its fields checked) */
export const maybe = (check: Check): Check => described((v) => v === undefined || v === null || check[0](v), () => `${check[1]} or null`, check[2])
/** an object holding these fields: a missing or wrong one is named by its path, `card.last_four` */
export const shape = (fields: RecordFields): Check => [isObject, 'an object', fields]
/** a list of objects, each holding these fields: named by its path, `attempts.0.status` */
export const listOf = (fields: RecordFields): Check => [(v) => Array.isArray(v) && v.every(isObject), 'a list of objects', fields]

/** Whether a JSON value nests at most `max` levels of arrays and objects (no recursion: a value nested 5,000 levels is only walked). */
export function depthAtMost(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length) {
    const [v, d] = stack.pop()!
    if (!v || typeof v !== 'object') continue
    if (d >= max) return false
    for (const child of Object.values(v as object)) if (child && typeof child === 'object') stack.push([child, d + 1])
  }
  return true
}

/**
 * How deep any record may nest, below its own level: past what the API takes (a request's metadata,
 * 10 levels under its key; a pack, 16) with room for the records that carry them (an event's
 * `data`), and short of what a walk of the code over a record (JSON.stringify, a copy, the masks)
 * could not finish.
 */
export const RECORD_DEPTH = 32

/** The fields a record must have, with their types (declared in the collection's spec). */
export type RecordFields = Record<string, Check>

/**
 * The fields a record must have beyond its collection's, by the value of one of its fields: a
 * charge's by its `kind`, declared by the area that serves the kind. A record whose value no
 * variant is declared for is refused (nothing could read it).
 */
export interface Variants {
  by: string
  of: Record<string, RecordFields>
}

/** What the store knows of a collection's records: its fields, or (`keyed`) each key's own. */
export interface RecordRules {
  fields?: RecordFields
  keyed?: Record<string, RecordFields>
  /** the fields its records have beyond `fields`, by the value of one field (a charge's kind) */
  variants?: Variants
  /** a check of the whole record once its fields passed: what is wrong with it, or null */
  check?: (record: Record<string, unknown>) => string | null
  /** what a record's key must be (a ledger entry's names a declared source) */
  key?: Check
  /** the field that holds the record's own key (a refund's `reference`): a record under another key is refused, its code reading it by that field */
  keyOf?: string
}

/** What is wrong with a record, and the field it is wrong in (none: the record as a whole), or null. */
export function recordIssue(rules: RecordRules | undefined, key: string, record: unknown): { field?: string; problem: string } | null {
  if (!isObject(record)) return { problem: 'must be an object' }
  if (rules?.key && !rules.key[0](key)) return { problem: `its key must be ${rules.key[1]}` }
  const schema = rules?.keyed ? rules.keyed[key] : rules?.fields
  const fields = schema && fieldsIssue(schema, record)
  if (fields) return fields
  const variants = rules?.variants
  if (variants) {
    const value = (record as Record<string, unknown>)[variants.by]
    const own = typeof value === 'string' && Object.hasOwn(variants.of, value) ? variants.of[value] : undefined
    if (!own) return { field: variants.by, problem: `must be one of ${Object.keys(variants.of).join(', ')}` }
    const issue = fieldsIssue(own, record)
    if (issue) return issue
  }
  if (rules?.keyOf && (record as Record<string, unknown>)[rules.keyOf] !== key) return { field: rules.keyOf, problem: "must be the record's key" }
  for (const [field, v] of Object.entries(record as object)) if (v && typeof v === 'object' && !depthAtMost(v, RECORD_DEPTH)) return { field, problem: `must nest at most ${RECORD_DEPTH} levels` }
  const problem = rules?.check?.(record as Record<string, unknown>)
  return problem ? { problem } : null
}

/** The first field of `value` (an object) that breaks `fields`, by its path, and what is wrong with it. */
function fieldsIssue(fields: RecordFields, value: unknown): { field: string; problem: string } | null {
  for (const [field, [test, what, inner]] of Object.entries(fields)) {
    const v = (value as Record<string, unknown>)[field]
    if (!test(v)) return { field, problem: `must be ${what}` }
    if (!inner || v === undefined || v === null) continue
    const items: [string, unknown][] = Array.isArray(v) ? v.map((item, i) => [`${field}.${i}`, item]) : [[field, v]]
    for (const [path, item] of items) {
      const issue = fieldsIssue(inner, item)
      if (issue) return { field: `${path}.${issue.field}`, problem: issue.problem }
    }
  }
  return null
}

/** What is wrong with a record, as one sentence, or null. */
function recordProblem(rules: RecordRules | undefined, key: string, record: unknown): string | null {
  const issue = recordIssue(rules, key, record)
  if (!issue) return null
  return issue.field === undefined ? (isObject(record) ? issue.problem : `the record ${issue.problem}`) : `field "${issue.field}" ${issue.problem}`
}

export class InvalidRecord extends Error {
  constructor(ns: string, collection: string, key: string, problem: string) {
    super(`invalid record in namespace ${JSON.stringify(ns)}, collection ${JSON.stringify(collection)}, key ${JSON.stringify(key)}: ${problem}`)
    this.name = 'InvalidRecord'
  }
}

const UNKNOWN = 'no such collection is kept'

/** Throws InvalidRecord for the first bad record of a snapshot and its deltas (`rules`: undefined for a collection not declared). */
export function validateFile(rules: (collection: string) => RecordRules | undefined, snapshot: Snapshot, deltas: readonly Delta[]): void {
  for (const [ns, cols] of Object.entries(snapshot)) {
    if (!isObject(cols)) throw new InvalidRecord(ns, '', '', 'the namespace must be an object')
    for (const [name, records] of Object.entries(cols)) {
      if (!isObject(records)) throw new InvalidRecord(ns, name, '', 'the collection must be an object')
      const declared = rules(name)
      if (!declared) throw new InvalidRecord(ns, name, '', UNKNOWN)
      for (const [key, value] of Object.entries(records)) {
        const problem = recordProblem(declared, key, value)
        if (problem) throw new InvalidRecord(ns, name, key, problem)
      }
    }
  }
  deltas.forEach((d, i) => {
    if (!isObject(d) || typeof d.n !== 'string') throw new InvalidRecord(String((d as Delta)?.n ?? ''), '', '', `change ${i + 1} must be an object naming its namespace`)
    if (d.reset !== undefined) {
      if (!Array.isArray(d.reset) || !d.reset.every((c) => typeof c === 'string')) throw new InvalidRecord(d.n, '', '', `change ${i + 1}: "reset" must be a list of collection names`)
      return
    }
    if (typeof d.c !== 'string' || typeof d.k !== 'string') throw new InvalidRecord(d.n, String(d.c ?? ''), String(d.k ?? ''), `change ${i + 1} must name its collection and key`)
    const declared = rules(d.c)
    if (!declared) throw new InvalidRecord(d.n, d.c, d.k, UNKNOWN)
    if (d.d) return
    const problem = recordProblem(declared, d.k, d.v)
    if (problem) throw new InvalidRecord(d.n, d.c, d.k, problem)
  })
}

import type { Mismatch } from '../flow/flow.js'

/**
 * The comparison by shape of `sandbox verify` (docs/behaviour.md#verify): the one home of which
 * fields are compared by value and which by format only.
 *
 * - the envelope's `status` and `message`, and every field named in `ENUMERATED` wherever it
 *   sits in `data`: the value;
 * - a field whose name matches a rule of `FORMATS` (values that differ run to run): its JSON type
 *   and that format;
 * - any other field: its presence and JSON type, recursively.
 *
 * `strict` (the conformance corpus's tier 3, docs/behaviour.md#conformance) compares every other field
 * by value too, and the order of the keys an object has in both answers.
 */

/** Fields whose values come from a short list the service documents: compared by value. */
export const ENUMERATED: ReadonlySet<string> = new Set([
  'status', 'currency', 'auth_model', 'channel', 'payment_method', 'event', 'type', 'direction', 'country', 'card_type', 'scheme',
])

/** Fields whose values differ from run to run: compared by type and by this format only. */
export const FORMATS: readonly { name: string; field: RegExp; format: RegExp }[] = [
  { name: 'a date', field: /(^|_)(at|date|expiry)$|^date_|^expires?_/, format: /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/ },
  { name: 'a URL', field: /(^|_)url$/, format: /^https?:\/\/\S+$/ },
  { name: 'an account number', field: /(^|_)account_number$/, format: /^\d{6,20}$/ },
  { name: 'a reference', field: /(^|_)reference$/, format: /^\S+$/ },
  { name: 'an id', field: /(^|_)id$/, format: /^\S+$/ },
]

/** The value a report shows for a field that is not there. */
export const ABSENT = '(absent)'

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' | 'absent'

function typeOf(v: unknown): JsonType {
  if (v === undefined) return 'absent'
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  return typeof v as JsonType
}

const isObject = (v: unknown): v is Record<string, unknown> => typeOf(v) === 'object'
/** A flow's own matchers (docs/behaviour.md#flow-files): `$any`, `{$regex}`, `{$absent}`. */
const isMatcher = (v: unknown): boolean => v === '$any' || (isObject(v) && Object.keys(v).length === 1 && ('$regex' in v || '$absent' in v))

const shown = (v: unknown): unknown => (v === undefined ? ABSENT : v)
const differ = (path: string, expected: unknown, actual: unknown): Mismatch[] => [{ path, expected: shown(expected), actual: shown(actual) }]

/** The order of the keys both objects have, as `expected` writes them and as `actual` does. */
function keyOrder(expected: Record<string, unknown>, actual: Record<string, unknown>): [string, string] {
  const both = Object.keys(expected).filter((k) => k in actual)
  const theirs = Object.keys(actual).filter((k) => k in expected)
  return [both.join(', '), theirs.join(', ')]
}

/**
 * Compares an answer's body with the expected one by shape; `whole` says the expected body is a
 * whole answer, so a field the answer has beyond it is a difference too; `strict` compares values
 * and key order as well.
 */
export function compareShape(expected: unknown, actual: unknown, whole: boolean, path = '', strict = false): Mismatch[] {
  const at = path || '(body)'
  const name = path.slice(path.lastIndexOf('.') + 1)
  if (expected === '$any') return actual === undefined ? differ(at, 'any value', actual) : []
  if (isMatcher(expected)) {
    const m = expected as Record<string, unknown>
    if ('$absent' in m) return actual === undefined ? [] : differ(at, undefined, actual)
    return typeof actual === 'string' && new RegExp(String(m.$regex)).test(actual) ? [] : differ(at, `/${m.$regex}/`, actual)
  }
  const et = typeOf(expected)
  if (et !== typeOf(actual)) return differ(at, expected, actual)
  if (isObject(expected) && isObject(actual)) {
    const keys = whole ? new Set([...Object.keys(expected), ...Object.keys(actual)]) : Object.keys(expected)
    const out = [...keys].flatMap((k) => compareShape(expected[k], actual[k], whole, path ? `${path}.${k}` : k, strict))
    const [want, got] = keyOrder(expected, actual)
    return strict && want !== got ? [...differ(`${at} (key order)`, want, got), ...out] : out
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.min(expected.length, actual.length)
    return expected.slice(0, n).flatMap((v, i) => compareShape(v, actual[i], whole, `${path}.${i}`, strict))
  }
  const envelope = !path.includes('.') && (name === 'status' || name === 'message')
  if (envelope || ENUMERATED.has(name)) return Object.is(expected, actual) ? [] : differ(at, expected, actual)
  const rule = et === 'string' ? FORMATS.find((f) => f.field.test(name)) : undefined
  if (rule && rule.format.test(String(expected))) return rule.format.test(String(actual)) ? [] : differ(at, `${rule.name} (${JSON.stringify(expected)})`, actual)
  return strict && !Object.is(expected, actual) ? differ(at, expected, actual) : []
}

/**
 * What a read of the store gives: a record the caller may look at but not change
 * (docs/architecture.md, "The store"). Records are JSON data, so the type is readonly all the
 * way down, and a record a read hands out is frozen all the way down at run time.
 */
export type Frozen<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer U)[]
    ? readonly Frozen<U>[]
    : T extends object
      ? { readonly [K in keyof T]: Frozen<T[K]> }
      : T

/**
 * Freezes a record and everything in it, and gives it back typed as such. A part already
 * frozen is not walked again: a record made by spreading a stored one shares its frozen parts.
 * Every first read of a live record pays for it, so it looks at an object's values without a call
 * for each (half the cost of recursing into every value, on a card charge).
 */
export function deepFreeze<T>(value: T): Frozen<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) freeze(value)
  return value as Frozen<T>
}

function freeze(o: object): void {
  Object.freeze(o)
  if (Array.isArray(o)) {
    for (let i = 0; i < o.length; i++) {
      const v: unknown = o[i]
      if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) freeze(v)
    }
    return
  }
  for (const k in o) {
    const v = (o as Record<string, unknown>)[k]
    if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) freeze(v)
  }
}

/**
 * A mutable copy of a record. Records are JSON data (plain objects, arrays, strings, numbers,
 * booleans, null), so a copy of exactly those is all it takes. Written out by hand it costs a
 * card charge about a quarter of `structuredClone` (which handles cycles, dates, maps ... and
 * goes through the serializer) and less still of a JSON round trip: 3-4 µs against 12-31 and
 * 20-42 on this VM, measured in one process side by side.
 */
export function copyOf<T>(value: Frozen<T>): T {
  return copy(value) as T
}

function copy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i])
    return out
  }
  const out: Record<string, unknown> = {}
  for (const k in value) {
    const v = copy((value as Record<string, unknown>)[k])
    // JSON may hold an own `__proto__` key, which an assignment would take for the prototype
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true })
    else out[k] = v
  }
  return out
}

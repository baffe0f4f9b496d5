import { nextTurn } from '../store/snapshot.js'

/**
 * `JSON.parse` of a long text in steps, the event loop free between them: a 16 MiB snapshot sent
 * to `POST /_sandbox/snapshot` parsed in one call held every other call for its length
 * (bench/README.md, "Restoring a snapshot"). The objects and lists down to `depth` levels are read
 * here, token by token; each value below them (a snapshot's record) is parsed by `JSON.parse` from
 * its own slice of the text, found by matching its brackets outside strings. Gives what
 * `JSON.parse(text)` gives (an own `__proto__` key included), or throws as it throws: a text this
 * reading does not follow is handed to `JSON.parse` whole.
 */
export async function parseInSteps(text: string, depth = 3, stepBytes = 1 << 18): Promise<unknown> {
  const reader = new StepReader(text, depth)
  try {
    let turn = 0
    const out = reader.value(0, () => reader.at > turn + stepBytes)
    for (let step = out.next(); ; step = out.next()) {
      if (step.done) {
        reader.space()
        if (reader.at !== text.length) throw new NotFollowed()
        return step.value
      }
      turn = reader.at
      await nextTurn()
    }
  } catch (e) {
    if (e instanceof NotFollowed) return JSON.parse(text)
    throw e
  }
}

class NotFollowed extends Error {}

const QUOTE = 34
const BACKSLASH = 92

class StepReader {
  at = 0

  constructor(
    readonly text: string,
    readonly depth: number,
  ) {}

  space(): void {
    const t = this.text
    let c = t.charCodeAt(this.at)
    while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++this.at)
  }

  /** The value at `at` (yielding when `due` says a step is over), `at` moved past it. */
  *value(level: number, due: () => boolean): Generator<void, unknown> {
    this.space()
    const c = this.text.charCodeAt(this.at)
    if (level >= this.depth || (c !== 123 /* { */ && c !== 91) /* [ */) return this.#slice()
    const list = c === 91
    const out: unknown = list ? [] : {}
    this.at++
    this.space()
    if (this.text.charCodeAt(this.at) === (list ? 93 : 125)) {
      this.at++
      return out
    }
    for (;;) {
      if (due()) yield
      if (list) (out as unknown[]).push(yield* this.value(level + 1, due))
      else {
        this.space()
        if (this.text.charCodeAt(this.at) !== QUOTE) throw new NotFollowed()
        const start = this.at
        this.at = this.#stringEnd(start)
        const key = JSON.parse(this.text.slice(start, this.at)) as string
        this.space()
        if (this.text.charCodeAt(this.at++) !== 58 /* : */) throw new NotFollowed()
        const v = yield* this.value(level + 1, due)
        // as JSON.parse keeps it: an own key, never the prototype
        if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true })
        else (out as Record<string, unknown>)[key] = v
      }
      this.space()
      const next = this.text.charCodeAt(this.at++)
      if (next === 44 /* , */) continue
      if (next === (list ? 93 : 125)) return out
      throw new NotFollowed()
    }
  }

  /** The value at `at` parsed whole from its slice: a container to its matching bracket, anything else to the next `,` `}` `]` or space. */
  #slice(): unknown {
    const t = this.text
    const start = this.at
    const c = t.charCodeAt(start)
    if (c === QUOTE) this.at = this.#stringEnd(start)
    else if (c === 123 || c === 91) {
      let open = 0
      let i = start
      for (;;) {
        const d = t.charCodeAt(i)
        if (d === QUOTE) {
          i = this.#stringEnd(i)
          continue
        }
        if (d === 123 || d === 91) open++
        else if (d === 125 || d === 93) {
          if (--open === 0) break
        } else if (Number.isNaN(d)) throw new NotFollowed()
        i++
      }
      this.at = i + 1
    } else {
      let i = start
      for (let d = t.charCodeAt(i); !Number.isNaN(d) && d !== 44 && d !== 125 && d !== 93 && d !== 32 && d !== 10 && d !== 13 && d !== 9; d = t.charCodeAt(++i));
      this.at = i
    }
    if (this.at === start) throw new NotFollowed()
    return JSON.parse(t.slice(start, this.at))
  }

  /** Where the string opening at `start` ends (past its closing quote). */
  #stringEnd(start: number): number {
    const t = this.text
    let i = start
    for (;;) {
      i = t.indexOf('"', i + 1)
      if (i < 0) throw new NotFollowed()
      let slashes = 0
      while (t.charCodeAt(i - 1 - slashes) === BACKSLASH) slashes++
      if (slashes % 2 === 0) return i + 1
    }
  }
}

/**
 * The group commit both logs share (file-log.ts, pg-log.ts): the changes announced in one turn of
 * the event loop are written together, one write at a time, and a caller of `sync` is answered only
 * after the write that holds its change has completed (or failed, with that write's error).
 * Puts are coalesced by key (a record is written as it stands when its write starts); a reset stays
 * in place, and puts after it in its namespace come after it.
 */

/** A pending change: a record's key (written as it stands then), or a namespace's reset. */
export type Op = [string, string, string] | { n: string; reset: string[] }

/** The namespace a pending change touches. */
export const nsOf = (op: Op): string => (Array.isArray(op) ? op[0] : op.n)

const RESOLVED = Promise.resolve()

export class GroupCommit {
  #pending: Op[] = []
  #dirtyKeys = new Set<string>()
  #waiters: (() => void)[] = []
  #failures: ((e: unknown) => void)[] = []
  #running = false
  /** set on close: no write starts after it */
  closed = false

  /**
   * `write` writes one group; it answers false when it failed, having failed `failures` (the
   * callers of that group) itself. `held` stops the writing while it is true (pending changes wait).
   * `written` runs after each group's callers are answered.
   */
  constructor(
    private readonly write: (ops: Op[], failures: ((e: unknown) => void)[]) => Promise<boolean>,
    private readonly held: () => boolean = () => false,
    private readonly written: () => void = () => undefined,
  ) {}

  /** Changes wait to be written, or a write is under way. */
  get busy(): boolean {
    return this.#pending.length > 0 || this.#running
  }

  /** Whether a pending change touches this namespace. */
  touches(ns: string): boolean {
    return this.#pending.some((op) => nsOf(op) === ns)
  }

  changed(ns: string, c: string, k: string): void {
    const id = `${ns}\u0000${c}\u0000${k}`
    if (this.#dirtyKeys.has(id)) return
    this.#dirtyKeys.add(id)
    this.#pending.push([ns, c, k])
    this.#kick()
  }

  reset(ns: string, keep: string[]): void {
    // later puts in this namespace must come after the reset, so forget their coalescing
    for (const id of this.#dirtyKeys) if (id.startsWith(`${ns}\u0000`)) this.#dirtyKeys.delete(id)
    this.#pending.push({ n: ns, reset: keep })
    this.#kick()
  }

  sync(): Promise<void> {
    if (!this.#pending.length && !this.#running) return RESOLVED
    return new Promise((resolve, reject) => {
      this.#waiters.push(resolve)
      this.#failures.push(reject)
    })
  }

  /**
   * A write failed: takes every pending change and the callers waiting on them (added to
   * `failures`), which the failed write's undo covers and fails with it. Synchronous, so no change
   * slips in between.
   */
  drop(failures: ((e: unknown) => void)[]): Op[] {
    const pending = this.#pending
    failures.push(...this.#failures)
    this.#pending = []
    this.#dirtyKeys.clear()
    this.#waiters = []
    this.#failures = []
    return pending
  }

  #kick(): void {
    if (this.#running || this.closed) return
    this.#running = true
    // setImmediate lets every request of this turn of the event loop join the same write
    setImmediate(() => void this.#loop())
  }

  async #loop(): Promise<void> {
    try {
      while (this.#pending.length && !this.held()) {
        const waiters = this.#waiters
        const failures = this.#failures
        this.#waiters = []
        this.#failures = []
        const ops = this.#pending
        this.#pending = []
        this.#dirtyKeys.clear()
        if (!(await this.write(ops, failures))) continue
        for (const w of waiters) w()
        this.written()
      }
    } finally {
      this.#running = false
      // a waiter may have arrived between the last check and now
      const waiters = this.#waiters
      this.#waiters = []
      this.#failures = []
      for (const w of waiters) w()
    }
  }
}

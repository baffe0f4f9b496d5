import { open, readFile, rename, rm, type FileHandle } from 'node:fs/promises'
import { Low } from 'lowdb'
import { DataFile } from 'lowdb/node'
import { acquireLock, LockHeld } from './lock.js'
import { GroupCommit, type Op } from './group-commit.js'
import type { Persisted, Persistence } from './persistence.js'
import { compactTemp, DataFileError, durableState, FORMAT, parseDoc, setAside, TAIL, type FileDoc, type ReadDoc } from './recovery.js'


/**
 * The data file (`--data FILE`): one JSON document `{"paysandbox":FORMAT,"snapshot":{...},"deltas":[...]}`
 * (FORMAT: recovery.ts)
 * that holds every change before its response is sent. Changes are appended to the `deltas`
 * array in place (one positional write per group of changes, so the cost of a write does not
 * grow with the store), and the whole document is compacted (written to a temp file, then
 * renamed) once the deltas outweigh the snapshot. The file is valid JSON after every write, so a
 * `kill -9` leaves it holding every acknowledged change.
 *
 * Where lowdb fits, and where it cannot:
 * - Opening reads the document whole, and writes it whole again when it cannot be appended to as
 *   it is (a new, empty or torn file, or another layout): lowdb's `Low` over its `DataFile`
 *   adapter, a document read and written whole (the write: a temp file renamed over the file).
 *   The document was just read whole, so writing it whole costs nothing new.
 * - Appending a change is not lowdb: its adapters only write the whole document, whose cost
 *   grows with the store. A change is written over the document's tail instead.
 * - Compacting is not lowdb's write either, for two reasons. `write(data)` takes the document as
 *   one value, one string for its text adapters, where the compaction never holds the store as
 *   one string (it writes it a piece at a time, with the event loop free between pieces). And it
 *   renames the file as soon as it is written, where the compaction must, between writing and
 *   renaming and with appends held, add the changes appended meanwhile (or they would be lost).
 *   So it writes its own temp file and renames it, as lowdb's writer does.
 */

/** Bytes of the document built between two writes of a compaction (the longest pause it makes). */
const COMPACT_CHUNK = 256 * 1024

const RESOLVED = Promise.resolve()

/**
 * The append-and-compact writer. Appends (group commit) are written one at a time; waiters are
 * released only after the write that holds their change has completed. A compaction runs beside
 * them: it writes the snapshot to a temporary file while appends still go to the current file (so
 * nothing waits for it), then, in one step between two appends, copies to the new file the
 * changes appended meanwhile and renames it over the current one.
 */
export class FileLog implements Persistence {
  #fh: FileHandle | null = null
  #size = 0
  #deltaCount = 0
  #deltaBytes = 0
  #snapshotBytes = 0
  /** pending changes in order (group-commit.ts), written by #writeGroup */
  #queue = new GroupCommit(
    (ops, failures) => this.#writeGroup(ops, failures),
    undefined,
    () => {
      if (!this.#compacting && this.#deltaBytes > Math.max(this.compactMinBytes, this.#snapshotBytes)) this.#startCompaction()
    },
  )
  #release: () => void = () => undefined
  /** the last write failed: said once on stderr, and once when one succeeds again */
  #failing = false
  /** the compaction under way, and the changes appended since it took its snapshot */
  #compacting: Promise<void> | null = null
  #carry: Op[] | null = null
  /** file writes one at a time: appends, and the switch to a compacted file */
  #lock: Promise<unknown> = Promise.resolve()

  private constructor(
    readonly path: string,
    readonly store: Persisted,
    readonly compactMinBytes: number,
  ) {}

  /**
   * Loads `file` (created when missing) into the store, and keeps it up to date from then on.
   * Takes the file's lock first (lock.ts) and lets it go on close, or when the open fails.
   */
  static async open(file: string, store: Persisted, compactMinBytes: number): Promise<FileLog> {
    let release: () => void
    try {
      release = acquireLock(file)
    } catch (e) {
      if (e instanceof LockHeld) throw new DataFileError(file, e.message)
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message
      if (code === 'ENOENT') throw new DataFileError(file, 'its folder does not exist')
      throw new DataFileError(file, `its folder cannot be written (${code})`)
    }
    try {
      const log = await FileLog.#open(file, store, compactMinBytes)
      log.#release = release
      return log
    } catch (e) {
      release()
      throw e
    }
  }

  static async #open(file: string, store: Persisted, compactMinBytes: number): Promise<FileLog> {
    const code = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message
    // a compaction killed before its rename left its temporary file: the data file holds everything
    await rm(compactTemp(file), { force: true }).catch(() => undefined)
    let read = ''
    // built by hand: lowdb's JSONFilePreset goes in-memory under NODE_ENV=test
    const db = new Low<ReadDoc>(new DataFile(file, { parse: (text) => parseDoc(file, (read = text)), stringify }), {
      paysandbox: FORMAT,
      snapshot: {},
      deltas: [],
      appendable: false,
    })
    try {
      await db.read()
      const doc = db.data
      // an older format is carried over once, here, and written whole in this one below
      if (doc.paysandbox < FORMAT) db.data = { paysandbox: FORMAT, snapshot: store.carryOver(doc.paysandbox, doc.snapshot, doc.deltas), deltas: [], appendable: false, kept: doc.kept }
      store.load(db.data.snapshot, db.data.deltas)
    } catch (e) {
      if (e instanceof DataFileError) throw e
      throw new DataFileError(file, code(e))
    }
    const log = new FileLog(file, store, compactMinBytes)
    try {
      // a damaged tail goes beside the file, byte for byte, before the file is written again
      if (db.data.kept !== undefined) await setAside(file, Buffer.byteLength(read.slice(0, db.data.kept)))
      read = ''
      // a file in our layout is appended to where it ends: a restart does not rewrite a large file
      if (!db.data.appendable) await db.write()
      // a file that cannot be written is refused now, not at the first change
      log.#fh = await open(file, 'r+')
      log.#size = log.#snapshotBytes = (await log.#fh.stat()).size
    } catch (e) {
      await log.#fh?.close().catch(() => undefined)
      throw new DataFileError(file, `cannot write (${code(e)})`)
    }
    log.#deltaCount = db.data.deltas.length
    return log
  }

  get dirty(): boolean {
    return this.#queue.busy
  }

  changed(ns: string, c: string, k: string): void {
    this.#queue.changed(ns, c, k)
  }

  reset(ns: string, keep: string[]): void {
    this.#queue.reset(ns, keep)
  }

  sync(): Promise<void> {
    return this.#queue.sync()
  }

  /** Compacts now (and waits for it); a failure is thrown. */
  async compact(): Promise<void> {
    await this.sync()
    while (this.#compacting) await this.#compacting
    const run = this.#startCompaction(false)
    await run.done
    if (run.error) throw run.error
  }

  async close(): Promise<void> {
    await this.sync().catch(() => undefined)
    await this.#compacting
    this.#queue.closed = true
    await this.#fh?.close()
    this.#fh = null
    this.#release()
  }

  /**
   * One group appended; a failure is undone in the same turn of the file as the failed write: no
   * compaction may switch files in between (it would copy the failed changes into the new file).
   */
  async #writeGroup(ops: Op[], failures: ((e: unknown) => void)[]): Promise<boolean> {
    const failed = await this.#locked(() =>
      this.#append(ops).then(
        () => false,
        (e: unknown) =>
          this.#rollBack(ops, failures, e).then(
            () => true,
            (undoError: unknown) => {
              for (const f of failures) f(undoError)
              return true
            },
          ),
      ),
    )
    if (failed) return false
    if (this.#failing) {
      this.#failing = false
      console.error(`paysandbox: the data file ${this.path} takes writes again`)
    }
    return true
  }

  /**
   * A write failed (no space, no permission, an I/O error): the file is cut back to what it held
   * before it (still valid JSON), and every change that is not in the file is undone in memory, the
   * records it touched put back as the file holds them: this write's changes and those made since
   * (which may build on them). Every call waiting on them fails; the next write tries again.
   */
  async #rollBack(ops: Op[], failures: ((e: unknown) => void)[], error: unknown): Promise<void> {
    // one line when writes start failing, one when they succeed again: not one per failed write
    if (!this.#failing) console.error(`paysandbox: could not write the data file ${this.path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): changes not in the file are undone and answered 503 until a write succeeds`)
    this.#failing = true
    let state: ReturnType<typeof durableState> | null = null
    try {
      // the failed write began over the closing `]}`: put it back, and drop whatever it added
      await this.#fh!.write(TAIL, this.#size - TAIL.length, 'utf8')
      await this.#fh!.truncate(this.#size)
    } catch {
      /* nothing of it was written (no permission), or the disk fails: reading tells what it holds */
    }
    try {
      state = durableState(parseDoc(this.path, await readFile(this.path, 'utf8')))
    } catch (e) {
      console.error(`paysandbox: could not read the data file ${this.path} back to undo the failed changes:`, (e as Error).message)
    }
    // from here on synchronous: no change can slip in between taking the pending ones and undoing them
    const undone = [...ops, ...this.#queue.drop(failures)]
    // a compaction under way writes each of these keys again, as it now stands
    this.#carry?.push(...undone)
    if (state) {
      const namespaces = new Set<string>()
      for (const op of undone) {
        if (Array.isArray(op)) {
          const [n, c, k] = op
          if (!namespaces.has(n)) this.store.restore(n, c, k, state[n]?.[c]?.[k])
        } else if (!namespaces.has(op.n)) {
          namespaces.add(op.n)
          this.store.restoreNamespace(op.n, state[op.n])
        }
      }
      const touched = new Set<string>()
      for (const op of undone) {
        const n = Array.isArray(op) ? op[0] : op.n
        touched.add(n)
        if (!state[n] && !namespaces.has(n)) {
          namespaces.add(n)
          this.store.restoreNamespace(n, undefined)
        }
      }
      for (const n of touched) this.store.restored(n)
    }
    for (const f of failures) f(error)
  }

  /** Runs a file write after the ones before it. */
  #locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(fn)
    this.#lock = run.catch(() => undefined)
    return run
  }

  #startCompaction(logErrors = true): { done: Promise<void>; error?: unknown } {
    const run: { done: Promise<void>; error?: unknown } = { done: RESOLVED }
    this.#carry = []
    run.done = this.#compacting = this.#writeCompacted()
      .catch((e) => {
        run.error = e
        // the current file still holds everything: appends go on there
        if (logErrors && !this.#queue.closed) console.error('paysandbox: could not compact the data file:', e)
      })
      .finally(() => {
        this.#carry = null
        this.#compacting = null
      })
    return run
  }

  async #append(ops: Op[]): Promise<void> {
    if (!ops.length) return
    this.#carry?.push(...ops)
    if (!this.#fh) this.#fh = await open(this.path, 'r+')
    const added = await writeDeltas(this.#fh, this.#size, this.#deltaLines(ops, this.#deltaCount === 0))
    this.#size += added
    this.#deltaCount += ops.length
    this.#deltaBytes += added
  }

  /** The deltas of these changes, each on its own line, with the records as they stand now. */
  #deltaLines(ops: Op[], first: boolean): string {
    const lines: string[] = []
    for (const op of ops) {
      let delta: string
      if (Array.isArray(op)) {
        const [n, c, k] = op
        const v = this.store.recordJson(n, c, k)
        // {n, c, k, v} or {n, c, k, d: 1}, with the record's text as the collection keeps it
        const head = `{"n":${JSON.stringify(n)},"c":${JSON.stringify(c)},"k":${JSON.stringify(k)}`
        delta = v === undefined ? `${head},"d":1}` : `${head},"v":${v}}`
      } else {
        delta = JSON.stringify(op)
      }
      // newline first: a torn write can then only ever damage its own last line
      lines.push(`\n${first && lines.length === 0 ? '' : ','}${delta}`)
    }
    return lines.join('')
  }

  /**
   * Writes the whole store to a temporary file next to the data file a piece at a time, with the
   * event loop free between pieces, then makes it the data file (#switchTo). A crash before the
   * rename leaves the old file, which holds every change acknowledged so far.
   */
  async #writeCompacted(): Promise<void> {
    const tmp = compactTemp(this.path)
    const out = await open(tmp, 'w')
    try {
      let size = 0
      let parts: string[] = []
      let length = 0
      // a string, not a Buffer: written from native memory, no ArrayBuffer left for the GC
      const flush = async () => {
        const text = parts.join('')
        parts = []
        length = 0
        const { bytesWritten } = await out.write(text, size, 'utf8')
        const bytes = Buffer.byteLength(text)
        if (bytesWritten < bytes) await writeAll(out, Buffer.from(text).subarray(bytesWritten), size + bytesWritten)
        size += bytes
      }
      for (const piece of documentPieces(this.store)) {
        parts.push(piece)
        length += piece.length
        if (length >= COMPACT_CHUNK) await flush()
      }
      await flush()
      await this.#switchTo(out, tmp, size)
    } catch (e) {
      await out.close().catch(() => undefined)
      await rm(tmp, { force: true })
      throw e
    }
  }

  /**
   * The compaction's last step, between two appends: the changes appended since its snapshot go
   * after it in the new file (replayed over the snapshot, they give every record's latest state),
   * then the new file replaces the current one and takes the appends from now on.
   */
  #switchTo(out: FileHandle, tmp: string, size: number): Promise<void> {
    return this.#locked(async () => {
      const carried = this.#carry ?? []
      const added = carried.length ? await writeDeltas(out, size, this.#deltaLines(carried, true)) : 0
      await rename(tmp, this.path)
      this.#carry = null
      const old = this.#fh
      this.#fh = out
      this.#size = size + added
      this.#snapshotBytes = size
      this.#deltaBytes = added
      this.#deltaCount = carried.length
      await old?.close().catch(() => undefined)
    })
  }
}

/** The whole store as the file's document, in pieces (no newline inside). */
function* documentPieces(store: Persisted): Generator<string> {
  yield `{"paysandbox":${FORMAT},"snapshot":`
  yield* store.snapshotPieces()
  yield `,"deltas":[${TAIL}`
}

/** The document read, written back in the layout appends need: each delta on its own line. */
function stringify(doc: FileDoc): string {
  const lines = doc.deltas.map((d, i) => `\n${i ? ',' : ''}${JSON.stringify(d)}`)
  return `{"paysandbox":${FORMAT},"snapshot":${JSON.stringify(doc.snapshot)},"deltas":[${lines.join('')}${TAIL}`
}

/**
 * Writes delta lines over the tail of a file of `size` bytes that ends with the deltas array's
 * `]}`, and the tail after them: the file is valid JSON before and after this one write. Returns
 * the bytes the file grew by. A string, not a Buffer: written from native memory, no ArrayBuffer
 * per write for the GC.
 */
async function writeDeltas(fh: FileHandle, size: number, lines: string): Promise<number> {
  const text = lines + TAIL
  const { bytesWritten } = await fh.write(text, size - TAIL.length, 'utf8')
  const length = Buffer.byteLength(text)
  // a short write (the disk filled up): write the rest, which then fails with the reason
  if (bytesWritten < length) await writeAll(fh, Buffer.from(text).subarray(bytesWritten), size - TAIL.length + bytesWritten)
  return length - TAIL.length
}

async function writeAll(fh: FileHandle, bytes: Buffer, at: number): Promise<void> {
  while (bytes.length) {
    const { bytesWritten } = await fh.write(bytes, 0, bytes.length, at)
    if (bytesWritten === 0) throw Object.assign(new Error('no byte written (ENOSPC)'), { code: 'ENOSPC' })
    bytes = bytes.subarray(bytesWritten)
    at += bytesWritten
  }
}

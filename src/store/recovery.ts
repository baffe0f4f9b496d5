import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Delta, Snapshot } from './persistence.js'
import { jsonOf } from '../files.js'

/**
 * Reading the data file back (docs/behaviour.md#persistence): the document, with a damaged tail (a write
 * cut short by a crash, bytes appended by something else) told apart from the changes before it,
 * which are all kept; and the durable state of the file, which a failed write rolls memory back to.
 */

/**
 * the data file's format: 2 since the ledger's entries are records of their own, 3 since a
 * checkout keeps what its customer paid, 4 since no namespace keeps the old event counter, 5
 * since no voucher's PIN is kept (a `CarryOver` carries each older one over; docs/architecture.md lists them)
 */
export const FORMAT = 5
export const TAIL = ']}'

export interface FileDoc {
  paysandbox: number
  snapshot: Snapshot
  deltas: Delta[]
}

/** The document as read: whether the file can be appended to as it is, and the damaged tail cut off it. */
export interface ReadDoc extends FileDoc {
  appendable: boolean
  /** characters of the text kept (the damaged tail is what follows) */
  kept?: number
}

export class DataFileError extends Error {
  constructor(readonly file: string, reason: string) {
    super(`cannot use data file ${file}: ${reason}`)
    this.name = 'DataFileError'
  }
}

/** How many lines a damaged tail may span before the damage counts as inside the file. */
const MAX_TAIL_LINES = 16

/**
 * Parses the file. A damaged tail is cut off (`kept` says where) when what it holds is no complete
 * change: junk after the document's end, or a last line cut short (newline first: a torn write
 * can only damage its own line). Damage before a complete change refuses the file.
 */
export function parseDoc(file: string, text: string): ReadDoc {
  if (text.trim() === '') return { paysandbox: FORMAT, snapshot: {}, deltas: [], appendable: false }
  let doc: unknown
  let kept: number | undefined
  try {
    doc = JSON.parse(text)
  } catch (e) {
    const found = recoverPrefix(text, (e as Error).message)
    if (!found) throw new DataFileError(file, `not valid JSON (${(e as Error).message})`)
    ;({ doc, kept } = found)
  }
  if (!isDoc(doc)) throw new DataFileError(file, 'not a paysandbox data file')
  if (doc.paysandbox > FORMAT) throw new DataFileError(file, `written by a newer paysandbox (format ${doc.paysandbox})`)
  // our layout: these three keys in this order, the text ending with the deltas array's `]}`
  const appendable = kept === undefined && doc.paysandbox === FORMAT && Object.keys(doc).join() === 'paysandbox,snapshot,deltas' && text.endsWith(TAIL)
  return Object.assign(doc, { appendable, kept })
}

function isDoc(doc: unknown): doc is FileDoc {
  return (
    typeof doc === 'object' && doc !== null && typeof (doc as FileDoc).paysandbox === 'number' &&
    typeof (doc as FileDoc).snapshot === 'object' && (doc as FileDoc).snapshot !== null &&
    Array.isArray((doc as FileDoc).deltas)
  )
}

/** Whether a line of the deltas array is one complete change (`,{...}`, maybe with the `]}`). */
function isCompleteDelta(line: string): boolean {
  let body = line.startsWith(',') ? line.slice(1) : line
  if (body.endsWith(TAIL)) body = body.slice(0, -TAIL.length)
  const v = jsonOf(body) as Delta | undefined
  return typeof v === 'object' && v !== null && typeof v.n === 'string'
}

/** The longest prefix of the text that is our document, and where it ends; null when there is none. */
function recoverPrefix(text: string, error: string): { doc: unknown; kept: number } | null {
  if (!text.startsWith(`{"paysandbox":`)) return null
  // junk after a complete document: the parser says where the document ends
  const after = /after JSON at position (\d+)/.exec(error)
  if (after) {
    const end = Number(after[1])
    const doc = jsonOf(text.slice(0, end))
    const lines = text.slice(end).split('\n')
    if (doc !== undefined && lines.length <= MAX_TAIL_LINES && !lines.some(isCompleteDelta)) return { doc, kept: end }
  }
  // every line complete, only the closing `]}` missing
  const whole = jsonOf(text + TAIL)
  if (whole !== undefined) return { doc: whole, kept: text.length }
  // the last line(s) cut: drop them, never one that holds a complete change
  let end = text.length
  for (let i = 0; i < MAX_TAIL_LINES; i++) {
    const cut = text.lastIndexOf('\n', end - 1)
    if (cut < 0) return null
    if (isCompleteDelta(text.slice(cut + 1, end))) return null
    const doc = jsonOf(text.slice(0, cut) + TAIL)
    if (doc !== undefined) return { doc, kept: cut }
    end = cut
  }
  return null
}

/** ns -> collection -> key -> record, as the file holds them: its snapshot with its deltas replayed. */
export function durableState(doc: FileDoc): Snapshot {
  const state = doc.snapshot
  for (const d of doc.deltas) {
    if (d.reset) {
      const cols = state[d.n]
      if (cols) for (const name of Object.keys(cols)) if (!d.reset.includes(name)) delete cols[name]
    } else if (d.c !== undefined && d.k !== undefined) {
      const cols = (state[d.n] ??= {})
      const records = (cols[d.c] ??= {})
      if (d.d) delete records[d.k]
      else records[d.k] = d.v as Record<string, unknown>
    }
  }
  return state
}

/** The temporary file a compaction writes beside the data file. */
export function compactTemp(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.compact.tmp`)
}

/** Copies the bytes of `file` from `from` on to `FILE.damaged-TIME` and says so on stderr. */
export async function setAside(file: string, from: number): Promise<void> {
  const raw = await readFile(file)
  // a torn write that left only a newline or a comma loses nothing worth keeping
  if (/^[\s,]*$/.test(raw.subarray(from).toString('latin1'))) return
  const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`
  await writeFile(aside, raw.subarray(from), { flag: 'wx' })
  console.error(`paysandbox: data file ${file}: a damaged tail of ${raw.length - from} bytes (no complete change) was set aside in ${aside}; every complete change before it is kept`)
}

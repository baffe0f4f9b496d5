// Small pieces every part of the bench uses: where things are, printing, rounding and formatting
// figures, and writing results files.
import { execFileSync } from 'node:child_process'
import { rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** bench/ */
export const BENCH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** The checkout the bench measures (its dist/). */
export const ROOT = path.resolve(BENCH, '..')
export const RESULTS = path.join(BENCH, 'results')

export const log = (msg) => process.stdout.write(msg + '\n')

/** A wrong invocation: the message on stderr, exit code 2. */
export function die(msg) {
  process.stderr.write(`bench: ${msg}\n`)
  process.exit(2)
}

/** A command's trimmed stdout, or null when it cannot run or fails. */
export function sh(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

/** Writes JSON through a temporary file and a rename: never a half-written results file. */
export async function writeJson(file, value) {
  await writeFile(`${file}.tmp`, JSON.stringify(value, null, 2) + '\n')
  await rename(`${file}.tmp`, file)
}

export function round(x, d) {
  if (!Number.isFinite(x)) return x
  const f = 10 ** d
  return Math.round(x * f) / f
}
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : round((s[m - 1] + s[m]) / 2, 1)
}
export const sum = (rs, k) => rs.reduce((a, r) => a + (r?.[k] ?? 0), 0)
export const fmtInt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : String(n))
export const fmtCpu = (c) => (c ? `[cores: server ${c.server}, load gen ${c.loadgen}${c.siblings ? `, our idle server ${c.siblings}` : ''}, other ${c.other}]` : '')
export const fmtK = (n) => (n >= 1000 ? `${round(n / 1000, 1)}k` : String(n))

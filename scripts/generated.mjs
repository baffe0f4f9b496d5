import { readFileSync, writeFileSync } from 'node:fs'

/**
 * A generated file's one rule: with `--check`, exit 1 (saying `hint`) when the committed file differs
 * from `text`; otherwise write it.
 */
export function writeOrCheck(file, text, hint) {
  if (!process.argv.includes('--check')) return writeFileSync(file, text)
  let current = ''
  try {
    current = readFileSync(file, 'utf8')
  } catch {
    /* missing: differs */
  }
  if (current !== text) {
    process.stderr.write(`${hint}\n`)
    process.exit(1)
  }
}

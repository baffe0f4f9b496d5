import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/** The value a JSON text holds, or undefined when it holds none (the caller decides what that means). */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A document refused, with every issue found in it (a scenario pack, a flow). */
export class DocumentIssues extends Error {
  constructor(
    /** the file, or what else the document came from */
    readonly source: string,
    readonly issues: string[],
  ) {
    super(`${source}: ${issues.join('; ')}`)
    this.name = new.target.name
  }
}

/** Why a YAML or JSON file could not be read: the file itself, or its text. */
export class DocumentFileError extends Error {
  constructor(
    readonly stage: 'read' | 'parse',
    /** the error code (ENOENT, EACCES ...) or the parser's first line */
    readonly detail: string,
    readonly format: 'JSON' | 'YAML',
  ) {
    super(stage === 'read' ? `cannot read file (${detail})` : `not valid ${format}: ${detail}`)
    this.name = 'DocumentFileError'
  }
}

/**
 * The value of a YAML or JSON file (JSON when its name ends in `.json`): scenario packs, merchants
 * files, flows. A file that cannot be read or parsed throws what `refuse` makes of the reason.
 * yaml is loaded only when a YAML file is read (off the cold-start path).
 */
export function readDocumentFile(file: string, refuse: (why: DocumentFileError) => Error): unknown {
  const format = file.endsWith('.json') ? 'JSON' : 'YAML'
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw refuse(new DocumentFileError('read', (e as NodeJS.ErrnoException).code ?? (e as Error).message.split('\n')[0], format))
  }
  try {
    return format === 'JSON' ? JSON.parse(text) : (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text)
  } catch (e) {
    throw refuse(new DocumentFileError('parse', (e as Error).message.split('\n')[0], format))
  }
}

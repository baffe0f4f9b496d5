import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs'
import { stringify } from 'yaml'
import { NOTHING_RECORDED } from './from-journal.js'
import type { Step } from './flow.js'

/**
 * A flow file written as it goes (docs/behaviour.md#record): the flow's head first, then each step
 * appended to its `steps` list as one write, synced before the next. A process killed at any
 * point leaves whole steps only, so the file parses as a flow once it holds one step; a file
 * closed with none gets the step of a flow in which nothing was recorded.
 */
export class FlowFile {
  readonly #fd: number
  #steps = 0

  /** Creates (or empties) `file` and writes the flow's head. */
  constructor(
    readonly file: string,
    head: { name: string; description: string; comment: string },
  ) {
    this.#fd = openSync(file, 'w', 0o600)
    const { name, description, comment } = head
    this.#write(`# ${comment}\n${stringify({ name, description }, { lineWidth: 0 })}steps:\n`)
  }

  /** Appends steps; `comment` goes above the first, as YAML comment lines. */
  append(steps: Step[], comment?: string): void {
    if (!steps.length) return
    const lines = comment ? comment.split('\n').map((l) => `# ${l}\n`).join('') : ''
    this.#write(lines + stringify(steps, { lineWidth: 0 }))
    this.#steps += steps.length
  }

  close(): void {
    if (this.#steps === 0) this.append([NOTHING_RECORDED])
    closeSync(this.#fd)
  }

  #write(text: string): void {
    writeSync(this.#fd, text)
    fsyncSync(this.#fd)
  }
}

import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN, freePort, killedAfterEach, startCli } from './process.js'

/**
 * The README's quick start stays true: every `sh` block of README.md is run, in order, in one bash
 * session against a real CLI sandbox on port 0 (its `http://127.0.0.1:4010` replaced by the
 * sandbox's URL, `npx sandbox` by the CLI of this checkout, the webhook receiver's port 3000 by a
 * free one), and each `#   ` line under a command (what it answers, `...` for what differs from
 * run to run) must be found, in order, in the block's output. A block not meant to run (an install,
 * docker) says so on the line above it: `<!-- not run: <why> -->`.
 */

const ROOT = resolve(import.meta.dirname, '..', '..')
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const { running } = killedAfterEach()

interface Block {
  /** the line of its opening fence, 1-based */
  line: number
  text: string
  /** why it is not run, when it is not */
  notRun?: string
}

/** The `sh` blocks of a markdown text, each with the not-run mark of the line above it. */
function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n')
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\S*)/.exec(lines[i])
    if (!fence) continue
    const end = lines.indexOf('```', i + 1)
    if (fence[1] === 'sh') {
      const above = lines.slice(0, i).reverse().find((l) => l.trim() !== '') ?? ''
      const notRun = /^<!-- not run: (.+) -->$/.exec(above.trim())?.[1]
      blocks.push({ line: i + 1, text: lines.slice(i + 1, end).join('\n'), notRun })
    }
    i = end
  }
  return blocks
}

/** The `#   ` lines of a block: what its commands answer, as fragments separated by `...`. */
const expectations = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('#   ')).map((l) => l.slice(4))

/** Runs `script` with bash; resolves with its output once it exits (its background jobs killed on exit). */
function bash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })))
}

describe('README.md', () => {
  const blocks = shellBlocks(README)

  it('marks every shell block it does not run with the reason, and runs the first charge, checkout and webhook', () => {
    for (const b of blocks.filter((x) => x.notRun)) expect(b.notRun!.length, `README.md:${b.line}`).toBeGreaterThan(10)
    const run = blocks.filter((b) => !b.notRun)
    expect(run.length).toBeGreaterThanOrEqual(3)
    for (const path of ['/charges/card', '/charges/initialize', '/_sandbox/webhook-url']) expect(run.some((b) => b.text.includes(path)), path).toBe(true)
    for (const b of run) expect(expectations(b.text).length, `README.md:${b.line} shows what it answers`).toBeGreaterThan(0)
  })

  it('gives, for each shell block run against a real sandbox, the answers it shows', async () => {
    const cli = await startCli([])
    running.push(cli)
    const receiver = await freePort()
    const local = (text: string) =>
      text
        .replaceAll('http://127.0.0.1:4010', cli.url)
        .replaceAll('npx sandbox ', `"${process.execPath}" "${BIN}" `)
        .replaceAll('127.0.0.1:3000', `127.0.0.1:${receiver}`)
        .replaceAll('.listen(3000)', `.listen(${receiver})`)
    const run = blocks.filter((b) => !b.notRun)
    const marker = (i: number) => `@@ README block ${i} @@`
    const script = ["trap 'kill $(jobs -p) 2>/dev/null' EXIT", ...run.flatMap((b, i) => [`echo; echo '${marker(i)}'`, local(b.text)])].join('\n')
    const r = await bash(script)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    run.forEach((b, i) => {
      const output = r.stdout.split(marker(i))[1].split(marker(i + 1))[0]
      expect(output, `README.md:${b.line}`).not.toContain('"status":false')
      let at = 0
      for (const line of expectations(local(b.text))) {
        for (const fragment of line.split('...').filter((f) => f !== '')) {
          const found = output.indexOf(fragment, at)
          expect(found, `README.md:${b.line}: ${JSON.stringify(fragment)} in\n${output}`).toBeGreaterThanOrEqual(0)
          at = found + fragment.length
        }
      }
    })
  })

  it('is read in one sitting: at most ~350 lines (reference material goes to docs/, linked)', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(380)
  })

  it('links only to files the repository holds, from the README and the pages it moved its reference to', () => {
    const pages = ['README.md', 'docs/test-values.md', 'docs/differences.md', 'docs/limitations.md', 'docs/operations.md', ...readdirSync(join(ROOT, 'docs/recipes')).map((f) => `docs/recipes/${f}`)]
    const missing: string[] = []
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '')
      for (const m of text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
        if (/^[a-z]+:/.test(m[1])) continue
        if (!existsSync(join(ROOT, dirname(page), m[1]))) missing.push(`${page}: ${m[1]}`)
      }
    }
    expect(missing).toEqual([])
  })
})

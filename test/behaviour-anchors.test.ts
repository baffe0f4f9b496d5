import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * docs/behaviour.md is cited by its sections' stable names (`docs/behaviour.md#readiness-report`),
 * never by a number (docs/behaviour.md, its opening; scripts/behaviour-anchors.mjs rewrites the old
 * number citations). Every citation anywhere in the repository names a section that exists.
 */
const ROOT = resolve(import.meta.dirname, '..')
const SCRIPT = join(ROOT, 'scripts/behaviour-anchors.mjs')
const OWN = new Set(['scripts/behaviour-anchors.mjs', 'scripts/behaviour-anchors.json', 'test/behaviour-anchors.test.ts'])
const TEXT = readFileSync(join(ROOT, 'docs/behaviour.md'), 'utf8')
const ANCHORS = new Set([...TEXT.matchAll(/^<a id="([a-z0-9-]+)"><\/a>$/gm)].map((m) => m[1]))
const MAP = JSON.parse(readFileSync(join(ROOT, 'scripts/behaviour-anchors.json'), 'utf8')) as { numbers: Record<string, string>; links: Record<string, string> }

function files(): { path: string; text: string }[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean)
  return listed
    .filter((f) => !OWN.has(f) && !/\.(png|jpg|gif|ico|woff2?|gz|tgz|pem|der)$/.test(f))
    .flatMap((path) => {
      try {
        const text = readFileSync(join(ROOT, path), 'utf8')
        return text.includes('behaviour') ? [{ path, text }] : []
      } catch {
        return [] // a file of the index this checkout does not have
      }
    })
}

describe('citations of docs/behaviour.md', () => {
  const all = files()

  it('gives each section one anchor, and the map of the old numbers names only anchors that exist', () => {
    const ids = [...TEXT.matchAll(/^<a id="([a-z0-9-]+)"><\/a>$/gm)].map((m) => m[1])
    expect(ids.length).toBeGreaterThan(100)
    expect(new Set(ids).size).toBe(ids.length)
    const lost = [...Object.values(MAP.numbers), ...Object.values(MAP.links)].filter((n) => !ANCHORS.has(n))
    expect(lost).toEqual([])
  })

  it('names, everywhere in the repository, only anchors docs/behaviour.md has', () => {
    const unknown: string[] = []
    for (const { path, text } of all) {
      for (const m of text.matchAll(/behaviour\.md#([A-Za-z0-9_-]+)/g)) if (!ANCHORS.has(m[1])) unknown.push(`${path}: ${m[0]}`)
      if (path === 'docs/behaviour.md') for (const m of text.matchAll(/\]\(#([^)\s]+)\)/g)) if (!ANCHORS.has(m[1])) unknown.push(`${path}: #${m[1]}`)
    }
    expect(unknown).toEqual([])
    expect(all.length).toBeGreaterThan(100)
  })

  it('leaves no citation by section number, and no heading numbered as one', () => {
    const numbered: string[] = []
    const gap = String.raw`(?:[ \t]+|[ \t]*\r?\n[ \t]*(?:\*|\/\/|#|--)?[ \t]*)`
    const byNumber = new RegExp(String.raw`behaviour\.md(?:${gap}\d{1,2}(?:\.\d{1,2})*(?![\d%])|#\d)`, 'g')
    for (const { path, text } of all) for (const m of text.matchAll(byNumber)) numbered.push(`${path}: ${JSON.stringify(m[0])}`)
    for (const m of TEXT.matchAll(/^#{2,6} \d{1,2}(?:\.\d{1,2})*\.? .*$/gm)) numbered.push(`docs/behaviour.md: ${m[0]}`)
    expect(numbered).toEqual([])
    expect(execFileSync(process.execPath, [SCRIPT, '--check'], { cwd: ROOT, encoding: 'utf8' })).toBe('')
  })

  it('gives each part and section its anchor on the line before its heading', () => {
    const lines = TEXT.split('\n')
    const bare = lines.flatMap((l, i) => (/^#{2,6} /.test(l) && !(lines[i - 2] ?? '').startsWith('<a id="') ? [l] : []))
    expect(bare).toEqual([])
  })

  it('rewrites a citation by number, as a branch written before the names has it, once', async () => {
    const { rewrite } = (await import(pathToFileURL(SCRIPT).href)) as { rewrite: (text: string, unknown?: string[]) => string }
    const old = [
      '// the report (docs/behaviour.md 9.10): its gate',
      ' * settles it (docs/behaviour.md\n * 13.7.3) and',
      'see behaviour.md 9.3, 9.4 and 13.7.1; behaviour.md 4-5',
      '[behaviour.md 8.7](docs/behaviour.md#87-probing-a-webhook-handler)',
    ].join('\n')
    const now = [
      '// the report (docs/behaviour.md#readiness-report): its gate',
      ' * settles it (docs/behaviour.md#stablecoin-payouts) and',
      'see behaviour.md#namespace-clock, behaviour.md#reset and behaviour.md#bulk-payouts; behaviour.md#preauth, behaviour.md#mobile-money',
      '[behaviour.md#webhook-probe](docs/behaviour.md#webhook-probe)',
    ].join('\n')
    expect(rewrite(old)).toBe(now)
    expect(rewrite(now)).toBe(now)
    const unknown: string[] = []
    expect(rewrite('behaviour.md 99.1', unknown)).toBe('behaviour.md 99.1')
    expect(unknown).toEqual(['behaviour.md 99.1'])
  })
})

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The shape docs/architecture.md promises, held against the code: its table of layers (read from
 * the document itself, so the two cannot drift), the size of a file, the one error renderer and
 * the documents comments cite.
 */
const ROOT = resolve(import.meta.dirname, '..')
const ARCHITECTURE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')

function sourceFiles(dir = join(ROOT, 'src')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) ? [relative(ROOT, path)] : []
  })
}

/** The layer of an area's folder: the table's note says a folder holding an `area.ts` is one unless the table places it. */
const AREA_LAYER = 5

/**
 * The layer table: each row `| N name | ... | `src/a.ts`, `src/b/` |`, as path prefix -> layer;
 * then each folder of `src/` holding an `area.ts` that no row names, as an area's (a new area is
 * one folder and one line in src/areas.ts, not a row of the table too).
 */
function layers(): [string, number][] {
  const out: [string, number][] = []
  for (const line of ARCHITECTURE.split('\n')) {
    const row = /^\| (\d+) [^|]+\|[^|]+\|(.+)\|$/.exec(line)
    if (!row) continue
    for (const m of row[2].matchAll(/`(src\/[^`]+)`/g)) out.push([m[1], Number(row[1])])
  }
  for (const name of readdirSync(join(ROOT, 'src'))) {
    const folder = `src/${name}/`
    if (existsSync(join(ROOT, folder, 'area.ts')) && !out.some(([prefix]) => prefix === folder)) out.push([folder, AREA_LAYER])
  }
  return out
}

function layerOf(table: [string, number][], file: string): number | undefined {
  return table.find(([prefix]) => (prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix))?.[1]
}

/** The src files a file imports (static, dynamic and type imports), as paths from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1])
  return specs.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)).replace(/\.js$/, '.ts')).map((p) => (existsSync(join(ROOT, p)) ? p : p.replace(/\.ts$/, '.tsx')))
}

describe('the code keeps the shape docs/architecture.md describes', () => {
  const files = sourceFiles()

  it('places every source file in one layer of its table', () => {
    const table = layers()
    expect(table.length).toBeGreaterThan(10)
    expect(files.filter((f) => layerOf(table, f) === undefined)).toEqual([])
  })

  it('has no import that runs from a lower layer to a higher one', () => {
    const table = layers()
    const upward: string[] = []
    for (const file of files) {
      for (const target of importsOf(file)) {
        const from = layerOf(table, file)!
        const to = layerOf(table, target)
        if (to !== undefined && to > from) upward.push(`${file} (layer ${from}) -> ${target} (layer ${to})`)
      }
    }
    expect(upward).toEqual([])
  })

  it('finds the imports it checks (the check above is not empty)', () => {
    expect(importsOf('src/app.ts')).toContain('src/deps.ts')
    expect(importsOf('src/control/dashboard/page.tsx')).toContain('src/engine/kit.ts')
  })

  it('keeps every source file at 450 lines or fewer', () => {
    const long = files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8').split('\n').length] as const).filter(([, n]) => n > 450)
    expect(long).toEqual([])
  })

  it('writes an error envelope in one place only', () => {
    const writers = files.filter((f) => /status:\s*false/.test(readFileSync(join(ROOT, f), 'utf8')))
    expect(writers).toEqual(['src/http/envelope.ts'])
  })

  it("has no area import another area's files but its public face", () => {
    // an area: a folder of src/ whose area.ts declares one (`Area`, src/http/area.ts); its face: its index.ts
    const areaOf = (file: string) => /^src\/([^/]+)\//.exec(file)?.[1]
    const declares = (f: string) => /^src\/[^/]+\/area\.ts$/.test(f) && /^export const \w+: Area</m.test(readFileSync(join(ROOT, f), 'utf8'))
    const areas = new Set(files.filter(declares).map((f) => areaOf(f)!))
    expect(areas.size).toBeGreaterThan(15)
    const reaching: string[] = []
    for (const file of files) {
      const from = areaOf(file)
      if (!from || !areas.has(from)) continue
      for (const target of importsOf(file)) {
        const to = areaOf(target)
        if (to && to !== from && areas.has(to) && target !== `src/${to}/index.ts`) reaching.push(`${file} -> ${target}`)
      }
    }
    expect(reaching).toEqual([])
  })

  it('names in its documents only paths of src/ that exist', () => {
    // a `src/...` path in backticks, in the documents that describe the code as it is now (a
    // placeholder such as `src/<area>/` is no path)
    const docs = ['docs/architecture.md', 'docs/behaviour.md', 'docs/api.md', 'docs/operations.md', 'README.md']
    const named = docs.flatMap((doc) => [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/`(src\/[^`\s<>*]*)`/g)].map((m) => [doc, m[1]] as const))
    expect(named.length).toBeGreaterThan(100)
    expect(named.filter(([, path]) => !existsSync(join(ROOT, path))).map(([doc, path]) => `${doc}: ${path}`)).toEqual([])
  })

  it('cites in comments only documents the repository holds', () => {
    const missing: string[] = []
    for (const file of files) {
      const comments = readFileSync(join(ROOT, file), 'utf8').match(/\/\*[\s\S]*?\*\/|\/\/.*$/gm) ?? []
      for (const m of comments.join('\n').matchAll(/\b((?:docs\/)?[A-Za-z-]+\.md)\b/g)) {
        const doc = m[1].includes('/') ? m[1] : m[1] === 'README.md' ? 'README.md' : `docs/${m[1]}`
        if (!existsSync(join(ROOT, doc)) && !existsSync(join(ROOT, m[1]))) missing.push(`${file}: ${m[1]}`)
      }
    }
    expect(missing).toEqual([])
  })
})

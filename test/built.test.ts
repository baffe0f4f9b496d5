import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module of bin/, without types
import { distState, ensureBuilt } from '../bin/built.mjs'

/** a checkout's layout: src/ and dist/cli.js, with the times given (seconds) */
function checkout(src: number | undefined, dist: number | undefined): string {
  const root = mkdtempSync(join(tmpdir(), 'paysandbox-built-'))
  if (src !== undefined) {
    mkdirSync(join(root, 'src', 'cards'), { recursive: true })
    writeFileSync(join(root, 'src', 'cards', 'service.ts'), '')
    utimesSync(join(root, 'src', 'cards', 'service.ts'), src, src)
  }
  if (dist !== undefined) {
    mkdirSync(join(root, 'dist'))
    writeFileSync(join(root, 'dist', 'cli.js'), '')
    utimesSync(join(root, 'dist', 'cli.js'), dist, dist)
  }
  return root
}

describe('whether dist/ is the build of the sources (bin/built.mjs, docs/behaviour.md#package-and-start)', () => {
  it('an installed package (no src/) is run as packed; a checkout is missing, stale or built', () => {
    expect(distState(checkout(undefined, 1000))).toBe('package')
    expect(distState(checkout(1000, undefined))).toBe('missing')
    expect(distState(checkout(2000, 1000))).toBe('stale')
    expect(distState(checkout(1000, 2000))).toBe('built')
  })

  it('builds nothing and says nothing when dist/ is up to date or packed', () => {
    const said: string[] = []
    expect(ensureBuilt(checkout(1000, 2000), (line: string) => said.push(line))).toBe('built')
    expect(ensureBuilt(checkout(undefined, 2000), (line: string) => said.push(line))).toBe('package')
    expect(said).toEqual([])
  })

  it('a checkout without node_modules says to run npm ci rather than fail in the build', () => {
    expect(() => ensureBuilt(checkout(1000, undefined), () => {})).toThrow(/dist\/ is missing and there is no node_modules to build it with: run npm ci in .* first/)
  })
})

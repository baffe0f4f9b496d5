import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './action.js'
import { run } from './reach.js'

/**
 * `npm run image`'s script (scripts/image.mjs) when a tool it runs is missing, fails or is too old:
 * one `image: ...` line and exit 1, never a stack trace. The tools are stand-ins on a PATH of the
 * test's own (real programs, run by the real script); none of these reaches docker.
 */

/** A directory of stand-in programs (`name` -> shell script body), for PATH. */
function tools(scripts: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'image-tools-'))
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`)
    chmodSync(join(dir, name), 0o755)
  }
  return dir
}

/** npm run image's script, with only the tools of `path` on its PATH. */
const image = (path: string) => run(process.execPath, [join(ROOT, 'scripts', 'image.mjs'), '--tag', 'paysandbox:never-built'], { PATH: path })

const GLIBC_LDD = 'if [ "$1" = --version ]; then echo "ldd (GNU libc) 2.36"; exit 0; fi\nexec /usr/bin/ldd "$@"'

describe('scripts/image.mjs and the tools it runs (docs/architecture.md, "The container image")', () => {
  it.each([
    ['no ldd', {}, 'image: cannot run ldd: it is not installed (or not on PATH)\n'],
    ['glibc older than 2.34', { ldd: 'echo "ldd (Ubuntu GLIBC 2.31-0ubuntu9.9) 2.31"' }, 'image: glibc 2.31 is too old: the image needs 2.34 or later, whose libc holds the files and dns name lookups (docs/architecture.md, "The container image")\n'],
    ['musl', { ldd: 'echo "musl libc (x86_64)" >&2; exit 1' }, 'image: ldd --version names no glibc ("musl libc (x86_64)"): the image is built from a node linked against glibc 2.34 or later\n'],
    ['npm ls exits non-zero', { ldd: GLIBC_LDD, strip: 'exit 0', npm: 'echo "npm error missing: hono@4" >&2; exit 3' }, 'image: npm ls --omit=dev --all --parseable failed (exit 3): npm error missing: hono@4\n'],
    ['no npm', { ldd: GLIBC_LDD, strip: 'exit 0' }, 'image: cannot run npm: it is not installed (or not on PATH)\n'],
  ] as const)('%s: one image: line, exit 1', async (_label, scripts, line) => {
    const res = await image(tools(scripts))
    expect(res.stderr).toBe(line)
    expect(res.code).toBe(1)
  })
})

import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { ROOT } from './chromium.js'

/**
 * `npm run docs:screenshots` (scripts/docs-screenshots.mjs): the README's pictures of the checkout
 * page and the dashboard come from a real run, the CLI and Debian's Chromium; here into a
 * directory of the test's own, so docs/images/ is left as committed.
 */

const run = promisify(execFile)

/** a PNG's width and height, from its header */
function size(file: string): [number, number] {
  const png = readFileSync(file)
  expect(png.subarray(1, 4).toString()).toBe('PNG')
  return [png.readUInt32BE(16), png.readUInt32BE(20)]
}

describe('npm run docs:screenshots', () => {
  it('takes the checkout page and the dashboard from a real run', async () => {
    const out = mkdtempSync(join(tmpdir(), 'paysandbox-shots-'))
    const { stdout } = await run(process.execPath, [join(ROOT, 'scripts/docs-screenshots.mjs'), '--out', out], { cwd: ROOT })
    expect(stdout.trim().split('\n')).toEqual([join(out, 'checkout.png'), join(out, 'dashboard.png')])
    expect(size(join(out, 'checkout.png'))).toEqual([1100, 1000])
    expect(size(join(out, 'dashboard.png'))).toEqual([1280, 1000])
    // the committed ones are the script's, at its sizes
    expect(size(join(ROOT, 'docs/images/checkout.png'))).toEqual([1100, 1000])
    expect(size(join(ROOT, 'docs/images/dashboard.png'))).toEqual([1280, 1000])
  })
})

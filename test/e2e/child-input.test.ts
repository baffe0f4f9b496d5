import { describe, expect, it } from 'vitest'
import { runCli } from './process.js'
import { run } from './reach.js'

/**
 * The helpers that feed a child its stdin never fail a run whose tests pass: a child that exits
 * without reading its input makes the write fail with EPIPE (on a busy machine even a small input
 * can meet a child already gone), which was an unhandled error, and the suite exited 1 with every
 * test green. Here the input is larger than a pipe holds, so the child always exits first.
 */

const MORE_THAN_A_PIPE = 'x'.repeat(4 << 20)

describe('a child that exits without reading its stdin', () => {
  it('runCli: the exit code and output, no unhandled EPIPE', async () => {
    const res = await runCli(['--version'], MORE_THAN_A_PIPE)
    expect(res.code).toBe(0)
    expect(res.stdout).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('run (the reach tests): the exit code, no unhandled EPIPE', async () => {
    const res = await run(process.execPath, ['-e', 'process.exit(3)'], {}, MORE_THAN_A_PIPE)
    expect(res.code).toBe(3)
  })
})

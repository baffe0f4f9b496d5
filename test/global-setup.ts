import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Every temporary file of a test run (data files, pack files, detached sandboxes' logs, what the
 * CLI processes under test write) goes into one directory, removed when the run ends: the test
 * workers and the processes they start take it as their TMPDIR (os.tmpdir() reads it).
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'paysandbox-test-'))
  process.env.TMPDIR = root
  return () => rmSync(root, { recursive: true, force: true })
}

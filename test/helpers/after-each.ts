import { afterEach } from 'vitest'
import { startReceiver } from './receiver.js'
import { makeSandbox, type TestSandbox } from './sandbox.js'

/** Something a test opened and must undo. */
export type Cleanup = () => Promise<unknown> | unknown

/** What a test file's tests push to undo: run after each test, the last pushed first. */
export function cleanedAfterEach(): Cleanup[] {
  const cleanups: Cleanup[] = []
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!()
  })
  return cleanups
}

/**
 * A test file whose every test gets a sandbox of its own (makeSandbox over `defaults`, then the
 * test's own input) and real webhook receivers of its own, each closed after its test with
 * whatever else the test pushed to `cleanups`: clocks, timers, events and webhook URLs never mix.
 */
export function ownPerTest(defaults: Parameters<typeof makeSandbox>[0] = {}) {
  const cleanups = cleanedAfterEach()
  return {
    cleanups,
    async sandbox(input: Parameters<typeof makeSandbox>[0] = {}): Promise<TestSandbox> {
      const sb = await makeSandbox({ ...defaults, ...input })
      cleanups.push(() => sb.close())
      return sb
    },
    async receiver(...args: Parameters<typeof startReceiver>) {
      const r = await startReceiver(...args)
      cleanups.push(() => r.close())
      return r
    },
  }
}

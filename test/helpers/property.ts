import fc from 'fast-check'
import { makeSandbox, type TestSandbox } from './sandbox.js'

/**
 * A property over the ledger: fast-check draws sequences of 10 to 40 `op`s, and `run` plays each
 * in a frozen-clock sandbox of its own, closed after it (`params`: the runs and the seed).
 */
export async function assertOverSandboxes<T>(op: fc.Arbitrary<T>, run: (sb: TestSandbox, ops: T[]) => Promise<void>, params: fc.Parameters<[T[]]>): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 40, size: 'medium' }), async (ops) => {
      const sb = await makeSandbox({ frozen: true })
      try {
        await run(sb, ops)
      } finally {
        await sb.close()
      }
    }),
    params,
  )
}

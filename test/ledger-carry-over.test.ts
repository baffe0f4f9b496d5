import { copyFileSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FORMAT } from '../src/store/recovery.js'
import { makeSandbox, tempFile, type TestSandbox } from './helpers/sandbox.js'
// @ts-expect-error: plain JavaScript shared with make.mjs, which runs with the old build
import { KEY, runProbes } from './fixtures/ledger-v1/probes.mjs'
import { answers, probesNow, readAsThen } from './helpers/ledger-v1.js'

/**
 * A data file written by the build that kept ledger entries on their records (format 1), opened
 * by this one (docs/behaviour.md#persistence, docs/behaviour.md#ledger-and-balances): `fixtures/ledger-v1/make.mjs` made it over HTTP
 * (card charges, one settled early, a pre-authorization's captures, settled and voided, a wallet
 * charge, a bank transfer, refunds and payouts that succeeded and failed, a funding) and noted
 * what that build answered, before and after the calls of `probes.mjs`.
 */

const FIXTURE = new URL('./fixtures/ledger-v1/', import.meta.url)

const caller = (sb: TestSandbox) => (method: string, path: string, body?: unknown) => sb.call(method, path, body, { key: KEY })

function copyOfFixture(): string {
  const file = tempFile()
  copyFileSync(new URL('data.json', FIXTURE), file)
  return file
}

describe('a data file of format 1 carried over (docs/behaviour.md#persistence, docs/behaviour.md#ledger-and-balances)', () => {
  it('reads the balances, the history and the lists as the build that wrote it answered them', async () => {
    const file = copyOfFixture()
    const sb = await makeSandbox({ data: file })
    try {
      expect(await readAsThen(caller(sb))).toEqual(answers.before)
    } finally {
      await sb.close()
    }
    // written whole once in this format: no record keeps an entry of its own, every entry is one record
    const doc = JSON.parse(readFileSync(file, 'utf8'))
    expect(doc.paysandbox).toBe(FORMAT)
    const cols = doc.snapshot[KEY]
    for (const name of ['charges', 'card_ops', 'refunds', 'payouts']) {
      for (const record of Object.values<Record<string, unknown>>(cols[name])) {
        expect(Object.keys(record)).not.toContain('ledger')
        expect(Object.keys(record)).not.toContain('settled_early')
      }
    }
    // the 19 entries listed (the opening balances aside) and 5 pending: a card charge, a capture settled
    // early (its credit and the debit that takes it back), a capture voided (its credit and its debit)
    expect(Object.keys(cols.ledger)).toHaveLength(24)
    // opened again: as it is, nothing carried over twice
    const again = await makeSandbox({ data: file })
    try {
      expect(await readAsThen(caller(again))).toEqual(answers.before)
    } finally {
      await again.close()
    }
  })

  it('refuses and accepts refunds, payouts and early settlements as that build did, and reads the same after them', async () => {
    const file = copyOfFixture()
    const sb = await makeSandbox({ data: file })
    const call = caller(sb)
    try {
      expect(await runProbes(call)).toEqual(probesNow)
      expect(await readAsThen(call)).toEqual(answers.after)
    } finally {
      await sb.close()
    }
    const again = await makeSandbox({ data: file })
    try {
      expect(await readAsThen(caller(again))).toEqual(answers.after)
    } finally {
      await again.close()
    }
  })
})

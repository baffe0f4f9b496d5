import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FORMAT } from '../src/store/recovery.js'
import { SECRET, cardPayload, makeSandbox, tempFile } from './helpers/sandbox.js'

/**
 * A data file of format 3 whose namespace still holds the event counter earlier builds stored in
 * `meta` (`event_seq`), opened by this build (docs/behaviour.md#persistence): the counter is carried into
 * the newest event, so events go on being numbered after it, and the record is gone.
 */

/** where format 3 may hold the old counter: a change of the namespace's meta record `event_seq` */
const OLD_COUNTER = { c: 'meta', k: 'event_seq' }

/** Makes a data file as format 3 wrote it: `charges` card charges, then the counter at `n`. */
async function oldFile(charges: number, n: number): Promise<string> {
  const file = tempFile()
  const first = await makeSandbox({ data: file })
  try {
    for (let i = 0; i < charges; i++) expect((await first.charge(cardPayload('4084127883172787'))).status).toBe(200)
  } finally {
    await first.close()
  }
  const doc = JSON.parse(readFileSync(file, 'utf8'))
  writeFileSync(file, JSON.stringify({ ...doc, paysandbox: 3, deltas: [...doc.deltas, { ...OLD_COUNTER, n: SECRET, v: { n } }] }))
  return file
}

async function seqsAfterACharge(file: string): Promise<number[]> {
  const again = await makeSandbox({ data: file })
  try {
    expect((await again.charge(cardPayload('4084127883172787'))).status).toBe(200)
    expect(again.deps.store.col(SECRET, 'meta').has('event_seq')).toBe(false)
    return again.deps.events.list(SECRET).map((e) => e.seq)
  } finally {
    await again.close()
  }
}

describe('a data file of format 3 with the old event counter carried over (docs/behaviour.md#persistence)', () => {
  it('numbers the next event after the counter, the events kept in their order', async () => {
    const file = await oldFile(2, 41)
    expect(await seqsAfterACharge(file)).toEqual([1, 41, 42])
    const doc = JSON.parse(readFileSync(file, 'utf8'))
    expect(doc.paysandbox).toBe(FORMAT)
    expect(JSON.stringify(doc)).not.toContain('"event_seq"')
  })

  it('drops a counter behind the newest event, and one with no event left to follow', async () => {
    expect(await seqsAfterACharge(await oldFile(3, 2))).toEqual([1, 2, 3, 4])
    expect(await seqsAfterACharge(await oldFile(0, 7))).toEqual([1])
  })
})

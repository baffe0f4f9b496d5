import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FORMAT } from '../src/store/recovery.js'
import { makeSandbox, ref, tempFile } from './helpers/sandbox.js'

/**
 * A data file of format 4, which kept a voucher's PIN on its charge and keyed the redeemed
 * vouchers by it, opened by this build (docs/behaviour.md#persistence, docs/behaviour.md#request-journal): the PIN is gone from the
 * file, written whole in this format, and the voucher is still refused as used.
 */

const PIN = '1168648096792943'
const voucher = (reference: string, pin = PIN) => ({
  amount: 100, currency: 'ZAR', reference, voucher: { pin, phone_number: '+270576847568', provider_code: '0001' }, customer: { email: 'johndoe@example.com', name: 'John Doe' },
})
const PATH = '/merchant/api/v1/charge/voucher'

/** Makes a data file as format 4 wrote it: one voucher charged, its PIN on the charge and as the redeemed voucher's key. */
async function oldFile(): Promise<string> {
  const file = tempFile()
  const first = await makeSandbox({ data: file })
  try {
    expect((await first.call('POST', PATH, voucher(ref('v4')))).status).toBe(200)
    await first.deps.store.compact()
  } finally {
    await first.close()
  }
  const doc = JSON.parse(readFileSync(file, 'utf8'))
  for (const cols of Object.values(doc.snapshot) as Record<string, Record<string, any>>[]) {
    for (const c of Object.values(cols.charges ?? {})) if (c.kind === 'voucher') c.voucher.pin = PIN
    if (cols.vouchers_redeemed) {
      const [r] = Object.values(cols.vouchers_redeemed)
      cols.vouchers_redeemed = { [PIN]: { pin: PIN, transaction_reference: r.transaction_reference } }
    }
  }
  writeFileSync(file, JSON.stringify({ ...doc, paysandbox: 4 }))
  expect(readFileSync(file, 'utf8')).toContain(PIN)
  return file
}

describe('a data file of format 4 with voucher PINs carried over (docs/behaviour.md#persistence)', () => {
  it('keeps no PIN, writes the file in this format, and the voucher stays used', async () => {
    const file = await oldFile()
    const again = await makeSandbox({ data: file })
    try {
      expect(await again.call('POST', PATH, voucher(ref('v5')))).toMatchObject({ status: 400, body: { message: 'The voucher has already been used' } })
      expect((await again.call('POST', PATH, voucher(ref('v5'), '1000000000000100'))).status).toBe(200)
    } finally {
      await again.close()
    }
    const text = readFileSync(file, 'utf8')
    expect(JSON.parse(text).paysandbox).toBe(FORMAT)
    expect(text).not.toContain(PIN)
    expect(text).not.toContain('1000000000000100')
  })
})

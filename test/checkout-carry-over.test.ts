import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FORMAT } from '../src/store/recovery.js'
import { makeSandbox, ref, tempFile } from './helpers/sandbox.js'

/**
 * A data file of format 2, whose checkouts did not keep what their customer paid, opened by this
 * build (docs/behaviour.md#persistence, docs/behaviour.md#checkout): a paid checkout reads its amount as paid, as format 2
 * answered it, and refunds as it did; an open one is paid as any.
 */

describe('a data file of format 2 carried over (docs/behaviour.md#persistence)', () => {
  it('gives each checkout what its customer paid as format 2 answered it', async () => {
    const file = tempFile()
    const paid = ref('co')
    const open = ref('co')
    const first = await makeSandbox({ data: file, frozen: true })
    try {
      for (const reference of [paid, open]) {
        const res = await first.call('POST', '/merchant/api/v1/charges/initialize', { reference, amount: 1500, currency: 'NGN', customer: { email: 'a@b.co' } })
        expect(res.status).toBe(200)
      }
      expect((await first.call('POST', `/_sandbox/checkouts/${paid}/pay`, { channel: 'card' })).status).toBe(200)
    } finally {
      await first.close()
    }
    // the file as format 2 wrote it: no checkout holds the two fields
    const doc = JSON.parse(readFileSync(file, 'utf8'))
    const records = [...Object.values<any>(doc.snapshot).flatMap((cols) => Object.values<any>(cols.charges ?? {})), ...doc.deltas.map((d: any) => d.v).filter(Boolean)]
    for (const r of records) if (r.kind === 'checkout') for (const f of ['amount_paid', 'cost_borne']) delete r[f]
    writeFileSync(file, JSON.stringify({ ...doc, paysandbox: 2 }))

    const again = await makeSandbox({ data: file, frozen: true })
    try {
      expect((await again.call('GET', `/merchant/api/v1/charges/${paid}`)).body.data).toMatchObject({ status: 'success', amount: '1500.00', amount_paid: '1500.00' })
      expect((await again.call('GET', `/merchant/api/v1/charges/${open}`)).body.data).toMatchObject({ status: 'pending', amount_paid: '0.00' })
      expect((await again.call('POST', `/_sandbox/checkouts/${open}/pay`, { channel: 'card' })).status).toBe(200)
      expect((await again.call('GET', `/merchant/api/v1/charges/${open}`)).body.data).toMatchObject({ status: 'success', amount_paid: '1500.00' })
      await again.call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
      const refund = await again.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: paid, reference: ref('rf') })
      expect(refund.body.data).toMatchObject({ amount_returned: 1500 })
    } finally {
      await again.close()
    }
    expect(JSON.parse(readFileSync(file, 'utf8')).paysandbox).toBe(FORMAT)
  })
})

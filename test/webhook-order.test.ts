import { createHmac } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { SECRET, cardPayload, ref, sandboxPerTest, type TestSandbox } from './helpers/sandbox.js'
import { startReceiver, type Received } from './helpers/receiver.js'

/**
 * Webhook `data` keys in the order the service's Webhooks page prints them (docs/behaviour.md#webhook-payloads),
 * read from the raw text a real receiver got: a client that parses `data`, re-serializes it and
 * then checks the signature (one public client does) gets the signed bytes back only so.
 */

const sandbox = sandboxPerTest()
const M = '/merchant/api/v1'
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = []
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close()
})

const CHARGE = ['fee', 'amount', 'status', 'currency', 'reference', 'payment_method', 'payment_reference', 'transaction_reference', 'metadata']
const VBA = ['fee', 'amount', 'status', 'currency', 'reference', 'transaction_date', 'payment_reference', 'virtual_bank_account_details', 'payment_method', 'transaction_reference', 'metadata']
const REFUND = ['amount', 'status', 'currency', 'reference', 'payment_reference', 'refund_date', 'completion_date', 'status_reason', 'payment_method', 'created_at', 'completed_at']
const CARD_REFUND = ['amount', 'status', 'currency', 'reference', 'payment_reference', 'target_transaction_reference', 'payment_method']
const PAYOUT_OK = ['fee', 'amount', 'status', 'currency', 'reference', 'narration', 'trace_id']
const PAYOUT_FAILED = ['fee', 'amount', 'status', 'currency', 'reference', 'narration', 'reason']
const BULK_ITEM = ['fee', 'amount', 'status', 'currency', 'reference', 'batch_reference', 'narration', 'trace_id']

/** The keys of the `data` object at the top of a delivered body, in the order of its raw text. */
function rawDataKeys(raw: string): string[] {
  const data = raw.slice(raw.indexOf('"data":') + '"data":'.length, -1)
  // JSON.parse keeps the text's order for keys that are not array indexes
  return Object.keys(JSON.parse(data))
}

async function hooked(sb: TestSandbox) {
  const hook = await startReceiver()
  receivers.push(hook)
  await sb.call('PUT', '/_sandbox/webhook-url', { url: hook.url })
  return hook
}
const advance = (sb: TestSandbox, seconds: number) => sb.call('POST', '/_sandbox/clock/advance', { seconds })

/** the delivery of an event, as received */
async function deliveryOf(hook: Awaited<ReturnType<typeof startReceiver>>, event: string, reference: string): Promise<Received> {
  for (let n = 1; ; n++) {
    await hook.waitFor(n)
    const got = hook.received[n - 1]
    if (got.body.event === event && [got.body.data.reference, got.body.data.payment_reference].includes(reference)) return got
  }
}

/** its keys in order, and a re-serializing receiver's check passes */
function expectOrder(got: Received, keys: string[]) {
  expect(rawDataKeys(got.raw)).toEqual(keys)
  const again = JSON.stringify(JSON.parse(got.raw).data)
  expect(got.raw).toBe(`{"event":"${got.body.event}","data":${again}}`)
  expect(got.headers['x-korapay-signature']).toBe(createHmac('sha256', SECRET).update(again).digest('hex'))
}

describe('webhook data keys in the documented order, as delivered', () => {
  it('charge.success and charge.failed: a card charge, a checkout, a mobile-money charge, pay with bank', async () => {
    const sb = await sandbox({ frozen: true })
    const hook = await hooked(sb)
    const ok = cardPayload('4084127883172787', { amount: 1000 })
    await sb.charge(ok)
    expectOrder(await deliveryOf(hook, 'charge.success', ok.reference), CHARGE)
    const failed = cardPayload('4084080000100001')
    await sb.charge(failed)
    expectOrder(await deliveryOf(hook, 'charge.failed', failed.reference), CHARGE)
    const co = { reference: ref('co'), amount: 700, currency: 'NGN', customer: { email: 'a@b.co' } }
    await sb.call('POST', `${M}/charges/initialize`, co)
    await sb.call('POST', `/_sandbox/checkouts/${co.reference}/pay`, { channel: 'card' })
    // the Checkout Redirect page prints another order; the Webhooks page decides
    expectOrder(await deliveryOf(hook, 'charge.success', co.reference), CHARGE)
    const mm = { reference: ref('mm'), amount: 100, currency: 'KES', customer: { email: 'w@example.com' }, mobile_money: { number: '254700000000' } }
    await sb.call('POST', `${M}/charges/mobile-money`, mm)
    await sb.call('POST', `/_sandbox/charges/${mm.reference}/complete`, { outcome: 'success' })
    expectOrder(await deliveryOf(hook, 'charge.success', mm.reference), CHARGE)
    const pwb = { reference: ref('pwb'), amount: 1000, currency: 'NGN', bank_code: '100004', customer: { name: 'Ada Obi', email: 'ada@example.com' } }
    await sb.call('POST', `${M}/charge/pay-with-bank`, pwb)
    await sb.call('POST', `/_sandbox/charges/${pwb.reference}/complete`, { outcome: 'failed' })
    expectOrder(await deliveryOf(hook, 'charge.failed', pwb.reference), CHARGE)
  })

  it('charge.success of a transfer into a virtual account, its nested objects in order too', async () => {
    const sb = await sandbox({ frozen: true })
    const hook = await hooked(sb)
    const vba = (await sb.call('POST', `${M}/virtual-bank-account`, { account_name: 'Ada Obi', account_reference: ref('vba'), permanent: true, bank_code: '000', customer: { name: 'Ada Obi' }, kyc: { bvn: '22222222222' } })).body.data
    await sb.call('POST', `${M}/virtual-bank-account/sandbox/credit`, { account_number: vba.account_number, amount: 1000, currency: 'NGN' })
    await hook.waitFor(1)
    const got = hook.received[0]
    expectOrder(got, VBA)
    const details = JSON.parse(got.raw).data.virtual_bank_account_details
    expect(Object.keys(details)).toEqual(['payer_bank_account', 'virtual_bank_account'])
    expect(Object.keys(details.payer_bank_account)).toEqual(['bank_name', 'account_name', 'account_number'])
    expect(Object.keys(details.virtual_bank_account)).toEqual(['bank_name', 'permanent', 'account_name', 'account_number', 'account_reference'])
  })

  it('refund.success and refund.failed of the refunds API, and refund.success of the card endpoint', async () => {
    const sb = await sandbox({ frozen: true })
    const hook = await hooked(sb)
    const pay = cardPayload('4084127883172787', { amount: 3000 })
    const tx = (await sb.charge(pay)).body.data.transaction_reference
    await advance(sb, 24 * 3600)
    const good = ref('rf')
    expect((await sb.call('POST', `${M}/refunds/initiate`, { payment_reference: pay.reference, reference: good, amount: 500 })).status).toBe(200)
    const bad = ref('rf')
    expect((await sb.call('POST', `${M}/refunds/initiate`, { payment_reference: pay.reference, reference: bad, amount: 500, completion_status: 'failed', status_reason: 'Account closed' })).status).toBe(200)
    await advance(sb, 60)
    expectOrder(await deliveryOf(hook, 'refund.success', good), REFUND)
    expectOrder(await deliveryOf(hook, 'refund.failed', bad), REFUND)
    const crf = ref('crf')
    expect((await sb.call('POST', `${M}/charges/card/refund`, { payment_reference: pay.reference, target_transaction_reference: tx, transaction_reference: crf, amount: 500, currency: 'NGN' })).status).toBe(200)
    expectOrder(await deliveryOf(hook, 'refund.success', crf), CARD_REFUND)
  })

  it('transfer.success and transfer.failed of a payout and of a bulk item', async () => {
    const sb = await sandbox({ frozen: true })
    const hook = await hooked(sb)
    const payout = (reference: string, bank: string) =>
      sb.call('POST', `${M}/transactions/disburse`, { reference, destination: { type: 'bank_account', amount: 1000, currency: 'NGN', narration: 'Salary', bank_account: { bank, account: '0000000000' }, customer: { email: 'ada@example.com' } } })
    const ok = ref('po')
    const failed = ref('po')
    expect((await payout(ok, '033')).status).toBe(200)
    expect((await payout(failed, '035')).status).toBe(200)
    const item = () => ({ reference: ref('bi'), amount: 1000, type: 'bank_account', narration: 'Bulk', bank_account: { bank_code: '033', account_number: '0000000000' }, customer: { name: 'Payee', email: 'p@example.com' } })
    const items = [item(), item()]
    const bulk = await sb.call('POST', `${M}/transactions/disburse/bulk`, { batch_reference: ref('batch'), description: 'Salaries', currency: 'NGN', payouts: items })
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200)
    await advance(sb, 60)
    expectOrder(await deliveryOf(hook, 'transfer.success', ok), PAYOUT_OK)
    expectOrder(await deliveryOf(hook, 'transfer.failed', failed), PAYOUT_FAILED)
    expectOrder(await deliveryOf(hook, 'transfer.success', items[0].reference), BULK_ITEM)
  })
})

import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, ref } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { caller, frozenWithData } from './caller.js'
import { killedAfterEach } from './process.js'

/**
 * Refunds against the real CLI (docs/behaviour.md#refunds): signed refund.success / refund.failed
 * webhooks to a real receiver (the namespace URL and a refund's own webhook_url), and refunds
 * with their ledger entries back after kill -9 and a restart with --data.
 */

const { cleanups, spawnCli } = killedAfterEach()
const merchantSignature = (data: unknown) => createHmac('sha256', SECRET).update(JSON.stringify(data)).digest('hex')

/** A card charge of 1,000, settled by the control call. */
async function settledCharge(call: ReturnType<typeof caller>): Promise<string> {
  const p = cardPayload('4084127883172787', { amount: 1000 })
  expect((await call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(p, ENC_KEY) })).body.data.status).toBe('success')
  expect((await call('POST', `/_sandbox/captures/${p.reference}/settle`)).status).toBe(200)
  return p.reference as string
}

describe('refund webhooks to a real receiver', () => {
  it('refund.success to the namespace URL and refund.failed to the refund webhook_url, both signed as a merchant checks them', async () => {
    const cli = await spawnCli([])
    const call = caller(cli.url)
    const ns = await startReceiver()
    const own = await startReceiver()
    cleanups.push(() => ns.close(), () => own.close())
    await call('POST', '/_sandbox/clock/freeze', { frozen: true })
    expect((await call('PUT', '/_sandbox/webhook-url', { url: ns.url })).status).toBe(200)
    const pay = await settledCharge(call)
    await ns.waitFor(1) // charge.success
    const ok = ref('rf-ok')
    const bad = ref('rf-bad')
    expect((await call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: pay, reference: ok, amount: 300 })).status).toBe(200)
    expect((await call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: pay, reference: bad, amount: 200, completion_status: 'failed', status_reason: 'Account closed', webhook_url: own.url })).status).toBe(200)
    await call('POST', '/_sandbox/clock/advance', { seconds: 60 })
    await ns.waitFor(2)
    await own.waitFor(1)
    const success = ns.received[1]
    expect(success.body).toMatchObject({ event: 'refund.success', data: { reference: ok, payment_reference: pay, amount: 300, currency: 'NGN', status: 'success', payment_method: 'card' } })
    expect(success.headers['x-korapay-signature']).toBe(merchantSignature(success.body.data))
    const failed = own.received[0]
    expect(failed.body).toMatchObject({ event: 'refund.failed', data: { reference: bad, status: 'failed', status_reason: 'Account closed', amount: 200 } })
    expect(failed.body.data.refund_date).toBe(failed.body.data.created_at)
    expect(failed.body.data.completion_date).toBe(failed.body.data.completed_at)
    expect(failed.headers['x-korapay-signature']).toBe(merchantSignature(failed.body.data))
    expect(ns.received).toHaveLength(2)
  })
})

describe('refunds with --data', () => {
  it('refunds, their state and their ledger entries come back after kill -9; a processing one completes after the restart', async () => {
    let { file, cli: first, call } = await frozenWithData(spawnCli)
    const pay = await settledCharge(call)
    const done = ref('rf-done')
    const failed = ref('rf-failed')
    const pending = ref('rf-pending')
    await call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: pay, reference: done, amount: 100 })
    await call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: pay, reference: failed, amount: 150, completion_status: 'failed' })
    await call('POST', '/_sandbox/clock/advance', { seconds: 60 })
    await call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: pay, reference: pending, amount: 200 })
    const balances = (await call('GET', '/merchant/api/v1/balances')).body.data
    // 5,000,000 + the charge's 984.95 (settled by the control call: its credit available at once), less 100 and 200
    expect(balances.NGN).toEqual({ pending_balance: 0, available_balance: 5_000_684.95 })
    const list = (await call('GET', '/merchant/api/v1/refunds')).body.data
    expect(list.refunds.map((r: any) => [r.reference, r.status])).toEqual([[pending, 'processing'], [failed, 'failed'], [done, 'success']])
    first.child.kill('SIGKILL')
    await first.exited

    const second = await spawnCli(['--data', file])
    call = caller(second.url)
    expect((await call('GET', '/merchant/api/v1/balances')).body.data).toEqual(balances)
    expect((await call('GET', '/merchant/api/v1/refunds')).body.data).toEqual(list)
    // what is left still counts the refunds made before the restart
    const over = await call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: pay, reference: ref('rf'), amount: 800 })
    expect(over.body.message).toBe('The maximum refundable amount for this transaction is NGN 700.00')
    await call('POST', '/_sandbox/clock/advance', { seconds: 60 })
    expect((await call('GET', `/merchant/api/v1/refunds/${pending}`)).body.data.status).toBe('success')
  })
})

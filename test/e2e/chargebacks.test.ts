import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, ref } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { caller, frozenWithData } from './caller.js'
import { killedAfterEach } from './process.js'

/**
 * Chargebacks against the real CLI (docs/behaviour.md#chargebacks): the lifecycle end to end with signed
 * webhooks to a real receiver, an answer racing refunds over real sockets on one charge, and a
 * chargeback opened before kill -9 debited once after the restart with --data.
 */

const { cleanups, spawnCli } = killedAfterEach()
const merchantSignature = (data: unknown) => createHmac('sha256', SECRET).update(JSON.stringify(data)).digest('hex')
const HOUR = 3600

/** A card charge of `amount` NGN (of `card`), settled by the control call; its payment reference. */
async function settledCharge(call: ReturnType<typeof caller>, amount = 1000, card = '4084127883172787'): Promise<string> {
  const p = cardPayload(card, { amount })
  expect((await call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(p, ENC_KEY) })).body.data.status).toBe('success')
  expect((await call('POST', `/_sandbox/captures/${p.reference}/settle`)).status).toBe(200)
  return p.reference as string
}

const chargebackRows = async (call: ReturnType<typeof caller>) =>
  ((await call('GET', '/merchant/api/v1/balances/history?currency=NGN&limit=100')).body.data.history as any[]).filter((h) => h.source === 'chargeback')

describe('the chargeback lifecycle through the CLI', () => {
  it('the disputed test card and the control call open chargebacks; a declined one and one left past its deadline, with balance, history and signed webhooks', async () => {
    const cli = await spawnCli([])
    const call = caller(cli.url)
    const hook = await startReceiver()
    cleanups.push(() => hook.close())
    await call('POST', '/_sandbox/clock/freeze', { frozen: true })
    expect((await call('PUT', '/_sandbox/webhook-url', { url: hook.url })).status).toBe(200)
    const disputed = await settledCharge(call, 2000, '4084080009900005')
    await hook.waitFor(2) // charge.success, chargeback.pending
    expect(hook.received.map((r) => r.body.event)).toEqual(['charge.success', 'chargeback.pending'])
    const pending = hook.received[1]
    expect(pending.body.data).toMatchObject({ status: 'pending', amount: 2000, currency: 'NGN', payment: { reference: disputed } })
    expect(pending.headers['x-korapay-signature']).toBe(merchantSignature(pending.body.data))
    const auto = pending.body.data.reference as string

    const other = await settledCharge(call, 1000)
    await hook.waitFor(3)
    const opened = await call('POST', `/_sandbox/charges/${other}/chargeback`, { amount: 400, reason: 'fraudulent' })
    expect(opened.status).toBe(200)
    const declined = opened.body.data.reference as string
    await hook.waitFor(4)
    const before = (await call('GET', '/merchant/api/v1/balances')).body.data.NGN
    const answer = await call('PATCH', `/api/v1/chargebacks/${declined}`, { status: 'declined', evidence: 'KPY-DOC-9', reason: 'delivered, signed for' })
    expect(answer.body).toMatchObject({ status: true, message: 'Chargeback updated successfully', data: { status: 'declined' } })
    await hook.waitFor(5)
    expect(hook.received[4].body).toMatchObject({ event: 'chargeback.declined', data: { reference: declined } })

    // 24 h: the unanswered one is accepted and debited; 48 h after the answer the declined one is won
    await call('POST', '/_sandbox/clock/advance', { seconds: 48 * HOUR })
    await hook.waitFor(6)
    expect(hook.received[5].body).toMatchObject({ event: 'chargeback.auto_accepted', data: { reference: auto, status: 'auto_accepted' } })
    expect((await call('GET', `/merchant/api/v1/chargebacks/${auto}`)).body.data).toMatchObject({ status: 'auto_accepted', debited_amount: '2000.00' })
    expect((await call('GET', `/merchant/api/v1/chargebacks/${declined}`)).body.data).toMatchObject({ status: 'won', debited_amount: '0.00' })
    expect((await call('GET', '/merchant/api/v1/balances')).body.data.NGN.available_balance).toBe(before.available_balance - 2000)
    const rows = await chargebackRows(call)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ source_reference: auto, amount: '2000.00', direction: 'debit' })
    expect(rows[0].description).toMatch(/^Chargeback deduction for KPY-C/)
    expect(hook.received).toHaveLength(6)
  })
})

describe('an answer racing refunds on one charge', () => {
  it('conserves money over real sockets, and all of it comes back the same after kill -9', async () => {
    let { file, cli: first, call } = await frozenWithData(spawnCli, 20_000)
    const pay = await settledCharge(call, 1000)
    const cb = (await call('POST', `/_sandbox/charges/${pay}/chargeback`, { amount: 500 })).body.data.reference as string
    const start = (await call('GET', '/merchant/api/v1/balances')).body.data.NGN.available_balance
    const refunds = Array.from({ length: 12 }, () => ref('race'))
    const answers = await Promise.all([
      call('PATCH', `/merchant/api/v1/chargebacks/${cb}`, { status: 'accepted' }),
      ...refunds.map((reference) => call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: pay, reference, amount: 100 })),
    ])
    expect(answers[0].status).toBe(200)
    const accepted = answers.slice(1).filter((a) => a.status === 200)
    // 500 held by the chargeback: five refunds of 100 fit, the rest are refused
    expect(accepted).toHaveLength(5)
    // once nothing is left, the refunds API says so as it does after refunds alone
    for (const a of answers.slice(1)) if (a.status !== 200) expect([a.status, a.body.message]).toEqual([409, 'A full reversal has already been processed for this transaction'])
    const state = async () => ({
      balance: (await call('GET', '/merchant/api/v1/balances')).body.data.NGN,
      chargeback: (await call('GET', `/merchant/api/v1/chargebacks/${cb}`)).body.data,
      rows: await chargebackRows(call),
    })
    const before = await state()
    expect(before.balance.available_balance).toBe(start - 500 - 500)
    expect(before.rows).toHaveLength(1)
    first.child.kill('SIGKILL')
    await first.exited
    const second = await spawnCli(['--data', file])
    call = caller(second.url, 20_000)
    expect(await state()).toEqual(before)
    expect((await call('POST', `/_sandbox/charges/${pay}/chargeback`)).status).toBe(409)
  })
})

describe('kill -9 between a chargeback and its debit', () => {
  it('a chargeback opened before the kill is debited once after the restart, at its deadline or at its answer', async () => {
    let { file, cli: first, call } = await frozenWithData(spawnCli)
    const a = await settledCharge(call, 1000)
    const b = await settledCharge(call, 1000)
    const byDeadline = (await call('POST', `/_sandbox/charges/${a}/chargeback`, { amount: 300, deadline_hours: 1 })).body.data.reference as string
    const byAnswer = (await call('POST', `/_sandbox/charges/${b}/chargeback`, { amount: 200 })).body.data.reference as string
    const start = (await call('GET', '/merchant/api/v1/balances')).body.data.NGN.available_balance
    // the disputed test card's chargeback is written with its charge: killed right after the answer, both are kept
    const disputed = cardPayload('4084080009900005', { amount: 700 })
    expect((await call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(disputed, ENC_KEY) })).body.data.status).toBe('success')
    first.child.kill('SIGKILL')
    await first.exited

    const second = await spawnCli(['--data', file])
    call = caller(second.url)
    expect((await call('GET', `/merchant/api/v1/chargebacks/${byDeadline}`)).body.data.status).toBe('pending')
    expect((await call('GET', `/merchant/api/v1/chargebacks?payment_reference=${disputed.reference}`)).body.data.chargebacks).toMatchObject([{ status: 'pending', amount: '700.00' }])
    await call('POST', '/_sandbox/clock/advance', { seconds: HOUR })
    expect((await call('GET', `/merchant/api/v1/chargebacks/${byDeadline}`)).body.data).toMatchObject({ status: 'auto_accepted', debited_amount: '300.00' })
    expect((await call('PATCH', `/api/v1/chargebacks/${byAnswer}`, { status: 'accepted' })).status).toBe(200)
    second.child.kill('SIGKILL')
    await second.exited

    const third = await spawnCli(['--data', file])
    call = caller(third.url)
    await call('POST', '/_sandbox/clock/advance', { seconds: 100 * HOUR })
    // the disputed 700 is credited net (689.46) once settled and debited whole at its deadline
    expect((await call('GET', '/merchant/api/v1/balances')).body.data.NGN.available_balance).toBe(Math.round((start - 500 - 700 + 689.46) * 100) / 100)
    const rows = (await chargebackRows(call)).map((r) => r.amount).sort()
    expect(rows).toEqual(['200.00', '300.00', '700.00'])
  })
})

import { describe, expect, it } from 'vitest'
import { SECRET, ref } from '../helpers.js'
import { killedAfterEach, startCli } from './process.js'

/**
 * docs/behaviour.md 13.4: whoever bears a pay-in's cost, the fee and its VAT are taken once. Issue
 * 35's two figures, against the real CLI: a KES 1,000 wallet payment the customer bears (the
 * customer pays 1,016.13, the merchant is credited 1,000.00, not 983.87) and an NGN 10,000 bank
 * transfer the customer bears (the customer pays 10,150.00, the merchant is credited 9,988.75,
 * not 9,838.75).
 */

const { running } = killedAfterEach()
const headers = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }
const M = '/merchant/api/v1'

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(20_000) })
  return { status: res.status, body: (await res.json()) as any }
}

describe('the fee the customer bears is taken once (docs/behaviour.md 13.4)', () => {
  it('credits the merchant 1,000.00 of a KES 1,000 wallet payment and 9,988.75 of an NGN 10,000 transfer the customer paid the fee of', async () => {
    const cli = await startCli([])
    running.push(cli)
    const { url } = cli
    expect((await call(url, 'POST', '/_sandbox/scenarios', { settings: { opening_balance: 0 } })).status).toBe(200)

    const wallet = ref('mm')
    const mm = await call(url, 'POST', `${M}/charges/mobile-money`, { reference: wallet, amount: 1000, currency: 'KES', merchant_bears_cost: false, customer: { email: 'a@b.co' }, mobile_money: { number: '254700000000' } })
    expect(mm.body.data).toMatchObject({ amount: 1000, amount_expected: 1016.13, fee: 15, vat: 1.13 })
    // the prompt answers itself 2 s later on the namespace clock; a wallet pay-in settles after 24 h
    expect((await call(url, 'POST', '/_sandbox/clock/advance', { seconds: 25 * 3600 })).status).toBe(200)
    expect((await call(url, 'GET', `${M}/charges/${wallet}`)).body.data).toMatchObject({ status: 'success', amount_paid: '1016.13', amount_expected: '1016.13' })

    const transfer = ref('bt')
    const bt = await call(url, 'POST', `${M}/charges/bank-transfer`, { reference: transfer, amount: 10_000, currency: 'NGN', merchant_bears_cost: false, auto_complete: false, customer: { email: 'a@b.co' } })
    expect(bt.body.data).toMatchObject({ amount: 10_000, amount_expected: 10_150, fee: 150, vat: 11.25 })
    const sent = await call(url, 'POST', `${M}/virtual-bank-account/sandbox/credit`, { account_number: bt.body.data.bank_account.account_number, amount: 10_150, currency: 'NGN' })
    expect(sent.status).toBe(200)
    expect((await call(url, 'GET', `${M}/charges/${transfer}`)).body.data).toMatchObject({ status: 'success', amount_paid: '10150.00', amount_accepted: '10150.00' })

    const balances = (await call(url, 'GET', `${M}/balances`)).body.data
    expect(balances.KES).toEqual({ pending_balance: 0, available_balance: 1000 })
    expect(balances.NGN).toEqual({ pending_balance: 0, available_balance: 9988.75 })
    const history = (await call(url, 'GET', `${M}/balances/history?limit=10`)).body.data.history
    const credit = (reference: string) => history.find((h: any) => h.source_reference === reference)?.amount
    expect([credit(wallet), credit(transfer)]).toEqual(['1000.00', '9988.75'])
  })
})

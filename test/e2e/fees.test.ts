import { describe, expect, it } from 'vitest'
import { ref } from '../helpers/sandbox.js'
import { caller } from './caller.js'
import { killedAfterEach, startCli } from './process.js'

/**
 * docs/behaviour.md#ledger-and-balances, issue 35's money, against the real CLI.
 *
 * Whoever bears a pay-in's cost, the fee and its VAT are taken once: a KES 1,000 wallet payment
 * the customer bears (the customer pays 1,016.13, the merchant is credited 1,000.00, not 983.87)
 * and an NGN 10,000 bank transfer the customer bears (the customer pays 10,150.00, the merchant is
 * credited 9,988.75, not 9,838.75).
 *
 * Sums are exact at any size: after 95 fundings of NGN 1e12 and a payout, the available balance,
 * the newest history item's balance_after and the sum of the history's items are one number, the
 * fundings past what a namespace takes in refused by name.
 */

const { running } = killedAfterEach()
const M = '/merchant/api/v1'

const call = (url: string, method: string, path: string, body?: unknown) => caller(url, 20_000)(method, path, body)

/** A major amount as written (a JSON number's shortest text, or a decimal string), exactly in minor units. */
function minorOf(amount: number | string): bigint {
  const [whole, frac = ''] = String(amount).split('.')
  const sign = whole.startsWith('-') ? -1n : 1n
  return sign * (BigInt(whole.replace('-', '')) * 100n + BigInt(frac.padEnd(2, '0')))
}

describe('the fee the customer bears is taken once (docs/behaviour.md#ledger-and-balances)', () => {
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
    expect((await call(url, 'GET', `${M}/charges/${wallet}`)).body.data).toMatchObject({ status: 'success', amount_paid: '1016.13' })

    const transfer = ref('bt')
    const bt = await call(url, 'POST', `${M}/charges/bank-transfer`, { reference: transfer, amount: 10_000, currency: 'NGN', merchant_bears_cost: false, auto_complete: false, customer: { email: 'a@b.co' } })
    expect(bt.body.data).toMatchObject({ amount: 10_000, amount_expected: 10_150, fee: 150, vat: 11.25 })
    const sent = await call(url, 'POST', `${M}/virtual-bank-account/sandbox/credit`, { account_number: bt.body.data.bank_account.account_number, amount: 10_150, currency: 'NGN' })
    expect(sent.status).toBe(200)
    expect((await call(url, 'GET', `${M}/charges/${transfer}`)).body.data).toMatchObject({ status: 'success', amount_paid: '10150.00' })

    const balances = (await call(url, 'GET', `${M}/balances`)).body.data
    expect(balances.KES).toEqual({ pending_balance: 0, available_balance: 1000 })
    expect(balances.NGN).toEqual({ pending_balance: 0, available_balance: 9988.75 })
    const history = (await call(url, 'GET', `${M}/balances/history?limit=10`)).body.data.history
    const credit = (reference: string) => history.find((h: any) => h.source_reference === reference)?.amount
    expect([credit(wallet), credit(transfer)]).toEqual(['1000.00', '9988.75'])
  })
})

describe('sums are exact at any size (docs/behaviour.md#ledger-and-balances)', () => {
  it('after 95 fundings of NGN 1e12 and a payout, the balance, the last balance_after and the history sum are one number', async () => {
    const cli = await startCli([])
    running.push(cli)
    const { url } = cli
    const answers = []
    for (let i = 0; i < 95; i++) answers.push(await call(url, 'POST', '/_sandbox/balances/fund', { currency: 'NGN', amount: 1e12 }))
    const accepted = answers.filter((a) => a.status === 200).length
    // the opening NGN 5,000,000 and 49 fundings fit within NGN 50,000,000,000,000.00; the 50th does not
    expect(accepted).toBe(49)
    for (const refused of answers.slice(accepted)) {
      expect([refused.status, refused.body]).toEqual([400, { status: false, message: 'Amount refused: a namespace takes in at most NGN 50,000,000,000,000.00 per currency until it is reset', data: null }])
    }
    const payout = await call(url, 'POST', `${M}/transactions/disburse`, { reference: ref('po'), destination: { type: 'bank_account', amount: 1000, currency: 'NGN', bank_account: { bank: '033', account: '0000000000' }, customer: { email: 'a@b.co' } } })
    expect(payout.status).toBe(200)

    const expected = 500_000_000n + BigInt(accepted) * 100_000_000_000_000n - 103_225n
    const available = minorOf((await call(url, 'GET', `${M}/balances`)).body.data.NGN.available_balance)
    const history = (await call(url, 'GET', `${M}/balances/history?currency=NGN&limit=100`)).body.data.history
    expect(history).toHaveLength(accepted + 2)
    const newest = minorOf(history[0].balance_after)
    const sum = history.reduce((s: bigint, h: any) => s + (h.direction === 'credit' ? 1n : -1n) * minorOf(h.amount), 0n)
    expect({ available, newest, sum }).toEqual({ available: expected, newest: expected, sum: expected })
  })
})

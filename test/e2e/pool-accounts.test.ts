import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { SECRET, tempFile } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { caller } from './caller.js'
import { killedAfterEach, startCli } from './process.js'

/**
 * docs/behaviour.md#pool-accounts against the real CLI: a pool account reference is made, credited by the
 * test environment's call, its charge.success reaches a real receiver signed as a merchant checks
 * it, and after the process is killed and started again on the same data file the reference, its
 * pay-in and the balance are there.
 */

const { running, cleanups } = killedAfterEach()
const BASE = '/merchant/api/v1/pool-accounts'

async function start(args: string[]) {
  const cli = await startCli(args)
  running.push(cli)
  return { cli, call: caller(cli.url) }
}

describe('pool accounts over a socket, with a data file', () => {
  it('create, credit, a signed charge.success, and all of it back after a restart', async () => {
    const rx = await startReceiver()
    cleanups.push(() => rx.close())
    const file = tempFile()
    const args = ['--data', file, '--webhook-url', rx.url]
    let { cli, call } = await start(args)

    const made = await call('POST', BASE, { customer_name: 'Don Alpha', customer_email: 'don@example.com', currency: 'GHS', account_type: 'mobile_money' })
    expect(made.status).toBe(200)
    const reference = made.body.data.reference
    expect(reference).toMatch(/^SBKP[0-9A-Z]{8}GHS$/)
    const opening = (await call('GET', '/merchant/api/v1/balances')).body.data.GHS.available_balance

    const credited = await call('POST', `${BASE}/sandbox/credit`, { reference, amount: 400, currency: 'GHS' })
    expect(credited.status).toBe(200)
    const tx = credited.body.data.transaction_reference
    await rx.waitFor(1)
    const got = rx.received[0]
    expect(got.body.event).toBe('charge.success')
    expect(got.body.data).toMatchObject({ reference: tx, amount: 400, currency: 'GHS', payment_method: 'pool_account', pool_account: { pool_account_reference: reference, account_details: { currency: 'GHS', account_name: 'Kora 2342', mobile_number: '233812343' } } })
    expect(got.headers['x-korapay-signature']).toBe(createHmac('sha256', SECRET).update(JSON.stringify(got.body.data)).digest('hex'))
    // 1.5 % (6) and its VAT (0.45), the merchant's
    const balance = (await call('GET', '/merchant/api/v1/balances')).body.data.GHS.available_balance
    expect(balance - opening).toBeCloseTo(393.55, 2)
    const read = (await call('GET', `${BASE}/${reference}`)).body

    cli.child.kill('SIGKILL')
    await cli.exited
    ;({ cli, call } = await start(args))
    expect((await call('GET', `${BASE}/${reference}`)).body).toEqual(read)
    expect((await call('GET', `/merchant/api/v1/charges/${tx}`)).body.data).toMatchObject({ status: 'success', amount_paid: '400.00' })
    expect((await call('GET', '/merchant/api/v1/balances')).body.data.GHS.available_balance).toBe(balance)
    // the e-mail still has its reference
    expect((await call('POST', BASE, { customer_name: 'Don', customer_email: 'don@example.com', currency: 'KES' })).status).toBe(409)
  })
})

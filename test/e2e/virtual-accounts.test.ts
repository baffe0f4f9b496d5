import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { SECRET, tempFile } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { caller } from './caller.js'
import { killedAfterEach } from './process.js'
import { virtualAccountBody } from '../helpers/bodies.js'

/**
 * docs/behaviour.md#virtual-accounts against the real CLI: a virtual account is opened, credited by the test
 * environment's call, its charge.success reaches a real receiver signed as a merchant's handler
 * checks it, and after the process is killed and started again on the same data file the account
 * and its transactions are there.
 */

const { cleanups, spawnCli } = killedAfterEach()
const BASE = '/merchant/api/v1/virtual-bank-account'

async function start(args: string[]) {
  const cli = await spawnCli(args)
  const call = caller(cli.url)
  return { cli, call }
}

describe('virtual bank accounts over a socket, with a data file', () => {
  it('create, credit, a signed charge.success to a real receiver, and both back after a restart', async () => {
    const rx = await startReceiver()
    cleanups.push(() => rx.close())
    const file = tempFile()
    const args = ['--data', file, '--webhook-url', rx.url, '--max-virtual-accounts', '1']
    let { cli, call } = await start(args)

    const made = await call('POST', BASE, virtualAccountBody('cust-e2e-1'))
    expect(made.status).toBe(200)
    const account = made.body.data
    expect(account.account_number).toMatch(/^\d{10}$/)
    // the flag's limit, one account
    const second = await call('POST', BASE, { ...account, account_reference: 'cust-e2e-2', permanent: true, customer: { name: 'B' }, kyc: { bvn: '22222222222' } })
    expect(second.status).toBe(400)
    expect(second.body.message).toBe('Virtual bank account limit of 1 reached')

    const credited = await call('POST', `${BASE}/sandbox/credit`, { account_number: account.account_number, amount: 2500, currency: 'NGN' })
    expect(credited.body).toEqual({ status: true, message: 'Virtual bank account credited successfully', data: null })

    await rx.waitFor(1)
    const got = rx.received[0]
    expect(got.body.event).toBe('charge.success')
    const data = got.body.data
    expect(data).toMatchObject({ payment_reference: data.reference, amount: 2500, currency: 'NGN', status: 'success' })
    expect(data.reference).toMatch(/^KPY-PAY-/)
    expect(data.virtual_bank_account_details.virtual_bank_account).toEqual({ account_name: 'Ada Lovelace', account_number: account.account_number, account_reference: 'cust-e2e-1', bank_name: 'Sandbox Bank', permanent: true })
    // the merchant's own check: hex HMAC-SHA256 of JSON.stringify(data) with the secret key
    expect(got.headers['x-korapay-signature']).toBe(createHmac('sha256', SECRET).update(JSON.stringify(data)).digest('hex'))

    const before = (await call('GET', `${BASE}/transactions?account_number=${account.account_number}`)).body.data
    expect(before.transactions.map((t: any) => t.reference)).toEqual([data.reference])

    // killed, not stopped: what was answered was already in the file
    cli.child.kill('SIGKILL')
    await cli.exited
    ;({ cli, call } = await start(args))
    // read back with its customer's e-mail
    expect((await call('GET', `${BASE}/cust-e2e-1`)).body).toEqual({ status: true, message: 'Virtual bank account retrieved successfully', data: { ...account, customer: { name: 'Ada Lovelace', email: 'ada@example.com' } } })
    const after = await call('GET', `${BASE}/transactions?account_number=${account.account_number}`)
    expect(after.status).toBe(200)
    expect(after.body.data).toEqual(before)
    const q = await call('GET', `/merchant/api/v1/charges/${data.reference}`)
    expect(q.body.data).toMatchObject({ status: 'success', amount_paid: '2500.00', virtual_bank_account: { account_reference: 'cust-e2e-1' } })
    // the reference is still taken, and the account takes credits again
    expect((await call('POST', BASE, { account_name: 'X', account_reference: 'cust-e2e-1', permanent: true, bank_code: '000', customer: { name: 'X' }, kyc: { bvn: '22222222222' } })).status).toBe(409)
    expect((await call('POST', `${BASE}/sandbox/credit`, { account_number: account.account_number, amount: 100, currency: 'NGN' })).status).toBe(200)
    expect((await call('GET', `${BASE}/transactions?account_number=${account.account_number}`)).body.data.total_amount_recieved).toBe(2600)
  })
})

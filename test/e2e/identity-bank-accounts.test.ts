import { describe, expect, it } from 'vitest'
import { api, killedAfterEach, runCli } from './process.js'

/**
 * The Nigerian bank-account look-ups, their bank lists and the Kenyan phone check against the
 * real CLI (dist/, the shipped fixtures and default pack), called as their pages spell them
 * (docs/behaviour.md#identity-calls-and-modes, docs/behaviour.md#identity-bank-account-banks): an app that fetches the bank list, then looks the test account up
 * at a bank of it; and `sandbox magic` naming the test values, the unavailable ones and the codes.
 */

const { spawnCli } = killedAfterEach()
const KEY = 'sk_test_sandbox'

describe('bank-account and Kenyan phone look-ups over a socket', () => {
  it('lists the banks, looks the test account up at one of them, and answers the phone check by its current and older paths', async () => {
    const cli = await spawnCli([])
    const call = (method: string, path: string, body?: unknown) => api(cli.url, KEY, method, `/merchant/api/v1/identities/${path}`, body, 10_000)

    // the app's flow: the premium list, then the look-up at its first bank
    const banks = await call('GET', 'ng/banks?type=premium')
    expect(banks.status).toBe(200)
    expect(banks.body.message).toBe('Banks fetched successfully')
    const bank = banks.body.data[0]
    expect(bank).toEqual({ name: 'Guaranty Trust Bank', code: '000013' })
    const premium = await call('POST', 'ng/bank-account', { id: '0123456789', bank_code: bank.code, verification_consent: true, validation: { first_name: 'John', last_name: 'Doe', date_of_birth: '1990-04-15' } })
    expect(premium.status).toBe(200)
    expect(premium.body.data).toMatchObject({ reference: expect.stringMatching(/^VR-/), id_type: 'ng_bank_account', full_name: 'JOHN MICHAEL DOE', bank_details: bank, account_details: { number: '0123456789', type: 'SAVINGS', currency: 'NGN' } })
    expect(premium.body.data.validation.last_name).toEqual({ value: 'Doe', match: true })

    const basic = await call('POST', 'ng/bank-account-basic', { id: '0123456789', bank_code: '058', verification_consent: true })
    expect(basic.body).toMatchObject({ status: true, message: 'Bank account verified successfully', data: { reference: expect.stringMatching(/^BA-[A-Za-z0-9]{17}$/), account_details: { name: 'JOHN MICHAEL DOE' } } })
    expect(await call('POST', 'ng/bank-account', { id: '0000000000', bank_code: '000013', verification_consent: true })).toEqual({ status: 404, body: { status: false, message: 'Bank account data not found', data: {} } })
    expect(await call('POST', 'ng/bank-account', { id: '9999999999', bank_code: '000013', verification_consent: true })).toEqual({ status: 503, body: { status: false, message: 'Service currently unavailable', data: null } })
    const noCode = await call('POST', 'ng/bank-account', { id: '0123456789', verification_consent: true })
    expect(noCode).toEqual({ status: 422, body: { status: false, error: 'validation_error', message: 'Invalid request data', data: { bank_code: { message: 'bank_code is required' } } } })

    for (const path of ['ke/get-phone', 'ke/phone']) {
      const phone = await call('POST', path, { id: '0723818211', type: 'national_id', verification_consent: true })
      expect(phone.body).toMatchObject({ message: 'Phone verified successfully', data: { id_type: 'ke_phone', mobile_telephone_number: '254723818211', identity_type: 'national_id' } })
    }

    // the history holds the checks that reached the registry (not the unavailable one)
    const history = await api(cli.url, KEY, 'POST', '/merchant/api/v1/identities/verifications', {}, 10_000)
    expect(history.body.data.data.map((x: any) => x.identity_type)).toEqual(['ke_phone', 'ke_phone', 'ng_bank_account', 'ng_bank_account_basic', 'ng_bank_account'])

    const magic = await runCli(['magic'])
    expect(magic.code, magic.stderr).toBe(0)
    expect(magic.stdout).toMatch(/^ng_bank_account\s+ng\/bank-account\s+9999999999\s+unavailable\s+bank account registry unavailable \(sandbox only\)$/m)
    expect(magic.stdout).toMatch(/^ke_phone\s+ke\/get-phone\s+0723818211\s+true\s/m)
    expect(magic.stdout).toContain('ng/bank-account-basic takes bank_code from GET identities/ng/banks?type=basic: 058 Guaranty Trust Bank, 044 Access Bank, 035 Wema Bank')
  })
})

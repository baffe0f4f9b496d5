import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { api, killedAfterEach, spawnUntilListening } from './process.js'
import { fieldMessages } from '../helpers/sandbox.js'

/**
 * fixtures/lookups.json is data (docs/behaviour.md#ledger-and-balances, docs/behaviour.md#look-ups): a currency added to it, in a copy
 * of the installed package (bin, dist, fixtures, scenarios, package.json: what npm ships), opens a
 * balance, is funded, takes a mobile-money pay-in that is refunded, and is paid out, with no
 * change of code; a bad entry stops the process at start, naming the entry and the field.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const { running, cleanups } = killedAfterEach()
const KEY = 'sk_test_sandbox'

/** A copy of the package whose lookups.json `edit` has changed; node_modules is the worktree's. */
function packageWith(edit: (lookups: any) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'paysandbox-lookups-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  for (const part of ['bin', 'dist', 'fixtures', 'scenarios', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true })
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  const file = join(dir, 'fixtures', 'lookups.json')
  const lookups = JSON.parse(readFileSync(file, 'utf8'))
  edit(lookups)
  writeFileSync(file, JSON.stringify(lookups))
  return dir
}

/** Zambia's kwacha, as a user would add it: a currency, a bank, an operator, a wallet currency, payout currencies (banks needing the holder's name). */
function addZambia(l: any): void {
  l.currencies.ZMW = { decimals: 2 }
  l.banks.push({ name: 'Zanaco', slug: 'zanaco-zm', code: 'ZAN', nibss_bank_code: null, country: 'ZM' })
  l.mobile_money.push({ name: 'MTN Mobile Money Zambia', slug: 'mtn-zm', code: 'mtn-zm', country: 'ZM', min: 10, max: 100000 })
  l.wallet_currencies.ZMW = { country: 'ZM', dial_code: '260', digits: 9, steps: ['STK_PROMPT'] }
  l.payout_currencies.bank_account.ZMW = { country: 'ZM', requires: ['account_name'] }
  l.payout_currencies.mobile_money.ZMW = { country: 'ZM' }
}

describe('a currency added to fixtures/lookups.json', () => {
  it('opens a balance, is funded, charged, refunded and paid out, with no change of code', async () => {
    const dir = packageWith(addZambia)
    const cli = await spawnUntilListening('sandbox', process.execPath, [join(dir, 'bin', 'sandbox.js'), 'start', '--port', '0', '--seed', '42'], {}, /paysandbox listening on (http:\/\/\S+)/)
    running.push(cli)
    const call = (method: string, path: string, body?: unknown) => api(cli.url, KEY, method, path, body, 10_000)
    const zmw = async () => (await call('GET', '/merchant/api/v1/balances')).body.data.ZMW

    expect(await zmw()).toEqual({ pending_balance: 0, available_balance: 5_000_000 })
    const funded = await call('POST', '/_sandbox/balances/fund', { currency: 'ZMW', amount: 100 })
    expect(funded.status).toBe(200)
    expect(await zmw()).toEqual({ pending_balance: 0, available_balance: 5_000_100 })

    const pay = 'zmw-pay-0001'
    const charge = await call('POST', '/merchant/api/v1/charges/mobile-money', { reference: pay, amount: 1000, currency: 'ZMW', customer: { email: 'payer@example.com' }, mobile_money: { number: '260971234567' } })
    expect([charge.status, charge.body.data.auth_model], JSON.stringify(charge.body)).toEqual([200, 'STK_PROMPT'])
    const done = await call('POST', '/merchant/api/v1/charges/mobile-money/sandbox/authorize-stk', { reference: charge.body.data.transaction_reference, pin: '1234' })
    expect([done.status, done.body.data.status]).toEqual([200, 'success'])
    await call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
    const settled = await zmw()
    expect(settled.available_balance).toBeGreaterThan(5_000_100)

    const refund = await call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: pay, reference: 'zmw-refund-01' })
    expect([refund.status, refund.body.data?.currency], JSON.stringify(refund.body)).toEqual([200, 'ZMW'])
    expect((await zmw()).available_balance).toBe(settled.available_balance - 1000)

    const payout = await call('POST', '/merchant/api/v1/transactions/disburse', {
      reference: 'zmw-payout-01',
      destination: { type: 'mobile_money', amount: 500, currency: 'ZMW', mobile_money: { operator: 'mtn-zm', mobile_number: '260971234567' }, customer: { email: 'payee@example.com' } },
    })
    expect([payout.status, payout.body.data?.status], JSON.stringify(payout.body)).toEqual([200, 'processing'])
    await call('POST', '/_sandbox/clock/advance', { seconds: 60 })
    expect((await call('GET', '/merchant/api/v1/transactions/zmw-payout-01')).body.data.status).toBe('success')
    // a bank payout in it needs what its entry requires
    const bank = (extra: Record<string, unknown>) => ({ reference: `zmw-bank-${Object.keys(extra).length}`, destination: { type: 'bank_account', amount: 500, currency: 'ZMW', bank_account: { bank: 'ZAN', account: '1234567890', ...extra }, customer: { email: 'payee@example.com' } } })
    const bare = await call('POST', '/merchant/api/v1/transactions/disburse', bank({}))
    expect([bare.status, bare.body.data]).toEqual([422, fieldMessages({ 'destination.bank_account.account_name': 'is required for ZMW' })])
    expect((await call('POST', '/merchant/api/v1/transactions/disburse', bank({ account_name: 'Mwila Banda' }))).status).toBe(200)
    const operators = await api(cli.url, 'pk_test_sandbox', 'GET', '/merchant/api/v1/misc/mobile-money?countryCode=ZM', undefined, 10_000)
    expect(operators.body.data.map((o: { slug: string }) => o.slug)).toEqual(['mtn-zm'])
  })

  it('is refused at start when an entry is wrong, naming the entry and the field', async () => {
    const dir = packageWith((l) => {
      l.wallet_currencies.ZMW = { country: 'ZM', dial_code: '260', digits: 9, steps: ['STK_PROMPT'] }
      l.banks[1].nibss_bank_code = '12'
    })
    const child = spawn(process.execPath, [join(dir, 'bin', 'sandbox.js'), 'start', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let err = ''
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(1)
    expect(err).toContain('fixtures/lookups.json: ')
    expect(err).toContain('banks.1 (citibank).nibss_bank_code: must be 6 digits')
    expect(err).toContain('wallet_currencies.ZMW: ZMW must be declared in currencies')
  })
})

import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { luhnValid } from '../../src/store/card-numbers.js'
import { ENC_KEY, cardPayload, tempFile } from '../helpers/sandbox.js'
import { killedAfterEach, startCli } from './process.js'

/**
 * docs/behaviour.md#request-journal: the store masks a card number in every field of every record it is
 * handed, whatever area writes it (src/store/card-numbers.ts). A card number, drawn and spelled at
 * random, is written through the real CLI into every free field of payouts (single, remittance,
 * bulk), conversions, refunds, virtual accounts, bank transfers and charges, as text and as a
 * number; then every answer, list and query, the snapshot, the journal, the flow export, the
 * events, the dashboard and the bytes of the --data file are searched for it.
 */

const { running } = killedAfterEach()

/** A Luhn-valid 16-digit Visa number: 15 drawn digits and the check digit. */
const panArb = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 14, maxLength: 14 }).map((digits) => {
  const body = `4${digits.join('')}`
  for (let d = 0; d < 10; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`
  throw new Error('no check digit')
})
const SEPARATORS = ['', ' ', '-', '.', '_', ' - ']
const spell = (pan: string, sep: string) => pan.match(/.{4}/g)!.join(sep)

/** Whether a text holds the number in any spelling (the separators dropped). */
const holds = (text: string, pan: string) => text.replace(/[ ._-]/g, '').includes(pan)

describe('the store masks card numbers whatever area writes them', () => {
  it('a card number in every free field of every area, as text and as a number, is nowhere whole: answers, lists, snapshot, journal, flow, events, dashboard, data file', async () => {
    const data = tempFile()
    const sb = await startCli(['--data', data])
    running.push(sb)
    let run = 0
    await fc.assert(
      fc.asyncProperty(panArb, fc.constantFrom(...SEPARATORS), async (pan, sep) => {
        const key = `sk_test_mask_${++run}_${pan.slice(-4)}`
        const t = `note ${spell(pan, sep)} end`
        const num = Number(pan)
        const seen: Record<string, string> = {}
        const call = async (label: string, method: string, path: string, body?: unknown, expectOk = true) => {
          const res = await fetch(`${sb.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
          const text = await res.text()
          if (expectOk) expect(res.status, `${label}: ${text}`).toBe(200)
          seen[label] = text
          return text.startsWith('{') ? JSON.parse(text) : text
        }
        const customer = { name: t, email: 'ada@example.com' }
        const metadata = { note: t, num }
        const ref = (s: string) => `mask-${run}-${s}`

        // payouts: single, remittance, bulk
        await call('payout', 'POST', '/merchant/api/v1/transactions/disburse', {
          reference: ref('po'), metadata,
          destination: { type: 'bank_account', amount: 1000, currency: 'NGN', narration: t, bank_account: { bank: '033', account: '0000000000' }, customer },
        })
        await call('remittance', 'POST', '/merchant/api/v1/transactions/disburse/remittance', {
          reference: ref('rm'), metadata, remittance_data: { sender_name: t, purpose: t, num, deep: { list: [t, num] } },
          destination: { type: 'bank_account', amount: 1000, currency: 'NGN', narration: t, bank_account: { bank: '033', account: '0000000000' }, customer },
        })
        await call('bulk', 'POST', '/merchant/api/v1/transactions/disburse/bulk', {
          batch_reference: ref('batch'), currency: 'NGN', description: t, merchant_bears_cost: true,
          payouts: [1, 2].map((i) => ({ reference: ref(`b${i}`), amount: 1000, type: 'bank_account', narration: t, bank_account: { bank_code: '058', account_number: '0000000000' }, customer })),
        })
        // a conversion and its quote
        const quote = await call('quote', 'POST', '/merchant/api/v1/conversions/rates', { from_currency: 'NGN', to_currency: 'USD', amount: 10000, reference: t })
        const conversion = await call('convert', 'POST', '/merchant/api/v1/conversions', { rate_reference: quote.data.reference, amount: 10000, from_currency: 'NGN', to_currency: 'USD', customer_name: t, customer_email: 'ada@example.com', narration: t })
        // a bank transfer, paid, then refunded
        await call('bank transfer', 'POST', '/merchant/api/v1/charges/bank-transfer', { reference: ref('bt'), amount: 1500, currency: 'NGN', customer, account_name: t, narration: t, metadata, merchant_bears_cost: true })
        await call('advance', 'POST', '/_sandbox/clock/advance', { seconds: 120 })
        await call('refund', 'POST', '/merchant/api/v1/refunds/initiate', { payment_reference: ref('bt'), reference: ref('rf'), amount: 500, reason: t })
        // a virtual account, credited
        const va = await call('virtual account', 'POST', '/merchant/api/v1/virtual-bank-account', { account_name: t, account_reference: ref('va'), permanent: true, bank_code: '000', customer, kyc: { bvn: '22222222222' } })
        await call('credit', 'POST', '/merchant/api/v1/virtual-bank-account/sandbox/credit', { account_number: va.data.account_number, amount: 2500, currency: 'NGN' })
        // charges: a card charge and a wallet charge
        const card = cardPayload('4084127883172787', { reference: ref('card'), description: t, customer, metadata })
        await call('card', 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(card, ENC_KEY) })
        await call('mobile money', 'POST', '/merchant/api/v1/charges/mobile-money', { reference: ref('mm'), amount: 100, currency: 'KES', mobile_money: { number: '254700000000' }, description: t, customer, metadata })
        await call('advance again', 'POST', '/_sandbox/clock/advance', { seconds: 3600 })

        // every read
        const reads: [string, string][] = [
          ['payout query', `/merchant/api/v1/transactions/${ref('po')}`],
          ['remittance query', `/merchant/api/v1/transactions/${ref('rm')}`],
          ['payouts list', '/merchant/api/v1/payouts'],
          ['batch', `/merchant/api/v1/transactions/bulk/${ref('batch')}`],
          ['batch items', `/merchant/api/v1/transactions/bulk/${ref('batch')}/payouts`],
          ['conversion', `/merchant/api/v1/conversions/${conversion.data.reference}`],
          ['conversions', '/merchant/api/v1/conversions'],
          ['refund query', `/merchant/api/v1/refunds/${ref('rf')}`],
          ['refunds list', '/merchant/api/v1/refunds'],
          ['virtual account query', `/merchant/api/v1/virtual-bank-account/${ref('va')}`],
          ['virtual account transfers', `/merchant/api/v1/virtual-bank-account/transactions?account_number=${va.data.account_number}`],
          ['bank transfer query', `/merchant/api/v1/charges/${ref('bt')}`],
          ['card query', `/merchant/api/v1/charges/${ref('card')}`],
          ['wallet query', `/merchant/api/v1/charges/${ref('mm')}`],
          ['pay-ins', '/merchant/api/v1/pay-ins'],
          ['transactions', '/merchant/api/v1/transactions'],
          ['balance history', '/merchant/api/v1/balances/history'],
          ['snapshot', '/_sandbox/snapshot'],
          ['journal', '/_sandbox/requests'],
          ['flow', '/_sandbox/requests?format=flow'],
          ['events', '/_sandbox/events'],
        ]
        for (const [label, path] of reads) await call(label, 'GET', path)
        await call('dashboard', 'GET', `/_sandbox/ui?ns=${key}`)
        seen['data file'] = readFileSync(data, 'utf8')

        expect(Object.keys(seen).filter((where) => holds(seen[where], pan))).toEqual([])
        // what was sent is there, masked
        const masked = `${pan.slice(0, 6)}******${pan.slice(-4)}`
        for (const where of ['payout query', 'remittance query', 'batch items', 'conversion', 'refund query', 'virtual account query', 'bank transfer query', 'snapshot']) expect(seen[where], where).toContain(masked)
      }),
      { numRuns: 4 },
    )
  })
})

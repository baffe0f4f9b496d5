import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { luhnValid, maskPanNumber, maskPansDeep, maskPansIn } from '../../src/store/card-numbers.js'
import { maskSecrets } from '../../src/http/mask.js'
import { ENC_KEY, SECRET, cardPayload, tempFile } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { startCli } from './process.js'
import { cleanedAfterEach } from '../helpers/after-each.js'

/**
 * docs/behaviour.md#request-journal: a card number is masked wherever it is kept, in any spelling, in any
 * field. The real CLI with a real --data file and a real receiver; every place the number could
 * be kept is read back and searched.
 */

const cleanups = cleanedAfterEach()

/** A Luhn-valid card number in no scenario pack, in every spelling a client might use. */
const PAN = '4539148803436467'
const SPELLED = ['4539 1488 0343 6467', '4539-1488-0343-6467', '4539.1488.0343.6467', '4539_1488_0343_6467', '4539 - 1488 - 0343 - 6467']
const AS_NUMBER = Number(PAN)

/** Whether a text holds the card number in any spelling (separators dropped, so also mixed ones). */
function holdsPan(text: string): boolean {
  return text.includes(PAN) || SPELLED.some((s) => text.includes(s)) || text.replace(/[ ._-]/g, '').includes(PAN)
}

describe('card numbers masked wherever they are kept', () => {
  it('masks a PAN in strings of any spelling, in numbers and in keys, and leaves other values as they are', () => {
    expect(luhnValid(PAN)).toBe(true)
    for (const s of [PAN, ...SPELLED]) expect(maskPansIn(`paid with ${s}, thanks`)).toBe('paid with 453914******6467, thanks')
    // a PAN after another number in the same run of groups
    expect(maskPansIn('order 12 4539 1488 0343 6467')).toBe('order 12 453914******6467')
    expect(maskPanNumber(AS_NUMBER)).toBe('453914******6467')
    expect(maskPanNumber(-AS_NUMBER)).toBe('453914******6467')
    expect(maskPanNumber(1000.5)).toBe(1000.5)
    // 19 digits are beyond a double's exact integers: masked whatever Luhn says of what is left
    expect(maskPanNumber(5060990580000217499)).toMatch(/^506099\*{9}\d{4}$/)
    const clean = { a: 'no card here 2026-11-24T10:00:00.000Z', b: [1, 2], c: { d: 123456789 } }
    expect(maskPansDeep(clean)).toBe(clean)
    expect(maskPansDeep({ [SPELLED[0]]: [AS_NUMBER, { x: SPELLED[2] }] })).toEqual({ '453914******6467': ['453914******6467', { x: '453914******6467' }] })
    expect(maskSecrets({ card: { number: AS_NUMBER }, n: AS_NUMBER, [PAN]: 1 })).toEqual({ card: { number: '453914******6467' }, n: '453914******6467', '453914******6467': 1 })
  })

  it('sent in every spelling, in description, customer, metadata, unknown fields and as numbers: none of the journal, the query, the events, a recorded flow, the webhook bodies or the data file holds it', async () => {
    const rx = await startReceiver()
    cleanups.push(() => rx.close())
    const data = tempFile()
    const sb = await startCli(['--data', data, '--webhook-url', rx.url])
    cleanups.push(async () => {
      sb.child.kill('SIGKILL')
      await sb.exited
    })
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${sb.url}${path}`, { method, headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
      return { status: res.status, text: await res.text() }
    }
    const free = (i: number) => ({
      description: `order paid with ${SPELLED[i % SPELLED.length]}`,
      customer: { name: SPELLED[(i + 1) % SPELLED.length], email: 'buyer@example.com' },
      metadata: { card: SPELLED[(i + 2) % SPELLED.length], n: AS_NUMBER, list: [PAN, { deep: SPELLED[(i + 3) % SPELLED.length] }], [SPELLED[1]]: 'key' },
      note: PAN,
      pan_number: AS_NUMBER,
    })
    // card charges (the test card of the pack, which succeeds at once), the free text in every field
    const refs: string[] = []
    for (let i = 0; i < SPELLED.length; i++) {
      const p = cardPayload('4084127883172787', free(i))
      refs.push(p.reference)
      const res = await call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(p, ENC_KEY) })
      expect(res.status, res.text).toBe(200)
    }
    // a card number sent as a JSON number where the card's number goes (refused, but journaled)
    const asNumber = cardPayload('4084127883172787')
    expect((await call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData({ ...asNumber, card: { ...asNumber.card, number: AS_NUMBER } }, ENC_KEY) })).status).toBe(422)
    // mobile money
    const mm = await call('POST', '/merchant/api/v1/charges/mobile-money', { reference: 'mm-pan-0001', amount: 100, currency: 'KES', mobile_money: { number: '254700000000' }, ...free(2) })
    expect(mm.status, mm.text).toBe(200)
    // direct debit: the account name of an authorization, the narration of a debit
    const auth = await call('POST', '/_sandbox/direct-debit/authorizations', { account_number: '0123456789', bank_code: '058', account_name: `Ada ${SPELLED[3]}`, amount: 5000, reference: 'AUTH-PAN-0001' })
    expect(auth.status, auth.text).toBe(200)
    expect((await call('POST', '/_sandbox/direct-debit/authorizations/AUTH-PAN-0001/approve', {})).status).toBe(200)
    const debit = await call('POST', '/api/v1/direct-debit/authorizations/AUTH-PAN-0001/debits', { amount: 100, currency: 'NGN', narration: `rent ${SPELLED[2]}`, reference: 'debit-pan-0001' })
    expect(debit.status, debit.text).toBe(200)
    // identity: names echoed in the answer
    const id = await call('POST', '/api/v1/identities/ng/bvn', { id: '22222222222', verification_consent: true, validation: { first_name: SPELLED[0], last_name: PAN, date_of_birth: '1990-01-01' } })
    expect(id.status, id.text).toBe(200)

    // every webhook (5 card charges, the authorization) reached the receiver
    await rx.waitFor(SPELLED.length + 1)
    const read: Record<string, string> = { identity: id.text }
    read.journal = (await call('GET', '/_sandbox/requests')).text
    read.flow = (await call('GET', '/_sandbox/requests?format=flow')).text
    read.events = (await call('GET', '/_sandbox/events')).text
    for (const r of [...refs, 'mm-pan-0001']) read[`query ${r}`] = (await call('GET', `/merchant/api/v1/charges/${r}`)).text
    read.debit = (await call('GET', '/api/v1/direct-debit/authorizations/AUTH-PAN-0001')).text
    read.webhooks = rx.received.map((r) => r.raw).join('\n')
    read.dataFile = readFileSync(data, 'utf8')
    expect(Object.keys(read).filter((where) => holdsPan(read[where]))).toEqual([])
    // what was sent is there, masked
    expect(read[`query ${refs[0]}`]).toContain('order paid with 453914******6467')
    expect(read.journal).toContain('"pan_number":"453914******6467"')
    expect(read.journal).toContain('"number":"453914******6467"')
  })
})

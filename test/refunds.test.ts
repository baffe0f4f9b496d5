import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ENC_KEY, cardPayload, ref, sandboxPerTest, type TestSandbox } from './helpers.js'

const sandbox = sandboxPerTest()
const CARD = '4084127883172787'
const OPEN = 5_000_000
/** a sum of major amounts, as the balances answer it */
const sum = (...xs: number[]) => Math.round(xs.reduce((a, b) => a + b * 100, 0)) / 100

const ngn = async (sb: TestSandbox) => (await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN
const advance = (sb: TestSandbox, seconds: number) => sb.call('POST', '/_sandbox/clock/advance', { seconds })

async function preauth(sb: TestSandbox, amount = 1000): Promise<{ pref: string; tx: string }> {
  const res = await sb.call('POST', '/merchant/api/v1/charges/card/pre-authorize', { charge_data: encryptChargeData(cardPayload(CARD, { amount }), ENC_KEY) })
  expect(res.body.data.status).toBe('pre_authorized')
  return { pref: res.body.data.payment_reference, tx: res.body.data.transaction_reference }
}
const capture = (sb: TestSandbox, pref: string, amount: number, tx = ref('cap')) =>
  sb.call('POST', '/merchant/api/v1/charges/card/capture', { amount, currency: 'NGN', payment_reference: pref, transaction_reference: tx })

describe('captures on the ledger (docs/behaviour.md 4.3, 13.4)', () => {
  it('a capture is credited net of fee and VAT, pending until it settles by its time', async () => {
    const sb = await sandbox({ frozen: true })
    const h = await preauth(sb, 1000)
    const cap = await capture(sb, h.pref, 400)
    expect(cap.status).toBe(200)
    // fee 1.4 % of 400 = 5.60, VAT 7.5 % of it = 0.42
    expect(await ngn(sb)).toEqual({ pending_balance: 393.98, available_balance: OPEN })
    await advance(sb, 24 * 3600)
    expect(await ngn(sb)).toEqual({ pending_balance: 0, available_balance: sum(OPEN, 393.98) })
  })

  it('a later capture or the control call settles it at once; a void takes its pending credit back', async () => {
    const sb = await sandbox({ frozen: true })
    const h = await preauth(sb, 1000)
    const first = ref('cap')
    await capture(sb, h.pref, 400, first)
    await capture(sb, h.pref, 100)
    // the first is settled by the second: available now; the second still pending (98.49)
    expect(await ngn(sb)).toEqual({ pending_balance: 98.49, available_balance: sum(OPEN, 393.98) })
    const second = await preauth(sb, 500)
    const tx = ref('cap')
    await capture(sb, second.pref, 200, tx)
    expect((await sb.call('POST', `/_sandbox/captures/${tx}/settle`)).status).toBe(200)
    expect(await ngn(sb)).toEqual({ pending_balance: 98.49, available_balance: sum(OPEN, 393.98, 196.99) })
    const third = await preauth(sb, 500)
    const voided = ref('cap')
    await capture(sb, third.pref, 300, voided)
    expect((await ngn(sb)).pending_balance).toBe(sum(98.49, 295.48))
    const v = await sb.call('POST', '/merchant/api/v1/charges/card/void', { payment_reference: third.pref, transaction_reference: ref('void'), target_transaction_reference: voided })
    expect(v.status).toBe(200)
    expect(await ngn(sb)).toEqual({ pending_balance: 98.49, available_balance: sum(OPEN, 393.98, 196.99) })
    await advance(sb, 48 * 3600)
    expect(await ngn(sb)).toEqual({ pending_balance: 0, available_balance: sum(OPEN, 393.98, 196.99, 98.49) })
  })
})

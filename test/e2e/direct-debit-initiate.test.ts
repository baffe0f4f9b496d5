import { describe, expect, it } from 'vitest'
import { SECRET, ref } from '../helpers/sandbox.js'
import { cliWithReceiver } from './caller.js'
import { killedAfterEach } from './process.js'

/**
 * A mandate created by API against the real CLI (docs/behaviour.md#direct-debit-authorizations): `POST
 * /merchant/api/v1/direct-debit/initiate` answers as the service's sample does, the mandate is
 * pending until the customer's token payment arrives (on the namespace clock), then active with the
 * `direct_debit.auth` event at a real receiver, and debited by its code.
 */

const undo = killedAfterEach()
const INITIATE = '/merchant/api/v1/direct-debit/initiate'

async function start() {
  const { cli, call, rx } = await cliWithReceiver(undo)
  expect((await call('PUT', '/_sandbox/webhook-url', { url: rx.url })).status).toBe(200)
  return { call, rx, cliUrl: cli.url }
}

const today = () => new Date().toISOString().slice(0, 10)
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)
const body = (over: Record<string, unknown> = {}) => ({
  amount: 100, currency: 'NGN', debit_type: 'variable', description: 'Monthly subscription for premium plan', start_date: today(), end_date: inDays(30),
  customer: { name: 'Jane Doe', email: 'janedoe@example.com', account_number: '0123456789', bank_code: '058', billing_address: '123 Victoria Island, Lagos', phone_number: '08012345678' },
  ...over,
})

describe('POST /merchant/api/v1/direct-debit/initiate against the real CLI', () => {
  it('creates a pending mandate, active once the token payment arrives, with direct_debit.auth; debited by its code', async () => {
    const { call, rx, cliUrl } = await start()
    const res = await call('POST', INITIATE, body())
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Direct debit authorization initiated successfully')
    const d = res.body.data
    expect(Object.keys(d)).toEqual(['status', 'reference', 'authorization_code', 'amount', 'currency', 'debit_type', 'description', 'customer_account_number', 'customer_bank_code', 'customer_account_name', 'customer_bank_name', 'start_date', 'end_date', 'created_at', 'updated_at'])
    expect(d).toMatchObject({ status: 'pending', amount: 100, currency: 'NGN', debit_type: 'variable', customer_account_number: '0123456789', customer_bank_code: '058', customer_bank_name: 'Guaranty Trust Bank' })
    expect(d.description).toBe('To complete your e-mandate activation, please make a token payment of ₦50.00 to the account number provided below')
    expect(d.reference).toMatch(/^KPY-DD-AUTH-[A-Za-z0-9]{15}$/)
    expect(d.authorization_code).toMatch(/^KPY-AUTH-[A-Z0-9]{15}$/)

    // the dashboard shows it with its code, awaiting the token payment
    const ui = await fetch(`${cliUrl}/_sandbox/ui?ns=${encodeURIComponent(SECRET)}`)
    const html = await ui.text()
    expect(ui.status).toBe(200)
    expect(html).toContain(`code ${d.authorization_code}`)
    expect(html).toContain('awaiting the token payment of NGN 50.00')

    // read by either; not debited before the token payment
    for (const key of [d.reference, d.authorization_code]) {
      expect((await call('GET', `/merchant/api/v1/direct-debit/authorizations/${key}`)).body.data).toMatchObject({ reference: d.reference, status: 'pending', type: 'variable' })
    }
    const early = await call('POST', `/merchant/api/v1/direct-debit/authorizations/${d.authorization_code}/debits`, { amount: 50, currency: 'NGN', narration: 'too early' })
    expect(early.status).toBe(400)
    expect(early.body.message).toBe('Authorization is not active: its status is pending')

    // the token payment arrives by itself 120 s later on the namespace clock
    await call('POST', '/_sandbox/clock/advance', { seconds: 120 })
    const active = await call('GET', `/merchant/api/v1/direct-debit/authorizations/${d.reference}`)
    expect(active.body.data).toMatchObject({ status: 'active', status_update_reason: "Token payment received from the customer's registered account" })
    await rx.waitFor(1)
    const auth = rx.received.find((r) => r.body.event === 'direct_debit.auth')!
    expect(auth.body.data).toMatchObject({ reference: d.reference, authorization_code: d.authorization_code, status: 'success', type: 'variable' })

    const debit = await call('POST', `/merchant/api/v1/direct-debit/authorizations/${d.authorization_code}/debits`, { amount: 60, currency: 'NGN', narration: 'June', reference: ref('dd-debit') })
    expect(debit.status).toBe(200)
    expect(debit.body.data).toMatchObject({ authorization_code: d.authorization_code, status: 'processing', amount: 60 })
  })

  it("refuses a fixed mandate's variable debit with the sample's text, and a fixed mandate without its schedule", async () => {
    const { call } = await start()
    const missing = await call('POST', INITIATE, body({ debit_type: 'fixed' }))
    expect(missing.status).toBe(422)
    expect(Object.keys(missing.body.data)).toEqual(['initial_debit_date', 'frequency', 'interval'])
    const fixed = await call('POST', INITIATE, body({ debit_type: 'fixed', initial_debit_date: today(), frequency: 'days', interval: 1, retrial_frequency: 2 }))
    expect(fixed.status).toBe(200)
    const code = fixed.body.data.authorization_code
    // the control call stands for the token payment at once
    expect((await call('POST', `/_sandbox/direct-debit/authorizations/${fixed.body.data.reference}/approve`)).body.data.status).toBe('active')
    const refused = await call('POST', `/merchant/api/v1/direct-debit/authorizations/${code}/debits`, { amount: 50, currency: 'NGN', narration: 'x' })
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ status: false, message: 'Authorization must be of type variable for variable debit', data: {} })
    // a bad bank code changes nothing
    const bad = await call('POST', INITIATE, body({ customer: { name: 'J', email: 'j@example.com', account_number: '0123456789', bank_code: '999' } }))
    expect(bad.status).toBe(422)
    expect((await call('GET', '/_sandbox/direct-debit/authorizations')).body.data.filter((a: { reference: string }) => a.reference.startsWith('KPY-DD-AUTH-'))).toHaveLength(1)
  })
})

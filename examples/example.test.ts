/**
 * An integration test as a merchant would write it: the sandbox comes from the globalSetup
 * (examples/vitest.global-setup.ts), the card payload is encrypted the way the SDK does.
 */
import { encryptChargeData } from 'paysandbox'
import { expect, inject, it } from 'vitest'

it('charges the success card through the sandbox of the globalSetup', async () => {
  const payload = {
    reference: `order-${Date.now()}`,
    card: { number: '4084127883172787', cvv: '123', expiry_month: '09', expiry_year: '30' },
    amount: 1000,
    currency: 'NGN',
    customer: { email: 'buyer@example.com', name: 'Ada Buyer' },
  }
  const res = await fetch(`${inject('sandboxUrl')}/merchant/api/v1/charges/card`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inject('sandboxSecretKey')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ charge_data: encryptChargeData(payload, inject('sandboxEncryptionKey')) }),
  })
  expect(res.status).toBe(200)
  const body = await res.json()
  expect(body).toMatchObject({ status: true, data: { status: 'success', payment_reference: payload.reference } })
})

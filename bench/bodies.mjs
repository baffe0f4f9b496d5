// What the benchmarks send: the key, and card-charge bodies encrypted as a merchant's SDK does.
import { createCipheriv, randomBytes } from 'node:crypto'

export const SECRET = 'sk_test_sandbox'
const ENC_KEY = Buffer.from('sandbox-encryption-key-012345678', 'utf8')

/** charge_data as CONTRACT.md 3 defines it (AES-256-GCM, hex(iv16):hex(ct):hex(tag16)). */
export function encrypt(text) {
  const iv = randomBytes(16)
  const c = createCipheriv('aes-256-gcm', ENC_KEY, iv)
  const ct = Buffer.concat([c.update(text, 'utf8'), c.final()])
  return `${iv.toString('hex')}:${ct.toString('hex')}:${c.getAuthTag().toString('hex')}`
}

/** The body of a card charge with the default success card (no authentication) and this reference. */
export function cardBody(reference) {
  const payload = {
    reference,
    card: { number: '4084127883172787', cvv: '123', expiry_month: '09', expiry_year: '30' },
    amount: 1000,
    currency: 'NGN',
    customer: { email: 'bench@example.com', name: 'Bench Customer' },
  }
  return `{"charge_data":"${encrypt(JSON.stringify(payload))}"}`
}

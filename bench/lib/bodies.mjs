// What the benchmarks send: the key, card-charge bodies encrypted as a merchant's SDK does,
// mobile money bodies, Checkout Standard's initialize bodies and payout bodies.
import { createCipheriv, randomBytes } from 'node:crypto'

export const SECRET = 'sk_test_sandbox'
const ENC_KEY = Buffer.from('sandbox-encryption-key-012345678', 'utf8')

/** charge_data as docs/behaviour.md#card-charges defines it (AES-256-GCM, hex(iv16):hex(ct):hex(tag16)). */
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

/** The body of a mobile money charge (KES wallet 254700000000: an STK prompt) with this reference. */
export function mmBody(reference) {
  return `{"reference":"${reference}","amount":100,"currency":"KES","customer":{"email":"bench@example.com","name":"Bench Customer"},"mobile_money":{"number":"254700000000"}}`
}

/**
 * The body of `POST /charges/initialize` with this reference, with the fields the public clients
 * send (a shop's return and webhook URLs, metadata, narration, channels).
 */
export function initBody(reference) {
  return `{"amount":1500,"currency":"NGN","reference":"${reference}","customer":{"email":"bench@example.com","name":"Bench Customer"},"redirect_url":"https://shop.example/checkout/return","notification_url":"https://shop.example/webhooks/korapay","narration":"Order ${reference}","channels":["card","bank_transfer"],"default_channel":"card","merchant_bears_cost":true,"metadata":{"order-id":"${reference}","source":"bench"}}`
}

/**
 * The body of `POST /transactions/disburse` with this reference: 1,000 NGN to the default test
 * account, with the fields the public clients send (narration, customer, metadata).
 */
export function disburseBody(reference) {
  return `{"reference":"${reference}","destination":{"type":"bank_account","amount":1000,"currency":"NGN","narration":"Payout ${reference}","bank_account":{"bank":"033","account":"0000000000"},"customer":{"name":"Bench Payee","email":"payee@example.com"}},"metadata":{"payout-id":"${reference}"}}`
}

/**
 * `size` card-charge bodies made beforehand, references `bench-TAG-i`, handed out in order (then
 * made on the fly, counted in `onTheFly`). Their bytes are kept in buffers outside the heap, not as
 * 100k+ strings: the load generator's own collections would otherwise trace them all, and a pause
 * of the process that times the requests lengthens the latency it measures for every request in
 * flight (p99 +1 ms with a 150k-string pool, measured).
 */
export class CardBodies {
  constructor(tag, size) {
    this.tag = tag
    this.size = size
    this.ends = new Uint32Array(size)
    this.chunks = []
    const CHUNK = 8 << 20
    let chunk = Buffer.allocUnsafeSlow(CHUNK)
    let used = 0
    for (let i = 0; i < size; i++) {
      const body = cardBody(`bench-${tag}-${i}`)
      if (used + body.length > CHUNK) {
        this.chunks.push(chunk.subarray(0, used))
        chunk = Buffer.allocUnsafeSlow(CHUNK)
        used = 0
      }
      used += chunk.write(body, used, 'latin1')
      this.ends[i] = used
    }
    this.chunks.push(chunk.subarray(0, used))
    this.i = 0
    this.c = 0
    this.start = 0
    this.onTheFly = 0
  }

  next() {
    const i = this.i++
    if (i < this.size) {
      const end = this.ends[i]
      // a body's end below the last one's: it starts the next chunk
      if (end < this.start) {
        this.c++
        this.start = 0
      }
      const body = this.chunks[this.c].subarray(this.start, end)
      this.start = end
      return body
    }
    this.onTheFly++
    return cardBody(`bench-${this.tag}-${i}`)
  }
}

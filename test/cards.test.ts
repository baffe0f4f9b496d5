import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, makeSandbox, ref, tempFile } from './helpers/sandbox.js'
import { THREE_DS_CARD } from './helpers/cards.js'

/**
 * Card charges end to end through HTTP (docs/api.md 2.2-2.4, 2.8, 3.1, 4.1; docs/behaviour.md#card-charges, docs/behaviour.md#webhooks, docs/behaviour.md#control-api):
 * every card of the default scenario pack, the card specifics (PIN up front, wrong PIN/OTP, the
 * 3DS page, resend-otp, the control completion, fees), namespaces and the journal.
 */

const CHARGE = '/merchant/api/v1/charges/card'
const AUTHORIZE = `${CHARGE}/authorize`
const RESEND_OTP = `${CHARGE}/resend-otp`
const query = (reference: string) => `/merchant/api/v1/charges/${encodeURIComponent(reference)}`
const eventsOf = (reference: string) => `/_sandbox/events?reference=${encodeURIComponent(reference)}`
const threeDsPath = (tx: string) => `/_sandbox/3ds/${encodeURIComponent(tx)}`

type Step = 'PIN' | 'OTP' | '3DS' | 'AVS' | 'CARD_ENROLL'
interface ScenarioCard {
  number: string
  scheme: 'visa' | 'mastercard' | 'verve'
  cvv: string
  expiry_month: string
  expiry_year: string
  pin?: string
  otp?: string
  steps: Step[]
  outcome: 'success' | 'failed' | 'processing'
  message?: string
  label: string
}

const REQUIRED_FIELDS: Record<Exclude<Step, '3DS'>, string[]> = {
  PIN: ['pin'],
  OTP: ['otp'],
  AVS: ['state', 'city', 'country', 'address', 'zip_code'],
  CARD_ENROLL: ['phone'],
}

const AVS = { state: 'Lagos', city: 'Ikeja', country: 'NG', address: '1 Allen Avenue', zip_code: '100001' }

function answer(step: Exclude<Step, '3DS'>, card: { pin?: string; otp?: string }) {
  switch (step) {
    case 'PIN':
      return { pin: card.pin ?? '1234' }
    case 'OTP':
      return { otp: card.otp ?? '123456' }
    case 'AVS':
      return { avs: AVS }
    case 'CARD_ENROLL':
      return { phone: '2348012345678' }
  }
}

function luhnValid(pan: string): boolean {
  let sum = 0
  for (let i = 0; i < pan.length; i++) {
    let d = Number(pan[pan.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/** `prefix` plus the Luhn check digit. */
function withCheckDigit(prefix: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${prefix}${d}`)) return `${prefix}${d}`
  throw new Error('unreachable')
}

// One sandbox for the whole file; the pack's cards are read through the API at collection time,
// so the table below is exactly what GET /_sandbox/scenarios serves.
const sb = await makeSandbox()
afterAll(() => sb.close())

const scenariosRes = await sb.call('GET', '/_sandbox/scenarios')
const CARDS: ScenarioCard[] = scenariosRes.body?.data?.cards ?? []

const authorize = (transaction_reference: string, authorization: unknown, key?: string) =>
  sb.call('POST', AUTHORIZE, { transaction_reference, authorization }, { key })

/** The charge of `reference` is failed, with one failed card attempt, `tx`, that says `message`. */
async function expectFailedOnce(reference: string, tx: string, message: string) {
  const q = await sb.call('GET', query(reference))
  expect(q.body.data.status).toBe('failed')
  expect(q.body.data.payment_attempts).toEqual([{ reference: tx, status: 'failed', channel: 'card', message }])
}

/** A card charge waiting on its 3DS page: its payload and transaction reference. */
async function at3ds() {
  const payload = cardPayload(THREE_DS_CARD)
  const tx = (await sb.charge(payload)).body.data.transaction_reference as string
  return { payload, tx }
}

const submit3ds = (tx: string, decision: string) =>
  sb.call('POST', threeDsPath(tx), undefined, {
    key: null,
    raw: `decision=${decision}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })

const summaryOf = (card: { number: string; scheme: string }, expiry = '09/30') => ({
  card_type: card.scheme,
  first_six: card.number.slice(0, 6),
  last_four: card.number.slice(-4),
  expiry,
})

async function eventsFor(reference: string, key?: string): Promise<any[]> {
  const res = await sb.call('GET', eventsOf(reference), undefined, { key })
  expect(res.status).toBe(200)
  return res.body.data
}

describe('the default scenario pack', () => {
  it('serves every card of scenarios/default.yaml through GET /_sandbox/scenarios', () => {
    expect(scenariosRes.status).toBe(200)
    const file = parseYaml(readFileSync(new URL('../scenarios/default.yaml', import.meta.url), 'utf8')) as { cards: { number: string }[] }
    expect(CARDS.map((c) => c.number).sort()).toEqual(file.cards.map((c) => c.number).sort())
    // docs/behaviour.md#card-charges's published values are among them, with their steps and outcomes
    const byNumber = new Map(CARDS.map((c) => [c.number, c]))
    expect(byNumber.get('4084127883172787')).toMatchObject({ scheme: 'visa', steps: [], outcome: 'success' })
    expect(byNumber.get('5188513618552975')).toMatchObject({ scheme: 'mastercard', steps: ['PIN'], outcome: 'success', pin: '1234' })
    expect(byNumber.get('5442056106072595')).toMatchObject({ scheme: 'mastercard', steps: ['PIN', 'OTP'], outcome: 'success', pin: '1234', otp: '123456' })
    expect(byNumber.get('4562543755474674')).toMatchObject({ scheme: 'visa', steps: ['3DS'], outcome: 'success' })
    expect(byNumber.get('5384063928932071')).toMatchObject({ scheme: 'mastercard', steps: ['PIN', 'AVS'], outcome: 'success' })
    expect(byNumber.get('5061460410120223210')).toMatchObject({ scheme: 'verve', steps: ['PIN', 'CARD_ENROLL', 'OTP'], outcome: 'success' })
    expect(byNumber.get('506066506066506067')).toMatchObject({
      scheme: 'verve',
      cvv: '408',
      steps: [],
      outcome: 'failed',
      message: 'Card could not be charged due to insufficient funds',
    })
    expect(CARDS.filter((c) => c.outcome === 'processing')).toHaveLength(1)
  })

  it.each(CARDS)('drives $number ($label) to its outcome through HTTP', async (card) => {
    const payload = cardPayload(card.number, {}, { cvv: card.cvv, expiry_month: card.expiry_month, expiry_year: card.expiry_year })
    const expiry = `${card.expiry_month}/${card.expiry_year.slice(-2)}`
    let res = await sb.charge(payload)
    expect(res.status).toBe(200)
    expect(res.body.status).toBe(true)
    const tx: string = res.body.data.transaction_reference
    expect(typeof tx).toBe('string')
    expect(tx.length).toBeGreaterThan(0)
    expect(tx).not.toBe(payload.reference)

    let viaPage = false
    for (const step of card.steps) {
      expect(res.status).toBe(200)
      expect(res.body.message).toBe('Charge in progress')
      expect(res.body.data).toMatchObject({
        status: 'processing',
        auth_model: step,
        payment_reference: payload.reference,
        transaction_reference: tx,
        amount: 1000,
        currency: 'NGN',
        fee: 14,
        vat: 1.05,
        card: summaryOf(card, expiry),
      })
      if (step === '3DS') {
        const redirect: string = res.body.data.authorization.redirect_url
        expect(Object.keys(res.body.data.authorization)).toEqual(['redirect_url'])
        const url = new URL(redirect) // throws unless absolute
        expect(url.protocol).toMatch(/^https?:$/)
        expect(url.pathname).toBe(`/_sandbox/3ds/${tx}`)
        expect(redirect.endsWith(`/_sandbox/3ds/${tx}`)).toBe(true)
        const page = await submit3ds(tx, 'approve')
        expect(page.status).toBe(200)
        expect(page.headers.get('content-type')).toMatch(/text\/html/)
        expect(page.body).toContain('Payment approved')
        viaPage = true
      } else {
        expect(res.body.data.authorization).toEqual({ required_fields: REQUIRED_FIELDS[step] })
        res = await authorize(tx, answer(step, card))
        viaPage = false
      }
    }

    if (!viaPage) {
      expect(res.status).toBe(200)
      expect(res.body.status).toBe(true)
      expect(res.body.data).toMatchObject({ payment_reference: payload.reference, transaction_reference: tx, card: summaryOf(card, expiry) })
      if (card.outcome === 'success') {
        expect(res.body.message).toBe('Card charged successfully')
        expect(res.body.data.status).toBe('success')
        expect(res.body.data.response_message).toBe('Card charged successfully')
        expect(res.body.data.amount_charged).toBe(1000)
        if (card.steps.length === 0) expect(res.body.data.auth_model).toBe('NO_AUTH')
      } else if (card.outcome === 'failed') {
        expect(res.body.data.status).toBe('failed')
        expect(res.body.data.response_message).toBe(card.message)
      } else {
        expect(res.body.message).toBe('Charge in progress')
        expect(res.body.data.status).toBe('processing')
      }
      expect(res.body.data.authorization).toBeUndefined()
    }

    const q = await sb.call('GET', query(payload.reference))
    expect(q.status).toBe(200)
    expect(q.body.message).toBe('Charge retrieved successfully')
    expect(q.body.data).toMatchObject({
      reference: payload.reference,
      status: card.outcome,
      amount: '1000.00',
      currency: 'NGN',
      card: summaryOf(card, expiry),
      customer: { email: 'buyer@example.com', name: 'Ada Buyer' },
    })
    if (card.outcome === 'failed') {
      expect(q.body.data.amount_paid).toBe('0.00')
      expect(q.body.data.payment_attempts).toHaveLength(1)
      expect(q.body.data.payment_attempts[0]).toEqual({ reference: tx, status: 'failed', channel: 'card', message: card.message })
    }
    if (card.outcome === 'success') expect(q.body.data.amount_paid).toBe('1000.00')

    const all = await eventsFor(payload.reference)
    // the disputed test card's chargeback is announced too (docs/behaviour.md#chargebacks)
    expect(all.filter((e: any) => e.event.startsWith('chargeback.')).map((e: any) => e.event)).toEqual(card.chargeback ? ['chargeback.pending'] : [])
    const events = all.filter((e: any) => e.event.startsWith('charge.'))
    if (card.outcome === 'processing') {
      expect(events).toEqual([])
    } else {
      expect(events).toHaveLength(1)
      expect(events[0].event).toBe(`charge.${card.outcome}`)
      expect(events[0].data).toEqual({
        reference: payload.reference,
        payment_reference: payload.reference,
        transaction_reference: tx,
        amount: 1000,
        fee: 14,
        currency: 'NGN',
        status: card.outcome,
        payment_method: 'card',
        metadata: null,
      })
      // the transaction reference finds the same event
      expect((await eventsFor(tx)).map((e) => e.id)).toEqual([events[0].id])
    }
  })
})

describe('PIN', () => {
  it('consumes the PIN step when the right PIN is sent up front in card.pin', async () => {
    const payload = cardPayload('5188513618552975', {}, { pin: '1234' })
    const res = await sb.charge(payload)
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Card charged successfully')
    expect(res.body.data).toMatchObject({ status: 'success', response_message: 'Card charged successfully', amount_charged: 1000 })
    expect(res.body.data.authorization).toBeUndefined()
    const q = await sb.call('GET', query(payload.reference))
    expect(q.body.data.status).toBe('success')
    expect((await eventsFor(payload.reference)).map((e) => e.event)).toEqual(['charge.success'])
  })

  it('fails with Incorrect card PIN when a wrong PIN is sent up front', async () => {
    const payload = cardPayload('5188513618552975', {}, { pin: '9999' })
    const res = await sb.charge(payload)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ status: 'failed', response_message: 'Incorrect card PIN', amount_charged: 0 })
    await expectFailedOnce(payload.reference, res.body.data.transaction_reference, 'Incorrect card PIN')
    const events = await eventsFor(payload.reference)
    expect(events.map((e) => e.event)).toEqual(['charge.failed'])
    expect(events[0].data.status).toBe('failed')
  })

  it('goes straight to the OTP step when the PIN of a PIN+OTP card is sent up front', async () => {
    const payload = cardPayload('5442056106072595', {}, { pin: '1234' })
    const res = await sb.charge(payload)
    expect(res.body.data).toMatchObject({ status: 'processing', auth_model: 'OTP', authorization: { required_fields: ['otp'] } })
    const done = await authorize(res.body.data.transaction_reference, { otp: '123456' })
    expect(done.body.message).toBe('Card charged successfully')
    expect(done.body.data.status).toBe('success')
  })

  it('fails with Incorrect card PIN when the PIN given to authorize is wrong', async () => {
    const payload = cardPayload('5188513618552975')
    const first = await sb.charge(payload)
    expect(first.body.data).toMatchObject({ status: 'processing', auth_model: 'PIN' })
    const tx = first.body.data.transaction_reference
    const res = await authorize(tx, { pin: '4321' })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ status: 'failed', response_message: 'Incorrect card PIN', transaction_reference: tx })
    await expectFailedOnce(payload.reference, tx, 'Incorrect card PIN')
    expect((await eventsFor(payload.reference)).map((e) => e.event)).toEqual(['charge.failed'])
  })
})

describe('OTP', () => {
  async function atOtpStep() {
    const payload = cardPayload('5442056106072595')
    const first = await sb.charge(payload)
    const tx: string = first.body.data.transaction_reference
    const afterPin = await authorize(tx, { pin: '1234' })
    expect(afterPin.body.data).toMatchObject({ status: 'processing', auth_model: 'OTP', authorization: { required_fields: ['otp'] } })
    return { payload, tx }
  }

  it('fails with The OTP entered is invalid when the OTP is wrong', async () => {
    const { payload, tx } = await atOtpStep()
    const res = await authorize(tx, { otp: '000000' })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ status: 'failed', response_message: 'The OTP entered is invalid' })
    await expectFailedOnce(payload.reference, tx, 'The OTP entered is invalid')
    expect((await eventsFor(payload.reference)).map((e) => e.event)).toEqual(['charge.failed'])
  })

  it('an authorize that leads to the OTP step gives its metadata, as the sample of the collection does; the charge answer does not', async () => {
    const payload = cardPayload('5442056106072595')
    const first = await sb.charge(payload)
    expect(first.body.data.metadata).toBeUndefined()
    const afterPin = await authorize(first.body.data.transaction_reference, { pin: '1234' })
    expect(afterPin.body).toMatchObject({ message: 'Charge in progress', data: { status: 'processing', auth_model: 'OTP' } })
    expect(afterPin.body.data.metadata).toEqual({ gateway_code: 'T0', can_resend_otp: true, otp_attempts_left: 1, support_message: "Didn't get the OTP? Dial *322*0# on your phone (MTN, Etisalat, Airtel) Glo, use *805*0#." })
    const done = await authorize(first.body.data.transaction_reference, { otp: '123456' })
    expect(done.body.data.status).toBe('success')
    expect(done.body.data.metadata).toBeUndefined()
  })

  it('resends the OTP at the OTP step and still accepts the test OTP afterwards', async () => {
    const { payload, tx } = await atOtpStep()
    const res = await sb.call('POST', RESEND_OTP, { transaction_reference: tx })
    expect(res.status).toBe(200)
    expect(res.body.status).toBe(true)
    // the collection's sample: its message, and metadata with its support text alone
    expect(res.body.message).toBe('Otp sent successfully')
    expect(res.body.data).toEqual({
      status: 'processing',
      response_message: 'Kindly enter the OTP sent to the phone number or e-mail tied to the card',
      metadata: { support_message: "Didn't get the OTP? Dial *322*0# on your phone (MTN, Etisalat, Airtel) Glo, use *805*0#." },
    })
    expect(await eventsFor(payload.reference)).toEqual([])
    const done = await authorize(tx, { otp: '123456' })
    expect(done.body.data.status).toBe('success')
  })

  it('refuses resend-otp while the PIN step is pending, leaving the charge unchanged', async () => {
    const payload = cardPayload('5442056106072595')
    const first = await sb.charge(payload)
    const tx = first.body.data.transaction_reference
    const before = await sb.call('GET', query(payload.reference))
    const res = await sb.call('POST', RESEND_OTP, { transaction_reference: tx })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ status: false, message: 'OTP is not required for this transaction', data: null })
    expect(await sb.call('GET', query(payload.reference))).toEqual(before)
  })

  it('refuses resend-otp on a card that needs no OTP and on a completed charge', async () => {
    const noOtp = await sb.charge(cardPayload('4562543755474674'))
    const r1 = await sb.call('POST', RESEND_OTP, { transaction_reference: noOtp.body.data.transaction_reference })
    expect(r1.status).toBe(400)
    expect(r1.body.message).toBe('OTP is not required for this transaction')

    const done = await sb.charge(cardPayload('4084127883172787'))
    const r2 = await sb.call('POST', RESEND_OTP, { transaction_reference: done.body.data.transaction_reference })
    expect(r2.status).toBe(409)
    expect(r2.body.message).toBe('Payment has already been completed')

    const unknown = await sb.call('POST', RESEND_OTP, { transaction_reference: 'KPY-CA-DOESNOTEXIST00' })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ status: false, message: 'Transaction not found', data: null })
  })
})

describe('3DS page', () => {
  it('declining on the page fails the charge with 3DS authentication was declined by the cardholder', async () => {
    const { payload, tx } = await at3ds()
    const page = await submit3ds(tx, 'decline')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    expect(page.body).toContain('Payment declined')
    expect(page.body).toContain('3DS authentication was declined by the cardholder')
    await expectFailedOnce(payload.reference, tx, '3DS authentication was declined by the cardholder')
    const events = await eventsFor(payload.reference)
    expect(events.map((e) => e.event)).toEqual(['charge.failed'])
    expect(events[0].data).toMatchObject({ reference: payload.reference, payment_reference: payload.reference, transaction_reference: tx, status: 'failed' })
  })

  it('redirects with 302 to the redirect_url with reference=<payment reference> added after approval', async () => {
    const payload = cardPayload('4562543755474674', { redirect_url: 'https://shop.example/return?x=1' })
    const first = await sb.charge(payload)
    const tx = first.body.data.transaction_reference
    const res = await submit3ds(tx, 'approve')
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('location')!)
    expect(`${location.origin}${location.pathname}`).toBe('https://shop.example/return')
    expect(location.searchParams.get('x')).toBe('1')
    expect(location.searchParams.get('reference')).toBe(payload.reference)
    expect((await sb.call('GET', query(payload.reference))).body.data.status).toBe('success')
  })

  it('redirects to the redirect_url after a decline too, and the charge is failed', async () => {
    const payload = cardPayload('4562543755474674', { redirect_url: 'https://shop.example/return' })
    const first = await sb.charge(payload)
    const res = await submit3ds(first.body.data.transaction_reference, 'decline')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`https://shop.example/return?reference=${encodeURIComponent(payload.reference)}`)
    expect((await sb.call('GET', query(payload.reference))).body.data.status).toBe('failed')
  })

  it('shows the outcome on the page when the charge has no redirect_url', async () => {
    const payload = cardPayload('4562543755474674')
    const first = await sb.charge(payload)
    const res = await submit3ds(first.body.data.transaction_reference, 'approve')
    expect(res.status).toBe(200)
    expect(res.headers.get('location')).toBeNull()
    expect(res.headers.get('content-type')).toMatch(/text\/html/)
    expect(res.body).toContain('Payment approved')
    expect(res.body).toContain(payload.reference)
  })

  it('shows Approve and Decline buttons and the masked card, never the full PAN', async () => {
    const { payload, tx } = await at3ds()
    const res = await sb.call('GET', threeDsPath(tx), undefined, { key: null })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/text\/html/)
    const html: string = res.body
    expect(html).toMatch(/<button[^>]*value="approve"[^>]*>\s*Approve\s*<\/button>/)
    expect(html).toMatch(/<button[^>]*value="decline"[^>]*>\s*Decline\s*<\/button>/)
    expect(html).toContain('name="decision"')
    expect(html).toMatch(/<form[^>]*method="post"/i)
    expect(html).toContain('4674')
    expect(html).not.toContain('4562543755474674')
    expect(html).not.toContain('456254375547')
    expect(html).toContain('NGN 1,000.00')
  })

  it('answers an unknown transaction reference with a 404 HTML page', async () => {
    const get = await sb.call('GET', threeDsPath('KPY-CA-NOSUCHTHING0'), undefined, { key: null })
    expect(get.status).toBe(404)
    expect(get.headers.get('content-type')).toMatch(/text\/html/)
    expect(get.body).toContain('Transaction not found')
    const post = await submit3ds('KPY-CA-NOSUCHTHING0', 'approve')
    expect(post.status).toBe(404)
    expect(post.headers.get('content-type')).toMatch(/text\/html/)
  })

  it('refuses a second decision once the 3DS step is done and keeps the first outcome', async () => {
    const { payload, tx } = await at3ds()
    expect((await submit3ds(tx, 'approve')).status).toBe(200)
    const again = await submit3ds(tx, 'decline')
    expect(again.status).toBe(409)
    expect(again.headers.get('content-type')).toMatch(/text\/html/)
    expect(again.body).toContain('Payment has already been completed')
    expect((await sb.call('GET', query(payload.reference))).body.data.status).toBe('success')
    expect((await eventsFor(payload.reference)).map((e) => e.event)).toEqual(['charge.success'])
  })

  it('refuses a form without a valid decision and leaves the charge pending', async () => {
    const { payload, tx } = await at3ds()
    const res = await submit3ds(tx, 'maybe')
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toMatch(/text\/html/)
    const q = await sb.call('GET', query(payload.reference))
    expect(q.body.data.status).toBe('processing')
  })

  it("builds the redirect_url from the request's own origin", async () => {
    const payload = cardPayload('4562543755474674')
    const res = await sb.call('POST', `https://pay.example.test:8443${CHARGE}`, { charge_data: encryptChargeData(payload, ENC_KEY) })
    expect(res.status).toBe(200)
    const tx = res.body.data.transaction_reference
    expect(res.body.data.authorization.redirect_url).toBe(`https://pay.example.test:8443/_sandbox/3ds/${tx}`)
  })
})

describe('any other card', () => {
  const others: [string, string][] = [
    ['visa', '4111111111111111'],
    ['visa', '4222222222222'],
    ['visa', withCheckDigit('450000000000000000')],
    ['mastercard', '5555555555554444'],
    ['mastercard', '2223003122003222'],
    ['verve', withCheckDigit('506102000000000')],
    ['verve', withCheckDigit('507900000000000000')],
    ['verve', withCheckDigit('650002000000000000')],
  ]

  it('uses Luhn-valid numbers outside the pack', () => {
    const listed = new Set(CARDS.map((c) => c.number))
    for (const [, n] of others) {
      expect(luhnValid(n)).toBe(true)
      expect(listed.has(n)).toBe(false)
    }
  })

  it.each(others)('succeeds with NO_AUTH for the %s card %s', async (scheme, number) => {
    const payload = cardPayload(number)
    const res = await sb.charge(payload)
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Card charged successfully')
    expect(res.body.data).toMatchObject({
      status: 'success',
      auth_model: 'NO_AUTH',
      payment_reference: payload.reference,
      card: { card_type: scheme, first_six: number.slice(0, 6), last_four: number.slice(-4), expiry: '09/30' },
    })
    expect(res.body.data.authorization).toBeUndefined()
    const q = await sb.call('GET', query(payload.reference))
    expect(q.body.data.status).toBe('success')
    expect((await eventsFor(payload.reference)).map((e) => e.event)).toEqual(['charge.success'])
  })
})

describe('control completion (POST /_sandbox/charges/{tx}/complete)', () => {
  const complete = (tx: string, body: unknown) => sb.call('POST', `/_sandbox/charges/${encodeURIComponent(tx)}/complete`, body)

  it('finishes a pending 3DS charge as success', async () => {
    const { payload, tx } = await at3ds()
    const res = await complete(tx, { outcome: 'success' })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ reference: payload.reference, transaction_reference: tx, status: 'success' })
    const q = await sb.call('GET', query(payload.reference))
    expect(q.body.data.status).toBe('success')
    const events = await eventsFor(payload.reference)
    expect(events.map((e) => e.event)).toEqual(['charge.success'])
    // the page now shows the outcome instead of the buttons
    const page = await sb.call('GET', threeDsPath(tx), undefined, { key: null })
    expect(page.status).toBe(200)
    expect(page.body).not.toContain('value="approve"')
  })

  it('finishes a pending 3DS charge as failed, with the 3DS decline text by default', async () => {
    const { payload, tx } = await at3ds()
    const res = await complete(tx, { outcome: 'failed' })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ status: 'failed', message: '3DS authentication was declined by the cardholder' })
    await expectFailedOnce(payload.reference, tx, '3DS authentication was declined by the cardholder')
  })

  it('finishes the processing-forever card as success', async () => {
    const payload = cardPayload('4084080001800005')
    const first = await sb.charge(payload)
    expect(first.body.data.status).toBe('processing')
    const tx = first.body.data.transaction_reference
    expect((await sb.call('GET', query(payload.reference))).body.data.status).toBe('processing')
    expect(await eventsFor(payload.reference)).toEqual([])
    const res = await complete(tx, { outcome: 'success' })
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('success')
    expect((await sb.call('GET', query(payload.reference))).body.data).toMatchObject({ status: 'success', amount_paid: '1000.00' })
    expect((await eventsFor(payload.reference)).map((e) => e.event)).toEqual(['charge.success'])
  })

  it('finishes the processing-forever card as failed with the given message', async () => {
    const payload = cardPayload('4084080001800005')
    const tx = (await sb.charge(payload)).body.data.transaction_reference
    const res = await complete(payload.reference, { outcome: 'failed', message: 'Issuer or Switch Inoperative' })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ transaction_reference: tx, status: 'failed', message: 'Issuer or Switch Inoperative' })
    await expectFailedOnce(payload.reference, tx, 'Issuer or Switch Inoperative')
    const events = await eventsFor(payload.reference)
    expect(events.map((e) => e.event)).toEqual(['charge.failed'])
    expect(events[0].data).toMatchObject({ reference: payload.reference, transaction_reference: tx, status: 'failed', payment_method: 'card' })
  })

  it('refuses to complete a charge that is already complete, or unknown', async () => {
    const payload = cardPayload('4084127883172787')
    const tx = (await sb.charge(payload)).body.data.transaction_reference
    const res = await complete(tx, { outcome: 'failed' })
    expect(res.status).toBe(409)
    expect(res.body.message).toBe('Payment has already been completed')
    expect((await sb.call('GET', query(payload.reference))).body.data.status).toBe('success')
    const unknown = await complete('KPY-CA-NOSUCHTHING0', { outcome: 'success' })
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toBe('Transaction not found')
    const bad = await complete(tx, { outcome: 'maybe' })
    expect(bad.status).toBe(422)
    expect(bad.body.message).toBe('Invalid request data')
    expect(Object.keys(bad.body.data)).toEqual(['outcome'])
  })
})

describe('fee and VAT', () => {
  it('uses the settings of the pack: 1.4% capped at 2000, VAT 7.5% of the fee', () => {
    expect(scenariosRes.body.data.settings).toMatchObject({ vat_percent: 7.5, fees: { card: { percent: 1.4, cap: 2000 } } })
  })

  it.each([
    [1000, 14, 1.05],
    [100, 1.4, 0.11],
    [1234.56, 17.28, 1.3],
    [142857.14, 2000, 150], // 1.4% = 1999.9999..., rounds to the cap
    [10_000_000, 2000, 150],
  ])('charges %s NGN with fee %s and VAT %s', async (amount, fee, vat) => {
    const payload = cardPayload('4084127883172787', { amount })
    const res = await sb.charge(payload)
    expect(res.status).toBe(200)
    expect(res.body.data.amount).toBe(amount)
    expect(res.body.data.fee).toBe(fee)
    expect(res.body.data.vat).toBe(vat)
    expect(typeof res.body.data.fee).toBe('number')
    expect(typeof res.body.data.vat).toBe('number')
    const q = await sb.call('GET', query(payload.reference))
    // a number in the query too, as the newer pages write it (docs/behaviour.md#card-outcomes-and-query); its VAT is the charge's answer's
    expect(q.body.data.fee).toBe(fee)
    expect(q.body.data).not.toHaveProperty('vat')
    const events = await eventsFor(payload.reference)
    expect(events[0].data).toMatchObject({ amount, fee })
  })
})

describe('namespaces', () => {
  const ALPHA = 'sk_test_alpha'
  const BETA = 'sk_test_beta'

  it('never shows a charge made with one key to another key', async () => {
    const payload = cardPayload('4084127883172787')
    const res = await sb.charge(payload, { key: ALPHA })
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('success')
    const tx = res.body.data.transaction_reference

    const mine = await sb.call('GET', query(payload.reference), undefined, { key: ALPHA })
    expect(mine.status).toBe(200)
    expect(mine.body.data.reference).toBe(payload.reference)

    for (const r of [payload.reference, tx]) {
      const theirs = await sb.call('GET', query(r), undefined, { key: BETA })
      expect(theirs.status).toBe(404)
      expect(theirs.body).toEqual({ status: false, message: 'Charge not found', data: null })
      expect(await eventsFor(r, BETA)).toEqual([])
    }
    expect(await eventsFor(payload.reference, ALPHA)).toHaveLength(1)
  })

  it('lets the same reference be used once in each namespace', async () => {
    const reference = ref('shared')
    const a = await sb.charge(cardPayload('4084127883172787', { reference }), { key: ALPHA })
    const b = await sb.charge(cardPayload('506066506066506067', { reference }, { cvv: '408' }), { key: BETA })
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    expect(a.body.data.status).toBe('success')
    expect(b.body.data.status).toBe('failed')
    expect(a.body.data.transaction_reference).not.toBe(b.body.data.transaction_reference)

    expect((await sb.call('GET', query(reference), undefined, { key: ALPHA })).body.data.status).toBe('success')
    expect((await sb.call('GET', query(reference), undefined, { key: BETA })).body.data.status).toBe('failed')

    const again = await sb.charge(cardPayload('4084127883172787', { reference }), { key: ALPHA })
    expect(again.status).toBe(409)
    expect(again.body.message).toBe('Duplicate payment reference')

    expect((await eventsFor(reference, ALPHA)).map((e) => e.event)).toEqual(['charge.success'])
    expect((await eventsFor(reference, BETA)).map((e) => e.event)).toEqual(['charge.failed'])
  })

  it("cannot authorize or 3DS-complete another namespace's transaction through the API", async () => {
    const payload = cardPayload('5188513618552975')
    const tx = (await sb.charge(payload, { key: ALPHA })).body.data.transaction_reference
    const res = await authorize(tx, { pin: '1234' }, BETA)
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Transaction not found')
    const completed = await sb.call('POST', `/_sandbox/charges/${tx}/complete`, { outcome: 'success' }, { key: BETA })
    expect(completed.status).toBe(404)
    expect((await sb.call('GET', query(payload.reference), undefined, { key: ALPHA })).body.data.status).toBe('processing')
  })
})

describe('the request journal', () => {
  const KEY = 'sk_test_journal'

  it('never holds the full PAN, the CVV, the PIN or the OTP', async () => {
    // PIN then OTP through authorize
    const p1 = cardPayload('5442056106072595')
    const c1 = await sb.charge(p1, { key: KEY })
    const tx1 = c1.body.data.transaction_reference
    expect((await authorize(tx1, { pin: '1234' }, KEY)).body.data.auth_model).toBe('OTP')
    expect((await authorize(tx1, { otp: '123456' }, KEY)).body.data.status).toBe('success')
    // PIN up front, then OTP
    const p2 = cardPayload('5399830001900008', {}, { pin: '1234' })
    const c2 = await sb.charge(p2, { key: KEY })
    expect(c2.body.data.auth_model).toBe('OTP')
    expect((await authorize(c2.body.data.transaction_reference, { otp: '123456' }, KEY)).body.data.status).toBe('failed')
    // a wrong PIN and a wrong OTP are secrets too
    const p3 = cardPayload('5442056106072595', {}, { pin: '9876' })
    expect((await sb.charge(p3, { key: KEY })).body.data.status).toBe('failed')
    const p4 = cardPayload('5061460410120223210')
    const tx4 = (await sb.charge(p4, { key: KEY })).body.data.transaction_reference
    await authorize(tx4, { pin: '1234' }, KEY)
    await authorize(tx4, { phone: '2348012345678' }, KEY)
    expect((await authorize(tx4, { otp: '654321' }, KEY)).body.data.status).toBe('failed')
    // a refused one (invalid expiry) after decryption
    const p5 = cardPayload('5188513618552975', {}, { expiry_month: '13', pin: '1234' })
    expect((await sb.charge(p5, { key: KEY })).status).toBe(422)

    const res = await sb.call('GET', '/_sandbox/requests', undefined, { key: KEY })
    expect(res.status).toBe(200)
    const entries: any[] = res.body.data
    expect(entries.filter((e) => e.method === 'POST' && e.path === CHARGE)).toHaveLength(5)
    expect(entries.filter((e) => e.method === 'POST' && e.path === AUTHORIZE)).toHaveLength(6)
    const json = JSON.stringify(entries)

    for (const pan of ['5442056106072595', '5399830001900008', '5061460410120223210', '5188513618552975']) {
      expect(json).not.toContain(pan)
      // first six and last four are kept, the middle is masked
      expect(json).toMatch(new RegExp(`"${pan.slice(0, 6)}[^0-9"]+${pan.slice(-4)}"`))
    }
    for (const secret of ['1234', '9876', '123456', '654321', '123']) {
      expect(json).not.toContain(`"${secret}"`)
    }
    // the masked values are there (the journal does record the bodies)
    expect(json).toContain('"pin":"****"')
    expect(json).toContain('"otp":"******"')
    expect(json).toContain('"cvv":"***"')
  })

  it('never holds the full PAN even when charge_data was sent unencrypted', async () => {
    const key = 'sk_test_journal_plain'
    const payload = cardPayload('5442056106072595', {}, { pin: '1234' })
    const res = await sb.call('POST', CHARGE, { charge_data: JSON.stringify(payload) }, { key })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('Unable to decrypt charge data, please check encryption and try again')
    const journal = await sb.call('GET', '/_sandbox/requests', undefined, { key })
    const json = JSON.stringify(journal.body.data)
    expect(journal.body.data).toHaveLength(1)
    expect.soft(json, 'the full PAN').not.toContain('5442056106072595')
    expect.soft(json, 'the CVV').not.toMatch(/\\"cvv\\":\\"123\\"/)
    expect.soft(json, 'the PIN').not.toMatch(/\\"pin\\":\\"1234\\"/)
  })

  it('never holds the full PAN when the number is sent with spaces', async () => {
    const key = 'sk_test_journal_spaces'
    const payload = cardPayload('5442 0561 0607 2595')
    const res = await sb.charge(payload, { key })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('Invalid request data')
    const journal = await sb.call('GET', '/_sandbox/requests', undefined, { key })
    const json = JSON.stringify(journal.body.data)
    expect(journal.body.data).toHaveLength(1)
    expect(json.replace(/ /g, '')).not.toContain('5442056106072595')
  })
})

describe('charges that went cold (kept compressed in blocks) through the API, in memory and after a restart', () => {
  it('answers old charges exactly as when they were new, takes a PIN for an old pending charge, and reads them back from the data file', async () => {
    const file = tempFile()
    let box = await makeSandbox({ data: file })
    try {
      // a pending PIN charge first, then far more charges than a collection keeps live (128):
      // the old ones go cold and are packed 64 to a block
      const pending = await box.charge(cardPayload('5188513618552975'))
      expect(pending.body.data).toMatchObject({ status: 'processing', auth_model: 'PIN' })
      const tx = pending.body.data.transaction_reference as string
      const refs: string[] = []
      const asNew = new Map<string, unknown>()
      for (let i = 0; i < 300; i++) {
        const payload = cardPayload('4084127883172787')
        expect((await box.charge(payload)).status).toBe(200)
        refs.push(payload.reference)
        // the query right after the charge, while the record is live
        if (i % 30 === 0) asNew.set(payload.reference, (await box.call('GET', query(payload.reference))).body)
      }
      const packed = box.deps.store.col(SECRET, 'charges').coldStats()
      expect(packed.blocks).toBeGreaterThan(0)
      for (const [reference, body] of asNew) expect((await box.call('GET', query(reference))).body).toEqual(body)
      // the old pending charge takes its PIN (read back, changed, stored again)
      const done = await box.call('POST', AUTHORIZE, { transaction_reference: tx, authorization: { pin: '1234' } })
      expect(done.body.data).toMatchObject({ status: 'success' })
      expect((await box.call('GET', query(tx))).body.data.status).toBe('success')

      // a restart reads every record back from the file and keeps it cold again
      await box.close()
      box = await makeSandbox({ data: file })
      for (const [reference, body] of asNew) expect((await box.call('GET', query(reference))).body).toEqual(body)
      expect((await box.call('GET', query(tx))).body.data.status).toBe('success')
      expect((await box.call('GET', query(refs[299]))).body.data).toMatchObject({ reference: refs[299], status: 'success' })
    } finally {
      await box.close()
    }
  })
})

describe('a charge query answered again from the kept answer', () => {
  /** The way the CLI runs: answering from the kept text, on a clock that runs with (fake) wall time. */
  it('is the same answer while nothing changes, and a new one once the wall clock or the store moves', async () => {
    const T0 = Date.UTC(2026, 0, 5, 9, 0, 0)
    vi.useFakeTimers({ toFake: ['Date'], now: T0 })
    const box = await makeSandbox()
    try {
      const payload = cardPayload('4084127883172787')
      const charged = await box.charge(payload)
      expect(charged.body.data.status).toBe('success')
      const tx = charged.body.data.transaction_reference as string
      const first = await box.call('GET', query(payload.reference))
      expect(first.body.data).toMatchObject({ status: 'success', settled: false })
      // asked again at the same moment: the same text, and both calls journaled
      const again = await box.call('GET', query(payload.reference))
      expect(again.body).toEqual(first.body)
      const journaled = (await box.call('GET', `/_sandbox/requests?method=GET&path=${encodeURIComponent(query(payload.reference))}`)).body.data
      expect(journaled.map((e: { status: number; response: unknown }) => [e.status, e.response])).toEqual([[200, first.body], [200, first.body]])

      // the wall clock alone passes the settlement time (24 h): nothing stored changes, the answer does
      vi.setSystemTime(T0 + 24 * 3_600_000 + 1_000)
      expect((await box.call('GET', query(payload.reference))).body.data).toMatchObject({ settled: true })
      // a refund at that same moment changes stored records only
      const refunded = await box.call('POST', `${CHARGE}/refund`, { amount: 300, currency: 'NGN', payment_reference: payload.reference, transaction_reference: ref('rfd'), target_transaction_reference: tx })
      expect(refunded.status).toBe(200)
      expect((await box.call('GET', query(payload.reference))).body.data).toMatchObject({ settled: true, total_refunded_amount: 300 })
    } finally {
      vi.useRealTimers()
      await box.close()
    }
  })
})

import { createCipheriv, randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { identityDocuments, type IdentityDocument } from '../src/scenario/documents.js'
import { AREAS } from '../src/areas.js'
import { ActiveScenarios, Scenarios, packRules } from '../src/scenario/index.js'
import { pageId } from '../src/namespaces.js'
import { ENC_KEY, SECRET, cardPayload, makeSandbox, ref, type TestSandbox } from './helpers/sandbox.js'
import { PIN_CARD, PIN_OTP_CARD, THREE_DS_CARD, NO_AUTH_CARD } from './helpers/cards.js'

/**
 * Hostile and malformed input against every endpoint (issue 9, docs/behaviour.md#http): arbitrary JSON,
 * wrong types for each known field, huge strings, deep nesting, `__proto__` / `constructor` /
 * `prototype` keys at every level, odd encodings, bad percent-escapes in paths and odd headers.
 *
 * The properties: never a 5xx (no fault is injected), always the JSON envelope {status, message,
 * data} with a boolean status (the 3DS page and the dashboard may answer HTML, the dashboard's
 * stylesheet and script their own types), no prototype pollution, and the app stays healthy.
 * Each endpoint works in a namespace of its own, so a failure stays with the endpoint that
 * caused it.
 *
 * Fixed seed in CI; `FUZZ_SEED` and `FUZZ_RUNS` choose another seed or a longer run
 * (`npm run test:fuzz`).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 4242)
const RUNS = Number(process.env.FUZZ_RUNS ?? 60)
const FC = { seed: SEED, numRuns: RUNS }
/** a property of RUNS requests (shrinking included) may take longer than vitest's default */
const PROP_TIMEOUT = Math.max(60_000, RUNS * 200)
const FIXED_TIMEOUT = 120_000

// taken before anything runs: the app must add nothing to these
const OBJECT_PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype).sort()
const ARRAY_PROTO_KEYS = Object.getOwnPropertyNames(Array.prototype).sort()

const M = '/merchant/api/v1'
/** a bulk payout of two (docs/behaviour.md#bulk-payouts) */
const bulkBody = () => ({
  batch_reference: ref('batch-fuzz'),
  currency: 'NGN',
  description: 'fuzz',
  payouts: [0, 1].map(() => ({ reference: ref('bi-fuzz'), amount: 1000, type: 'bank_account', bank_account: { bank_code: '033', account_number: '0000000000' }, customer: { email: 'payee@example.com' } })),
})
/** a payout to account `account` at bank 033 (docs/behaviour.md#payouts) */
const payoutBody = (account: string) => () => ({
  reference: ref('po-fuzz'),
  destination: { type: 'bank_account', amount: 1000, currency: 'NGN', bank_account: { bank: '033', account }, customer: { email: 'payee@example.com', name: 'Payee' } },
})
const CARD = `${M}/charges/card`
const MM = `${M}/charges/mobile-money`
const TINY_PNG = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString('base64')}`

const enc = encodeURIComponent

let sb: TestSandbox
beforeAll(async () => {
  // a namespace per endpoint and property (below): past the default 1,000 with every identity document
  sb = await makeSandbox({ maxNamespaces: 5000 })
})
afterAll(async () => {
  await sb?.close()
})

// ---------------------------------------------------------------------------------------------
// requests

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
type Body = string | Uint8Array | undefined

interface SendOptions {
  key?: string | null
  body?: Body
  headers?: Headers | Record<string, string>
  /** do not add content-type: application/json */
  noContentType?: boolean
}

/** One request through app.request (no socket), the key as Bearer unless given. */
function send(method: Method, path: string, o: SendOptions = {}): Promise<Response> {
  const headers = new Headers(o.headers)
  if (o.key !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${o.key ?? SECRET}`)
  if (o.body !== undefined && !o.noContentType && !headers.has('content-type')) headers.set('content-type', 'application/json')
  const body = method === 'GET' ? undefined : o.body
  return Promise.resolve(sb.app.request(path, { method, headers, body: body as BodyInit | undefined }))
}

/** A JSON call for the fixtures; fails the test unless it answers 200. */
async function ok200(method: Method, path: string, key: string, body?: unknown): Promise<any> {
  const res = await send(method, path, { key, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  expect(res.status, `${method} ${path}: ${text}`).toBe(200)
  return JSON.parse(text)
}

const ENVELOPE_KEYS = new Set(['status', 'message', 'data', 'code', 'error'])
/** the kinds a refusal's `error` names (docs/behaviour.md#envelope) */
const ERROR_KINDS: Record<string, number> = { validation_error: 422, conflict: 409 }

/**
 * The invariants of every answer: no 5xx, and the JSON envelope (HTML only where allowed).
 * Returns a description of what is wrong, or null.
 */
async function violation(res: Response, htmlAllowed: boolean, rawJsonAllowed = false, assetType?: string): Promise<string | null> {
  const text = await res.text()
  const ct = res.headers.get('content-type') ?? ''
  const where = `${res.status} ${ct} ${text.slice(0, 300)}`
  if (res.status >= 500) return `a ${res.status}: ${where}`
  if (assetType && res.status === 200 && ct.startsWith(assetType)) return null
  if (rawJsonAllowed && res.status === 200 && ct.startsWith('application/json')) {
    try {
      JSON.parse(text)
      return null
    } catch {
      return `unparseable JSON: ${where}`
    }
  }
  if (htmlAllowed) {
    if (res.status === 302 || res.status === 303) return res.headers.get('location') ? null : `a redirect without location: ${where}`
    if (ct.startsWith('text/html')) return [200, 400, 404, 409, 422].includes(res.status) ? null : `HTML with status ${where}`
  }
  if (!ct.startsWith('application/json')) return `not JSON: ${where}`
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    return `unparseable JSON: ${where}`
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return `not an object: ${where}`
  if (typeof body.status !== 'boolean') return `status is not a boolean: ${where}`
  if (typeof body.message !== 'string' || body.message === '') return `no message: ${where}`
  if (!('data' in body)) return `no data: ${where}`
  for (const k of Object.keys(body)) if (!ENVELOPE_KEYS.has(k)) return `extra key ${k}: ${where}`
  if ('error' in body && ERROR_KINDS[body.error] !== res.status) return `error ${body.error} on HTTP ${res.status}: ${where}`
  if (body.status !== res.status < 400) return `status ${body.status} on HTTP ${res.status}: ${where}`
  return null
}

/**
 * fc.assert of a check that answers a violation or null. The namespace's state carries over from
 * run to run (that is the point: hostile input must not break it for later calls), so the shrunk
 * counterexample alone can mislead: the first failing input is reported too.
 */
async function holds(arbs: fc.Arbitrary<any>[], check: (...args: any[]) => Promise<string | null>): Promise<void> {
  let first: string | null = null
  try {
    await fc.assert(
      fc.asyncProperty(...(arbs as [fc.Arbitrary<any>]), async (...args: any[]) => {
        const v = await check(...args)
        if (v !== null) {
          first ??= v
          throw new Error(v)
        }
      }),
      FC,
    )
  } catch (e) {
    throw new Error(`first failing input: ${first}\n\n${(e as Error).message}`)
  }
}

async function expectSane(res: Response, htmlAllowed: boolean, what: string): Promise<void> {
  const v = await violation(res, htmlAllowed)
  expect(v, what).toBeNull()
}

// ---------------------------------------------------------------------------------------------
// fixtures: one namespace per endpoint, with payments in every state the endpoints act on

interface Fx {
  key: string
  pinTx: string
  pinRef: string
  otpTx: string
  threeDsTx: string
  preTx: string
  preRef: string
  mmOtpRef: string
  mmOtpTx: string
  mmStkRef: string
  mmStkTx: string
  eventId: string
  ddRef: string
  /** a checkout: its merchant and transaction references */
  checkoutRef: string
  checkoutTx: string
  /** a virtual bank account: its reference and number */
  vbaRef: string
  vbaNumber: string
  /** a pool account reference, an upload's file reference and an account holder (docs/behaviour.md#virtual-accounts-usd-kes-tzs, docs/behaviour.md#pool-accounts) */
  poolRef: string
  fileRef: string
  holderRef: string
  /** a payout that stays processing */
  payoutRef: string
  /** a bulk payout */
  batchRef: string
  /** a rate quote, and a conversion done */
  rateRef: string
  conversionRef: string
  /** a pay with bank charge awaiting the customer at the bank */
  pwbTx: string
  /** a successful card charge, and the pending chargeback of the disputed test card's */
  paidRef: string
  chargebackRef: string
  /** a stablecoin wallet, by the merchant's reference */
  walletRef: string
}

async function cardCharge(key: string, number: string, card: Record<string, unknown> = {}, path = CARD) {
  const p = cardPayload(number, {}, card)
  const body = await ok200('POST', path, key, { charge_data: encryptChargeData(p, ENC_KEY) })
  return { ref: p.reference, tx: body.data.transaction_reference as string }
}

const mmBody = (number: string, currency: 'KES' | 'GHS') => ({
  reference: ref('mm-fuzz'),
  amount: 100,
  currency,
  customer: { email: 'buyer@example.com', name: 'Wanjiku Buyer' },
  mobile_money: { number },
})

const walletBody = () => ({ reference: ref('wallet-fuzz'), currency: 'USDT', network: 'SOL', customer: { name: 'Rhianna Russel', email: 'buyer@example.com' } })

const fixtureCache = new Map<string, Promise<Fx>>()
function fixtures(key: string): Promise<Fx> {
  let fx = fixtureCache.get(key)
  if (!fx) {
    fx = (async () => {
      const pin = await cardCharge(key, PIN_CARD)
      const otp = await cardCharge(key, PIN_OTP_CARD, { pin: '1234' })
      const threeDs = await cardCharge(key, THREE_DS_CARD)
      const pre = await cardCharge(key, NO_AUTH_CARD, {}, `${CARD}/pre-authorize`)
      const paid = await cardCharge(key, NO_AUTH_CARD)
      const disputed = await cardCharge(key, '4084080009900005')
      const chargeback = await ok200('GET', `${M}/chargebacks?payment_reference=${disputed.ref}`, key)
      const mmOtp = mmBody('233240000000', 'GHS')
      const mmOtpRes = await ok200('POST', MM, key, mmOtp)
      const mmStk = mmBody('254700000000', 'KES')
      const mmStkRes = await ok200('POST', MM, key, mmStk)
      const events = await ok200('GET', '/_sandbox/events', key)
      expect(events.data.length).toBeGreaterThan(0)
      const checkout = await ok200('POST', `${M}/charges/initialize`, key, checkoutBody())
      const vba = await ok200('POST', `${M}/virtual-bank-account`, key, vbaBody())
      const payout = await ok200('POST', `${M}/transactions/disburse`, key, payoutBody('1111111111')())
      const batch = await ok200('POST', '/merchant/api/v1/transactions/disburse/bulk', key, bulkBody())
      const rate = await ok200('POST', `${M}/conversions/rates`, key, conversionQuote())
      const conversion = await ok200('POST', `${M}/conversions/`, key, { rate_reference: (await ok200('POST', `${M}/conversions/rates`, key, conversionQuote())).data.reference, amount: 10, from_currency: 'USD', to_currency: 'NGN' })
      const pwb = await ok200('POST', `${M}/charge/pay-with-bank`, key, pwbBody())
      const wallet = await ok200('POST', `${M}/crypto/wallets`, key, walletBody())
      const pool = await ok200('POST', `${M}/pool-accounts`, key, poolBody())
      const file = await ok200('POST', '/api/v1/files/generate-upload-url', key, uploadBody())
      const holder = await ok200('POST', HOLDERS, key, holderBody(file.data.korapay_reference))
      return {
        key,
        pinTx: pin.tx,
        pinRef: pin.ref,
        otpTx: otp.tx,
        threeDsTx: threeDs.tx,
        preTx: pre.tx,
        preRef: pre.ref,
        mmOtpRef: mmOtp.reference,
        mmOtpTx: mmOtpRes.data.transaction_reference,
        mmStkRef: mmStk.reference,
        mmStkTx: mmStkRes.data.transaction_reference,
        eventId: events.data[0].id,
        ddRef: 'AUTH-SANDBOX-ACTIVE',
        checkoutRef: checkout.data.reference,
        checkoutTx: new URL(checkout.data.checkout_url).pathname.split('/')[2],
        vbaRef: vba.data.account_reference,
        vbaNumber: vba.data.account_number,
        poolRef: pool.data.reference,
        fileRef: file.data.korapay_reference,
        holderRef: holder.data.reference,
        payoutRef: payout.data.reference,
        batchRef: batch.data.reference,
        rateRef: rate.data.reference,
        conversionRef: conversion.data.reference,
        pwbTx: pwb.data.transaction_reference,
        paidRef: paid.ref as string,
        chargebackRef: chargeback.data.chargebacks[0].reference,
        walletRef: wallet.data.reference,
      }
    })()
    fixtureCache.set(key, fx)
  }
  return fx
}

// ---------------------------------------------------------------------------------------------
// every endpoint (src/app.ts and the route files); POST /_sandbox/reset is left out on purpose

interface Endpoint {
  method: Method
  /** the path; `p` replaces the path parameter (already encoded) */
  path: (fx: Fx, p?: string) => string
  hasParam?: boolean
  /** a valid (or nearly valid) body */
  body?: (fx: Fx) => Record<string, unknown>
  /** the body is the plaintext of charge_data */
  encrypted?: boolean
  /** known query fields */
  query?: (fx: Fx) => Record<string, string>
  /** the 3DS page and the dashboard answer HTML */
  html?: boolean
  /** the OpenAPI document is raw JSON, not the envelope */
  rawJson?: boolean
  /** the dashboard's stylesheet and script: a 200 of this content type */
  asset?: string
  /** the 3DS form posts application/x-www-form-urlencoded */
  form?: boolean
  /** clean up after each call (faults must not stay armed) */
  after?: (fx: Fx) => Promise<void>
  label?: string
}

const cardBody = () => cardPayload(PIN_CARD, { metadata: { order: '42' }, description: 'fuzz', redirect_url: 'https://merchant.example/back' })
const captureBody = (fx: Fx) => ({ amount: 10, currency: 'NGN', payment_reference: fx.preRef, transaction_reference: ref('cap') })
const voidBody = (fx: Fx) => ({ payment_reference: fx.preRef, transaction_reference: ref('void'), target_transaction_reference: fx.preTx })
const refundBody = (fx: Fx) => ({ ...captureBody(fx), transaction_reference: ref('rfd'), target_transaction_reference: fx.preTx })
const debitBody = () => ({ amount: 100, narration: 'fuzz debit', currency: 'NGN', reference: ref('debit') })
/** the default pack's identities */
const DEFAULT_IDENTITIES = [...new ActiveScenarios(Scenarios.loadPacks([], { rules: packRules(AREAS) }), packRules(AREAS)).identities.values()]

/** a document's call with a test ID the default pack lists as found, and every input it compares */
const documentBody = (d: IdentityDocument) => () => {
  const id = DEFAULT_IDENTITIES.find((x) => x.type === d.type && x.found)!.id
  const validation: Record<string, unknown> = Object.fromEntries(d.validation.map((f) => [f, f === 'date_of_birth' ? '1990-01-31' : 'Ada']))
  // a bank-account check's bank code of its list; the first value of each other field it takes
  const takes = Object.fromEntries(Object.entries(d.takes).map(([f, t]) => [f, t.one_of[0]]))
  return { id, verification_consent: true, ...(d.banks ? { bank_code: d.banks.banks[0].code } : {}), ...takes, ...(d.validation.length ? { validation } : {}) }
}
const identityBody = (id: string) => () => ({
  id,
  verification_consent: true,
  validation: { first_name: 'Ada', last_name: 'Obi', date_of_birth: '1990-01-31', selfie: TINY_PNG },
})
const checkoutBody = () => ({ reference: ref('co-fuzz'), amount: 1500, currency: 'NGN', customer: { email: 'buyer@example.com', name: 'Ada' }, redirect_url: 'https://merchant.example/back?x=1', metadata: { order: '42' } })
const vbaBody = () => ({ account_name: 'Ada Obi', account_reference: ref('vba'), permanent: true, bank_code: '000', customer: { name: 'Ada Obi', email: 'ada@example.com' }, kyc: { bvn: '22222222222', nin: '11111111111' } })
const poolBody = () => ({ customer_name: 'Ada Obi', customer_email: `${ref('pool')}@example.com`, currency: 'KES', account_type: 'bank_account' })
const uploadBody = () => ({ reference: ref('kyc'), purpose: 'kyc_document', content_type: 'image/png' })
const HOLDERS = '/api/v1/virtual-bank-account/account-holders'
const holderBody = (file: string) => ({
  first_name: 'Ada', last_name: 'Obi', type: 'individual', date_of_birth: '1990-01-31', nationality: 'NG', email: 'ada@example.com', phone: '+2348133443000',
  selfie: { reference: file }, identification: { type: 'passport', number: 'A1', document_front: { reference: file } },
  address: { country: 'NG', zip: '100001', address: '1 Marina', state: 'Lagos', city: 'Lagos' }, employment: { status: 'employer' }, metadata: { order: '42' },
})
const conversionQuote = () => ({ from_currency: 'USD', to_currency: 'NGN', amount: 10, reference: 'customer-42' })
const pwbBody = () => ({ reference: ref('pwb-fuzz'), amount: '1500.00', currency: 'NGN', bank_code: '100004', customer: { name: 'Ada Obi', email: 'buyer@example.com' }, redirect_url: 'https://merchant.example/back', notification_url: null, metadata: { order: '42' } })
const clearFaults = async (fx: Fx) => {
  await ok200('DELETE', '/_sandbox/faults', fx.key)
}

const ENDPOINTS: Endpoint[] = [
  // cards (docs/api.md 2.2-2.5, 4.1)
  { method: 'POST', path: () => CARD, body: cardBody, encrypted: true },
  { method: 'POST', path: () => `${CARD}/pre-authorize`, body: cardBody, encrypted: true },
  { method: 'POST', path: () => `${CARD}/authorize`, body: (fx) => ({ transaction_reference: fx.pinTx, authorization: { pin: '1234' } }) },
  { method: 'POST', path: () => `${CARD}/authorize`, body: (fx) => ({ transaction_reference: fx.otpTx, authorization: { otp: '123456' } }), label: 'OTP step' },
  {
    method: 'POST',
    path: () => `${CARD}/authorize`,
    body: (fx) => ({ transaction_reference: fx.pinTx, authorization: { avs: { state: 'Lagos', city: 'Ikeja', country: 'NG', address: '1 Allen Ave', zip_code: '100001' } } }),
    label: 'AVS shape',
  },
  { method: 'POST', path: () => `${CARD}/capture`, body: captureBody },
  { method: 'POST', path: () => `${CARD}/void`, body: voidBody },
  { method: 'POST', path: () => `${CARD}/refund`, body: refundBody },
  { method: 'POST', path: () => `${CARD}/resend-otp`, body: (fx) => ({ transaction_reference: fx.otpTx }) },
  // mobile money (docs/api.md 2.6, 4.2; docs/behaviour.md#mobile-money)
  { method: 'POST', path: () => MM, body: () => ({ ...mmBody('233240000000', 'GHS'), notification_url: 'http://127.0.0.1:9/hook', merchant_bears_cost: true, description: 'fuzz', metadata: { a: 'b' } }) },
  { method: 'POST', path: () => `${MM}/authorize`, body: (fx) => ({ reference: fx.mmOtpRef, token: '123456' }) },
  { method: 'POST', path: () => `${MM}/sandbox/authorize-stk`, body: (fx) => ({ reference: fx.mmStkRef, pin: '1234' }) },
  { method: 'POST', path: () => `${MM}/resend-otp`, body: (fx) => ({ transaction_reference: fx.mmOtpTx, reference: fx.mmOtpRef }) },
  { method: 'POST', path: () => `${MM}/resend-stk`, body: (fx) => ({ transaction_reference: fx.mmStkTx, reference: fx.mmStkRef }) },
  // direct debit, both prefixes (docs/api.md 4.3; docs/behaviour.md#direct-debit)
  { method: 'GET', path: (fx, p = enc(fx.ddRef)) => `${M}/direct-debit/authorizations/${p}`, hasParam: true },
  { method: 'GET', path: (fx, p = enc(fx.ddRef)) => `/api/v1/direct-debit/authorizations/${p}`, hasParam: true },
  { method: 'POST', path: (fx, p = enc(fx.ddRef)) => `${M}/direct-debit/authorizations/${p}/debits`, hasParam: true, body: debitBody },
  { method: 'POST', path: (fx, p = enc(fx.ddRef)) => `/api/v1/direct-debit/authorizations/${p}/debits`, hasParam: true, body: debitBody },
  // a mandate by API (docs/behaviour.md#direct-debit-authorizations)
  { method: 'POST', path: () => `${M}/direct-debit/initiate`, body: () => ({ amount: 100, currency: 'NGN', debit_type: 'fixed', description: 'fuzz', start_date: '2026-01-01', end_date: '2099-01-01', customer: { name: 'Ada Obi', email: 'buyer@example.com', account_number: '0123456789', bank_code: '058' }, initial_debit_date: '2026-02-01', frequency: 'months', interval: 1, retrial_frequency: 2 }) },
  // identities, both prefixes (docs/api.md 4.4; docs/behaviour.md#identity)
  ...(['/api/v1/identities', `${M}/identities`] as const).flatMap((prefix) => [
    { method: 'POST' as const, path: () => `${prefix}/ng/bvn`, body: identityBody('22222222222') },
    { method: 'POST' as const, path: () => `${prefix}/ng/vnin`, body: identityBody('KO111111111111IL') },
    { method: 'POST' as const, path: () => `${prefix}/gh/passport`, body: identityBody('G0000555') },
    // every other document of fixtures/identity-documents.json, with its valid test ID and what it compares
    ...[...identityDocuments().values()]
      .filter((d) => !['ng_bvn', 'ng_vnin', 'gh_passport'].includes(d.type))
      .flatMap((d) => [d.path, ...d.other_paths].map((path) => ({ method: 'POST' as const, path: () => `${prefix}/${path}`, body: documentBody(d) }))),
    // the banks of the bank-account look-ups (docs/behaviour.md#identity-bank-account-banks)
    { method: 'GET' as const, path: () => `${prefix}/ng/banks`, query: () => ({ type: 'premium' }) },
    { method: 'GET' as const, path: (_fx: Fx, p = 'idv_fuzz') => `${prefix}/verifications/${p}`, hasParam: true },
    { method: 'POST' as const, path: () => `${prefix}/verifications`, body: () => ({ start_date: '2026-01-01', end_date: '2026-12-31', limit: 5, page: 1 }) },
  ]),
  // bank transfer (docs/behaviour.md#bank-transfer)
  // pay with bank, both spellings (docs/behaviour.md#pay-with-bank)
  { method: 'POST', path: () => `${M}/charge/pay-with-bank`, body: pwbBody },
  { method: 'POST', path: () => `${M}/charges/pay-with-bank`, body: () => ({ ...pwbBody(), currency: 'ZAR', bank_code: '250655', amount: 14.5 }) },
  { method: 'GET', path: () => `${M}/charge/pay-with-bank/banks`, query: () => ({ currency: 'ZAR' }) },
  // vouchers (docs/behaviour.md#vouchers): the packs' ZAR 1,000 voucher, used once
  { method: 'POST', path: () => `${M}/charge/voucher`, body: () => ({ reference: ref('voucher-fuzz'), amount: 1000, currency: 'ZAR', voucher: { pin: '1000000000001000', phone_number: '+27000000000', provider_code: '0001' }, customer: { email: 'buyer@example.com' }, metadata: { order: '42' } }) },
  { method: 'POST', path: () => `${M}/charges/bank-transfer`, body: () => ({ reference: ref('bt-fuzz'), amount: 1500, currency: 'NGN', customer: { email: 'buyer@example.com' }, auto_complete: false }) },
  // Checkout Standard (docs/behaviour.md#checkout)
  { method: 'POST', path: () => `${M}/charges/initialize`, body: checkoutBody },
  { method: 'POST', path: (fx, p = enc(fx.checkoutRef)) => `/_sandbox/checkouts/${p}/pay`, hasParam: true, body: () => ({ channel: 'card', outcome: 'failed' }) },
  { method: 'POST', path: (fx, p = enc(fx.checkoutRef)) => `/_sandbox/checkouts/${p}/cancel`, hasParam: true, body: () => ({}) },
  // balances (docs/behaviour.md#ledger-and-balances)
  { method: 'GET', path: () => `${M}/balances` },
  { method: 'GET', path: () => `${M}/balances/history`, query: () => ({ currency: 'NGN', direction: 'credit', limit: '5' }) },
  { method: 'POST', path: () => '/_sandbox/balances/fund', body: () => ({ currency: 'NGN', amount: 100 }) },
  // refunds (docs/behaviour.md#refunds)
  { method: 'POST', path: () => `${M}/refunds/initiate`, body: (fx) => ({ payment_reference: fx.pinRef, reference: ref('rf-fuzz'), amount: 100 }) },
  { method: 'GET', path: () => `${M}/refunds` },
  { method: 'GET', path: (fx, p = enc(fx.pinRef)) => `${M}/refunds/${p}`, hasParam: true },
  { method: 'POST', path: (fx, p = enc(fx.pinRef)) => `/_sandbox/refunds/${p}/complete`, hasParam: true, body: () => ({ outcome: 'failed' }) },
  // chargebacks (docs/behaviour.md#chargebacks), under both prefixes
  ...['/api/v1', M].flatMap((prefix): Endpoint[] => [
    { method: 'PATCH', path: (fx, p = enc(fx.chargebackRef)) => `${prefix}/chargebacks/${p}`, hasParam: true, body: () => ({ status: 'partial', amount: 10, evidence: 'KPY-DOC-1', reason: 'delivered' }) },
    { method: 'GET', path: () => `${prefix}/chargebacks`, query: () => ({ status: 'pending' }) },
    { method: 'GET', path: (fx, p = enc(fx.chargebackRef)) => `${prefix}/chargebacks/${p}`, hasParam: true },
  ]),
  { method: 'POST', path: (fx, p = enc(fx.paidRef)) => `/_sandbox/charges/${p}/chargeback`, hasParam: true, body: () => ({ amount: 10, reason: 'fraudulent', deadline_hours: 2 }) },
  { method: 'POST', path: (fx, p = enc(fx.chargebackRef)) => `/_sandbox/chargebacks/${p}/decide`, hasParam: true, body: () => ({ outcome: 'lost' }) },
  // rate conversions, with and without the trailing slash (docs/behaviour.md#conversions)
  { method: 'POST', path: () => `${M}/conversions/rates`, body: conversionQuote },
  ...[`${M}/conversions`, `${M}/conversions/`].flatMap((path) => [
    { method: 'POST' as const, path: () => path, body: (fx: Fx) => ({ rate_reference: fx.rateRef, amount: 10, from_currency: 'USD', to_currency: 'NGN', customer_name: 'Ada', customer_email: 'ada@example.com', narration: 'fuzz' }) },
    { method: 'GET' as const, path: () => path, query: () => ({ page: '1', limit: '5', date: '2026-01-01,2030-01-01' }) },
  ]),
  { method: 'GET', path: (fx, p = enc(fx.conversionRef)) => `${M}/conversions/${p}`, hasParam: true },
  // payouts (docs/behaviour.md#payouts)
  { method: 'POST', path: () => `${M}/transactions/disburse`, body: payoutBody('0000000000') },
  { method: 'POST', path: () => `${M}/transactions/disburse/remittance`, body: () => ({ ...payoutBody('0000000000')(), remittance_data: { sender_name: 'Kofi', sender_dob: '1990-05-15', sender_country_iso: 'GH' } }) },
  { method: 'GET', path: (fx, p = enc(fx.payoutRef)) => `${M}/transactions/${p}`, hasParam: true },
  { method: 'GET', path: () => `${M}/payouts`, query: () => ({ limit: '5', status: 'processing', currency: 'NGN' }) },
  { method: 'POST', path: () => `${M}/payouts/availability`, body: () => ({ type: 'bank_account', currency: 'ZAR' }) },
  { method: 'GET', path: () => `${M}/payouts/availability`, query: () => ({ type: 'bank_account', currency: 'ZAR' }) },
  { method: 'POST', path: (fx, p = enc(fx.payoutRef)) => `/_sandbox/payouts/${p}/complete`, hasParam: true, body: () => ({ outcome: 'success' }) },
  // bulk payouts, under /merchant only, both item-list endings (docs/behaviour.md#bulk-payouts)
  { method: 'POST', path: () => `${M}/transactions/disburse/bulk`, body: bulkBody },
  { method: 'GET', path: (fx, p = enc(fx.batchRef)) => `${M}/transactions/bulk/${p}`, hasParam: true },
  { method: 'GET', path: (fx, p = enc(fx.batchRef)) => `${M}/transactions/bulk/${p}/payouts`, hasParam: true, query: () => ({ page: '1', limit: '10' }) },
  { method: 'GET', path: (fx, p = enc(fx.batchRef)) => `${M}/transactions/bulk/${p}/payout`, hasParam: true },
  // virtual bank accounts (docs/behaviour.md#virtual-accounts)
  { method: 'POST', path: () => `${M}/virtual-bank-account`, body: vbaBody },
  { method: 'GET', path: (fx, p = enc(fx.vbaRef)) => `${M}/virtual-bank-account/${p}`, hasParam: true },
  { method: 'GET', path: () => `${M}/virtual-bank-account/transactions`, query: (fx) => ({ account_number: fx.vbaNumber, start_date: '2020-01-01', end_date: '2099-12-31', page: '1', limit: '10' }) },
  { method: 'POST', path: () => `${M}/virtual-bank-account/sandbox/credit`, body: (fx) => ({ account_number: fx.vbaNumber, amount: 1000, currency: 'NGN' }) },
  { method: 'POST', path: () => `${M}/virtual-bank-account`, body: (fx) => ({ currency: 'USD', account_holder_reference: fx.holderRef, account_reference: ref('usd') }), label: 'USD' },
  { method: 'PUT', path: (fx, p = enc(fx.fileRef)) => `/_sandbox/uploads/${p}`, hasParam: true, body: () => ({ bytes: 'png' }) },
  // USD accounts' holders and files, and pool accounts, under both prefixes (docs/behaviour.md#virtual-accounts-usd-kes-tzs, docs/behaviour.md#pool-accounts)
  ...['', '/merchant'].flatMap((prefix): Endpoint[] => [
    { method: 'POST', path: () => `${prefix}/api/v1/files/generate-upload-url`, body: uploadBody },
    { method: 'POST', path: () => `${prefix}${HOLDERS}`, body: (fx) => holderBody(fx.fileRef) },
    { method: 'GET', path: (fx, p = enc(fx.holderRef)) => `${prefix}${HOLDERS}/${p}/details`, hasParam: true },
    { method: 'PATCH', path: (fx, p = enc(fx.holderRef)) => `${prefix}${HOLDERS}/${p}/update-kyc`, hasParam: true, body: (fx) => ({ selfie: { reference: fx.fileRef } }) },
    { method: 'POST', path: (fx, p = enc(fx.holderRef)) => `${prefix}${HOLDERS}/${p}/update-kyc`, hasParam: true, body: (fx) => ({ selfie: { reference: fx.fileRef } }) },
    { method: 'POST', path: () => `${prefix}/api/v1/pool-accounts`, body: poolBody },
    { method: 'GET', path: (fx, p = enc(fx.poolRef)) => `${prefix}/api/v1/pool-accounts/${p}`, hasParam: true },
    { method: 'POST', path: () => `${prefix}/api/v1/pool-accounts/sandbox/credit`, body: (fx) => ({ reference: fx.poolRef, amount: 100, currency: 'KES' }) },
  ]),
  // the look-ups (docs/behaviour.md#look-ups)
  { method: 'GET', path: () => `${M}/misc/banks`, query: () => ({ countryCode: 'NG' }) },
  { method: 'GET', path: () => `${M}/misc/mobile-money`, query: () => ({ countryCode: 'KE' }) },
  { method: 'POST', path: () => `${M}/misc/banks/resolve`, body: () => ({ bank: '033', account: '0000000000', currency: 'NGN' }) },
  { method: 'GET', path: (_fx, p = 'US') => `${M}/misc/payout-payment-purpose-by-country-code/${p}`, hasParam: true },
  { method: 'GET', path: (_fx, p = 'USD') => `${M}/misc/payout-countries-by-currency-code/${p}`, hasParam: true },
  // stablecoin wallets (docs/behaviour.md#stablecoin-wallets)
  { method: 'POST', path: () => `${M}/crypto/wallets`, body: walletBody },
  { method: 'GET', path: (fx, p = enc(fx.walletRef)) => `${M}/crypto/wallets/${p}`, hasParam: true },

  { method: 'POST', path: () => `${M}/misc/mobile-money/resolve`, body: () => ({ mobileMoneyCode: '0004', phoneNumber: '233240000000', currency: 'GHS' }) },
  // the pay-ins list (docs/behaviour.md#pay-ins-list)
  { method: 'GET', path: () => `${M}/pay-ins`, query: () => ({ currency: 'NGN', status: 'success', limit: '5' }) },
  // the transactions list (docs/behaviour.md#pay-with-bank)
  { method: 'GET', path: () => `${M}/transactions`, query: () => ({ currency: 'NGN', limit: '5' }) },
  // the charge query (docs/api.md 2.8)
  { method: 'GET', path: (fx, p = enc(fx.pinRef)) => `${M}/charges/${p}`, hasParam: true },
  // the control API (docs/behaviour.md#control-api)
  { method: 'GET', path: () => '/_sandbox/health' },
  { method: 'GET', path: () => '/_sandbox/openapi.json', rawJson: true },
  { method: 'GET', path: () => '/_sandbox/clock' },
  { method: 'POST', path: () => '/_sandbox/clock/advance', body: () => ({ seconds: 1 }) },
  { method: 'POST', path: () => '/_sandbox/clock/advance', body: () => ({ to: '2030-01-01T00:00:00.000Z' }), label: 'to' },
  { method: 'POST', path: () => '/_sandbox/clock/freeze', body: () => ({ frozen: true }) },
  { method: 'GET', path: () => '/_sandbox/snapshot' },
  {
    method: 'POST',
    path: () => '/_sandbox/snapshot',
    // the smallest snapshot of the namespace itself (docs/behaviour.md#snapshots): its merchant, nothing else
    body: (fx) => ({
      paysandbox: 3,
      key: fx.key,
      clock: { now: '2026-01-01T00:00:00.000Z', frozen: true },
      records: { meta: { ns: { secret_key: fx.key, public_key: fx.key.replace(/^sk_/, 'pk_'), name: 'Fuzz', email: 'fuzz@example.com', encryption_key: ENC_KEY, webhook_url: null, created_at: '2026-01-01T00:00:00.000Z' } } },
    }),
  },
  { method: 'GET', path: () => '/_sandbox/scenarios' },
  {
    method: 'POST',
    path: () => '/_sandbox/scenarios',
    body: () => ({
      name: 'fuzz',
      settings: { pin: '4321' },
      cards: [{ number: '4111111111111111', scheme: 'visa', cvv: '123', expiry_month: '09', expiry_year: '30', steps: ['PIN'], outcome: 'success', label: 'fuzz card' }],
    }),
  },
  { method: 'DELETE', path: () => '/_sandbox/scenarios' },
  { method: 'GET', path: () => '/_sandbox/requests', query: () => ({ method: 'POST', path: CARD, limit: '5' }) },
  { method: 'PUT', path: () => '/_sandbox/webhook-url', body: () => ({ url: 'http://127.0.0.1:9/hooks' }) },
  { method: 'GET', path: () => '/_sandbox/events', query: (fx) => ({ reference: fx.pinRef, event: 'charge.success', status: 'no_target' }) },
  { method: 'POST', path: (fx, p = enc(fx.eventId)) => `/_sandbox/events/${p}/resend`, hasParam: true, body: () => ({}) },
  // a handler nobody listens for: each delivery refused at once (docs/behaviour.md#webhook-probe)
  { method: 'POST', path: () => '/_sandbox/webhooks/probe', body: () => ({ url: 'http://127.0.0.1:9/hooks', timeout_ms: 200 }) },
  { method: 'GET', path: () => '/_sandbox/report', query: () => ({ scope: 'all' }) },
  {
    method: 'POST',
    path: () => '/_sandbox/faults',
    body: () => ({ kind: 'error', method: 'GET', path: '/never/matches', times: 1, status: 503, message: 'Service currently unavailable' }),
    after: clearFaults,
  },
  {
    method: 'POST',
    path: () => '/_sandbox/faults',
    body: () => ({ kind: 'latency', method: 'POST', path: '/never/*', probability: 0.5, seed: 7, delay_ms: 1 }),
    after: clearFaults,
    label: 'latency',
  },
  { method: 'GET', path: () => '/_sandbox/faults' },
  { method: 'DELETE', path: () => '/_sandbox/faults' },
  { method: 'DELETE', path: (_fx, p = 'flt_nonexistent') => `/_sandbox/faults/${p}`, hasParam: true },
  { method: 'POST', path: (fx, p = enc(fx.preTx)) => `/_sandbox/captures/${p}/settle`, hasParam: true, body: () => ({}) },
  { method: 'POST', path: (fx, p = enc(fx.threeDsTx)) => `/_sandbox/charges/${p}/complete`, hasParam: true, body: () => ({ outcome: 'success', message: 'done' }) },
  // more of Checkout Standard: every field initialize takes; a short transfer (returned, the
  // checkout stays open) by transaction reference; a card given with its PIN
  {
    method: 'POST',
    path: () => `${M}/charges/initialize`,
    body: () => ({ ...checkoutBody(), narration: 'fuzz checkout', channels: ['card', 'bank_transfer'], default_channel: 'card', notification_url: 'http://127.0.0.1:9/hook', merchant_bears_cost: false, payment_currency: 'NGN' }),
    label: 'every field',
  },
  { method: 'POST', path: (fx, p = enc(fx.checkoutTx)) => `/_sandbox/checkouts/${p}/pay`, hasParam: true, body: () => ({ channel: 'bank_transfer', amount: 1 }), label: 'bank transfer' },
  {
    method: 'POST',
    path: (fx, p = enc(fx.checkoutRef)) => `/_sandbox/checkouts/${p}/pay`,
    hasParam: true,
    body: () => ({ channel: 'card', card: { number: PIN_CARD, cvv: '123', expiry_month: '09', expiry_year: '30', pin: '1234' } }),
    label: 'card given',
  },
  { method: 'GET', path: () => '/_sandbox/direct-debit/authorizations' },
  {
    method: 'POST',
    path: () => '/_sandbox/direct-debit/authorizations',
    body: () => ({ account_number: '0123456789', bank_code: '058', account_name: 'Ada Obi', amount: 5000, type: 'variable', start_date: '2030-01-01', end_date: '2031-01-01' }),
  },
  ...(['approve', 'decline', 'suspend', 'reactivate', 'deactivate'] as const).map(
    (move): Endpoint => ({ method: 'POST', path: (fx, p = enc('AUTH-SANDBOX-PENDING')) => `/_sandbox/direct-debit/authorizations/${p}/${move}`, hasParam: true, body: () => ({ reason: 'fuzz' }) }),
  ),
  // the customer's browser (docs/behaviour.md#webhooks) and the dashboard: HTML
  { method: 'GET', path: (fx, p = enc(fx.threeDsTx)) => `/_sandbox/3ds/${p}`, hasParam: true, html: true },
  { method: 'GET', path: (fx, p = enc(fx.pwbTx)) => `/_sandbox/pay-with-bank/${p}`, hasParam: true, html: true },
  { method: 'POST', path: (fx, p = enc(fx.pwbTx)) => `/_sandbox/pay-with-bank/${p}`, hasParam: true, html: true, form: true, body: () => ({ decision: 'approve' }) },
  // the operator's page of a wallet's REDIRECT step (docs/behaviour.md#mobile-money-operator-page), here of a charge at its prompt: refused in HTML
  { method: 'GET', path: (fx, p = enc(fx.mmStkTx)) => `/_sandbox/mobile-money/${p}`, hasParam: true, html: true },
  { method: 'POST', path: (fx, p = enc(fx.mmStkTx)) => `/_sandbox/mobile-money/${p}`, hasParam: true, html: true, form: true, body: () => ({ decision: 'approve' }) },
  { method: 'GET', path: (fx, p = enc(fx.mmStkTx)) => `/_sandbox/mobile-money/${pageOf(fx)}/${p}`, hasParam: true, html: true },
  { method: 'POST', path: (fx, p = enc(fx.mmStkTx)) => `/_sandbox/mobile-money/${pageOf(fx)}/${p}`, hasParam: true, html: true, form: true, body: () => ({ decision: 'decline' }) },
  { method: 'POST', path: (fx, p = enc(fx.threeDsTx)) => `/_sandbox/3ds/${p}`, hasParam: true, html: true, form: true, body: () => ({ decision: 'approve' }) },
  // the hosted checkout page (docs/behaviour.md#checkout-page): HTML, posts answered 303
  { method: 'GET', path: (fx, p = enc(fx.checkoutTx)) => `/checkout/${p}/pay`, hasParam: true, html: true, query: () => ({ channel: 'card' }) },
  { method: 'POST', path: (fx, p = enc(fx.checkoutTx)) => `/checkout/${p}/pay`, hasParam: true, html: true, form: true, body: () => ({ action: 'card', card_number: PIN_CARD, expiry: '09/30', cvv: '123' }) },
  { method: 'POST', path: (fx, p = enc(fx.checkoutTx)) => `/checkout/${p}/pay`, hasParam: true, html: true, form: true, body: () => ({ action: 'pin', pin: '1234' }), label: 'PIN step' },
  { method: 'POST', path: (fx, p = enc(fx.checkoutTx)) => `/checkout/${p}/cancel`, hasParam: true, html: true, form: true, body: () => ({}) },
  // the same pages naming their namespace by its page id (docs/behaviour.md#urls-handed-out); the fixtures' key names it
  { method: 'GET', path: (fx, p = enc(fx.threeDsTx)) => `/_sandbox/3ds/${pageOf(fx)}/${p}`, hasParam: true, html: true },
  { method: 'POST', path: (fx, p = enc(fx.threeDsTx)) => `/_sandbox/3ds/${pageOf(fx)}/${p}`, hasParam: true, html: true, form: true, body: () => ({ decision: 'decline' }) },
  { method: 'GET', path: (fx, p = enc(fx.pwbTx)) => `/_sandbox/pay-with-bank/${pageOf(fx)}/${p}`, hasParam: true, html: true },
  { method: 'POST', path: (fx, p = enc(fx.pwbTx)) => `/_sandbox/pay-with-bank/${pageOf(fx)}/${p}`, hasParam: true, html: true, form: true, body: () => ({ decision: 'decline' }) },
  { method: 'GET', path: (fx, p = enc(fx.checkoutTx)) => `/checkout/${pageOf(fx)}/${p}/pay`, hasParam: true, html: true },
  { method: 'POST', path: (fx, p = enc(fx.checkoutTx)) => `/checkout/${pageOf(fx)}/${p}/pay`, hasParam: true, html: true, form: true, body: () => ({ action: 'mobile_money', number: '254700000000' }) },
  { method: 'POST', path: (fx, p = enc(fx.checkoutTx)) => `/checkout/${pageOf(fx)}/${p}/cancel`, hasParam: true, html: true, form: true, body: () => ({}) },
  { method: 'GET', path: () => '/_sandbox/ui', html: true, query: (fx) => ({ ns: fx.key, kind: 'card', status: 'processing', q: 'order' }) },
  { method: 'GET', path: () => '/_sandbox/ui/fragment', html: true, query: (fx) => ({ ns: fx.key, kind: 'card', status: 'processing', q: 'order' }) },
  { method: 'GET', path: () => '/_sandbox/ui/dashboard.css', asset: 'text/css', query: () => ({ v: '0' }) },
  { method: 'GET', path: () => '/_sandbox/ui/dashboard.js', asset: 'text/javascript', query: () => ({ v: '0' }) },
]

/** `METHOD /path/:param` of an endpoint, as the route table writes it (parameters as :p). */
/** the page id of the fixtures' namespace (routeOf's stand-in fixtures name the route's parameter) */
const pageOf = (fx: Fx) => (fx.key === 'KEY' ? ':p' : pageId(fx.key))
const routeOf = (ep: Endpoint) => {
  const fake = {
    key: 'KEY', pinTx: '', pinRef: '', otpTx: '', threeDsTx: '', preTx: '', preRef: '', mmOtpRef: '', mmOtpTx: '', mmStkRef: '', mmStkTx: '', eventId: '', ddRef: '', checkoutRef: '', checkoutTx: '',
  }
  return `${ep.method} ${ep.path(fake, ep.hasParam ? ':p' : undefined)}`
}
const nameOf = (ep: Endpoint) => `${routeOf(ep)}${ep.label ? ` (${ep.label})` : ''}`

// ---------------------------------------------------------------------------------------------
// building hostile bodies

/** application/x-www-form-urlencoded (or a query string) of a record whose values may be anything */
function formOf(record: unknown): string {
  const entries = Object.entries(record as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')])
  return new URLSearchParams(entries).toString()
}

/** Every path to a field of the body, objects and arrays included. */
function fieldPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = []
  if (Array.isArray(value)) value.forEach((v, i) => { out.push([...prefix, i], ...fieldPaths(v, [...prefix, i])) })
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push([...prefix, k], ...fieldPaths(v, [...prefix, k]))
  }
  return out
}

function valueAt(value: unknown, path: (string | number)[]): unknown {
  let o = value as any
  for (const k of path) o = o?.[k]
  return o
}

const REMOVE = Symbol('remove')
/** A copy of `value` with the field at `path` set (or removed). */
function withField(value: unknown, path: (string | number)[], v: unknown): unknown {
  const copy = structuredClone(value) as any
  let o = copy
  for (const k of path.slice(0, -1)) o = o[k]
  const last = path[path.length - 1]
  if (v === REMOVE) {
    if (Array.isArray(o)) o.splice(last as number, 1)
    else delete o[last]
  } else o[last] = v
  return copy
}

/** JSON text of `value` with the field at `path` replaced by raw JSON text (or raw bytes later). */
const MARK = '\u0000__FUZZ_MARK__\u0000'
function jsonWithRaw(value: unknown, path: (string | number)[], raw: string): string {
  return JSON.stringify(withField(value, path, MARK)).replace(JSON.stringify(MARK), raw)
}

/** Encrypts raw bytes as charge_data, the way docs/api.md 5.3 says (the plaintext need not be UTF-8). */
function encryptBytes(bytes: Uint8Array, key = ENC_KEY): string {
  const iv = randomBytes(16)
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'utf8'), iv)
  const ct = Buffer.concat([cipher.update(bytes), cipher.final()])
  return `${iv.toString('hex')}:${ct.toString('hex')}:${cipher.getAuthTag().toString('hex')}`
}

/** The request body for a payload (JSON text or bytes): encrypted into charge_data where the endpoint wants it. */
function wrap(ep: Endpoint, payload: string | Uint8Array): string | Uint8Array {
  if (!ep.encrypted) return payload
  const bytes = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload
  return JSON.stringify({ charge_data: encryptBytes(bytes) })
}

const HUGE = 100_000
const DEEP = 5_000
const deepArray = '['.repeat(DEEP) + ']'.repeat(DEEP)
const deepObject = '{"a":'.repeat(DEEP) + 'null' + '}'.repeat(DEEP)
const deepMixed = '{"__proto__":['.repeat(DEEP / 2) + '{"polluted":"yes"}' + ']}'.repeat(DEEP / 2)

/** Values of the wrong type (and the right type with hostile content). */
const EDGE_VALUES: unknown[] = [
  null, true, false, 0, -1, -0, 1.5, 0.001, 1e21, 1e300, -1e300, 8.64e15, 8.64e15 + 1, -8.64e15 - 1, Number.MAX_SAFE_INTEGER + 2, Number.MIN_VALUE,
  '', ' ', '0', '-1', '1e400', '0x10', 'NaN', 'Infinity', 'null', 'true', '[]', '{}', '\u0000', '\ud800', '\udfff\ud800', '\ufeff', '💳', 'ǅ\u0301',
  '%00', '%E0%A4%A', '../../../etc/passwd', '<script>alert(1)</script>', "' OR 1=1 --", '${7*7}', '{{7*7}}', '__proto__', 'constructor',
  '4084127883172787', '2030-02-30', '9999-12-31T23:59:59.999Z', '+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z',
  [], {}, [null], [[]], { a: { b: {} } }, ['1234'], { length: 1e9 }, { toString: 'x', valueOf: 1 },
]
const surrogates = fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 8 })
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...EDGE_VALUES), weight: 4 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double(), weight: 2 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary' }), weight: 2 },
  { arbitrary: surrogates, weight: 1 },
  { arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), weight: 1 },
  { arbitrary: fc.constant(REMOVE), weight: 1 },
)

/** Any JSON document, or text that is not JSON at all. */
const arbitraryBody: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.json(),
  // fc.anything: undefined, NaN, -0, sparse arrays, odd keys; JSON.stringify decides what is sent
  fc.anything({ maxDepth: 4 }).map((v) => {
    try {
      return JSON.stringify(v) ?? ''
    } catch {
      return String(v)
    }
  }),
  fc.object({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', ' ', 'null', '[]', '{}', '"x"', '1', 'true', '{', '}', '{"a":}', '{"a":1,}', "{'a':1}", '{"a":1}{"b":2}', '\ufeff{}', 'undefined', 'NaN'),
)

/** The JSON text of `value` with __proto__, constructor and prototype keys added at every object level. */
function poisoned(value: unknown, keys: string[], payload: string): string {
  if (Array.isArray(value)) return `[${value.map((v) => poisoned(v, keys, payload)).join(',')}]`
  if (value && typeof value === 'object') {
    const own = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${poisoned(v, keys, payload)}`)
    const bad = keys.map((k) => `${JSON.stringify(k)}:${k === 'constructor' ? `{"prototype":${payload}}` : payload}`)
    return `{${[...bad, ...own].join(',')}}`
  }
  return JSON.stringify(value)
}
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype']
const protoPayload = fc.constantFrom(
  '{"polluted":"yes"}',
  '{"polluted":"yes","toString":"x","valueOf":1,"hasOwnProperty":"x","status":"pwned"}',
  '{"__proto__":{"polluted":"yes"}}',
  '[{"polluted":"yes"}]',
  '"yes"',
  'null',
  '1',
)

/** Odd encodings of a body: invalid UTF-8 bytes, BOMs, UTF-16, surrogates. */
const INVALID_UTF8: number[][] = [
  [0xff], [0xfe, 0xff], [0xc0, 0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x00],
]
function encodings(json: string, path: (string | number)[] | undefined, sample: unknown): { label: string; bytes: Uint8Array }[] {
  const utf8 = Buffer.from(json, 'utf8')
  const out: { label: string; bytes: Uint8Array }[] = [
    { label: 'UTF-8 BOM', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]) },
    { label: 'two BOMs', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), utf8]) },
    { label: 'UTF-16LE with BOM', bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json, 'utf16le')]) },
    { label: 'UTF-16LE', bytes: Buffer.from(json, 'utf16le') },
    { label: 'UTF-16BE with BOM', bytes: Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(json, 'utf16le')]).swap16()) },
    { label: 'UTF-32-ish', bytes: Buffer.from([...utf8].flatMap((b) => [b, 0, 0, 0])) },
    { label: 'NUL-terminated', bytes: Buffer.concat([utf8, Buffer.from([0])]) },
    { label: 'invalid UTF-8 prefix', bytes: Buffer.concat([Buffer.from([0xff, 0xfe, 0xfd]), utf8]) },
  ]
  if (path) {
    for (const seq of INVALID_UTF8) {
      const text = JSON.stringify(withField(sample, path, MARK))
      const [a, b] = text.split(JSON.stringify(MARK))
      out.push({ label: `invalid UTF-8 ${seq.map((x) => x.toString(16)).join(' ')} in a string`, bytes: Buffer.concat([Buffer.from(`${a}"`), Buffer.from(seq), Buffer.from(`"${b}`)]) })
    }
    out.push({ label: 'lone surrogate escapes', bytes: Buffer.from(jsonWithRaw(sample, path, '"\\ud800\\udc00\\udc00\\ud800x"')) })
    out.push({ label: 'NUL escape', bytes: Buffer.from(jsonWithRaw(sample, path, '"a\\u0000b"')) })
    out.push({ label: 'raw control characters', bytes: Buffer.from(jsonWithRaw(sample, path, '"a\u0001\u001fb"')) })
  }
  return out
}

/** Bad percent-escapes for path parameters and query strings. */
const BAD_ESCAPES = ['%E0%A4%A', '%%', '%00', '%', '%ZZ', '%C0%AF', '%ED%A0%80', '%FF%FE', '%2F..%2F..%2F', '..%2f..%2fetc%2fpasswd', '%u0041', '%25%', '%E0%A4', 'a%0Ab', '%0D%0Aset-cookie:x=1']

// ---------------------------------------------------------------------------------------------
// the properties, endpoint by endpoint

describe('coverage', () => {
  it('the endpoints fuzzed here are every route of the app, except POST /_sandbox/reset', () => {
    const routes = new Set(sb.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path.replace(/:[^/]+/g, ':p')}`))
    routes.delete('POST /_sandbox/reset')
    const fuzzed = new Set(ENDPOINTS.map(routeOf))
    expect([...routes].filter((r) => !fuzzed.has(r)), 'routes nobody fuzzes: add them to ENDPOINTS').toEqual([])
    expect([...fuzzed].filter((r) => !routes.has(r)), 'fuzzed paths that are no route').toEqual([])
  })
})

describe('every endpoint answers hostile input without a 5xx, always with the envelope', () => {
  ENDPOINTS.forEach((ep, i) => {
    // a namespace per endpoint and test: a failure stays with the input that caused it
    const keyBase = `sk_test_fuzz_${i}`
    const name = nameOf(ep)
    const hasBody = ep.method !== 'GET'

    /** the request for a payload (already wrapped), with a path parameter and a query */
    const request = async (fx: Fx, o: { body?: Body; param?: string; query?: string; headers?: Headers | Record<string, string>; noContentType?: boolean } = {}) => {
      let path = ep.path(fx, o.param)
      if (o.query !== undefined) path += `?${o.query}`
      else if (ep.query) path += `?${new URLSearchParams(ep.query(fx))}`
      const headers = new Headers(o.headers)
      if (ep.form && o.body !== undefined && !headers.has('content-type') && !o.noContentType) headers.set('content-type', 'application/x-www-form-urlencoded')
      const res = await send(ep.method, path, { key: fx.key, body: hasBody ? o.body : undefined, headers, noContentType: o.noContentType })
      return res
    }
    const check = async (fx: Fx, what: string, o: Parameters<typeof request>[1] = {}) => {
      const res = await request(fx, o)
      const v = await violation(res, !!ep.html, !!ep.rawJson, ep.asset)
      await ep.after?.(fx)
      return v === null ? null : `${what}: ${v}`
    }
    const sampleText = (fx: Fx) => {
      const b = ep.body?.(fx)
      if (!b) return undefined
      if (ep.form) return formOf(b)
      return JSON.stringify(b)
    }

    describe(name, () => {
      const fxFor = (test: string) => fixtures(`${keyBase}_${test}`)

      it('the valid request itself is answered with the envelope', async () => {
        const fx = await fxFor('valid')
        const text = sampleText(fx)
        expect(await check(fx, 'valid request', { body: text === undefined ? undefined : wrap(ep, text) })).toBeNull()
      })

      it('arbitrary JSON and non-JSON bodies, queries and path parameters', async () => {
        const fx = await fxFor('arbitrary')
        const param = ep.hasParam ? fc.oneof(fc.constant(undefined), fc.string({ unit: 'binary' }).map(enc), fc.constantFrom(...BAD_ESCAPES)) : fc.constant(undefined)
        const query = fc.oneof(
          fc.constant(undefined),
          fc
            .dictionary(fc.string(), fc.oneof(fc.string({ unit: 'binary' }), fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v))), { maxKeys: 5 })
            // a long poll would only wait (docs/behaviour.md#control-api caps it at 30 s): wait is checked separately
            .map((q) => new URLSearchParams(Object.entries(q).filter(([k]) => k !== 'wait')).toString()),
          fc.constantFrom(...BAD_ESCAPES).map((e) => `${e}=${e}&reference=${e}`),
        )
        await holds([arbitraryBody, param, query], (body: string, p: string | undefined, q: string | undefined) =>
          check(fx, `body ${JSON.stringify(body).slice(0, 200)}, parameter ${p?.slice(0, 100)}, query ${q?.slice(0, 100)}`, { body: hasBody ? wrap(ep, body) : undefined, param: p, query: q }),
        )
      }, PROP_TIMEOUT)

      if (ep.body || ep.query) {
        it('wrong types for each known field', async () => {
          const fx = await fxFor('types')
          const sample = ep.body?.(fx) ?? ep.query!(fx)
          // a body with no known field ({}) gets an unknown one
          const paths = fieldPaths(sample).length ? fieldPaths(sample) : [['extra']]
          // encrypted endpoints: the fields of the plaintext, and charge_data itself
          const outer = fc.boolean().map((b) => b && !!ep.encrypted)
          await holds([fc.nat(paths.length - 1), wrongValue, outer], async (n: number, value: unknown, onChargeData: boolean) => {
            if (onChargeData) {
              const body = value === REMOVE ? {} : { charge_data: value }
              return check(fx, `charge_data = ${value === REMOVE ? '(removed)' : String(JSON.stringify(value)).slice(0, 80)}`, { body: JSON.stringify(body) })
            }
            const mutated = withField(sample, paths[n], value)
            let o: Parameters<typeof request>[1]
            if (ep.body) {
              o = { body: wrap(ep, ep.form ? formOf(mutated) : JSON.stringify(mutated)) }
            } else {
              o = { query: formOf(mutated) }
            }
            return check(fx, `${paths[n].join('.')} = ${value === REMOVE ? '(removed)' : String(JSON.stringify(value)).slice(0, 80)}`, o)
          })
        }, PROP_TIMEOUT)

        it('huge strings (100k characters) and deep nesting (5,000 levels) in each field', async () => {
          const fx = await fxFor('huge')
          const sample = ep.body?.(fx) ?? ep.query!(fx)
          const problems: string[] = []
          for (const path of fieldPaths(sample)) {
            const at = path.join('.')
            if (ep.body && !ep.form) {
              for (const [label, raw] of [
                ['huge string', JSON.stringify('x'.repeat(HUGE))],
                ['huge digit string', JSON.stringify('4'.repeat(HUGE))],
                ['huge spaced digits', JSON.stringify('4084 '.repeat(HUGE / 5))],
                ['deep array', deepArray],
                ['deep object', deepObject],
                ['deep __proto__ chain', deepMixed],
              ] as const) {
                const v = await check(fx, `${at}: ${label}`, { body: wrap(ep, jsonWithRaw(sample, path, raw)) })
                if (v) problems.push(v)
              }
            } else {
              const mutated = withField(sample, path, 'x'.repeat(HUGE)) as Record<string, string>
              const o = ep.form ? { body: formOf(mutated) } : { query: formOf(mutated) }
              const v = await check(fx, `${at}: huge string`, o)
              if (v) problems.push(v)
            }
          }
          if (hasBody) {
            for (const [label, raw] of [['deep array body', deepArray], ['deep object body', deepObject], ['huge string body', JSON.stringify('x'.repeat(HUGE))]] as const) {
              const v = await check(fx, label, { body: wrap(ep, raw) })
              if (v) problems.push(v)
            }
          }
          if (ep.hasParam) {
            const v = await check(fx, 'huge path parameter', { param: 'x'.repeat(HUGE) })
            if (v) problems.push(v)
          }
          const v = await check(fx, 'huge query', { query: `q=${'x'.repeat(HUGE)}&${'k'.repeat(HUGE)}=1` })
          if (v) problems.push(v)
          expect(problems.join('\n')).toBe('')
        }, FIXED_TIMEOUT)
      }

      it('__proto__, constructor and prototype keys at every level', async () => {
        const fx = await fxFor('proto')
        const sample = ep.body?.(fx) ?? { a: { b: [{ c: 1 }] } }
        await holds([fc.subarray(PROTO_KEYS, { minLength: 1 }), protoPayload], async (keys: string[], payload: string) => {
          const text = poisoned(sample, keys, payload)
          const o = ep.form
            ? { body: keys.map((k) => `${k}[polluted]=yes&${k}.polluted=yes`).join('&') + '&decision=approve' }
            : hasBody
              ? { body: wrap(ep, text) }
              : { query: keys.map((k) => `${k}[polluted]=yes&${k}.polluted=yes&${k}=x`).join('&') }
          const what = `keys ${keys.join(',')} = ${payload}`
          const v = await check(fx, what, o)
          if (v) return v
          if (({} as any).polluted !== undefined) return `${what}: Object.prototype.polluted is set`
          const now = Object.getOwnPropertyNames(Object.prototype).sort()
          if (now.join() !== OBJECT_PROTO_KEYS.join()) return `${what}: Object.prototype now has ${now.filter((k) => !OBJECT_PROTO_KEYS.includes(k))}`
          return null
        })
      }, PROP_TIMEOUT)

      if (hasBody) {
        it('odd encodings: invalid UTF-8, BOMs, UTF-16, surrogates, random bytes', async () => {
          const fx = await fxFor('encodings')
          const sample = ep.body?.(fx) ?? { a: 'b' }
          // the string fields: that is where text encodings matter
          const paths = fieldPaths(sample).filter((p) => typeof valueAt(sample, p) === 'string')
          const problems: string[] = []
          for (const path of paths.length ? paths : [undefined]) {
            for (const { label, bytes } of encodings(JSON.stringify(sample), path, sample)) {
              for (const ct of ['application/json', 'application/json; charset=utf-16', 'text/plain; charset=latin1']) {
                const v = await check(fx, `${path?.join('.')}: ${label} as ${ct}`, { body: wrap(ep, bytes), headers: { 'content-type': ct } })
                if (v) problems.push(v)
              }
            }
          }
          expect(problems.join('\n')).toBe('')
          await holds([fc.uint8Array({ maxLength: 512 })], (bytes: Uint8Array) => check(fx, `random bytes ${Buffer.from(bytes).toString('hex').slice(0, 200)}`, { body: wrap(ep, bytes) }))
        }, PROP_TIMEOUT)
      }

      it('odd headers: duplicate or malformed authorization, very long values, content-type lies', async () => {
        const fx = await fxFor('headers')
        const key = fx.key
        const text = sampleText(fx)
        const body = text === undefined ? undefined : wrap(ep, text)
        const dup = (a: string, b: string) => {
          const h = new Headers()
          h.append('authorization', a)
          h.append('authorization', b)
          return h
        }
        const variants: [string, Headers | Record<string, string>, Body?][] = [
          ['duplicate authorization', dup(`Bearer ${key}`, `Bearer ${key}`)],
          ['duplicate authorization, the second live', dup(`Bearer ${key}`, 'Bearer sk_live_abc')],
          ['duplicate authorization, the first empty', dup('', `Bearer ${key}`)],
          ['very long key', { authorization: `Bearer sk_test_${'a'.repeat(70_000)}` }],
          ['very long header', { authorization: `Bearer ${key}`, 'x-junk': 'j'.repeat(100_000) }],
          ['very long token header', { authorization: `Bearer ${key}`, 'x-sandbox-control-token': 't'.repeat(100_000) }],
          ['Bearer with a tab', { authorization: `Bearer\t${key}` }],
          ['Bearer with tabs around', { authorization: `\tBearer\t\t${key}\t` }],
          ['lowercase bearer', { authorization: `bearer ${key}` }],
          ['uppercase BEARER and spaces', { authorization: `BEARER    ${key}    ` }],
          ['Bearer only', { authorization: 'Bearer' }],
          ['Bearer and a space', { authorization: 'Bearer ' }],
          ['Basic', { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` }],
          ['two keys in one header', { authorization: `Bearer ${key} sk_test_other` }],
          ['latin-1 in the key', { authorization: `Bearer sk_test_\u00e9\u00ff` }],
          ['live key', { authorization: 'Bearer sk_live_0123456789' }],
          ['content-type text/plain', { authorization: `Bearer ${key}`, 'content-type': 'text/plain' }],
          ['content-type form with JSON', { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' }],
          ['content-type multipart without boundary', { authorization: `Bearer ${key}`, 'content-type': 'multipart/form-data' }],
          ['content-type multipart with a junk boundary', { authorization: `Bearer ${key}`, 'content-type': 'multipart/form-data; boundary=--xx' }],
          ['content-type utf-16 on UTF-8', { authorization: `Bearer ${key}`, 'content-type': 'application/json; charset=utf-16' }],
          ['content-type unknown charset', { authorization: `Bearer ${key}`, 'content-type': 'application/json; charset=x-bogus' }],
          ['content-type junk', { authorization: `Bearer ${key}`, 'content-type': ';;;===,,,' }],
          ['content-type JSON on a form body', { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, 'decision=approve&a=%%'],
          ['content-length lie (small)', { authorization: `Bearer ${key}`, 'content-length': '1' }],
          ['content-length junk', { authorization: `Bearer ${key}`, 'content-length': 'abc' }],
          ['content-encoding gzip on plain text', { authorization: `Bearer ${key}`, 'content-encoding': 'gzip' }],
          ['transfer-encoding junk', { authorization: `Bearer ${key}`, 'transfer-encoding': 'bogus' }],
          ['x-forwarded-for spoof', { authorization: `Bearer ${key}`, 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '203.0.113.7' }],
          ['accept XML only', { authorization: `Bearer ${key}`, accept: 'application/xml' }],
        ]
        const problems: string[] = []
        for (const [label, headers, override] of variants) {
          let res: Response
          try {
            res = await request(fx, { body: hasBody ? (override ?? body) : undefined, headers, noContentType: 'content-type' in headers })
          } catch (e) {
            // a header the fetch Headers class itself refuses is not the app's business
            if (e instanceof TypeError && /header/i.test(e.message)) continue
            throw e
          }
          const v = await violation(res, !!ep.html, !!ep.rawJson, ep.asset)
          await ep.after?.(fx)
          if (v) problems.push(`${label}: ${v}`)
        }
        expect(problems.join('\n')).toBe('')
      }, FIXED_TIMEOUT)

      it('bad percent-escapes in the path and the query', async () => {
        const fx = await fxFor('escapes')
        const problems: string[] = []
        const text = sampleText(fx)
        const body = text === undefined ? undefined : wrap(ep, text)
        for (const e of BAD_ESCAPES) {
          const variants: [string, Parameters<typeof request>[1]][] = [
            [`query ${e}`, { body, query: `${e}=${e}&reference=${e}&path=${e}&ns=${e}&token=${e}` }],
          ]
          if (ep.hasParam) variants.push([`parameter ${e}`, { body, param: e }])
          for (const [label, o] of variants) {
            const v = await check(fx, label, o)
            if (v) problems.push(v)
          }
          // an extra segment with the escape: an unknown route, still the envelope
          const res = await send(ep.method, `${ep.path(fx)}/${e}`, { key: fx.key, body: hasBody ? body : undefined })
          const v = await violation(res, !!ep.html, !!ep.rawJson, ep.asset)
          if (v) problems.push(`extra segment ${e}: ${v}`)
        }
        expect(problems.join('\n')).toBe('')
      }, FIXED_TIMEOUT)
    })
  })
})

// ---------------------------------------------------------------------------------------------

describe('paths from the issue', () => {
  it.each(['/merchant/api/v1/charges/%E0%A4%A', '/merchant/api/v1/charges/%%', '/merchant/api/v1/charges/%00'])('GET %s: 404 Charge not found, the envelope', async (path) => {
    const res = await send('GET', path)
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ status: false, message: 'Charge not found', data: null })
  })

  it.each(['/%%', '/merchant/api/v1/charges/card/%E0%A4%A', '/_sandbox/%00', '/api/v1/identities/%%/bvn'])('POST %s: 404 Route not found, the envelope', async (path) => {
    const res = await send('POST', path, { body: '{}' })
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await res.json()).toEqual({ status: false, message: 'Route not found', data: null })
  })

  it('the long poll of GET /_sandbox/events refuses a malformed wait at once', async () => {
    for (const wait of ['abc', '-1', '1e400', 'Infinity', '1.5', '%%', '[]']) {
      const res = await send('GET', `/_sandbox/events?reference=none&wait=${wait}`)
      expect(res.status, wait).toBe(422)
      await expectSane(res, false, wait)
    }
  })
})

describe('clock limits (found by the properties above)', () => {
  it.each([
    ['a number beyond the Date range', 1e300],
    ['the last representable millisecond', 8.64e15],
    ['an ISO string at the end of the Date range', '+275760-09-13T00:00:00.000Z'],
  ])('advancing to %s is refused or harmless: the namespace keeps answering', async (_label, to) => {
    const key = `sk_test_fuzz_clock_${String(to).replace(/\W/g, '')}`
    const res = await send('POST', '/_sandbox/clock/advance', { key, body: JSON.stringify({ to }) })
    await expectSane(res, false, `advance to ${to}`)
    for (const [method, path] of [['GET', '/_sandbox/clock'], ['GET', `${M}/charges/none-such-ref`], ['GET', '/_sandbox/events']] as const) {
      const later = await send(method, path, { key })
      await expectSane(later, false, `${method} ${path} after advancing to ${to}`)
    }
  })
})

describe('secret-named fields holding odd values (found by the properties above)', () => {
  const values: [string, string][] = [
    ['a 5,000-level array', deepArray],
    ['an object whose toString is not a function', '{"toString":"x","valueOf":1}'],
  ]
  const cases = ['pin', 'otp', 'cvv', 'token'].flatMap((field) => values.map(([label, raw]) => [field, label, raw] as const))
  it.each(cases)('an unknown "%s" field holding %s is ignored: the charge is answered, not a 500', async (field, label, raw) => {
    const key = `sk_test_fuzz_secret_${field}_${label.length}`
    const body = mmBody('254700000000', 'KES')
    const text = JSON.stringify(body).replace(/}$/, `,"${field}":${raw}}`)
    const res = await send('POST', MM, { key, body: text })
    await expectSane(res, false, `mobile money charge with ${field}: ${label}`)
    // the charge is stored either way: a 5xx here would be a commit-then-error nobody injected
    const q = await send('GET', `${M}/charges/${enc(body.reference)}`, { key })
    expect(q.status).toBe(200)
    expect(res.status).toBe(200)
  })

  it.each(values)('a control call with a "token" field holding %s answers 200 or 422, never 500', async (label, raw) => {
    const res = await send('POST', '/_sandbox/clock/freeze', { key: `sk_test_fuzz_secret_control_${label.length}`, body: `{"frozen":true,"token":${raw}}` })
    await expectSane(res, false, `clock/freeze with a token: ${label}`)
  })

  it.each(values)('the card PIN step with authorization.pin holding %s is 422 Invalid request data', async (label, raw) => {
    const key = `sk_test_fuzz_secret_pin_${label.length}`
    const { tx } = await cardCharge(key, PIN_CARD)
    const res = await send('POST', `${CARD}/authorize`, { key, body: `{"transaction_reference":${JSON.stringify(tx)},"authorization":{"pin":${raw}}}` })
    await expectSane(res, false, `authorize with pin: ${label}`)
    expect(res.status).toBe(422)
  })
})

// ---------------------------------------------------------------------------------------------

describe('body limits (docs/behaviour.md#http): 413 with the envelope', () => {
  const bodyOf = (bytes: number) => {
    const s = `{"pad":"${'x'.repeat(bytes - 10)}"}`
    expect(Buffer.byteLength(s)).toBe(bytes)
    return s
  }
  const MiB = 1 << 20

  it.each([
    ['POST', CARD, MiB],
    ['POST', `${CARD}/authorize`, MiB],
    ['POST', MM, MiB],
    ['POST', '/_sandbox/faults', MiB],
    ['POST', '/api/v1/identities/ng/bvn', 4 * MiB],
    ['POST', `${M}/identities/gh/passport`, 4 * MiB],
  ])('%s %s: limit + 1 byte is 413, the limit itself is read', async (method, path, limit) => {
    const over = await send(method as Method, path, { body: bodyOf(limit + 1) })
    expect(over.status).toBe(413)
    expect(over.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await over.json()).toEqual({ status: false, message: 'Request body is too large', data: { limit_bytes: limit } })
    const at = await send(method as Method, path, { body: bodyOf(limit) })
    expect(at.status).toBeLessThan(500)
    expect(at.status).not.toBe(413)
    await expectSane(at, false, 'at the limit')
  })

  it('1 MiB + 1 on a card endpoint without content-length (streamed) is 413 too', async () => {
    const text = bodyOf(MiB + 1)
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        const buf = Buffer.from(text)
        for (let i = 0; i < buf.length; i += 64 * 1024) c.enqueue(buf.subarray(i, i + 64 * 1024))
        c.close()
      },
    })
    const res = await sb.app.request(CARD, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: stream,
      // @ts-expect-error: Node's fetch needs duplex for a stream body
      duplex: 'half',
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ status: false, message: 'Request body is too large' })
  })

  it.each([
    ['POST', `${M}/direct-debit/authorizations/identities/debits`],
    ['POST', '/api/v1/direct-debit/authorizations/identities/debits'],
    ['POST', '/_sandbox/charges/identities/complete'],
    ['POST', '/_sandbox/direct-debit/authorizations/identities/approve'],
  ])('%s %s: a path parameter spelling "identities" does not lift the 1 MiB limit', async (method, path) => {
    const res = await send(method as Method, path, { body: bodyOf(MiB + 1) })
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ status: false, message: 'Request body is too large', data: { limit_bytes: MiB } })
  })
})

// ---------------------------------------------------------------------------------------------
// runs last (vitest runs a file's tests in order)

describe('afterwards', () => {
  it('no prototype was polluted', () => {
    expect(({} as any).polluted).toBeUndefined()
    expect(([] as any).polluted).toBeUndefined()
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(OBJECT_PROTO_KEYS)
    expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(ARRAY_PROTO_KEYS)
    expect(typeof Object.prototype.toString).toBe('function')
  })

  it('the app still answers GET /_sandbox/health and a valid card charge', async () => {
    const health = await send('GET', '/_sandbox/health', { key: null })
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ status: true, data: { version: expect.any(String) } })
    const p = cardPayload(NO_AUTH_CARD)
    const res = await send('POST', CARD, { body: JSON.stringify({ charge_data: encryptChargeData(p, ENC_KEY) }) })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: true, message: 'Card charged successfully', data: { status: 'success', payment_reference: p.reference } })
    const q = await send('GET', `${M}/charges/${enc(p.reference)}`)
    expect(q.status).toBe(200)
  })

  it('every fuzzed namespace still answers its clock, its journal and the charge query', async () => {
    const broken: string[] = []
    expect(fixtureCache.size).toBeGreaterThan(ENDPOINTS.length * 5)
    for (const key of fixtureCache.keys()) {
      const ep = ENDPOINTS[Number(/^sk_test_fuzz_(\d+)_/.exec(key)![1])]
      for (const path of ['/_sandbox/clock', '/_sandbox/requests?limit=1', `${M}/charges/no-such-reference`]) {
        const res = await send('GET', path, { key })
        const v = await violation(res, false)
        if (v) broken.push(`${nameOf(ep)} [${key}] -> GET ${path}: ${v.slice(0, 200)}`)
      }
    }
    expect(broken.join('\n')).toBe('')
  })
})

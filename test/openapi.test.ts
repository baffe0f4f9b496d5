import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AREAS } from '../src/areas.js'
import type { Documented, Route } from '../src/http/area.js'
import { makeSandbox, cardPayload, type TestSandbox } from './helpers/sandbox.js'

/** the routes the shipped areas declare for the document */
const documentedRoutes = () => AREAS.flatMap((a) => a.routes as readonly Route<unknown>[]).filter((r): r is Route<unknown> & Documented => !('page' in r))

/** Routes served but not part of the JSON API: HTML pages for a browser, and the document itself. */
// the customer's pages (3DS, checkout) and the dashboard are HTML for a browser
const NOT_DOCUMENTED = [/^\/_sandbox\/3ds\//, /^\/_sandbox\/pay-with-bank\//, /^\/_sandbox\/mobile-money\//, /^\/checkout\//, /^\/_sandbox\/ui(\/|$)/, /^\/_sandbox\/openapi\.json$/]

/**
 * A small JSON Schema (2020-12) check, enough for what zod emits for request bodies: type,
 * properties, required, additionalProperties, enum, const, pattern, lengths, ranges, anyOf, items.
 * Returns the dotted paths that fail, empty when the value is accepted.
 */
function check(schema: any, value: unknown, path = '$'): string[] {
  if (schema === true || schema === undefined || (typeof schema === 'object' && Object.keys(schema).length === 0)) return []
  const errors: string[] = []
  if (schema.anyOf) {
    if (!schema.anyOf.some((s: unknown) => check(s, value, path).length === 0)) errors.push(`${path}: matches no anyOf branch`)
    return errors
  }
  if ('const' in schema && value !== schema.const) errors.push(`${path}: must be ${JSON.stringify(schema.const)}`)
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${path}: not in enum`)
  const types: string[] = schema.type === undefined ? [] : [].concat(schema.type)
  const typeOf = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value
  if (types.length && !types.some((t) => t === typeOf || (t === 'number' && typeOf === 'integer'))) {
    return [...errors, `${path}: must be ${types.join(' or ')}, is ${typeOf}`]
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) errors.push(`${path}: too short`)
    if (schema.maxLength !== undefined && value.length > schema.maxLength) errors.push(`${path}: too long`)
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) errors.push(`${path}: does not match ${schema.pattern}`)
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: below minimum`)
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${path}: above maximum`)
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...check(schema.items, v, `${path}.${i}`)))
  if (typeOf === 'object') {
    const obj = value as Record<string, unknown>
    for (const key of schema.required ?? []) if (!(key in obj)) errors.push(`${path}.${key}: is required`)
    for (const [key, v] of Object.entries(obj)) {
      const sub = schema.properties?.[key]
      if (sub) errors.push(...check(sub, v, `${path}.${key}`))
      else if (schema.additionalProperties === false) errors.push(`${path}.${key}: not allowed`)
      else if (schema.additionalProperties) errors.push(...check(schema.additionalProperties, v, `${path}.${key}`))
    }
  }
  return errors
}

let sandbox: TestSandbox
let doc: any

beforeAll(async () => {
  sandbox = await makeSandbox()
  const res = await sandbox.app.request('/_sandbox/openapi.json')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('application/json')
  doc = await res.json()
})
afterAll(() => sandbox.close())

/** the `data` schema of an operation's 200 answer, its $ref resolved */
function answerSchema(method: string, path: string): any {
  const ref: string = doc.paths[path][method].responses['200'].content['application/json'].schema.allOf[1].properties.data.$ref
  return doc.components.schemas[ref.split('/').pop()!]
}

/** the request body schema of an operation, its $ref resolved */
function bodySchema(method: string, path: string): any {
  const ref: string = doc.paths[path][method].requestBody.content['application/json'].schema.$ref
  return doc.components.schemas[ref.split('/').pop()!]
}

describe('GET /_sandbox/openapi.json', () => {
  it('is served without a key, as raw OpenAPI 3.1 JSON (no envelope)', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.status).toBeUndefined()
    expect(doc.info.version).toBe(sandbox.deps.version)
  })

  it('is a valid OpenAPI document for @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(doc))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
    // every $ref resolves
    expect(() => validator.resolveRefs()).not.toThrow()
  })

  it('lists every route the app registers, with its method', () => {
    const served = sandbox.app.routes
      .filter((r) => r.method !== 'ALL' && !NOT_DOCUMENTED.some((re) => re.test(r.path)))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
    expect(served.length).toBeGreaterThan(40)
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m} ${path}`),
    )
    for (const route of served) expect(documented, `${route} is served but not in the document`).toContain(route)
    // and nothing documented that is not served (the document itself aside)
    for (const route of documented.filter((r) => r !== 'get /_sandbox/openapi.json')) expect(served).toContain(route)
  })

  it('declares the bearer scheme, the envelope and the tags', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(doc.security).toEqual([{ bearerAuth: [] }])
    expect(doc.paths['/_sandbox/health'].get.security).toEqual([])
    expect(doc.components.schemas.Envelope).toMatchObject({
      type: 'object',
      properties: { status: { type: 'boolean' }, message: { type: 'string' } },
      required: expect.arrayContaining(['status', 'message', 'data']),
    })
    // each area's own tags (Area.tags), in the order of src/areas.ts, each with its description
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(['cards', 'mobile money', 'bank transfer', 'pay with bank', 'voucher', 'checkout', 'virtual accounts', 'pool accounts', 'refunds', 'chargebacks', 'direct debit', 'identity', 'misc', 'balances', 'conversions', 'payouts', 'stablecoins', 'charges', 'control'])
    expect(doc.tags.filter((t: { description?: string }) => !t.description)).toEqual([])
    const used = new Set(Object.values(doc.paths as Record<string, Record<string, { tags: string[] }>>).flatMap((ops) => Object.values(ops).flatMap((o) => o.tags)))
    expect([...used].sort()).toEqual(['balances', 'bank transfer', 'cards', 'chargebacks', 'charges', 'checkout', 'control', 'conversions', 'direct debit', 'identity', 'misc', 'mobile money', 'pay with bank', 'payouts', 'pool accounts', 'refunds', 'stablecoins', 'virtual accounts', 'voucher'])
    expect(doc.paths['/merchant/api/v1/charges/card'].post.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/Envelope')
  })

  it('documents 409 on the routes their areas declare as steps, and only there', () => {
    const steps = new Set(documentedRoutes().filter((r) => r.step).map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`))
    expect(steps.size).toBeGreaterThan(10)
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.responses['409'], `${method} ${path}`).toEqual(steps.has(`${method} ${path}`) ? { $ref: '#/components/responses/Conflict' } : undefined)
      }
    }
    expect(doc.components.responses.Conflict.description).toContain('Payment has already been completed')
  })

  it('every step answers 409 once what it acts on has ended', async () => {
    const key = { key: 'sk_test_openapi_steps' }
    const call = (method: string, path: string, body?: unknown) => sandbox.call(method, path, body, key)
    // a card charge that succeeded at once, a mobile-money charge completed, a checkout cancelled,
    // a virtual account (its reference taken), a bank-transfer charge whose account expired
    const card = (await sandbox.charge(cardPayload('4084127883172787'), key)).body.data.transaction_reference
    const mm = (await call('POST', '/merchant/api/v1/charges/mobile-money', { reference: 'steps-mm-1', amount: 500, currency: 'KES', customer: { email: 'ada@example.com' }, mobile_money: { number: '254700000000' } })).body.data.transaction_reference
    expect((await call('POST', `/_sandbox/charges/${mm}/complete`, { outcome: 'success' })).status).toBe(200)
    await call('POST', '/merchant/api/v1/charges/initialize', { reference: 'steps-co-1', amount: 900, currency: 'NGN', customer: { email: 'ada@example.com' } })
    expect((await call('POST', '/_sandbox/checkouts/steps-co-1/cancel')).status).toBe(200)
    const account = { account_name: 'Ada', account_reference: 'steps-vba-1', permanent: true, bank_code: '000', customer: { name: 'Ada' }, kyc: { bvn: '22222222222' } }
    expect((await call('POST', '/merchant/api/v1/virtual-bank-account', account)).status).toBe(200)
    const pool = { customer_name: 'Ada', customer_email: 'steps-pool@example.com', currency: 'KES' }
    expect((await call('POST', '/merchant/api/v1/pool-accounts', pool)).status).toBe(200)
    const transfer = (await call('POST', '/merchant/api/v1/charges/bank-transfer', { reference: 'steps-bt-1', amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' }, auto_complete: false })).body.data.bank_account.account_number
    await call('POST', '/_sandbox/clock/advance', { seconds: 31 * 60 })
    /** per step, how it is called on what has ended: a step declared without one fails this test */
    const calls: Record<string, [string, unknown?]> = {
      authorizeCardCharge: ['/merchant/api/v1/charges/card/authorize', { transaction_reference: card, authorization: { pin: '1234' } }],
      resendCardOtp: ['/merchant/api/v1/charges/card/resend-otp', { transaction_reference: card }],
      authorizeMobileMoney: ['/merchant/api/v1/charges/mobile-money/authorize', { reference: mm, token: '123456' }],
      authorizeStk: ['/merchant/api/v1/charges/mobile-money/sandbox/authorize-stk', { reference: mm, pin: '1234' }],
      resendMobileMoneyOtp: ['/merchant/api/v1/charges/mobile-money/resend-otp', { transaction_reference: mm }],
      resendStk: ['/merchant/api/v1/charges/mobile-money/resend-stk', { transaction_reference: mm }],
      completeCharge: [`/_sandbox/charges/${card}/complete`, { outcome: 'success' }],
      payCheckout: ['/_sandbox/checkouts/steps-co-1/pay', { channel: 'bank_transfer' }],
      cancelCheckout: ['/_sandbox/checkouts/steps-co-1/cancel'],
      createVirtualAccount: ['/merchant/api/v1/virtual-bank-account', account],
      createPoolAccount: ['/api/v1/pool-accounts', pool],
      createPoolAccountMerchant: ['/merchant/api/v1/pool-accounts', pool],
      creditVirtualAccount: ['/merchant/api/v1/virtual-bank-account/sandbox/credit', { account_number: transfer, amount: 1500, currency: 'NGN' }],
    }
    const steps = documentedRoutes().filter((r) => r.step)
    expect(steps.map((r) => r.operationId).sort()).toEqual(Object.keys(calls).sort())
    for (const route of steps) {
      const [path, body] = calls[route.operationId]
      const res = await call(route.method.toUpperCase(), path, body)
      expect(res.status, route.operationId).toBe(409)
      expect(res.body.status).toBe(false)
    }
  })

  it('accepts a public test key on the routes their areas declare for it, and refuses it everywhere else', async () => {
    const publicKey = documentedRoutes().filter((r) => r.access === 'public key')
    expect(publicKey.map((r) => r.operationId)).toEqual(['listBanks', 'listMobileMoneyOperators', 'resolveBankAccount', 'listPayoutPurposes', 'listPayoutBankCountries', 'resolveMobileMoneyWallet'])
    for (const r of publicKey) expect(doc.paths[r.path.replace(/:(\w+)/g, '{$1}')][r.method].security).toEqual([{ bearerAuth: [] }, { publicKeyAuth: [] }])
    const pk = { key: 'pk_test_openapi_public' }
    expect((await sandbox.call('GET', '/merchant/api/v1/misc/banks?countryCode=NG', undefined, pk)).status).toBe(200)
    expect((await sandbox.call('POST', '/merchant/api/v1/misc/banks/resolve', { bank: '033', account: '0000000000' }, pk)).status).toBe(200)
    expect((await sandbox.call('POST', '/merchant/api/v1/misc/mobile-money/resolve', { mobileMoneyCode: '0004', phoneNumber: '233240000000', currency: 'GHS' }, pk)).status).toBe(200)
    expect((await sandbox.call('GET', '/merchant/api/v1/balances', undefined, pk)).status).toBe(401)
    expect((await sandbox.call('GET', '/_sandbox/clock', undefined, pk)).status).toBe(401)
  })

  it('uses {param} paths with their path parameters', () => {
    const op = doc.paths['/merchant/api/v1/charges/{reference}'].get
    expect(op.parameters).toEqual([{ name: 'reference', in: 'path', required: true, schema: { type: 'string' } }])
    expect(JSON.stringify(Object.keys(doc.paths))).not.toContain(':')
  })

  it('gives query parameters from the zod query schemas', () => {
    const names = doc.paths['/_sandbox/events'].get.parameters.map((p: { name: string }) => p.name)
    expect(names).toEqual(expect.arrayContaining(['reference', 'event', 'status', 'wait']))
  })

  it("the card charge body accepts {charge_data}, and the payload schema accepts a valid card payload", () => {
    const outer = bodySchema('post', '/merchant/api/v1/charges/card')
    expect(outer.required).toEqual(['charge_data'])
    expect(check(outer, { charge_data: 'aa:bb:cc' })).toEqual([])
    expect(check(outer, {})).toEqual(['$.charge_data: is required'])
    const payload = doc.components.schemas.CardChargePayload
    expect(doc.paths['/merchant/api/v1/charges/card'].post['x-charge-data-schema']).toEqual({ $ref: '#/components/schemas/CardChargePayload' })
    expect(payload.required).toEqual(expect.arrayContaining(['reference', 'card', 'amount', 'currency', 'customer']))
    expect(check(payload, cardPayload('4084127883172787'))).toEqual([])
    expect(check(payload, cardPayload('4084127883172787', { currency: 'USD' }))).not.toEqual([])
    expect(check(payload, cardPayload('4084127883172787', {}, { expiry_month: '13' }))).not.toEqual([])
  })

  it('the mobile money body accepts a valid charge and refuses one without a wallet', () => {
    const schema = bodySchema('post', '/merchant/api/v1/charges/mobile-money')
    const body = {
      reference: 'mm-order-0001',
      amount: 500,
      currency: 'KES',
      customer: { email: 'buyer@example.com' },
      mobile_money: { number: '254700000000' },
    }
    expect(schema.required).toEqual(expect.arrayContaining(['reference', 'amount', 'currency', 'customer', 'mobile_money']))
    expect(check(schema, body)).toEqual([])
    const { mobile_money: _m, ...noWallet } = body
    expect(check(schema, noWallet)).toEqual(['$.mobile_money: is required'])
    expect(check(schema, { ...body, currency: 'NGN' })).toEqual(['$.currency: not in enum'])
  })

  it('describes Checkout Standard: initialize, the control calls that pay or cancel, and their answers as served', async () => {
    const init = doc.paths['/merchant/api/v1/charges/initialize'].post
    expect(init.tags).toEqual(['checkout'])
    const body = bodySchema('post', '/merchant/api/v1/charges/initialize')
    const request = { reference: 'co-order-0001', amount: 1500, currency: 'NGN', channels: ['card', 'bank_transfer'], default_channel: 'card', customer: { email: 'ada@example.com', name: 'Ada' }, redirect_url: 'https://shop.example/return', metadata: { order: '42' } }
    expect(body.required).toEqual(expect.arrayContaining(['reference', 'amount', 'currency', 'customer']))
    expect(check(body, request)).toEqual([])
    // an unknown field is refused by name, and the document says so
    expect(check(body, { ...request, callback_url: 'https://shop.example' })).toEqual(['$.callback_url: not allowed'])
    expect(check(body, { ...request, channels: ['crypto'] })).toEqual(['$.channels.0: not in enum'])
    const served = await sandbox.call('POST', '/merchant/api/v1/charges/initialize', request)
    expect(served.status).toBe(200)
    expect(check(answerSchema('post', '/merchant/api/v1/charges/initialize'), served.body.data)).toEqual([])
    expect(check(answerSchema('post', '/merchant/api/v1/charges/initialize'), { reference: 'x' })).toEqual(['$.checkout_url: is required'])

    const pay = doc.paths['/_sandbox/checkouts/{reference}/pay'].post
    expect(pay.parameters).toEqual([{ name: 'reference', in: 'path', required: true, schema: { type: 'string' } }])
    expect(pay.responses['409']).toEqual({ $ref: '#/components/responses/Conflict' })
    const payBody = bodySchema('post', '/_sandbox/checkouts/{reference}/pay')
    expect(check(payBody, { channel: 'bank_transfer', amount: 1500 })).toEqual([])
    expect(check(payBody, { channel: 'pay_with_bank', bank_code: '100004' })).toEqual([])
    expect(check(payBody, { channel: 'wire' })).toEqual(['$.channel: not in enum'])
    expect(doc.paths['/_sandbox/checkouts/{reference}/cancel'].post.requestBody).toBeUndefined()
    const paid = await sandbox.call('POST', '/_sandbox/checkouts/co-order-0001/pay', { channel: 'bank_transfer' })
    expect(paid.status).toBe(200)
    expect(check(answerSchema('post', '/_sandbox/checkouts/{reference}/pay'), paid.body.data)).toEqual([])
  })

  it('describes pay with bank: both spellings, the bank list, their answers as served', async () => {
    const key = { key: 'sk_test_openapi_pwb' }
    for (const path of ['/merchant/api/v1/charge/pay-with-bank', '/merchant/api/v1/charges/pay-with-bank']) {
      const request = { reference: `pwb-openapi-${path.length}`, amount: 1000, currency: 'NGN', bank_code: '100004', customer: { name: 'Ada', email: 'ada@example.com' } }
      const body = bodySchema('post', path)
      expect(body.required).toEqual(expect.arrayContaining(['reference', 'amount', 'currency', 'bank_code', 'customer']))
      expect(check(body, request)).toEqual([])
      const made = await sandbox.call('POST', path, request, key)
      expect(made.status).toBe(200)
      expect(check(answerSchema('post', path), made.body.data)).toEqual([])
    }
    const banks = '/merchant/api/v1/charge/pay-with-bank/banks'
    expect(doc.paths[banks].get.parameters.map((p: any) => p.name)).toEqual(['currency'])
    expect(check(answerSchema('get', banks), (await sandbox.call('GET', `${banks}?currency=ZAR`, undefined, key)).body.data)).toEqual([])
  })

  it('describes virtual bank accounts: create, get, transactions and the credit call, their answers as served', async () => {
    const V = '/merchant/api/v1/virtual-bank-account'
    const key = { key: 'sk_test_openapi_vba' }
    const request = { account_name: 'Ada', account_reference: 'cust-openapi', permanent: true, bank_code: '000', customer: { name: 'Ada' }, kyc: { bvn: '22222222222' } }
    const body = bodySchema('post', V)
    expect(body.required).toEqual(expect.arrayContaining(['account_name', 'account_reference', 'permanent', 'bank_code', 'customer', 'kyc']))
    expect(check(body, request)).toEqual([])
    const made = await sandbox.call('POST', V, request, key)
    expect(made.status).toBe(200)
    expect(check(answerSchema('post', V), made.body.data)).toEqual([])
    expect(check(answerSchema('get', `${V}/{account_reference}`), (await sandbox.call('GET', `${V}/cust-openapi`, undefined, key)).body.data)).toEqual([])
    const credit = { account_number: made.body.data.account_number, amount: 1000, currency: 'NGN' }
    expect(check(bodySchema('post', `${V}/sandbox/credit`), credit)).toEqual([])
    expect((await sandbox.call('POST', `${V}/sandbox/credit`, credit, key)).status).toBe(200)
    const list = doc.paths[`${V}/transactions`].get
    expect(list.parameters.map((p: any) => [p.name, p.required])).toEqual([['account_number', true], ['start_date', false], ['end_date', false], ['page', false], ['limit', false]])
    const served = await sandbox.call('GET', `${V}/transactions?account_number=${credit.account_number}`, undefined, key)
    expect(check(answerSchema('get', `${V}/transactions`), served.body.data)).toEqual([])
  })

  it("the charge query's record lists every status, pending and expired among them, and fee as a number", async () => {
    const record = answerSchema('get', '/merchant/api/v1/charges/{reference}')
    expect(record.properties.status.enum).toEqual(['pending', 'processing', 'success', 'failed', 'expired'])
    expect(record.properties.fee.type).toBe('number')
    // as served: a pending checkout, one paid by bank transfer, one expired
    const at = (reference: string) => ({ reference, amount: 900, currency: 'NGN', customer: { email: 'ada@example.com' } })
    const key = { key: 'sk_test_openapi_records' }
    for (const r of ['rec-pending-1', 'rec-transfer-1', 'rec-expired-1']) expect((await sandbox.call('POST', '/merchant/api/v1/charges/initialize', at(r), key)).status).toBe(200)
    expect((await sandbox.call('POST', '/_sandbox/checkouts/rec-transfer-1/pay', { channel: 'bank_transfer' }, key)).status).toBe(200)
    const pending = (await sandbox.call('GET', '/merchant/api/v1/charges/rec-pending-1', undefined, key)).body.data
    const paid = (await sandbox.call('GET', '/merchant/api/v1/charges/rec-transfer-1', undefined, key)).body.data
    await sandbox.call('POST', '/_sandbox/clock/advance', { seconds: 25 * 3600 }, key)
    const expired = (await sandbox.call('GET', '/merchant/api/v1/charges/rec-expired-1', undefined, key)).body.data
    expect([pending.status, paid.status, expired.status]).toEqual(['pending', 'success', 'expired'])
    // the channel that paid is its attempt's: the query shows no payment_method (docs/behaviour.md#card-outcomes-and-query)
    expect(paid).not.toHaveProperty('payment_method')
    expect(paid.payment_attempts[0].channel).toBe('bank_transfer')
    for (const r of [pending, paid, expired]) expect(check(record, r)).toEqual([])
  })

  it('is generated from the validating schemas: a field added to a route schema shows in the document', async () => {
    const { cardChargeSchema } = await import('../src/cards/schemas.js')
    const inZod = Object.keys(cardChargeSchema.shape).sort()
    expect(Object.keys(doc.components.schemas.CardChargePayload.properties).sort()).toEqual(inZod)
  })

  it('is built once and served from cache', async () => {
    const again = await (await sandbox.app.request('/_sandbox/openapi.json')).json()
    expect(again).toEqual(doc)
    const { buildOpenApi } = await import('../src/openapi.js')
    expect(buildOpenApi(sandbox.deps.version, sandbox.deps.areas)).toBe(buildOpenApi(sandbox.deps.version, sandbox.deps.areas))
  })
})

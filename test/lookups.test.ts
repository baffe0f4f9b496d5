import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { derivedName } from '../src/lookups/service.js'
import { cardPayload, sandboxPerTest, tempFile, fieldMessages } from './helpers/sandbox.js'

/** docs/behaviour.md#look-ups: the look-ups (bank and mobile-money lists, account resolution), over HTTP. */

const sandbox = sandboxPerTest()
const M = '/merchant/api/v1/misc'

describe('GET /misc/banks', () => {
  it('lists the banks of each country with their codes, message Successful', async () => {
    const sb = await sandbox()
    const ng = await sb.call('GET', `${M}/banks?countryCode=NG`)
    expect(ng.status).toBe(200)
    expect(ng.body).toMatchObject({ status: true, message: 'Successful' })
    const byCode = new Map(ng.body.data.map((b: { code: string }) => [b.code, b]))
    const cbn = { '044': 'Access Bank', '058': 'Guaranty Trust Bank', '033': 'United Bank for Africa', '011': 'First Bank of Nigeria', '057': 'Zenith Bank', '035': 'Wema Bank', '070': 'Fidelity Bank', '214': 'First City Monument Bank', '232': 'Sterling Bank', '032': 'Union Bank of Nigeria', '076': 'Polaris Bank', '221': 'Stanbic IBTC Bank', '050': 'Ecobank Nigeria', '082': 'Keystone Bank', '215': 'Unity Bank', '101': 'Providus Bank', '090405': 'Moniepoint MFB' }
    for (const [code, name] of Object.entries(cbn)) expect(byCode.get(code), code).toMatchObject({ name, code, country: 'NG' })
    expect(byCode.get('044')).toEqual({ name: 'Access Bank', slug: 'access', code: '044', nibss_bank_code: '000014', country: 'NG' })
    for (const b of ng.body.data) expect(Object.keys(b).sort()).toEqual(['code', 'country', 'name', 'nibss_bank_code', 'slug'])
    for (const country of ['KE', 'GH', 'ZA']) {
      const r = await sb.call('GET', `${M}/banks?countryCode=${country}`)
      expect(r.status).toBe(200)
      expect(r.body.message).toBe('Successful')
      expect(r.body.data.length).toBeGreaterThanOrEqual(5)
      for (const b of r.body.data) expect(b).toMatchObject({ country, nibss_bank_code: null, code: expect.any(String), slug: expect.any(String), name: expect.any(String) })
    }
    // the payout test banks are listed where they exist (KE 0068 / 0053, ZA 632005 / 678910)
    const codes = async (country: string) => (await sb.call('GET', `${M}/banks?countryCode=${country}`)).body.data.map((b: { code: string }) => b.code)
    expect(await codes('KE')).toEqual(expect.arrayContaining(['0068', '0053']))
    expect(await codes('ZA')).toEqual(expect.arrayContaining(['632005', '678910']))
    // Egypt's short codes, the payout documentation's test banks
    expect(await codes('EG')).toEqual(['NBE', 'CIB'])
  })

  it("answers Nigeria's banks without countryCode, as public clients' tests expect (CONTRACT 14)", async () => {
    const sb = await sandbox()
    const ng = (await sb.call('GET', `${M}/banks?countryCode=NG`)).body
    for (const q of ['', '?country=NG', '?country=KE']) expect(await sb.call('GET', `${M}/banks${q}`).then((r) => [r.status, r.body]), q).toEqual([200, ng])
  })

  it('refuses an empty or unknown countryCode as a field error', async () => {
    const sb = await sandbox()
    for (const q of ['?countryCode=', '?countryCode=US', '?countryCode=ng']) {
      const r = await sb.call('GET', `${M}/banks${q}`)
      expect(r.status, q).toBe(422)
      expect(r.body.status).toBe(false)
      expect(r.body.message).toBe('Invalid request data')
      expect(r.body.data.countryCode.message, q).toMatch(/must be one of "NG", "KE", "GH", "ZA", "EG", "CM", "CI", "TZ"/)
    }
  })
})

describe('GET /misc/mobile-money', () => {
  it('lists the operators of each country with their limits; none in NG and ZA', async () => {
    const sb = await sandbox()
    const ke = await sb.call('GET', `${M}/mobile-money?countryCode=KE`)
    expect(ke.status).toBe(200)
    expect(ke.body.message).toBe('Successful')
    expect(ke.body.data).toEqual(expect.arrayContaining([
      { name: 'Safaricom (M-Pesa)', slug: 'safaricom-ke', code: 'safaricom-ke', country: 'KE', min: 10, max: 70000 },
      expect.objectContaining({ slug: 'airtel-ke', country: 'KE' }),
    ]))
    const gh = await sb.call('GET', `${M}/mobile-money?countryCode=GH`)
    expect(gh.body.data.map((o: { slug: string }) => o.slug)).toEqual(expect.arrayContaining(['mtn-gh', 'airtel-gh']))
    for (const o of gh.body.data) expect(o).toMatchObject({ country: 'GH', min: 10, max: 100000 })
    for (const country of ['NG', 'ZA']) {
      const r = await sb.call('GET', `${M}/mobile-money?countryCode=${country}`)
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ status: true, message: 'Successful', data: [] })
    }
    // the countries beyond KE and GH (docs/behaviour.md#look-ups): their operators, the slugs payouts take
    const slugs = async (country: string) => (await sb.call('GET', `${M}/mobile-money?countryCode=${country}`)).body.data.map((o: { slug: string }) => o.slug)
    expect(await slugs('CM')).toEqual(['mtn-cm', 'orange-cm'])
    expect(await slugs('CI')).toEqual(['mtn-ci', 'orange-ci'])
    expect(await slugs('TZ')).toEqual(['tigo-tz', 'airtel-tz'])
    expect(await slugs('EG')).toEqual(['vodafone-eg', 'orange-eg'])
    const bad = await sb.call('GET', `${M}/mobile-money?countryCode=US`)
    expect(bad.status).toBe(422)
    expect(bad.body.data.countryCode.message).toMatch(/must be one of/)
    expect((await sb.call('GET', `${M}/mobile-money`)).body.data).toEqual(fieldMessages({ countryCode: 'is required' }))
  })
})

describe('POST /misc/banks/resolve', () => {
  const resolve = async (body: unknown, key?: string) => (await sandbox()).call('POST', `${M}/banks/resolve`, body, { key })

  it('resolves 0000000000 at any bank to the fixed name, message Request Completed', async () => {
    for (const bank of ['033', '044', '090405']) {
      const r = await resolve({ bank, account: '0000000000' })
      expect(r.status).toBe(200)
      expect(r.body.status).toBe(true)
      expect(r.body.message).toBe('Request Completed')
      expect(r.body.data).toEqual({ bank_name: bank === '033' ? 'United Bank for Africa' : bank === '044' ? 'Access Bank' : 'Moniepoint MFB', bank_code: bank, account_number: '0000000000', account_name: 'SANDBOX ACCOUNT' })
    }
    // currency NGN (or null) as some clients send it
    expect((await resolve({ bank: '058', account: '0000000000', currency: 'NGN' })).body.data.account_name).toBe('SANDBOX ACCOUNT')
    expect((await resolve({ bank: '058', account: '0000000000', currency: null })).status).toBe(200)
  })

  it('resolves any other account to a name derived from bank and number: the same every time, in every namespace', async () => {
    const a = await resolve({ bank: '058', account: '0123456789' })
    expect(a.status).toBe(200)
    expect(a.body.data).toMatchObject({ bank_name: 'Guaranty Trust Bank', bank_code: '058', account_number: '0123456789' })
    expect(a.body.data.account_name).toMatch(/^[A-Z]+ [A-Z]+$/)
    expect(a.body.data.account_name).toBe(derivedName('058', '0123456789'))
    const again = await resolve({ bank: '058', account: '0123456789' }, 'sk_test_someone_else')
    expect(again.body.data).toEqual(a.body.data)
    // names vary with the account and the bank
    const names = new Set<string>()
    for (let i = 0; i < 20; i++) names.add((await resolve({ bank: '057', account: `10000000${String(i).padStart(2, '0')}` })).body.data.account_name)
    expect(names.size).toBeGreaterThan(5)
  })

  it('refuses 9999999999 with Invalid account. and the code AA027, as the resolve sample does', async () => {
    const r = await resolve({ bank: '011', account: '9999999999' })
    expect(r.status).toBe(400)
    expect(r.body).toEqual({ status: false, code: 'AA027', message: 'Invalid account.', data: null })
  })

  it('refuses an unknown bank, a malformed number and another currency as field errors', async () => {
    const cases: [unknown, Record<string, string | RegExp>][] = [
      [{ bank: '999', account: '0000000000' }, { bank: /must be the code of a bank/ }],
      [{ bank: '0068', account: '0000000000' }, { bank: /must be the code of a bank/ }], // a Kenyan bank
      [{ bank: '033', account: '000000000' }, { account: 'must be 10 digits' }],
      [{ bank: '033', account: '00000000000' }, { account: 'must be 10 digits' }],
      [{ bank: '033', account: '00000a0000' }, { account: 'must be 10 digits' }],
      [{ bank: '033', account: 1234567890 }, { account: 'must be a string' }],
      [{ bank: '033', account: '0000000000', currency: 'KES' }, { currency: 'must be "NGN"' }],
      [{}, { bank: 'is required', account: 'is required' }],
    ]
    for (const [body, fields] of cases) {
      const r = await resolve(body)
      expect(r.status, JSON.stringify(body)).toBe(422)
      expect(r.body.message).toBe('Invalid request data')
      for (const [f, m] of Object.entries(fields)) expect(r.body.data[f].message, `${JSON.stringify(body)} ${f}`).toMatch(m)
    }
    const notJson = await (await sandbox()).call('POST', `${M}/banks/resolve`, undefined, { raw: 'bank=033' })
    expect(notJson.status).toBe(422)
  })
})

describe('the payout utilities (docs/behaviour.md#look-ups)', () => {
  it("answer the page's samples with a public key (or the secret key): US payment purposes, USD bank countries", async () => {
    const sb = await sandbox()
    for (const key of ['pk_test_sandbox', 'sk_test_sandbox']) {
      const purposes = await sb.call('GET', `${M}/payout-payment-purpose-by-country-code/US`, undefined, { key })
      expect([purposes.status, purposes.body]).toEqual([200, {
        status: true,
        message: 'Payment purposes retrieved successfully',
        data: [
          { countryCode: 'US', code: 'SALA', name: 'Salary', description: 'Wage or salary payments' },
          { countryCode: 'US', code: 'SERV', name: 'Services', description: 'Payment for services rendered' },
        ],
      }])
      const countries = await sb.call('GET', `${M}/payout-countries-by-currency-code/USD`, undefined, { key })
      expect([countries.status, countries.body]).toEqual([200, {
        status: true,
        message: 'currency countries retrieved successfully',
        data: [
          { country: 'United States', countryCode: 'US', currencyCode: 'USD', metadata: null },
          { country: 'United Kingdom', countryCode: 'GB', currencyCode: 'USD', metadata: null },
        ],
      }])
    }
    expect((await sb.call('GET', `${M}/payout-countries-by-currency-code/GBP`, undefined, { key: 'pk_test_sandbox' })).body.data).toEqual([{ country: 'United Kingdom', countryCode: 'GB', currencyCode: 'GBP', metadata: null }])
    expect((await sb.call('GET', `${M}/payout-payment-purpose-by-country-code/GB`, undefined, { key: 'pk_test_sandbox' })).body).toEqual({ status: true, message: 'Payment purposes retrieved successfully', data: [] })
  })

  it('refuse an unsupported country or currency with 400, as the page says, and a call with no valid key with 401', async () => {
    const sb = await sandbox()
    for (const [path, message] of [
      ['payout-payment-purpose-by-country-code/NG', 'Payment purposes are not available for this country'],
      ['payout-payment-purpose-by-country-code/us', 'Payment purposes are not available for this country'],
      ['payout-countries-by-currency-code/NGN', 'Bank countries are not available for this currency'],
      ['payout-countries-by-currency-code/usd', 'Bank countries are not available for this currency'],
    ]) {
      const r = await sb.call('GET', `${M}/${path}`, undefined, { key: 'pk_test_sandbox' })
      expect([r.status, r.body], path).toEqual([400, { status: false, message, data: null }])
    }
    expect((await sb.call('GET', `${M}/payout-countries-by-currency-code/USD`, undefined, { key: 'pk_live_x' })).status).toBe(401)
    expect((await sb.call('GET', `${M}/payout-countries-by-currency-code/USD`, undefined, { key: null })).status).toBe(401)
  })
})

describe('keys on the look-ups (docs/behaviour.md#look-ups)', () => {
  it('accept the public key as well as the secret key; live keys and other keys are refused', async () => {
    const sb = await sandbox()
    for (const key of ['sk_test_sandbox', 'pk_test_sandbox', 'pk_test_worker7', 'sk_test_worker7']) {
      expect((await sb.call('GET', `${M}/banks?countryCode=NG`, undefined, { key })).status, key).toBe(200)
      expect((await sb.call('GET', `${M}/mobile-money?countryCode=KE`, undefined, { key })).status, key).toBe(200)
      expect((await sb.call('POST', `${M}/banks/resolve`, { bank: '033', account: '0000000000' }, { key })).status, key).toBe(200)
    }
    for (const key of ['pk_live_abc', 'sk_live_abc']) {
      const r = await sb.call('GET', `${M}/banks?countryCode=NG`, undefined, { key })
      expect(r.status, key).toBe(401)
      expect(r.body.message).toMatch(/^Live keys are never accepted/)
    }
    for (const key of [null, 'pk_test_', 'pk_test_a b', 'xk_test_abc', `pk_test_${'a'.repeat(201)}`]) {
      const r = await sb.call('GET', `${M}/banks?countryCode=NG`, undefined, { key })
      expect(r.status, String(key)).toBe(401)
      expect(r.body.message).toBe('Invalid authorization key')
    }
  })

  it("a public key works in its secret key's namespace: the journal of sk_test_x shows the call made with pk_test_x", async () => {
    const sb = await sandbox()
    await sb.call('GET', `${M}/banks?countryCode=GH`, undefined, { key: 'pk_test_journal1' })
    const j = await sb.call('GET', '/_sandbox/requests', undefined, { key: 'sk_test_journal1' })
    expect(j.status).toBe(200)
    expect(JSON.stringify(j.body.data)).toContain('/misc/banks')
    expect(sb.deps.namespaces.list().map((m) => m.secret_key)).not.toContain('pk_test_journal1')
  })

  it('every other call still refuses a public key', async () => {
    const sb = await sandbox()
    const charge = await sb.call('POST', '/merchant/api/v1/charges/card', { charge_data: 'x' }, { key: 'pk_test_sandbox' })
    expect(charge.status).toBe(401)
    expect(charge.body.message).toBe('Invalid authorization key')
    const okCharge = await sb.charge(cardPayload('4084127883172787'))
    expect(okCharge.status).toBe(200)
    const query = await sb.call('GET', `/merchant/api/v1/charges/${okCharge.body.data.reference}`, undefined, { key: 'pk_test_sandbox' })
    expect(query.status).toBe(401)
    expect((await sb.call('GET', '/_sandbox/clock', undefined, { key: 'pk_test_sandbox' })).status).toBe(401)
    expect((await sb.call('GET', `${M}/unknown`, undefined, { key: 'pk_test_sandbox' })).status).toBe(401)
  })

  it("a merchants file's public key is its merchant's; with --strict-keys an unconfigured public key is refused", async () => {
    const file = tempFile('merchants.yaml')
    writeFileSync(file, 'merchants:\n  - secret_key: sk_test_shop_a\n    public_key: pk_test_custom_a\n  - secret_key: sk_test_shop_b\n')
    const sb = await sandbox({ merchants: file, strictKeys: true })
    const get = (key: string) => sb.call('GET', `${M}/banks?countryCode=NG`, undefined, { key })
    expect((await get('pk_test_custom_a')).status).toBe(200)
    expect((await get('pk_test_shop_b')).status).toBe(200)
    expect((await get('pk_test_sandbox')).status).toBe(200)
    // shop A's public key is another: pk_test_shop_a is nobody's
    expect((await get('pk_test_shop_a')).status).toBe(401)
    expect((await get('pk_test_stranger')).status).toBe(401)
    await get('pk_test_custom_a')
    const j = await sb.call('GET', '/_sandbox/requests', undefined, { key: 'sk_test_shop_a' })
    expect(JSON.stringify(j.body.data)).toContain('/misc/banks')
  })
})

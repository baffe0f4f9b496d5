import { existsSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../src/errors.js'
import { FAILED_TRANSACTION_MESSAGES } from '../src/messages.js'
import { AREAS } from '../src/areas.js'
import { ActiveScenarios, DEFAULT_PACK_FILE, PackError, Scenarios, buildPack, loadBuiltPack, loadPackFile, packRules, validatePack, type Pack } from '../src/scenario/index.js'

/** the shipped pack sets the areas' settings as well as the shared ones: it is read under both */
const RULES = packRules(AREAS)
import { cardPayload, makeSandbox, openStore, sandboxPerTest, tempFile, type TestSandbox, fieldMessages, invalidBody } from './helpers/sandbox.js'

const sandbox = sandboxPerTest()

function writePack(text: string, name = 'pack.yaml'): string {
  const file = tempFile(name)
  writeFileSync(file, text)
  return file
}

/** The error a function throws (or null). */
function thrown(f: () => unknown): unknown {
  try {
    f()
    return null
  } catch (e) {
    return e
  }
}

const PIN = '1234'
const OTP = '123456'

/** Answers every pending step with the right value until the charge is no longer asking for one. */
async function drive(sb: TestSandbox, number: string, opts: { cvv?: string; key?: string } = {}) {
  const payload = cardPayload(number, {}, opts.cvv ? { cvv: opts.cvv } : {})
  let res = await sb.charge(payload, { key: opts.key })
  const steps: string[] = []
  for (let i = 0; i < 6 && res.body.data?.status === 'processing' && res.body.data.authorization?.required_fields; i++) {
    const model: string = res.body.data.auth_model
    steps.push(model)
    const authorization =
      model === 'PIN'
        ? { pin: PIN }
        : model === 'OTP'
          ? { otp: OTP }
          : model === 'AVS'
            ? { avs: { state: 'Lagos', city: 'Ikeja', country: 'NG', address: '1 Allen Avenue', zip_code: '100001' } }
            : { phone: '+2348012345678' }
    res = await sb.call(
      'POST',
      '/merchant/api/v1/charges/card/authorize',
      { transaction_reference: res.body.data.transaction_reference, authorization },
      { key: opts.key },
    )
  }
  return { res, steps, reference: payload.reference }
}

describe('the default pack', () => {
  const pack = loadPackFile(DEFAULT_PACK_FILE, RULES)
  const view = new ActiveScenarios([pack], RULES)

  it('loads and validates', () => {
    expect(pack.name).toBe('default')
    expect(() => validatePack(pack, 'again', RULES)).not.toThrow()
    expect(Scenarios.loadPacks([], { rules: RULES })).toHaveLength(1)
    expect(view.settings).toMatchObject({
      pin: '1234',
      otp: '123456',
      vat_percent: 7.5,
      fees: { card: { percent: 1.4, cap: 2000 } },
    })
  })

  // docs/behaviour.md#card-charges's table
  it.each([
    ['4084127883172787', 'visa', '123', [], 'success', undefined],
    ['5188513618552975', 'mastercard', '123', ['PIN'], 'success', undefined],
    ['5442056106072595', 'mastercard', '123', ['PIN', 'OTP'], 'success', undefined],
    ['4562543755474674', 'visa', '123', ['3DS'], 'success', undefined],
    ['5384063928932071', 'mastercard', '123', ['PIN', 'AVS'], 'success', undefined],
    ['5061460410120223210', 'verve', '123', ['PIN', 'CARD_ENROLL', 'OTP'], 'success', undefined],
    ['506066506066506067', 'verve', '408', [], 'failed', 'Card could not be charged due to insufficient funds'],
  ])('has card %s: %s, CVV %s, steps %j, %s', (number, scheme, cvv, steps, outcome, message) => {
    const card = view.card(number)
    expect(card).toBeDefined()
    expect(card).toMatchObject({ number, scheme, cvv, expiry_month: '09', expiry_year: '30', steps, outcome })
    expect(card!.message).toBe(message)
    expect(card!.label.length).toBeGreaterThan(0)
  })

  it('has a failed card for every failure message of docs/api.md 7.4', () => {
    expect(FAILED_TRANSACTION_MESSAGES).toHaveLength(17)
    const failed = [...view.cards.values()].filter((c) => c.outcome === 'failed')
    for (const message of FAILED_TRANSACTION_MESSAGES) {
      expect(failed.map((c) => c.message), message).toContain(message)
    }
    // and every failed card fails with a docs/api.md 7.4 text
    for (const c of failed) expect(FAILED_TRANSACTION_MESSAGES, c.number).toContain(c.message)
  })

  it('has a card that stays processing', () => {
    const processing = [...view.cards.values()].filter((c) => c.outcome === 'processing')
    expect(processing.length).toBeGreaterThanOrEqual(1)
  })

  it('has a card that fails only after OTP', () => {
    const afterOtp = [...view.cards.values()].filter((c) => c.outcome === 'failed' && c.steps.at(-1) === 'OTP')
    expect(afterOtp.length).toBeGreaterThanOrEqual(1)
  })

  it('gives every card a Luhn-valid number of a supported scheme, expiring 09/30', () => {
    const luhn = (n: string) =>
      [...n].reverse().reduce((sum, ch, i) => {
        let d = Number(ch)
        if (i % 2) d = d * 2 > 9 ? d * 2 - 9 : d * 2
        return sum + d
      }, 0) %
        10 ===
      0
    for (const c of view.cards.values()) {
      expect(luhn(c.number), c.number).toBe(true)
      expect([c.expiry_month, c.expiry_year], c.number).toEqual(['09', '30'])
    }
  })
})

describe('the default pack over HTTP', () => {
  it.each([
    ['4084127883172787', [], 'success'],
    ['5188513618552975', ['PIN'], 'success'],
    ['5442056106072595', ['PIN', 'OTP'], 'success'],
    ['5384063928932071', ['PIN', 'AVS'], 'success'],
    ['5061460410120223210', ['PIN', 'CARD_ENROLL', 'OTP'], 'success'],
  ])('card %s asks for %j, then succeeds', async (number, steps, status) => {
    const sb = await sandbox()
    const { res, steps: asked } = await drive(sb, number)
    expect(asked).toEqual(steps)
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe(status)
  })

  it('fails the CVV 408 verve card with insufficient funds', async () => {
    const sb = await sandbox()
    const { res } = await drive(sb, '506066506066506067', { cvv: '408' })
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('failed')
    expect(res.body.data.response_message).toBe('Card could not be charged due to insufficient funds')
  })

  it('fails every failure card with its own message, after its steps', async () => {
    const sb = await sandbox()
    const view = sb.deps.scenarios.baseView
    for (const card of [...view.cards.values()].filter((c) => c.outcome === 'failed')) {
      const { res, steps } = await drive(sb, card.number, { cvv: card.cvv })
      expect(res.status, card.number).toBe(200)
      expect(res.body.data.status, card.number).toBe('failed')
      expect(res.body.data.response_message, card.number).toBe(card.message)
      expect(steps, card.number).toEqual(card.steps)
    }
  })

  it('fails the OTP card only once the right OTP is given', async () => {
    const sb = await sandbox()
    const number = [...sb.deps.scenarios.baseView.cards.values()].find((c) => c.outcome === 'failed' && c.steps.at(-1) === 'OTP' && c.message !== 'The OTP entered is invalid')!.number
    const first = await sb.charge(cardPayload(number, {}, { pin: PIN }))
    expect(first.body.data).toMatchObject({ status: 'processing', auth_model: 'OTP', authorization: { required_fields: ['otp'] } })
    const done = await sb.call('POST', '/merchant/api/v1/charges/card/authorize', {
      transaction_reference: first.body.data.transaction_reference,
      authorization: { otp: OTP },
    })
    expect(done.body.data.status).toBe('failed')
  })

  it('keeps the processing card processing, even a day later', async () => {
    const sb = await sandbox()
    const number = [...sb.deps.scenarios.baseView.cards.values()].find((c) => c.outcome === 'processing')!.number
    const payload = cardPayload(number)
    const res = await sb.charge(payload)
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('processing')
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 86_400 })
    const q = await sb.call('GET', `/merchant/api/v1/charges/${payload.reference}`)
    expect(q.body.data.status).toBe('processing')
  })
})

describe('pack files', () => {
  const goodCard = `
cards:
  - number: "4084127883172787"
    scheme: visa
    cvv: "123"
    expiry_month: "09"
    expiry_year: "30"
    outcome: failed
    message: "Withdrawal limit exceeded"
    label: "override: withdrawal limit"
`

  it('refuses a bad entry with PackError naming the file, the entry path and the reason', () => {
    const file = writePack(`
cards:
  - number: "not-a-number"
    scheme: visa
    cvv: "123"
    expiry_month: "09"
    expiry_year: "30"
    outcome: success
    label: "bad"
`)
    const err = thrown(() => Scenarios.loadPacks([file], { rules: RULES }))
    expect(err).toBeInstanceOf(PackError)
    const message = (err as Error).message
    expect(message).toContain(file)
    expect(message).toContain('cards.0.number')
    expect(message).toContain('must be 12-19 digits')
    expect((err as PackError).source).toBe(file)
    expect((err as PackError).issues).toEqual(['cards.0.number: must be 12-19 digits'])
  })

  it.each([
    ['a failed card without a message', `cards:\n  - { number: "4084127883172787", scheme: visa, cvv: "123", expiry_month: "09", expiry_year: "30", outcome: failed, label: x }\n`, 'cards.0.message', 'is required when outcome is failed'],
    ['an unknown scheme', `cards:\n  - { number: "4084127883172787", scheme: amex, cvv: "123", expiry_month: "09", expiry_year: "30", outcome: success, label: x }\n`, 'cards.0.scheme', ''],
    ['an unknown step', `cards:\n  - { number: "4084127883172787", scheme: visa, cvv: "123", expiry_month: "09", expiry_year: "30", steps: [PIN, SMS], outcome: success, label: x }\n`, 'cards.0.steps.1', ''],
    ['a bad month in the second card', `cards:\n  - { number: "4084127883172787", scheme: visa, cvv: "123", expiry_month: "09", expiry_year: "30", outcome: success, label: x }\n  - { number: "5188513618552975", scheme: mastercard, cvv: "123", expiry_month: "13", expiry_year: "30", outcome: success, label: y }\n`, 'cards.1.expiry_month', 'must be 2 digits, 01-12'],
    ['a wallet of another currency', `wallets:\n  - { number: "254700000000", currency: NGN, outcome: success, label: x }\n`, 'wallets.0.currency', ''],
    ['a bad VAT setting', `settings:\n  vat_percent: 150\n`, 'settings.vat_percent', ''],
    ['an unknown top-level key', `cardz: []\n`, 'cardz', ''],
  ])('refuses %s, naming %s', (_what, yaml, path, reason) => {
    const file = writePack(yaml)
    const err = thrown(() => loadPackFile(file))
    expect(err).toBeInstanceOf(PackError)
    expect((err as Error).message).toContain(file)
    expect((err as Error).message).toContain(path)
    if (reason) expect((err as Error).message).toContain(reason)
  })

  it('refuses duplicate card numbers in one pack, naming both entries', () => {
    const file = writePack(`
cards:
  - { number: "4084127883172787", scheme: visa, cvv: "123", expiry_month: "09", expiry_year: "30", outcome: success, label: a }
  - { number: "5188513618552975", scheme: mastercard, cvv: "123", expiry_month: "09", expiry_year: "30", outcome: success, label: b }
  - { number: "4084127883172787", scheme: visa, cvv: "123", expiry_month: "09", expiry_year: "30", outcome: failed, message: "Withdrawal limit exceeded", label: c }
`)
    const err = thrown(() => loadPackFile(file))
    expect(err).toBeInstanceOf(PackError)
    expect((err as Error).message).toContain(file)
    expect((err as PackError).issues).toEqual(['cards.2.number: duplicates cards.0.number'])
  })

  it('refuses invalid YAML, naming the file', () => {
    const file = writePack('cards: [\n  - number: "1\n  oops: : :\n')
    const err = thrown(() => loadPackFile(file))
    expect(err).toBeInstanceOf(PackError)
    expect((err as Error).message).toContain(file)
    expect((err as Error).message).toMatch(/not valid YAML/)
  })

  it('refuses invalid JSON in a .json pack, and a missing file', () => {
    const json = writePack('{"cards": [', 'pack.json')
    const err = thrown(() => loadPackFile(json))
    expect(err).toBeInstanceOf(PackError)
    expect((err as Error).message).toContain(json)
    expect((err as Error).message).toMatch(/not valid JSON/)

    const missing = tempFile('missing.yaml')
    const err2 = thrown(() => loadPackFile(missing))
    expect(err2).toBeInstanceOf(PackError)
    expect((err2 as Error).message).toContain(missing)
    expect((err2 as Error).message).toContain('ENOENT')
  })

  it('loads a JSON pack too', () => {
    const file = writePack(JSON.stringify({ cards: [{ number: '4084127883172787', scheme: 'visa', cvv: '123', expiry_month: '09', expiry_year: '30', outcome: 'processing', label: 'json' }] }), 'pack.json')
    expect(loadPackFile(file).cards?.[0].outcome).toBe('processing')
  })

  it('lets a later pack win over the default by card number, keeping the other cards', () => {
    const file = writePack(goodCard)
    const packs = Scenarios.loadPacks([file], { rules: RULES })
    expect(packs).toHaveLength(2)
    const view = new ActiveScenarios(packs, RULES)
    expect(view.card('4084127883172787')).toMatchObject({ outcome: 'failed', message: 'Withdrawal limit exceeded', label: 'override: withdrawal limit' })
    expect(view.card('5188513618552975')).toMatchObject({ outcome: 'success', steps: ['PIN'] })
    expect(view.cards.size).toBe(new ActiveScenarios([loadPackFile(DEFAULT_PACK_FILE, RULES)], RULES).cards.size)
    // and the last of several packs wins
    const third = writePack(goodCard.replace('outcome: failed', 'outcome: processing').replace(/\n\s+message: .*\n/, '\n'))
    const view3 = new ActiveScenarios(Scenarios.loadPacks([file, third], { rules: RULES }), RULES)
    expect(view3.card('4084127883172787')?.outcome).toBe('processing')
  })

  it('merges settings of a later pack over the default', () => {
    const file = writePack('settings:\n  pin: "9999"\n  fees:\n    card: { percent: 2 }\n')
    const view = new ActiveScenarios(Scenarios.loadPacks([file], { rules: RULES }), RULES)
    expect(view.settings.pin).toBe('9999')
    expect(view.settings.otp).toBe('123456')
    expect(view.settings.fees.card).toEqual({ percent: 2 })
    expect(view.settings.fees.mobile_money).toEqual({ percent: 1.5 })
  })

  it('--scenarios changes behaviour over HTTP', async () => {
    const plain = await sandbox()
    const before = await plain.charge(cardPayload('4084127883172787'))
    expect(before.body.data.status).toBe('success')
    // not Luhn-valid: refused unless a pack lists it
    const unlisted = await plain.charge(cardPayload('4111111111111112'))
    expect(unlisted.status).toBe(422)
    expect(unlisted.body.message).toBe('Invalid request data')

    const file = writePack(`${goodCard}  - { number: "4111111111111112", scheme: visa, cvv: "123", expiry_month: "09", expiry_year: "30", steps: [PIN], outcome: success, label: "listed, not Luhn-valid" }\n`)
    const sb = await sandbox({ scenarios: [file] })
    const after = await sb.charge(cardPayload('4084127883172787'))
    expect(after.status).toBe(200)
    expect(after.body.data.status).toBe('failed')
    expect(after.body.data.response_message).toBe('Withdrawal limit exceeded')
    const listed = await drive(sb, '4111111111111112')
    expect(listed.steps).toEqual(['PIN'])
    expect(listed.res.body.data.status).toBe('success')
    const scenarios = await sb.call('GET', '/_sandbox/scenarios')
    expect(scenarios.body.data.cards.find((c: { number: string }) => c.number === '4084127883172787')).toMatchObject({ outcome: 'failed', message: 'Withdrawal limit exceeded' })
  })

  it('a bad --scenarios file is refused at start, before the data file is touched', async () => {
    const bad = writePack('cards:\n  - { number: "12", scheme: visa, cvv: "123", expiry_month: "09", expiry_year: "30", outcome: success, label: x }\n')
    const data = tempFile()
    const err = await makeSandbox({ scenarios: [bad], data }).then(
      async (sb) => {
        await sb.close()
        return null
      },
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(PackError)
    expect((err as Error).message).toContain(bad)
    expect((err as Error).message).toContain('cards.0.number')
    expect(existsSync(data)).toBe(false)
  })
})

describe('control API: scenarios', () => {
  const KEY_B = 'sk_test_scenarios_other'
  const overridePack: Pack = {
    name: 'runtime',
    cards: [
      {
        number: '4084127883172787',
        scheme: 'visa',
        cvv: '123',
        expiry_month: '09',
        expiry_year: '30',
        steps: [],
        outcome: 'failed',
        message: 'Issuer or Switch Inoperative',
        label: 'runtime: switch down',
      },
    ],
  }

  it('GET answers the docs/behaviour.md#packs-and-replay shape', async () => {
    const sb = await sandbox()
    const res = await sb.call('GET', '/_sandbox/scenarios')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: true, message: expect.any(String) })
    const d = res.body.data
    for (const list of ['cards', 'wallets', 'identities', 'accounts', 'authorizations']) expect(Array.isArray(d[list]), list).toBe(true)

    const cardKeys = ['number', 'scheme', 'cvv', 'expiry_month', 'expiry_year', 'pin', 'otp', 'chargeback', 'steps', 'outcome', 'message', 'label']
    for (const c of d.cards) {
      for (const k of Object.keys(c)) expect(cardKeys, `card ${c.number} key ${k}`).toContain(k)
      expect(c).toMatchObject({ number: expect.stringMatching(/^\d{12,19}$/), scheme: expect.any(String), cvv: expect.any(String), expiry_month: expect.any(String), expiry_year: expect.any(String), steps: expect.any(Array), label: expect.any(String) })
      expect(['success', 'failed', 'processing']).toContain(c.outcome)
      if (c.outcome === 'failed') expect(FAILED_TRANSACTION_MESSAGES).toContain(c.message)
      else expect(c.message).toBeUndefined()
      if (c.steps.includes('PIN')) expect(c.pin).toBe('1234')
      else expect(c.pin).toBeUndefined()
      if (c.steps.includes('OTP')) expect(c.otp).toBe('123456')
      else expect(c.otp).toBeUndefined()
    }
    expect(d.cards.find((c: { number: string }) => c.number === '5442056106072595')).toEqual({
      number: '5442056106072595',
      scheme: 'mastercard',
      cvv: '123',
      expiry_month: '09',
      expiry_year: '30',
      pin: '1234',
      otp: '123456',
      steps: ['PIN', 'OTP'],
      outcome: 'success',
      label: expect.any(String),
    })
    expect(d.cards.find((c: { number: string }) => c.number === '506066506066506067')).toEqual({
      number: '506066506066506067',
      scheme: 'verve',
      cvv: '408',
      expiry_month: '09',
      expiry_year: '30',
      steps: [],
      outcome: 'failed',
      message: 'Card could not be charged due to insufficient funds',
      label: expect.any(String),
    })

    const walletKeys = ['number', 'currency', 'otp', 'pin', 'name', 'found', 'steps', 'outcome', 'message', 'label']
    for (const w of d.wallets) {
      for (const k of Object.keys(w)) expect(walletKeys, `wallet ${w.number} key ${k}`).toContain(k)
      expect(['KES', 'GHS', 'XAF', 'XOF', 'TZS', 'EGP']).toContain(w.currency)
    }
    // docs/behaviour.md#mobile-money's wallets
    const wallets = Object.fromEntries(d.wallets.map((w: { number: string }) => [w.number, w]))
    expect(wallets['254700000000']).toMatchObject({ currency: 'KES', steps: ['STK_PROMPT'], outcome: 'success' })
    expect(wallets['254734611986']).toMatchObject({ currency: 'KES', steps: ['STK_PROMPT'], outcome: 'failed' })
    expect(wallets['233240000000']).toMatchObject({ currency: 'GHS', steps: ['OTP', 'STK_PROMPT'], outcome: 'success' })
    expect(wallets['233274611986']).toMatchObject({ currency: 'GHS', steps: ['OTP', 'STK_PROMPT'], outcome: 'failed' })
    expect(d.wallets.some((w: { outcome: string }) => w.outcome === 'processing')).toBe(true)

    // `unavailable` only where a registry does not answer (docs/behaviour.md#identity-checks)
    for (const x of d.identities) expect(Object.keys(x).sort()).toEqual(x.unavailable ? ['found', 'id', 'label', 'type', 'unavailable'] : ['found', 'id', 'label', 'type'])
    // docs/behaviour.md#identity's test IDs
    expect(d.identities.map((x: { type: string; id: string; found: boolean }) => [x.type, x.id, x.found])).toEqual(
      expect.arrayContaining([
        ['ng_bvn', '22222222222', true],
        ['ng_bvn', '00000000000', false],
        ['ng_vnin', 'KO111111111111IL', true],
        ['ng_vnin', 'KO000000000000II', false],
        ['gh_passport', 'G0000555', true],
        ['gh_passport', 'G0000000', false],
      ]),
    )
    for (const a of d.accounts) {
      for (const k of Object.keys(a)) expect(['account_number', 'bank_code', 'outcome', 'message', 'label']).toContain(k)
    }
    for (const a of d.authorizations) expect(Object.keys(a).sort()).toEqual(['amount', 'label', 'reference', 'status'])
  })

  it('POST adds a pack for the key’s namespace only', async () => {
    const sb = await sandbox()
    const added = await sb.call('POST', '/_sandbox/scenarios', overridePack)
    expect(added.status).toBe(200)
    expect(added.body.status).toBe(true)
    expect(added.body.data.cards.find((c: { number: string }) => c.number === '4084127883172787')).toMatchObject({ outcome: 'failed', message: 'Issuer or Switch Inoperative' })

    const mine = await sb.call('GET', '/_sandbox/scenarios')
    expect(mine.body.data.cards.find((c: { number: string }) => c.number === '4084127883172787').outcome).toBe('failed')
    const theirs = await sb.call('GET', '/_sandbox/scenarios', undefined, { key: KEY_B })
    expect(theirs.body.data.cards.find((c: { number: string }) => c.number === '4084127883172787').outcome).toBe('success')

    const a = await sb.charge(cardPayload('4084127883172787'))
    expect(a.body.data).toMatchObject({ status: 'failed', response_message: 'Issuer or Switch Inoperative' })
    const b = await sb.charge(cardPayload('4084127883172787'), { key: KEY_B })
    expect(b.body.data.status).toBe('success')
  })

  it('POST of a bad pack answers 400 Invalid request data keyed by entry path, and changes nothing', async () => {
    const sb = await sandbox()
    const before = await sb.call('GET', '/_sandbox/scenarios')
    const bad = {
      cards: [
        { ...overridePack.cards![0], number: 'x' },
        { ...overridePack.cards![0], number: '5188513618552975', outcome: 'failed', message: undefined },
      ],
    }
    const res = await sb.call('POST', '/_sandbox/scenarios', bad)
    expect(res.status).toBe(422)
    expect(res.body).toEqual(invalidBody({ 'cards.0.number': 'must be 12-19 digits', 'cards.1.message': 'is required when outcome is failed' }))
    const after = await sb.call('GET', '/_sandbox/scenarios')
    expect(after.body).toEqual(before.body)
    const charge = await sb.charge(cardPayload('5188513618552975', {}, { pin: PIN }))
    expect(charge.body.data.status).toBe('success')
  })

  it('POST of a pack with duplicate numbers answers 400 and changes nothing', async () => {
    const sb = await sandbox()
    const res = await sb.call('POST', '/_sandbox/scenarios', { cards: [overridePack.cards![0], overridePack.cards![0]] })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('Invalid request data')
    expect(res.body.data).toEqual(fieldMessages({ 'cards.1.number': 'duplicates cards.0.number' }))
    const charge = await sb.charge(cardPayload('4084127883172787'))
    expect(charge.body.data.status).toBe('success')
  })

  it('POST of something that is not a JSON object answers 400', async () => {
    const sb = await sandbox()
    const res = await sb.call('POST', '/_sandbox/scenarios', undefined, { raw: '[1,2]' })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('Invalid request data')
    const res2 = await sb.call('POST', '/_sandbox/scenarios', undefined, { raw: '{not json' })
    expect(res2.status).toBe(422)
    expect(res2.body.message).toBe('Invalid request data')
  })

  it('a later POSTed pack wins over an earlier one', async () => {
    const sb = await sandbox()
    await sb.call('POST', '/_sandbox/scenarios', overridePack)
    await sb.call('POST', '/_sandbox/scenarios', { cards: [{ ...overridePack.cards![0], outcome: 'processing', message: undefined }] })
    const charge = await sb.charge(cardPayload('4084127883172787'))
    expect(charge.body.data.status).toBe('processing')
  })

  it('DELETE drops the added packs, for that namespace only', async () => {
    const sb = await sandbox()
    await sb.call('POST', '/_sandbox/scenarios', overridePack)
    await sb.call('POST', '/_sandbox/scenarios', overridePack, { key: KEY_B })
    const del = await sb.call('DELETE', '/_sandbox/scenarios')
    expect(del.status).toBe(200)
    expect(del.body.status).toBe(true)
    expect(del.body.data.cards.find((c: { number: string }) => c.number === '4084127883172787').outcome).toBe('success')
    const charge = await sb.charge(cardPayload('4084127883172787'))
    expect(charge.body.data.status).toBe('success')
    const other = await sb.charge(cardPayload('4084127883172787'), { key: KEY_B })
    expect(other.body.data.status).toBe('failed')
  })

  it('DELETE keeps the --scenarios files in force', async () => {
    const file = writePack(`cards:\n  - { number: "4084127883172787", scheme: visa, cvv: "123", expiry_month: "09", expiry_year: "30", outcome: processing, label: file }\n`)
    const sb = await sandbox({ scenarios: [file] })
    await sb.call('POST', '/_sandbox/scenarios', overridePack)
    expect((await sb.charge(cardPayload('4084127883172787'))).body.data.status).toBe('failed')
    await sb.call('DELETE', '/_sandbox/scenarios')
    expect((await sb.charge(cardPayload('4084127883172787'))).body.data.status).toBe('processing')
  })

  it('POST /_sandbox/reset drops the added packs', async () => {
    const sb = await sandbox()
    await sb.call('POST', '/_sandbox/scenarios', overridePack)
    await sb.call('POST', '/_sandbox/reset')
    const charge = await sb.charge(cardPayload('4084127883172787'))
    expect(charge.body.data.status).toBe('success')
  })

  it('added packs survive a restart with --data', async () => {
    const data = tempFile()
    const first = await makeSandbox({ data })
    await first.call('POST', '/_sandbox/scenarios', overridePack)
    await first.close()
    const second = await sandbox({ data })
    const charge = await second.charge(cardPayload('4084127883172787'))
    expect(charge.body.data.status).toBe('failed')
  })

  it('Scenarios.addPack refuses a bad pack without storing it', async () => {
    const store = await openStore()
    const s = Scenarios.load([], store, { rules: RULES })
    let err: unknown
    try {
      s.addPack('ns', { cards: [{ number: '1' }] })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(422)
    expect((err as ApiError).data).toMatchObject(fieldMessages({ 'cards.0.number': 'must be 12-19 digits', 'cards.0.cvv': 'is required' }))
    expect(store.col('ns', 'packs').size).toBe(0)
    expect(s.forNs('ns')).toBe(s.baseView)
  })
})

describe('the shipped pack as the build keeps it (scripts/copy-assets.mjs)', () => {
  it('the built copy beside dist/ is the shipped YAML read and checked', async () => {
    const built = await import('../dist/scenario/index.js')
    expect(existsSync(built.BUILT_DEFAULT_PACK_FILE)).toBe(true)
    expect(built.loadBuiltPack(DEFAULT_PACK_FILE, built.BUILT_DEFAULT_PACK_FILE, RULES)).toStrictEqual(loadPackFile(DEFAULT_PACK_FILE, RULES))
  })

  it('a YAML changed since the build is read again, never answered from the stale copy; no copy or a broken one reads the YAML', () => {
    const yaml = tempFile('pack.yaml')
    const copy = tempFile('pack.json')
    writeFileSync(yaml, 'name: built\nsettings:\n  opening_balance: 11\n')
    writeFileSync(copy, buildPack(yaml))
    expect(loadBuiltPack(yaml, copy).settings?.opening_balance).toBe(11)
    writeFileSync(yaml, 'name: built\nsettings:\n  opening_balance: 12\n')
    expect(loadBuiltPack(yaml, copy).settings?.opening_balance).toBe(12)
    writeFileSync(copy, '{ not json')
    expect(loadBuiltPack(yaml, copy).settings?.opening_balance).toBe(12)
    expect(loadBuiltPack(yaml, tempFile('absent.json')).settings?.opening_balance).toBe(12)
    writeFileSync(yaml, 'name: built\nsettings:\n  opening_balance: -1\n')
    expect(() => loadBuiltPack(yaml, tempFile('absent2.json'))).toThrow(PackError)
  })
})

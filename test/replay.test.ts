import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml, stringify } from 'yaml'
import { encryptChargeData } from '../src/cards/crypto.js'
import { startSandbox, type Sandbox } from '../src/index.js'
import { pageId } from '../src/namespaces.js'
import { expandFlowPaths } from '../src/replay/cli.js'
import { FlowError, loadFlowFile, match, validateFlow, type Flow } from '../src/flow/flow.js'
import { junitReport, prettyReport } from '../src/replay/report.js'
import { runFlow, runFlows } from '../src/replay/runner.js'
import { runCli } from './e2e/process.js'
import { ENC_KEY, cardPayload, ref, tempFile } from './helpers/sandbox.js'

const SHIPPED = expandFlowPaths(['scenarios/flows'])
let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0 })
})
afterAll(() => sb.close())

/** A recorded flow replays green, and again: the references it makes are made per run. */
async function replaysTwice(flow: Flow) {
  for (const time of ['first', 'again']) {
    const result = await runFlow(flow, 'recorded', { baseUrl: sb.url, encryptionKey: ENC_KEY })
    expect(result.ok, `${time}: ${prettyReport([result])}`).toBe(true)
  }
}
const run = (flow: Flow) => runFlow({ ...flow, vars: { encryption_key: ENC_KEY, ...flow.vars } }, 'inline.yaml', { baseUrl: sb.url, encryptionKey: ENC_KEY })

describe('the shipped flows', () => {
  it('cover every area of docs/behaviour.md#card-charges, docs/behaviour.md#preauth, docs/behaviour.md#mobile-money, docs/behaviour.md#direct-debit, docs/behaviour.md#identity, docs/behaviour.md#webhooks', () => {
    const names = SHIPPED.join(' ')
    for (const area of ['card-no-auth', 'card-pin', 'card-pin-otp', 'card-3ds', 'card-avs', 'card-verve-enrol', 'card-failures', 'preauth-', 'mobile-money-kes', 'mobile-money-ghs', 'mobile-money-currencies', 'payout-currencies', 'direct-debit-lifecycle', 'identity-bvn', 'identity-vnin', 'identity-gh-passport', 'identity-ng-documents', 'identity-gh-ssnit', 'identity-ke-national-id', 'identity-za-said', 'webhooks-retry', 'checkout-card', 'checkout-bank-transfer', 'checkout-mobile-money', 'virtual-account', 'pay-with-bank', 'chargeback']) {
      expect(names).toContain(area)
    }
  })

  it.each(SHIPPED)('%s replays green', async (file) => {
    const [result] = await runFlows([{ flow: loadFlowFile(file), file }], { baseUrl: sb.url, encryptionKey: ENC_KEY })
    expect(result.ok, prettyReport([result])).toBe(true)
  })

  it('can run twice in a row and in parallel (fresh namespace and references per run)', async () => {
    const flows = ['scenarios/flows/card-pin.yaml', 'scenarios/flows/card-pin.yaml', 'scenarios/flows/preauth-void.yaml', 'scenarios/flows/preauth-void.yaml'].map((file) => ({ flow: loadFlowFile(file), file }))
    const results = await runFlows(flows, { baseUrl: sb.url, encryptionKey: ENC_KEY, concurrency: 4 })
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true])
  })
})

describe('the runner reports each kind of mismatch clearly', () => {
  const charge = (expectBody: unknown, status = 200): Flow => ({
    name: 'mismatch',
    steps: [
      {
        name: 'charge',
        request: { method: 'POST', path: '/merchant/api/v1/charges/card', encrypt: true, body: { ...cardPayload('4084127883172787'), reference: '${ref}' } },
        expect: { status, body: expectBody },
      },
      { name: 'never reached', advance: 1 },
    ],
  })

  it('a wrong status', async () => {
    const r = await run(charge(undefined, 201))
    expect(r.ok).toBe(false)
    expect(r.steps).toHaveLength(1)
    expect(r.steps[0].mismatches).toEqual([{ path: 'status', expected: 201, actual: 200 }])
    expect(prettyReport([r])).toContain('status: expected 201, got 200')
  })

  it('a wrong value, a failed regex, a present field expected absent, a wrong array length', async () => {
    const r = await run(charge({ data: { status: 'failed', transaction_reference: { $regex: '^NOPE' }, card: { $absent: true }, nothing: [1, 2] } }))
    const paths = r.steps[0].mismatches.map((m) => m.path)
    expect(paths).toEqual(['data.status', 'data.transaction_reference', 'data.card', 'data.nothing'])
    const text = prettyReport([r])
    expect(text).toContain('data.status: expected "failed", got "success"')
    expect(text).toContain('data.transaction_reference: expected "/^NOPE/"')
    expect(text).toContain('data.card: expected "absent"')
    expect(text).toContain('0 passed, 1 failed')
  })

  it('an unknown variable and a save path that is not there', async () => {
    const unknown = await run({ name: 'x', steps: [{ request: { method: 'GET', path: '/merchant/api/v1/charges/${nope}' } }] })
    expect(unknown.steps[0].error).toBe('unknown variable ${nope}')
    const badSave = await run({ name: 'x', steps: [{ request: { method: 'GET', path: '/_sandbox/clock' }, save: { x: 'data.not.there' } }] })
    expect(badSave.steps[0].mismatches[0].path).toBe('save x <- data.not.there')
  })

  it('an event that never comes', async () => {
    const r = await run({ name: 'x', steps: [{ wait_event: { reference: 'no-such-payment', timeout_ms: 50 } }] })
    expect(r.ok).toBe(false)
    expect(r.steps[0].error).toMatch(/no event matched reference=no-such-payment/)
  })

  it('matches $any, nested subsets and exact arrays', () => {
    expect(match({ a: '$any', b: { c: [1, { d: 2 }] } }, { a: 0, b: { c: [1, { d: 2, e: 3 }], z: 1 } })).toEqual([])
    expect(match({ a: '$any' }, {})).toEqual([{ path: 'a', expected: 'any value', actual: undefined }])
  })
})

describe('flow files', () => {
  it('refuses a bad flow naming the file, the step and the field', () => {
    const file = tempFile('bad.yaml')
    writeFileSync(file, stringify({ name: 'bad', steps: [{ request: { method: 'POST', path: '/x' } }, { request: { method: 'FETCH', path: 'x' } }, { advance: 1, freeze: true }] }))
    let error: FlowError | undefined
    try {
      loadFlowFile(file)
    } catch (e) {
      error = e as FlowError
    }
    expect(error).toBeInstanceOf(FlowError)
    expect(error!.message).toContain(file)
    expect(error!.message).toContain('steps.1.request.method')
    expect(error!.message).toContain('steps.1.request.path')
    expect(error!.message).toContain('steps.2')
    expect(() => validateFlow({ name: 'x', steps: [] }, 'x.yaml')).toThrow(/steps/)
  })

  it('accepts JSON flows too', async () => {
    const file = tempFile('flow.json')
    writeFileSync(file, JSON.stringify({ name: 'json', steps: [{ request: { method: 'GET', path: '/_sandbox/health' }, expect: { status: 200 } }] }))
    expect((await run(loadFlowFile(file))).ok).toBe(true)
  })
})

describe('the JUnit report', () => {
  it('parses back to the same counts, with the failure text', async () => {
    const good = await run(loadFlowFile('scenarios/flows/card-pin.yaml'))
    const bad = await run({ name: 'bad <one>', steps: [{ name: 'health', request: { method: 'GET', path: '/_sandbox/health' }, expect: { status: 500 } }] })
    const xml = junitReport([good, bad])
    const attr = (tag: string, name: string) => [...xml.matchAll(new RegExp(`<${tag}\\b[^>]*\\b${name}="([^"]*)"`, 'g'))].map((m) => m[1])
    expect(xml.startsWith('<?xml')).toBe(true)
    expect(attr('testsuites', 'tests')).toEqual([String(good.steps.length + 1)])
    expect(attr('testsuites', 'failures')).toEqual(['1'])
    expect(attr('testsuite', 'name')).toEqual([good.name, 'bad &lt;one&gt;'])
    expect((xml.match(/<testcase /g) ?? []).length).toBe(good.steps.length + 1)
    expect(xml).toMatch(/<failure message="status: expected 500, got 200">/)
  })
})

describe('sandbox replay (the CLI)', () => {
  it('exits 0 on green flows, 1 with a diff on a mismatch, 2 on a bad flow file', async () => {
    const ok = await runCli(['replay', 'scenarios/flows/card-pin.yaml', 'scenarios/flows/identity-bvn.yaml'])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain('2 passed, 0 failed')

    const failing = tempFile('failing.yaml')
    writeFileSync(failing, stringify({ name: 'expects a failure', steps: [{ request: { method: 'GET', path: '/_sandbox/health', key: null }, expect: { status: 200, body: { data: { version: '0.0.0-nope' } } } }] }))
    const bad = await runCli(['replay', failing, '--base-url', sb.url])
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain('data.version: expected "0.0.0-nope"')

    const broken = tempFile('broken.yaml')
    writeFileSync(broken, 'name: x\nsteps:\n  - request: {method: GET}\n')
    const invalid = await runCli(['replay', broken])
    expect(invalid.code).toBe(2)
    expect(invalid.stderr).toContain('steps.0.request.path')
  })

  it('writes JUnit for CI and stops at the first failure with --bail', async () => {
    const out = tempFile('report.xml')
    const failing = tempFile('a-failing.yaml')
    writeFileSync(failing, stringify({ name: 'fails', steps: [{ request: { method: 'GET', path: '/_sandbox/health' }, expect: { status: 418 } }] }))
    const r = await runCli(['replay', failing, 'scenarios/flows/card-pin.yaml', '--bail', '--concurrency', '1', '--reporter', 'junit', '--output', out, '--base-url', sb.url])
    expect(r.code).toBe(1)
    const xml = readFileSync(out, 'utf8')
    expect((xml.match(/<testsuite /g) ?? []).length).toBe(1)
    expect(xml).toContain('expected 418')
  })
})

describe('record to flow', () => {
  it('turns a recorded session into a flow that replays green in a fresh namespace', async () => {
    const key = 'sk_test_recorded_session'
    const h = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const post = async (path: string, body: unknown) => (await fetch(`${sb.url}${path}`, { method: 'POST', headers: h, body: JSON.stringify(body) })).json() as Promise<any>
    await post('/_sandbox/clock/freeze', { frozen: true })
    const p = cardPayload('5442056106072595')
    const c = await post('/merchant/api/v1/charges/card', { charge_data: encryptChargeData(p, ENC_KEY) })
    await post('/merchant/api/v1/charges/card/authorize', { transaction_reference: c.data.transaction_reference, authorization: { pin: '1234' } })
    await post('/merchant/api/v1/charges/card/authorize', { transaction_reference: c.data.transaction_reference, authorization: { otp: '123456' } })
    const wrong = cardPayload('5188513618552975')
    const w = await post('/merchant/api/v1/charges/card', { charge_data: encryptChargeData(wrong, ENC_KEY) })
    await post('/merchant/api/v1/charges/card/authorize', { transaction_reference: w.data.transaction_reference, authorization: { pin: '9999' } })
    const tds = await post('/merchant/api/v1/charges/card', { charge_data: encryptChargeData(cardPayload('4562543755474674'), ENC_KEY) })
    await fetch(`${sb.url}/_sandbox/3ds/${tds.data.transaction_reference}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=approve', redirect: 'manual' })
    const pa = cardPayload('4084127883172787', { amount: 800 })
    await post('/merchant/api/v1/charges/card/pre-authorize', { charge_data: encryptChargeData(pa, ENC_KEY) })
    await post('/merchant/api/v1/charges/card/capture', { amount: 300, currency: 'NGN', payment_reference: pa.reference, transaction_reference: `${pa.reference}-cap` })
    const mm = await post('/merchant/api/v1/charges/mobile-money', { reference: `${pa.reference}-mm`, amount: 50, currency: 'GHS', customer: { email: 'x@y.co' }, mobile_money: { number: '233240000000' } })
    await post('/merchant/api/v1/charges/mobile-money/authorize', { reference: mm.data.transaction_reference, token: '123456' })
    await post('/_sandbox/clock/advance', { seconds: 2 })
    await post('/api/v1/direct-debit/authorizations/AUTH-SANDBOX-ACTIVE/debits', { amount: 10, narration: 'Plan', currency: 'NGN', reference: `${pa.reference}-dd` })
    await post('/api/v1/identities/ng/vnin', { id: 'KO111111111111IL', verification_consent: true })
    await fetch(`${sb.url}/merchant/api/v1/charges/${p.reference}`, { headers: h })

    const res = (await (await fetch(`${sb.url}/_sandbox/requests?format=flow`, { headers: h })).json()) as any
    expect(res.status).toBe(true)
    const flow = validateFlow(res.data, 'recorded')
    const text = JSON.stringify(flow)
    // nothing secret came back out of the journal: the pack's test values were put back
    expect(text).not.toContain('"cvv":"***"')
    expect(flow.steps.length).toBeGreaterThanOrEqual(15)
    await replaysTwice({ ...flow, vars: { encryption_key: ENC_KEY } })
  })

  it('turns a recorded voucher session into a flow that replays green: the pack\'s voucher PINs put back, the masked answers not expected', async () => {
    const key = 'sk_test_recorded_voucher'
    const h = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const post = (path: string, body: unknown) => fetch(`${sb.url}${path}`, { method: 'POST', headers: h, body: JSON.stringify(body) })
    const voucher = (reference: string, pin: string, amount = 100) => ({ reference, amount, currency: 'ZAR', voucher: { pin, phone_number: '+270576847568', provider_code: '0001' }, customer: { email: 'johndoe@example.com', name: 'John Doe' } })
    const r = ref('vch')
    const statuses = []
    for (const [i, pin, amount] of [[1, '1168648096792943', 100], [2, '1168648096792943', 100], [3, '1000000000000100', 100], [4, '1000000000000999', 100], [5, '4321', 100], [6, '1000000000001000', 500]] as const) {
      statuses.push((await post('/merchant/api/v1/charge/voucher', voucher(`${r}-${i}`, pin, amount))).status)
    }
    expect(statuses).toEqual([200, 400, 200, 400, 400, 400])

    const res = (await (await fetch(`${sb.url}/_sandbox/requests?format=flow`, { headers: h })).json()) as any
    const flow = validateFlow(res.data, 'recorded')
    expect(JSON.stringify(flow)).not.toContain('****')
    const result = await runFlow(flow, 'recorded', { baseUrl: sb.url })
    expect(result.ok, prettyReport([result])).toBe(true)
  })

  it("turns a 3DS page opened by the link that names the namespace's page id into a step that names none, which replays green under another key", async () => {
    const key = 'sk_test_recorded_page_id'
    const h = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const tds = (await (await fetch(`${sb.url}/merchant/api/v1/charges/card`, { method: 'POST', headers: h, body: JSON.stringify({ charge_data: encryptChargeData(cardPayload('4562543755474674'), ENC_KEY) }) })).json()) as any
    const tx = tds.data.transaction_reference
    const page = await fetch(`${sb.url}/_sandbox/3ds/${pageId(key)}/${tx}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=approve', redirect: 'manual' })
    expect(page.status).toBeLessThan(400)
    const res = (await (await fetch(`${sb.url}/_sandbox/requests?format=flow`, { headers: h })).json()) as any
    const flow = validateFlow(res.data, 'recorded')
    const pagePaths = flow.steps.map((s) => s.request?.path ?? '').filter((path) => path.startsWith('/_sandbox/3ds/'))
    expect(pagePaths).toHaveLength(1)
    expect(pagePaths[0]).not.toContain(pageId(key))
    expect(pagePaths[0]).toMatch(/^\/_sandbox\/3ds\/\$\{[^/]+\}$/)
    await replaysTwice({ ...flow, vars: { encryption_key: ENC_KEY } })
  })

  it("turns a recorded pay with bank session (the charge, the customer's choice on the bank's page, the query) into a flow that replays green", async () => {
    const key = 'sk_test_recorded_pwb'
    const h = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const post = async (path: string, body: unknown) => (await fetch(`${sb.url}${path}`, { method: 'POST', headers: h, body: JSON.stringify(body) })).json() as Promise<any>
    const choose = (tx: string, decision: string) => fetch(`${sb.url}/_sandbox/pay-with-bank/${tx}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `decision=${decision}`, redirect: 'manual' })
    // no long run of digits: the journal masks one that passes the Luhn check as a card number (docs/behaviour.md#request-journal)
    const reference = ref('pwb-recorded')
    const body = (r: string) => ({ reference: r, amount: 1000, currency: 'NGN', bank_code: '100004', customer: { name: 'Ada', email: 'ada@example.com' }, redirect_url: 'https://shop.example/r' })
    await choose((await post('/merchant/api/v1/charge/pay-with-bank', body(reference))).data.transaction_reference, 'approve')
    await choose((await post('/merchant/api/v1/charges/pay-with-bank', body(`${reference}-2`))).data.transaction_reference, 'decline')
    await fetch(`${sb.url}/merchant/api/v1/charges/${reference}`, { headers: h })

    const res = (await (await fetch(`${sb.url}/_sandbox/requests?format=flow`, { headers: h })).json()) as any
    const flow = validateFlow(res.data, 'recorded')
    expect(flow.steps.find((s) => s.request?.path.startsWith('/_sandbox/pay-with-bank/'))?.request).toMatchObject({ key: null, body: 'decision=approve' })
    await replaysTwice(flow)
  })

  it('turns a recorded checkout session (initialize, the control calls that pay and cancel, queries) into a flow that replays green', async () => {
    const key = 'sk_test_recorded_checkout'
    const h = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const call = async (method: string, path: string, body?: unknown) =>
      (await fetch(`${sb.url}${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<any>
    await call('POST', '/_sandbox/clock/freeze', { frozen: true })
    const init = (reference: string, extra: Record<string, unknown> = {}) =>
      call('POST', '/merchant/api/v1/charges/initialize', { reference, amount: 5000, currency: 'NGN', customer: { email: 'ada@example.com' }, redirect_url: 'https://shop.example/back', ...extra })
    const card = await init('rec-checkout-card')
    const tx = /\/checkout\/([^/]+)\/pay$/.exec(card.data.checkout_url)![1]
    // by transaction reference, before any answer shows it whole: only the page's URL carries it
    await call('POST', `/_sandbox/checkouts/${tx}/pay`, { channel: 'card', outcome: 'failed' })
    await call('POST', '/_sandbox/checkouts/rec-checkout-card/pay', { channel: 'card', card: { number: '5188513618552975', cvv: '123', expiry_month: '09', expiry_year: '30', pin: '1234' } })
    const paid = await call('GET', '/merchant/api/v1/charges/rec-checkout-card')
    expect(paid.data.status).toBe('success')
    await call('GET', `/merchant/api/v1/charges/${paid.data.payment_attempts[1].reference}`)
    await init('rec-checkout-bank', { channels: ['bank_transfer'] })
    const short = await call('POST', '/_sandbox/checkouts/rec-checkout-bank/pay', { channel: 'bank_transfer', amount: 100 })
    await call('GET', `/merchant/api/v1/charges/${short.data.payment_attempts[0].reference}`)
    await call('POST', '/_sandbox/clock/advance', { seconds: 120 })
    expect((await call('GET', '/merchant/api/v1/charges/rec-checkout-bank')).data.status).toBe('success')
    await init('rec-checkout-gone')
    await call('POST', '/_sandbox/checkouts/rec-checkout-gone/cancel')
    await call('POST', '/_sandbox/checkouts/rec-checkout-gone/cancel')

    // the control call's card was journaled masked: the flow put the pack's card back
    const journal = await (await fetch(`${sb.url}/_sandbox/requests`, { headers: h })).text()
    expect(journal).toContain('518851')
    for (const secret of ['5188513618552975', '"cvv":"123"', '"pin":"1234"']) expect(journal).not.toContain(secret)
    const res = (await (await fetch(`${sb.url}/_sandbox/requests?format=flow`, { headers: h })).json()) as any
    const flow = validateFlow(res.data, 'recorded')
    // no generated value of this session is sent or expected literally (the step names say what was called): each is captured or matched
    const text = JSON.stringify(flow.steps.map(({ name: _name, ...step }) => step))
    for (const generated of [tx, paid.data.payment_attempts[1].reference, 'http://']) expect(text).not.toContain(generated)
    expect(text).not.toContain('"cvv":"***"')
    await replaysTwice({ ...flow, vars: { encryption_key: ENC_KEY } })
  })

  it('turns a recorded virtual-account session (open, read, credit, transactions, the transfer queried) into a flow that replays green', async () => {
    const key = 'sk_test_recorded_vba'
    const h = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const call = async (method: string, path: string, body?: unknown) =>
      (await fetch(`${sb.url}${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<any>
    const V = '/merchant/api/v1/virtual-bank-account'
    const made = await call('POST', V, { account_name: 'Ada', account_reference: 'rec-vba-1', permanent: true, bank_code: '000', customer: { name: 'Ada' }, kyc: { bvn: '22222222222' } })
    const n = made.data.account_number
    await call('GET', `${V}/rec-vba-1`)
    await call('POST', `${V}/sandbox/credit`, { account_number: n, amount: 1500, currency: 'NGN' })
    await call('POST', `${V}/sandbox/credit`, { account_number: n, amount: 50, currency: 'NGN' })
    const list = await call('GET', `${V}/transactions?account_number=${n}`)
    await call('GET', `/merchant/api/v1/charges/${list.data.transactions[0].reference}`)
    const res = (await (await fetch(`${sb.url}/_sandbox/requests?format=flow`, { headers: h })).json()) as any
    const flow = validateFlow(res.data, 'recorded')
    const text = JSON.stringify(flow.steps.map(({ name: _name, ...step }) => step))
    // the account's number, its id and the transfer's reference are captured, the account reference made per run
    for (const generated of [n, made.data.unique_id, list.data.transactions[0].reference, 'rec-vba-1']) expect(text).not.toContain(generated)
    await replaysTwice(flow)
  })

  it('sandbox export-flow writes the flow as YAML', async () => {
    const key = 'sk_test_export_cli'
    await fetch(`${sb.url}/merchant/api/v1/charges/card`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ charge_data: encryptChargeData(cardPayload('4084127883172787'), ENC_KEY) }) })
    const out = tempFile('recorded.yaml')
    const r = await runCli(['export-flow', '--base-url', sb.url, '--key', key, '--output', out, '--name', 'my session'])
    expect(r.code).toBe(0)
    const flow = validateFlow(parseYaml(readFileSync(out, 'utf8')), out)
    expect(flow.name).toBe('my session')
    const replay = await runCli(['replay', out, '--base-url', sb.url])
    expect(replay.code, replay.stdout).toBe(0)
  })
})

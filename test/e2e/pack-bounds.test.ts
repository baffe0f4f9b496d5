import { afterEach, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, cardPayload, tempFile, invalidBody } from '../helpers/sandbox.js'
import { startCli, type RunningCli } from './process.js'

/**
 * The control API bounds the scenario packs it accepts (docs/behaviour.md#scenario-packs): a pack past a
 * bound is a 400 with the field, changes nothing, and never touches another namespace.
 */

const started: RunningCli[] = []
afterEach(async () => {
  for (const r of started.splice(0)) {
    if (r.child.exitCode === null) {
      r.child.kill('SIGKILL')
      await r.exited
    }
  }
})

async function start(args: string[]): Promise<RunningCli> {
  const r = await startCli(args)
  started.push(r)
  return r
}

const KEY_A = 'sk_test_pack_a'
const KEY_B = 'sk_test_pack_b'
const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' })

async function call(url: string, key: string, method: string, path: string, body?: unknown, raw?: string) {
  const res = await fetch(`${url}${path}`, { method, headers: auth(key), body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) })
  const text = await res.text()
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text }
}

async function charge(url: string, key: string, payload = cardPayload('4084127883172787')) {
  return call(url, key, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(payload, ENC_KEY) })
}

/** Every call a namespace's user makes to look at it answers 200. */
async function namespaceWorks(url: string, key: string, p = cardPayload('4084127883172787')) {
  expect((await charge(url, key, p)).status).toBe(200)
  expect((await call(url, key, 'GET', `/merchant/api/v1/charges/${p.reference}`)).status).toBe(200)
  expect((await call(url, key, 'GET', '/_sandbox/clock')).status).toBe(200)
  expect((await call(url, key, 'GET', '/_sandbox/scenarios')).status).toBe(200)
  expect((await call(url, key, 'GET', '/_sandbox/events')).status).toBe(200)
  expect((await fetch(`${url}/_sandbox/ui?ns=${key}`)).status).toBe(200)
  return p
}

describe('scenario packs are bounded', () => {
  it('a 20,000-level nested record is a 400 with its field, stores nothing, and leaves every namespace (and the data file) working', async () => {
    const data = tempFile()
    const first = await start(['--data', data])
    const before = await namespaceWorks(first.url, KEY_B)
    const deep = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)
    const raw = `{"identities":[{"type":"ng_bvn","id":"22222222222","found":true,"label":"deep","record":${deep}}]}`
    const res = await call(first.url, KEY_A, 'POST', '/_sandbox/scenarios', undefined, raw)
    expect(res.status).toBe(422)
    expect(res.body).toEqual(invalidBody({ 'identities.0.record.a...': 'must nest at most 16 levels deep' }))
    // nothing was added, and both namespaces go on
    const scen = await call(first.url, KEY_A, 'GET', '/_sandbox/scenarios')
    expect(scen.body.data.identities.some((x: any) => x.label === 'deep')).toBe(false)
    await namespaceWorks(first.url, KEY_A)
    const after = await namespaceWorks(first.url, KEY_B)
    // the data file holds them all: a restart finds both of B's charges
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    const second = await start(['--data', data])
    for (const p of [before, after]) expect((await call(second.url, KEY_B, 'GET', `/merchant/api/v1/charges/${p.reference}`)).body.data.status).toBe('success')
  }, 60_000)

  it('every pack setting is bounded so that dates stay valid: 1e300 is a 400 naming the field, and the namespace keeps answering', async () => {
    const { url } = await start([])
    const cases: [unknown, string][] = [
      [{ settings: { pre_auth_validity_hours: 1e300 } }, 'settings.pre_auth_validity_hours'],
      [{ settings: { settlement_delay_hours: 1e300 } }, 'settings.settlement_delay_hours'],
      [{ settings: { stk_delay_seconds: 1e300 } }, 'settings.stk_delay_seconds'],
      [{ settings: { debit_delay_seconds: 1e300 } }, 'settings.debit_delay_seconds'],
      [{ settings: { otp_attempts: 1e9 } }, 'settings.otp_attempts'],
      // the settings the areas declare (`Area.settings`) are bounded by the same pack limits
      [{ settings: { refund_delay_seconds: 1e300 } }, 'settings.refund_delay_seconds'],
      [{ settings: { payout_delay_seconds: 1e300 } }, 'settings.payout_delay_seconds'],
      [{ settings: { transfer_account_minutes: 1e300 } }, 'settings.transfer_account_minutes'],
      [{ settings: { chargeback_deadline_hours: 1e300 } }, 'settings.chargeback_deadline_hours'],
      [{ settings: { chargeback_decision_hours: 1e300 } }, 'settings.chargeback_decision_hours'],
      [{ settings: { payout_limits: { NGN: { min: 0, max: 1e300 } } } }, 'settings.payout_limits.NGN.max'],
      [{ settings: { payout_limits: { ['x'.repeat(101)]: { min: 0, max: 1 } } } }, 'settings.payout_limits.' + 'x'.repeat(101)],
      [{ settings: { payout_multiples: { XAF: 1e9 } } }, 'settings.payout_multiples.XAF'],
      [{ settings: { fees: { card: { percent: 1, flat: 1e300 } } } }, 'settings.fees.card.flat'],
      [{ settings: { fees: { mobile_money: { percent: 1, cap: 1e300 } } } }, 'settings.fees.mobile_money.cap'],
      [{ authorizations: [{ reference: 'AUTH-BIG', status: 'active', amount: 1e300, label: 'big' }] }, 'authorizations.0.amount'],
      [{ cards: [{ number: '4111111111111111', scheme: 'visa', cvv: '123', expiry_month: '12', expiry_year: '30', outcome: 'success', label: 'x'.repeat(501) }] }, 'cards.0.label'],
      [{ identities: [{ type: 'ng_bvn', id: '2'.repeat(101), found: false, label: 'long id' }] }, 'identities.0.id'],
      [{ identities: [{ type: 'ng_bvn', id: '22222222223', found: true, label: 'wide', record: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}`, i])) }] }, 'identities.0.record'],
    ]
    for (const [pack, field] of cases) {
      const res = await call(url, KEY_A, 'POST', '/_sandbox/scenarios', pack)
      expect(res.status, field).toBe(422)
      expect(res.body.message).toBe('Invalid request data')
      expect(Object.keys(res.body.data), field).toEqual([field])
    }
    await namespaceWorks(url, KEY_A)
  }, 60_000)

  it('the largest accepted delays keep every date valid even with the clock at the year 9999', async () => {
    const { url } = await start([])
    const settings = { pre_auth_validity_hours: 87_600, settlement_delay_hours: 87_600, stk_delay_seconds: 315_360_000, debit_delay_seconds: 315_360_000 }
    expect((await call(url, KEY_A, 'POST', '/_sandbox/scenarios', { settings })).status).toBe(200)
    expect((await call(url, KEY_A, 'POST', '/_sandbox/clock/advance', { to: '9999-12-31T00:00:00.000Z' })).status).toBe(200)
    // a charge (of a card that expires at the end of 9999) settles ten years later: past the year
    // 9999, which every view still shows
    await namespaceWorks(url, KEY_A, cardPayload('4084127883172787', {}, { expiry_month: '12', expiry_year: '9999' }))
  }, 60_000)
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { cardPayload, ENC_KEY, makeSandbox, type TestSandbox, invalidBody } from './helpers/sandbox.js'
import { NO_AUTH_CARD as CARD } from './helpers/cards.js'
import { virtualAccountBody } from './helpers/bodies.js'

/**
 * A snapshot holds records no call could have made (docs/behaviour.md#persistence, docs/behaviour.md#snapshots): one whose record
 * lacks a field the code reads, holds one of another type, nested 5,000 levels or absurd (money
 * below nothing, in halves of a minor unit or past any sum, a currency nobody serves), or a record
 * under an absurd key (an undeclared ledger source, `__proto__`) is refused 422 naming the field
 * and changes nothing, or, if it is accepted, nothing the namespace answers afterwards (its lists,
 * queries, balances and history, the dashboard, the customer pages, the snapshot) is a 500. The
 * generated check takes a real snapshot of a namespace with a record of every kind and collection,
 * changes each nested field (or each record's key) in turn and restores it.
 */

const open: TestSandbox[] = []
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close()
})
async function sandbox(): Promise<TestSandbox> {
  const sb = await makeSandbox({ seed: 11 })
  open.push(sb)
  return sb
}
const ok = async (p: Promise<{ status: number; body: any }>) => {
  const res = await p
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

/** One namespace with a record of every kind of charge and every collection. */
async function populate(sb: TestSandbox): Promise<void> {
  await ok(sb.call('POST', '/_sandbox/balances/fund', { currency: 'NGN', amount: 50_000 }))
  const charged = await sb.charge(cardPayload(CARD, { reference: 'kc-card-1', amount: 1000 }))
  expect(charged.body.data?.status, JSON.stringify(charged.body)).toBe('success')
  const hold = await ok(sb.call('POST', '/merchant/api/v1/charges/card/pre-authorize', { charge_data: encryptChargeData(cardPayload(CARD, { reference: 'kc-preauth-1', amount: 1000 }), ENC_KEY) }))
  await ok(sb.call('POST', '/merchant/api/v1/charges/card/capture', { amount: 400, currency: 'NGN', payment_reference: hold.payment_reference, transaction_reference: 'kc-capture-1' }))
  await ok(sb.call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 }))
  await ok(sb.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: 'kc-card-1', reference: 'kc-refund-1', amount: 300 }))
  await ok(sb.call('POST', '/merchant/api/v1/charges/mobile-money', { reference: 'kc-mobile-1', amount: 200, currency: 'KES', customer: { email: 'a@b.co' }, mobile_money: { number: '254700000000' } }))
  await ok(sb.call('POST', '/merchant/api/v1/charges/bank-transfer', { reference: 'kc-transfer-1', amount: 1500, currency: 'NGN', customer: { email: 'a@b.co' } }))
  await ok(sb.call('POST', '/merchant/api/v1/charges/pay-with-bank', { reference: 'kc-paybank-1', amount: 1000, currency: 'NGN', bank_code: '100004', customer: { name: 'Ada Obi', email: 'ada@example.com' } }))
  await ok(sb.call('POST', '/merchant/api/v1/charges/initialize', { reference: 'kc-checkout-1', amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada' } }))
  const mandate = await ok(sb.call('POST', '/_sandbox/direct-debit/authorizations', { account_number: '0123456789', bank_code: '044', account_name: 'Chidi Okafor', amount: 250000 }))
  await ok(sb.call('POST', `/_sandbox/direct-debit/authorizations/${mandate.reference}/approve`))
  await ok(sb.call('POST', `/merchant/api/v1/direct-debit/authorizations/${mandate.reference}/debits`, { amount: 1000, narration: 'monthly', currency: 'NGN', reference: 'kc-debit-1' }))
  await ok(sb.call('POST', '/merchant/api/v1/transactions/disburse', { reference: 'kc-payout-1', destination: { type: 'bank_account', amount: 1000, currency: 'NGN', narration: 'Salary', bank_account: { bank: '033', account: '0000000000' }, customer: { name: 'Ada Payee', email: 'ada@example.com' } } }))
  const account = await ok(sb.call('POST', '/merchant/api/v1/virtual-bank-account', virtualAccountBody('kc-account-1')))
  await ok(sb.call('POST', '/merchant/api/v1/virtual-bank-account/sandbox/credit', { account_number: account.account_number, amount: 700, currency: 'NGN' }))
  await ok(sb.call('POST', '/api/v1/identities/ng/bvn', { id: '22222222222', verification_consent: true }))
  const rate = await ok(sb.call('POST', '/merchant/api/v1/conversions/rates', { from_currency: 'NGN', to_currency: 'USD', amount: '4000.00', reference: 'customer-42' }))
  await ok(sb.call('POST', '/merchant/api/v1/conversions/', { rate_reference: rate.reference, amount: rate.from_amount, from_currency: 'NGN', to_currency: 'USD', customer_name: 'John', customer_email: 'jdoe@example.com', narration: 'sample' }))
  const item = (n: number) => ({ reference: `kc-bulk-item-${n}`, amount: 1000, type: 'bank_account', narration: 'Bulk', bank_account: { bank_code: '033', account_number: '0000000000' }, customer: { name: 'Payee', email: 'p@example.com' } })
  await ok(sb.call('POST', '/merchant/api/v1/transactions/disburse/bulk', { batch_reference: 'kc-batch-1', description: 'Salaries', currency: 'NGN', merchant_bears_cost: true, payouts: [item(1), item(2)] }))
}

/** Every collection a call can fill: the namespace populated holds a record of each. */
const COLLECTIONS = ['card_ops', 'charges', 'conversion_quotes', 'conversions', 'dd_authorizations', 'events', 'identity_checks', 'ledger', 'meta', 'payout_batches', 'payouts', 'refunds', 'timers', 'vba_transfers', 'virtual_accounts']

/** Every read a client (or the dashboard) makes of the namespace, each record's own and the lists. */
function readPaths(snap: any): string[] {
  const records = snap.records
  const refs = (c: string, field: string) => Object.values(records[c] ?? {}).map((r: any) => r?.[field]).filter((v) => typeof v === 'string')
  const currencies = new Set(['NGN', ...Object.values(records.ledger ?? {}).map((e: any) => e?.currency).filter((c) => typeof c === 'string')])
  const charges = Object.entries<any>(records.charges ?? {})
  const pages = (kind: string, page: (key: string) => string) => charges.filter(([, c]) => c?.kind === kind).map(([key]) => page(encodeURIComponent(key)))
  return [
    '/_sandbox/snapshot',
    '/merchant/api/v1/balances',
    ...[...currencies].map((c) => `/merchant/api/v1/balances/history?currency=${encodeURIComponent(c)}`),
    ...pages('checkout', (tx) => `/checkout/${tx}/pay`),
    ...pages('card', (tx) => `/_sandbox/3ds/${tx}`),
    ...pages('pay_with_bank', (tx) => `/_sandbox/pay-with-bank/${tx}`),
    '/merchant/api/v1/pay-ins',
    '/merchant/api/v1/transactions',
    '/merchant/api/v1/payouts',
    '/merchant/api/v1/refunds',
    '/_sandbox/events',
    '/_sandbox/direct-debit/authorizations',
    `/_sandbox/ui?ns=${snap.key}`,
    ...refs('charges', 'payment_reference').map((r) => `/merchant/api/v1/charges/${r}`),
    ...refs('payouts', 'reference').map((r) => `/merchant/api/v1/transactions/${r}`),
    ...Object.keys(records.refunds ?? {}).map((r) => `/merchant/api/v1/refunds/${r}`),
    ...refs('virtual_accounts', 'account_reference').map((r) => `/merchant/api/v1/virtual-bank-account/${r}`),
    ...refs('dd_authorizations', 'reference').map((r) => `/merchant/api/v1/direct-debit/authorizations/${r}`),
    ...refs('identity_checks', 'reference').map((r) => `/api/v1/identities/verifications/${r}`),
    '/merchant/api/v1/conversions',
    ...refs('conversions', 'reference').map((r) => `/merchant/api/v1/conversions/${r}`),
    ...refs('payout_batches', 'batch_reference').flatMap((r) => [`/merchant/api/v1/transactions/bulk/${r}`, `/merchant/api/v1/transactions/bulk/${r}/payouts`]),
  ]
}

/** Every record, by its collection and key. */
const recordKeys = (snap: any): string[][] => Object.entries<Record<string, unknown>>(snap.records).flatMap(([name, recs]) => Object.keys(recs).map((key) => [name, key]))

/** Whether the field at `path` holds a number or a string (what an absurd value replaces). */
function isLeaf(snap: any, path: string[]): boolean {
  const v = path.reduce((at, k) => at?.[k], snap.records)
  return typeof v === 'number' || typeof v === 'string'
}

/** The reads swept before the clock moves too: the customer pages, the dashboard, the history and the snapshot. */
const SHOWN_AT_ONCE = /^\/(checkout|_sandbox\/(ui|3ds|pay-with-bank|snapshot))|history/

/** The path of every field inside a record, two levels down and into each list's first item: `charges.<key>.card.last4`. */
function nestedFields(snap: any): string[][] {
  const out: string[][] = []
  const walk = (value: unknown, path: string[], depth: number) => {
    if (depth > 3 || typeof value !== 'object' || value === null) return
    const entries: [string, unknown][] = Array.isArray(value) ? (value.length ? [['0', value[0]]] : []) : Object.entries(value)
    for (const [k, v] of entries) {
      out.push([...path, k])
      walk(v, [...path, k], depth + 1)
    }
  }
  for (const [name, recs] of Object.entries(snap.records as Record<string, Record<string, unknown>>)) {
    for (const [key, record] of Object.entries(recs)) walk(record, [name, key], 0)
  }
  return out
}

type Change = 'deleted' | 'of another type' | 'nested 5,000 levels' | 'absurd' | 'under an absurd key'

/** Stands for a value nested 5,000 levels, which JSON.stringify could not write: `send` puts it in the text. */
const DEEP = '\u0000deep'
const DEEP_JSON = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)
/** Absurd values: money below nothing, in halves of a minor unit, past any sum; for a text, a currency nobody serves, a direction, nothing, or an object of keys that name the prototype. */
const ABSURD_NUMBERS = [-1, 0.5, 1e300]
const absurdObject = () => JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":1}}')
/** Absurd keys for a record: an undeclared ledger source, the prototype's names, nothing, a key of 5,000 characters. */
const ABSURD_KEYS = ['bogus:KPY-X:0', '__proto__', 'constructor', '', 'k'.repeat(5000)]

/** The snapshot with the field at `path` (under `records`) changed so; `n` picks among the absurd values. */
function without(snap: any, path: string[], change: Change = 'deleted', n = 0): any {
  const copy = structuredClone(snap)
  let at = copy.records
  for (const k of path.slice(0, -1)) at = at[k]
  const last = path.at(-1)!
  const v = at[last]
  if (change === 'of another type') at[last] = typeof v === 'string' ? 7 : typeof v === 'number' || typeof v === 'object' ? 'x' : null
  else if (change === 'nested 5,000 levels') at[last] = DEEP
  else if (change === 'absurd') at[last] = typeof v === 'number' ? ABSURD_NUMBERS[n % ABSURD_NUMBERS.length] : ['ZZZ', 'sideways', '', absurdObject()][n % 4]
  else if (change === 'under an absurd key') {
    // the record moved to the key (path: collection, key)
    delete at[last]
    Object.defineProperty(at, ABSURD_KEYS[n % ABSURD_KEYS.length], { value: v, enumerable: true, writable: true, configurable: true })
  } else if (Array.isArray(at)) at.splice(Number(last), 1)
  else delete at[last]
  return copy
}

/** The document's text, with the value nested 5,000 levels where it stands. */
const text = (doc: unknown) => JSON.stringify(doc).replace(JSON.stringify(DEEP), DEEP_JSON)

describe('a snapshot record no call could have made', () => {
  // per kind, a field its own code reads (the dashboard line, the query's additions)
  const KIND_FIELDS: [kind: string, path: string[], problem: string][] = [
    ['card', ['card', 'last_four'], 'must be a string'],
    ['mobile_money', ['wallet', 'number'], 'must be a string'],
    ['bank_transfer', ['bank_account', 'account_number'], 'must be a string'],
    ['pay_with_bank', ['bank', 'name'], 'must be a string'],
    ['direct_debit', ['authorization_code'], 'must be a string'],
    ['checkout', ['channels'], 'must be a list, each item one of card, bank_transfer, mobile_money, pay_with_bank'],
    ['virtual_account', ['virtual_bank_account', 'account_number'], 'must be a string'],
  ]

  it("for every kind, a charge lacking a field its kind's code reads is refused 422 naming records.charges.<key>.<field>, and nothing changes", async () => {
    const a = await sandbox()
    await populate(a)
    const snap = await ok(a.call('GET', '/_sandbox/snapshot'))
    const charges = Object.entries<any>(snap.records.charges)
    expect(new Set(charges.map(([, c]) => c.kind))).toEqual(new Set(KIND_FIELDS.map(([kind]) => kind)))
    const b = await sandbox()
    await ok(b.call('POST', '/_sandbox/snapshot', snap))
    const before = JSON.stringify(await ok(b.call('GET', '/_sandbox/snapshot')))
    for (const [kind, path, problem] of KIND_FIELDS) {
      const [key] = charges.find(([, c]) => c.kind === kind)!
      const res = await b.call('POST', '/_sandbox/snapshot', without(snap, ['charges', key, ...path]))
      expect([res.status, res.body], kind).toEqual([422, invalidBody({ [`records.charges.${key}.${path.join('.')}`]: problem })])
      expect(JSON.stringify(await ok(b.call('GET', '/_sandbox/snapshot')))).toBe(before)
    }
    // a kind no area serves: the kinds that are named
    const [key] = charges[0]
    const cheque = structuredClone(snap)
    cheque.records.charges[key].kind = 'cheque'
    const res = await b.call('POST', '/_sandbox/snapshot', cheque)
    expect(res.status).toBe(422)
    expect(res.body.data[`records.charges.${key}.kind`].message).toMatch(/must be one of card, .*virtual_account/)
  })

  it.each<[Change, number, number]>([
    ['deleted', 50, 50],
    ['of another type', 200, 50],
    ['nested 5,000 levels', 200, 0],
    ['absurd', 150, 50],
    ['under an absurd key', 5, 20],
  ])('with any nested field %s, is refused 422 naming it and changing nothing or, if accepted, no read of the namespace answers 500', async (change, atLeast, accepted) => {
    const a = await sandbox()
    await populate(a)
    const snap = await ok(a.call('GET', '/_sandbox/snapshot'))
    const b = await sandbox()
    const paths = readPaths(snap)
    for (const c of COLLECTIONS) expect(Object.keys(snap.records[c] ?? {}).length, c).toBeGreaterThan(0)
    // every field, or (an absurd key) every record
    const fields = change === 'under an absurd key' ? recordKeys(snap) : change === 'absurd' ? nestedFields(snap).filter((f) => isLeaf(snap, f)) : nestedFields(snap)
    expect(fields.length).toBeGreaterThan(change === 'under an absurd key' ? 40 : 150)
    // the snapshot as taken is accepted: every record a call made passes the check
    await ok(b.call('POST', '/_sandbox/snapshot', snap))
    const take = async () => JSON.stringify((await b.call('GET', '/_sandbox/snapshot')).body)
    let current = await take()
    const failures: string[] = []
    let refused = 0
    // what the sandbox logs as a fault of its own (an answer's 500, a timer that threw) is one too
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const drain = () => {
      const calls = [...logged.mock.calls]
      logged.mockClear()
      return calls
    }
    for (const [i, field] of fields.entries()) {
      for (const [what] of drain()) failures.push(`${fields[i - 1]?.join('.')}: logged ${String(what)}`)
      const res = await b.call('POST', '/_sandbox/snapshot', undefined, { raw: text(without(snap, field, change, i)) })
      if (res.status === 422) {
        refused++
        // named by the path of the field (or of the record, when what is gone is the whole of a list's item; or its collection's entries, the balances they add up to)
        const named = Object.keys(res.body.data ?? {})
        if (!named.some((p) => `records.${field.join('.')}`.startsWith(p) || p.startsWith(`records.${field[0]}.`))) failures.push(`${field.join('.')}: refused naming ${named.join(', ')}`)
        if ((await take()) !== current) failures.push(`${field.join('.')}: refused, and the namespace changed`)
        continue
      }
      if (res.status !== 200) {
        failures.push(`${field.join('.')}: restore answered ${res.status}`)
        continue
      }
      // as restored, what a clock moving changes most (the pages, the history, the dashboard); after it moved, every read
      for (const p of paths.filter((p) => SHOWN_AT_ONCE.test(p))) {
        const read = await b.call('GET', p)
        if (read.status >= 500) failures.push(`${field.join('.')}: GET ${p} answered ${read.status}`)
      }
      const advanced = await b.call('POST', '/_sandbox/clock/advance', { seconds: 3 * 24 * 3600 })
      if (advanced.status >= 500) failures.push(`${field.join('.')}: advancing the clock answered ${advanced.status}`)
      for (const p of paths) {
        const read = await b.call('GET', p)
        if (read.status >= 500) failures.push(`${field.join('.')}: after the clock moved, GET ${p} answered ${read.status}`)
      }
      current = await take()
    }
    for (const [what] of drain()) failures.push(`${fields.at(-1)!.join('.')}: logged ${String(what)}`)
    logged.mockRestore()
    expect(failures.join('\n')).toBe('')
    // both ends are exercised: fields whose change is refused, and (but for nesting) fields the code does without
    expect(refused).toBeGreaterThan(atLeast)
    expect(fields.length - refused).toBeGreaterThanOrEqual(accepted)
  }, 120_000)
})

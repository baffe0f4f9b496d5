import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AREAS } from '../src/areas.js'
import { startSandbox, type Sandbox } from '../src/index.js'
import { scoreCorpus } from '../src/replay/conformance.js'
import { CorpusError, endpointKey, loadCorpus, masks } from '../src/replay/corpus.js'
import { compareShape } from '../src/replay/shape.js'

/**
 * The conformance corpus (docs/behaviour.md#conformance): its list of documented endpoints held against
 * the route table both ways, its schema, and the scoring of masks, tiers and known differences.
 */

const ROOT = resolve(import.meta.dirname, '..')
const corpus = loadCorpus(join(ROOT, 'conformance'), ROOT)

/** Every route the areas declare but the sandbox's own: its `/_sandbox` calls and its customer pages (the checkout page stands in for Kora's hosted one). */
const apiRoutes = AREAS.flatMap((a) => a.routes.filter((r) => !r.path.startsWith('/_sandbox') && !r.page).map((r) => endpointKey(r.method, r.path)))
const listed = new Set(corpus.endpoints.map((e) => endpointKey(e.method, e.path)))

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 48 })
})
afterAll(() => sandbox.close())

const target = () => ({ baseUrl: sandbox.url, encryptionKey: 'MUST_BE_32_BYTES' })

describe('conformance/endpoints.yaml and the route table', () => {
  it('lists every route the sandbox serves outside /_sandbox and its customer pages', () => {
    expect(apiRoutes.length).toBeGreaterThan(50)
    expect(apiRoutes.filter((k) => !listed.has(k))).toEqual([])
  })

  it('counts as not served, in the coverage, exactly what it lists and the routes do not serve', async () => {
    const served = new Set(apiRoutes)
    // one endpoint no route serves, beside the listed ones: the coverage must count it, whatever the list holds today
    const endpoints = [...corpus.endpoints, { area: 'none', method: 'GET' as const, path: '/merchant/api/v1/no-such-endpoint', source: 'https://developers.korapay.com/docs' }]
    const unserved = endpoints.map((e) => endpointKey(e.method, e.path)).filter((k) => !served.has(k))
    expect(unserved).toContain('GET /merchant/api/v1/no-such-endpoint')
    const board = await scoreCorpus({ endpoints, entries: [] }, target(), (k) => served.has(k), { concurrency: 1 })
    expect(board.totals.documented).toBe(listed.size + 1)
    expect(board.totals.served).toBe(listed.size + 1 - unserved.length)
    expect(board.endpoints.filter((e) => !e.served).map((e) => endpointKey(e.endpoint.method, e.endpoint.path))).toEqual(unserved)
  })

  it('writes a part of a path the same way for a route and a listed endpoint', () => {
    expect(endpointKey('get', '/merchant/api/v1/charges/:reference')).toBe(endpointKey('GET', '/merchant/api/v1/charges/:ref'))
    expect(endpointKey('post', '/merchant/api/v1/conversions/')).toBe('POST /merchant/api/v1/conversions')
  })
})

describe('the corpus', () => {
  it('gives every entry a source, a date, a kind, a tier and a profile, and no real key', () => {
    expect(corpus.entries.length).toBeGreaterThan(20)
    for (const e of corpus.entries) {
      expect(e.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(JSON.stringify(e.flow)).not.toMatch(/\b(sk|pk)_(live|test)_[A-Za-z0-9]{8,}/)
    }
  })

  it('keeps masked paths within 15 % of the entries, each with its reason', () => {
    const masked = corpus.entries.filter((e) => e.masks.length)
    expect(masked.length).toBeLessThanOrEqual(Math.floor(corpus.entries.length * 0.15))
    for (const e of masked) for (const m of e.masks) expect(m.reason.length).toBeGreaterThan(10)
  })
})

/** A corpus in a temporary directory: two endpoints and any others given, the given entry files. */
function tempCorpus(files: Record<string, string>, endpoints = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-'))
  mkdirSync(join(dir, 'entries'))
  writeFileSync(
    join(dir, 'endpoints.yaml'),
    `endpoints:
  - { area: balances, method: GET, path: /merchant/api/v1/balances, source: "https://developers.korapay.com/docs/balance-api" }
  - { area: voucher, method: POST, path: /merchant/api/v1/charge/voucher, source: "https://developers.korapay.com/docs/integrating-voucher-payments-via-api" }
${endpoints}`,
  )
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'entries', name), text)
  return dir
}

const HEAD = `source: { url: "https://developers.korapay.com/docs/balance-api" }
kind: docs
date: 2025-02-28
profile: [default]
entries:
`

function refusal(text: string): string[] {
  const dir = tempCorpus({ 'bad.yaml': text })
  try {
    loadCorpus(dir, dir)
  } catch (e) {
    expect(e).toBeInstanceOf(CorpusError)
    expect((e as CorpusError).source).toBe(join('entries', 'bad.yaml'))
    return (e as CorpusError).issues
  }
  throw new Error('not refused')
}

const balances = (extra: string) => `  - id: one
    endpoint: GET /merchant/api/v1/balances
    tier: 1
${extra}    steps:
      - request: { method: GET, path: /merchant/api/v1/balances }
        expect: { status: 200, body: { status: true } }
`

describe('a bad entry is refused naming its file and its field', () => {
  it('a tier out of 1 to 3', () => {
    expect(refusal(HEAD + balances('').replace('tier: 1', 'tier: 4')).join('\n')).toMatch(/^entries\.0\.tier: /m)
  })
  it('an endpoint endpoints.yaml does not list', () => {
    expect(refusal(HEAD + balances('').replace('GET /merchant/api/v1/balances\n', 'GET /merchant/api/v1/nowhere\n'))).toEqual([
      'entries.0.endpoint: GET /merchant/api/v1/nowhere is not in endpoints.yaml',
    ])
  })
  it('a mask that would hide the whole answer, or one with no reason', () => {
    const issues = refusal(HEAD + balances('    masks: [{ path: data, reason: everything differs }, { path: "data.*", reason: everything differs }, { path: data.NGN }]\n'))
    expect(issues).toEqual([
      'entries.0.masks.0.path: a mask never hides a whole answer (the HTTP status, the envelope status or all of data)',
      'entries.0.masks.1.path: a mask never hides a whole answer (the HTTP status, the envelope status or all of data)',
      'entries.0.masks.2.reason: is required',
    ])
  })
  it('an entry with no source, date or kind on it or its file', () => {
    expect(refusal('entries:\n' + balances(''))).toEqual([
      'entries.0.source: required (on the entry or the file)',
      'entries.0.date: required (on the entry or the file)',
      'entries.0.kind: required (on the entry or the file)',
      'entries.0.profile: required (on the entry or the file)',
    ])
  })
  it('a flow step the flow format refuses', () => {
    expect(refusal(HEAD + balances('').replace('method: GET, path', 'method: FETCH, path')).join('\n')).toMatch(/^entries\.0\.steps\.0\.request\.method: /m)
  })
})

describe('scoring', () => {
  const served = (k: string) => k === 'GET /merchant/api/v1/balances'
  const entry = (id: string, tier: number, body: string, extra = '') => `  - id: ${id}
    endpoint: GET /merchant/api/v1/balances
    tier: ${tier}
${extra}    steps:
      - request: { method: GET, path: /merchant/api/v1/balances }
        expect: { status: 200, body: ${body} }
`
  const NGN = '{ pending_balance: 0, available_balance: 5000000 }'
  const USD = '{ pending_balance: 0, available_balance: 5000000, issuing_balance: 0 }'

  it('masks a path with its reason, keeps a known difference out of the exit code, and scores tier 3 by value and key order', async () => {
    const dir = tempCorpus({
      'a.yaml':
        HEAD +
        entry('exact', 1, `{ status: true, message: success, data: { NGN: ${NGN}, USD: ${USD} } }`) +
        entry('masked', 1, `{ status: true, message: success, data: { NGN: { pending_balance: 0, available_balance: 5000000, reserve: 0 }, USD: ${USD} } }`, '    masks: [{ path: data.NGN.reserve, reason: a field the sandbox does not keep }]\n') +
        entry('known', 1, `{ status: true, message: Balances retrieved successfully, data: { NGN: ${NGN}, USD: ${USD} } }`, '    known_difference: the message is still success\n') +
        entry('strict-order', 3, `{ status: true, message: success, data: { USD: ${USD}, NGN: ${NGN} } }`) +
        entry('strict-value', 3, `{ status: true, message: success, data: { NGN: { pending_balance: 5, available_balance: 5000000 }, USD: ${USD} } }`),
    })
    const board = await scoreCorpus(loadCorpus(dir, dir), target(), served, { concurrency: 2 })
    const result = Object.fromEntries(board.results.map((r) => [r.entry.id, r]))
    expect(result.exact.pass).toBe(true)
    expect(result.masked.pass).toBe(true)
    expect(result.masked.masked).toBe(1)
    expect(result.known.pass).toBe(false)
    expect(result['strict-order'].differences.map((d) => d.path)).toEqual(['data (key order)'])
    expect(result['strict-value'].differences.map((d) => d.path)).toEqual(['data.NGN.pending_balance'])
    expect(board.totals.tiers).toEqual({ 1: { pass: 2, fail: 1 }, 2: { pass: 0, fail: 0 }, 3: { pass: 0, fail: 2 } })
    expect(board.failing).toEqual([])
    expect(board.endpoints[0]).toMatchObject({ served: true, entries: 5, masks: 1, newest: '2025-02-28', live: 'never' })
  })

  it('fails the run on a tier-1 entry of a served endpoint with no known difference, and dates live validation by live entries', async () => {
    const dir = tempCorpus({ 'a.yaml': HEAD.replace('kind: docs', 'kind: live') + entry('wrong', 1, `{ status: true, message: Balances retrieved, data: { NGN: ${NGN}, USD: ${USD} } }`) })
    const board = await scoreCorpus(loadCorpus(dir, dir), target(), served, { concurrency: 1 })
    expect(board.failing.map((r) => r.entry.id)).toEqual(['wrong'])
    expect(board.endpoints[0].live).toBe('2025-02-28')
  })

  it('scores an entry of the live profile only when the live profile is scored', async () => {
    const dir = tempCorpus({ 'a.yaml': HEAD.replace('profile: [default]', 'profile: [live]') + entry('live-only', 1, '{ status: true }') })
    const board = await scoreCorpus(loadCorpus(dir, dir), target(), served, { concurrency: 1 })
    expect(board.results).toEqual([])
    expect(board.notScored.map((e) => e.id)).toEqual(['live-only'])
    const live = await scoreCorpus(loadCorpus(dir, dir), target(), served, { concurrency: 1, profile: 'live' })
    expect(live.results.map((r) => [r.entry.id, r.pass])).toEqual([['live-only', true]])
  })

  it('lists a superseded entry with the entry that outranks it, scores it in no profile, and refuses one naming no entry', async () => {
    const superseded = (by: string) => `    superseded_by: { entry: ${by}, reason: the live recording answers otherwise }\n`
    const dir = tempCorpus({ 'a.yaml': HEAD + entry('recorded', 1, '{ status: true }') + entry('older', 1, '{ status: false }', superseded('recorded')) })
    const board = await scoreCorpus(loadCorpus(dir, dir), target(), served, { concurrency: 1 })
    expect(board.results.map((r) => r.entry.id)).toEqual(['recorded'])
    expect(board.superseded.map((e) => [e.id, e.supersededBy])).toEqual([['older', { entry: 'recorded', reason: 'the live recording answers otherwise' }]])
    expect(board.totals.superseded).toBe(1)
    const bad = tempCorpus({ 'a.yaml': HEAD + entry('older', 1, '{ status: false }', superseded('nowhere')) })
    expect(() => loadCorpus(bad, bad)).toThrow(/older\.superseded_by\.entry: nowhere is not an entry of the corpus that is scored/)
  })
})

describe('an alias endpoint is scored by replaying its canonical endpoint\'s entries against it', () => {
  const PAGE = 'source: "https://developers.korapay.com/docs/managing-verifications"'
  const alias = (path: string, of: string, extra = '') => `  - { area: x, method: GET, path: ${path}, ${PAGE}, alias_of: { endpoint: "${of}", source: docs/api.md 4.4 writes the bare path${extra} } }\n`
  const verifications = `  - { area: identity, method: GET, path: /merchant/api/v1/identities/verifications/:reference, ${PAGE} }\n`
  const lookup = (id: string, path: string, body: string) => `  - id: ${id}
    endpoint: GET /merchant/api/v1/identities/verifications/:reference
    tier: 2
    vars: { v: VR-NOPE }
    steps:
      - request: { method: GET, path: /merchant/api/v1/balances }
        expect: { status: 200 }
      - request: { method: GET, path: "${path}" }
        expect: { status: 404, body: ${body} }
`
  const NOT_FOUND = '{ status: false, message: Verification not found }'
  const servedAll = () => true

  it('sends every call to the canonical path to the alias path instead (the same parts and query), a real request scored for the alias', async () => {
    const dir = tempCorpus(
      { 'a.yaml': HEAD.replace('kind: docs', 'kind: live') + lookup('found', '/merchant/api/v1/identities/verifications/${v}?x=1', NOT_FOUND) },
      verifications + alias('/api/v1/identities/verifications/:ref', 'GET /merchant/api/v1/identities/verifications/:reference'),
    )
    const corpus = loadCorpus(dir, dir)
    const replay = corpus.entries.find((e) => e.aliasOf)!
    expect(replay).toMatchObject({ id: 'found as GET /api/v1/identities/verifications/:ref', endpoint: 'GET /api/v1/identities/verifications/:ref', aliasOf: 'GET /merchant/api/v1/identities/verifications/:reference', tier: 2 })
    // the setup call to another endpoint is left as it is
    expect(replay.flow.steps.map((s) => s.request?.path)).toEqual(['/merchant/api/v1/balances', '/api/v1/identities/verifications/${v}?x=1'])
    const board = await scoreCorpus(corpus, target(), servedAll, { concurrency: 1 })
    expect(board.results.map((r) => [r.entry.id, r.pass])).toEqual([
      ['found', true],
      ['found as GET /api/v1/identities/verifications/:ref', true],
    ])
    // recorded live at the canonical path: that validates nothing of the alias's route live
    expect(board.endpoints.at(-2)).toMatchObject({ entries: 1, live: '2025-02-28' })
    expect(board.endpoints.at(-1)).toMatchObject({ entries: 1, tiers: { 2: { pass: 1, fail: 0 } }, live: 'never' })
    expect(board.totals.aliasReplays).toBe(1)
  })

  it('fails an alias the sandbox does not serve (as when its route is removed), though its canonical entry passes', async () => {
    const dir = tempCorpus(
      { 'a.yaml': HEAD + balances('') },
      alias('/api/v1/balances', 'GET /merchant/api/v1/balances'),
    )
    const board = await scoreCorpus(loadCorpus(dir, dir), target(), servedAll, { concurrency: 1 })
    expect(board.results.map((r) => [r.entry.id, r.pass])).toEqual([
      ['one', true],
      ['one as GET /api/v1/balances', false],
    ])
    expect(board.failing.map((r) => r.entry.id)).toEqual(['one as GET /api/v1/balances'])
  })

  it('gives every alias of the shipped corpus at least one replay', () => {
    const aliases = corpus.endpoints.filter((e) => e.alias_of)
    expect(aliases.length).toBeGreaterThan(30)
    const replayed = new Set(corpus.entries.filter((e) => e.aliasOf).map((e) => e.endpoint))
    expect(aliases.map((e) => `${e.method} ${e.path}`).filter((k) => !replayed.has(k))).toEqual([])
  })

  it('replays an alias under its own method where it differs (the KYC update by POST, the pages\' PATCH)', () => {
    const byPost = corpus.entries.filter((e) => e.endpoint === 'POST /merchant/api/v1/virtual-bank-account/account-holders/:reference/update-kyc')
    expect(byPost.length).toBeGreaterThan(0)
    for (const e of byPost) {
      const kyc = e.flow.steps.filter((s) => s.request?.path.endsWith('/update-kyc')).map((s) => s.request!.method)
      expect(kyc.length).toBeGreaterThan(0)
      expect(kyc.every((m) => m === 'POST')).toBe(true)
    }
  })

  it('replays only the entries it names, and refuses an alias of no listed endpoint or of an entry it does not have; one with nothing to replay has no entry', () => {
    const two = HEAD + lookup('first', '/merchant/api/v1/identities/verifications/${v}', NOT_FOUND) + lookup('second', '/merchant/api/v1/identities/verifications/${v}', NOT_FOUND)
    const of = 'GET /merchant/api/v1/identities/verifications/:reference'
    const named = tempCorpus({ 'a.yaml': two }, verifications + alias('/api/v1/identities/verifications/:ref', of, ', entries: [second]'))
    expect(loadCorpus(named, named).entries.filter((e) => e.aliasOf).map((e) => e.id)).toEqual(['second as GET /api/v1/identities/verifications/:ref'])
    const refused = (endpoints: string, files = { 'a.yaml': two }) => {
      const dir = tempCorpus(files, endpoints)
      try {
        loadCorpus(dir, dir)
      } catch (e) {
        expect(e).toBeInstanceOf(CorpusError)
        return (e as CorpusError).issues
      }
      throw new Error('not refused')
    }
    expect(refused(verifications + alias('/api/v1/x', 'GET /merchant/api/v1/nowhere'))).toEqual(['endpoints.3.alias_of.endpoint: GET /merchant/api/v1/nowhere is not a listed endpoint that is not itself an alias'])
    expect(refused(verifications + alias('/api/v1/x/:r', of, ', entries: [third]'))).toEqual([`endpoints.3.alias_of.entries: third: not a scored entry of ${of}`])
    const none = tempCorpus({ 'a.yaml': two }, verifications + alias('/api/v1/balances', 'GET /merchant/api/v1/balances'))
    expect(loadCorpus(none, none).entries.filter((e) => e.endpoint === 'GET /api/v1/balances')).toEqual([])
  })
})

describe('masks and the strict comparison', () => {
  it('a mask covers its path and what lies under it, `*` any one part', () => {
    expect(masks('data.reference', 'data.reference')).toBe(true)
    expect(masks('data.customer', 'data.customer.email')).toBe(true)
    expect(masks('data.transactions.*.reference', 'data.transactions.3.reference')).toBe(true)
    expect(masks('data.reference', 'data.references')).toBe(false)
    expect(masks('data.customer.email', 'data.customer')).toBe(false)
  })

  it('strict compares values and key order, and still a run-to-run value by its format only', () => {
    const expected = { status: true, message: 'ok', data: { reference: 'KPY-1', amount: '10.00', name: 'A' } }
    expect(compareShape(expected, { status: true, message: 'ok', data: { reference: 'KPY-2', amount: '10.00', name: 'A' } }, true, '', true)).toEqual([])
    expect(compareShape(expected, { status: true, message: 'ok', data: { amount: 10, reference: 'KPY-2', name: 'B' } }, true, '', true).map((d) => d.path)).toEqual([
      'data (key order)',
      'data.amount',
      'data.name',
    ])
    // not strict: the same answer differs only by the amount's type
    expect(compareShape(expected, { status: true, message: 'ok', data: { amount: 10, reference: 'KPY-2', name: 'B' } }, true).map((d) => d.path)).toEqual(['data.amount'])
  })
})

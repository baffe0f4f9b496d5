import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { validateFlow, type Step } from '../src/flow/flow.js'
import { startSandbox, type Sandbox } from '../src/index.js'
import { ABSENT, compareShape } from '../src/replay/shape.js'
import { notLive, verifyFlows } from '../src/replay/verify.js'
import { ENC_KEY } from './helpers/sandbox.js'

/** The comparison by shape and the live rule of `sandbox verify` (docs/behaviour.md#verify); the command itself is in test/e2e/verify.test.ts. */

describe('the comparison by shape', () => {
  const answer = {
    status: true,
    message: 'Charge retrieved successfully',
    data: {
      reference: 'flow-abc',
      transaction_reference: 'KPY-CA-1',
      status: 'success',
      currency: 'NGN',
      amount: '2500.00',
      message: 'Card charged successfully',
      created_at: '2026-01-01T10:00:00.000Z',
      checkout_url: 'http://127.0.0.1:4010/checkout/KPY-PI-1/pay',
      bank_account: { account_number: '0123456789' },
      payment_attempts: [{ channel: 'card', reference: 'KPY-CA-2' }],
    },
  }

  it('finds nothing between two runs of the same answer: references, dates, URLs and account numbers differ by value only', () => {
    const other = structuredClone(answer)
    Object.assign(other.data, { reference: 'flow-xyz', transaction_reference: 'KPY-CA-9', created_at: '2026-03-04 05:06:07', checkout_url: 'https://checkout.example/x', amount: '10.00', message: 'other words' })
    other.data.bank_account.account_number = '9876543210'
    other.data.payment_attempts.push({ channel: 'card', reference: 'KPY-CA-3' })
    expect(compareShape(answer, other, true)).toEqual([])
  })

  it('compares the envelope and the enumerated fields by value, the rest by presence, type and format', () => {
    const other = structuredClone(answer) as Record<string, any>
    other.message = 'Charge found'
    other.data.status = 'successful'
    other.data.currency = 'KES'
    other.data.amount = 2500
    other.data.created_at = 'yesterday'
    other.data.payment_attempts[0].channel = 'bank_transfer'
    delete other.data.bank_account.account_number
    other.data.extra = 1
    expect(compareShape(answer, other, true)).toEqual([
      { path: 'message', expected: 'Charge retrieved successfully', actual: 'Charge found' },
      { path: 'data.status', expected: 'success', actual: 'successful' },
      { path: 'data.currency', expected: 'NGN', actual: 'KES' },
      { path: 'data.amount', expected: '2500.00', actual: 2500 },
      { path: 'data.created_at', expected: 'a date ("2026-01-01T10:00:00.000Z")', actual: 'yesterday' },
      { path: 'data.bank_account.account_number', expected: '0123456789', actual: ABSENT },
      { path: 'data.payment_attempts.0.channel', expected: 'card', actual: 'bank_transfer' },
      { path: 'data.extra', expected: ABSENT, actual: 1 },
    ])
  })

  it('reports a field beyond the expectation only when it is a whole answer, and reads the flow matchers', () => {
    expect(compareShape({ data: { status: 'success' } }, answer, false)).toEqual([])
    expect(compareShape({ data: { status: 'success' } }, answer, true).map((m) => m.path)).toContain('data.currency')
    expect(compareShape({ data: { reference: '$any', checkout_url: { $regex: '/checkout/' }, fee: { $absent: true } } }, answer, false)).toEqual([])
    expect(compareShape({ data: { fee: '$any', status: { $absent: true } } }, answer, false)).toEqual([
      { path: 'data.fee', expected: 'any value', actual: ABSENT },
      { path: 'data.status', expected: ABSENT, actual: 'success' },
    ])
  })
})

describe('the steps the live check runs', () => {
  const flow = validateFlow(
    {
      name: 'live rule',
      steps: [
        { freeze: true },
        { request: { method: 'POST', path: '/merchant/api/v1/charges/card', body: {} } },
        { request: { method: 'GET', path: '/_sandbox/clock' } },
        { request: { method: 'GET', path: '/merchant/api/v1/charges/x' }, live: false },
        { request: { method: 'POST', path: '/_sandbox/3ds/x', body: 'decision=approve' } },
        { request: { method: 'GET', path: '/merchant/api/v1/charges/x' } },
        { request: { method: 'GET', path: '/merchant/api/v1/balances' }, live: true },
        { advance: 10 },
      ],
    },
    'inline.yaml',
  )
  it('skips what only a sandbox can take, what the flow marks live: false, and what follows a move of the sandbox unless marked live: true', () => {
    expect(flow.steps.map((_s: Step, i: number) => notLive(flow.steps, i))).toEqual([
      'only a sandbox can take it',
      undefined,
      'only a sandbox can take it',
      'the flow marks it live: false',
      'only a sandbox can take it',
      'it follows step 5, which only a sandbox can take',
      undefined,
      'only a sandbox can take it',
    ])
  })
})

describe('verifyFlows', () => {
  let sb: Sandbox
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, encryptionKey: ENC_KEY })
  })
  afterAll(() => sb.close())

  it('holds a recorded answer (whole) as it is, and does not run a step needing what a skipped one saves', async () => {
    const flow = validateFlow(
      {
        name: 'recorded',
        steps: [
          { request: { method: 'GET', path: '/merchant/api/v1/balances' }, expect: { status: 200, whole: true, body: { status: true, message: 'Balances retrieved successfully', data: { NGN: { available_balance: 0, pending_balance: 0, issuing_balance: 0 } }, live_only: 1 } } },
          { request: { method: 'POST', path: '/_sandbox/balances/fund', body: { currency: 'NGN', amount: 100 } }, save: { funded: 'data.reference' } },
          { request: { method: 'GET', path: '/merchant/api/v1/charges/${funded}' }, live: true },
        ],
      },
      'recorded.yaml',
    )
    const report = await verifyFlows([{ flow, file: 'recorded.yaml' }], { baseUrl: sb.url, encryptionKey: ENC_KEY, live: true, key: 'sk_test_verify_unit' }, { concurrency: 1 })
    expect(report.differences.map((d) => d.path)).toContain('live_only')
    expect(report.skipped.map((s) => s.reason)).toEqual(['only a sandbox can take it', 'it uses ${funded}, which a step not run would have saved'])
    expect(report.steps).toBe(1)
  })
})

import { describe, expect, it } from 'vitest'
import { cardPayload, ref, sandboxPerTest, SECRET } from './helpers/sandbox.js'
import type { CardCharge } from '../src/cards/index.js'
import { cardSummary } from '../src/pan.js'

/** A charge the probe would lend (docs/behaviour.md#webhook-probe), of the given references. */
function lent(payment: string, transaction: string, status: 'success' | 'failed' = 'success'): CardCharge {
  const at = new Date(0).toISOString()
  return {
    kind: 'card', operation: 'charge', transaction_reference: transaction, payment_reference: payment, amount: 100_000, currency: 'NGN', fee: 0, vat: 0, status,
    description: null, customer: null, metadata: null, response_message: 'Charge successful', failure_message: null, attempts: [], history: [],
    created_at: at, updated_at: at, completed_at: at, pending_steps: [], outcome: status, outcome_message: null,
    card: cardSummary('4084084084084081', 'visa', '12', '30'), auth_model: 'NO_AUTH', expect: {}, redirect_url: null, dynamic_descriptor: null, scenario_label: 'webhook probe',
  }
}

const sandbox = sandboxPerTest()

describe('the charge query answers the charges a webhook probe lends it (docs/behaviour.md#webhook-probe)', () => {
  it('by either reference while lent, 404 once given back, and no answer is kept past it', async () => {
    const sb = await sandbox({ frozen: true })
    const giveBack = sb.deps.chargeQuery.lend(SECRET, [lent('probe-a', 'KPY-PROBE-A', 'failed')])
    for (const r of ['probe-a', 'KPY-PROBE-A']) {
      const q = await sb.call('GET', `/merchant/api/v1/charges/${r}`)
      expect(q.status).toBe(200)
      expect(q.body.data).toMatchObject({ reference: 'probe-a', status: 'failed', amount: '1000.00' })
    }
    // the lists never see them
    expect((await sb.call('GET', '/merchant/api/v1/pay-ins')).body.data.payins).toEqual([])
    // another namespace does not see them
    expect((await sb.call('GET', '/merchant/api/v1/charges/probe-a', undefined, { key: 'sk_test_elsewhere' })).status).toBe(404)
    giveBack()
    // the clock frozen and nothing written: a kept answer would still be served
    expect((await sb.call('GET', '/merchant/api/v1/charges/probe-a')).status).toBe(404)
  })

  it('a stored charge of the same reference wins over a lent one', async () => {
    const sb = await sandbox()
    const reference = ref('stored')
    expect((await sb.charge(cardPayload('4084084084084081', { reference }))).status).toBe(200)
    const giveBack = sb.deps.chargeQuery.lend(SECRET, [lent(reference, 'KPY-PROBE-B', 'failed')])
    const q = await sb.call('GET', `/merchant/api/v1/charges/${reference}`)
    expect(q.body.data.transaction_reference).not.toBe('KPY-PROBE-B')
    giveBack()
  })
})

import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AREAS } from '../src/areas.js'
import { allOutcomes } from '../src/engine/outcomes.js'
import { catalogue, outcomeReport } from '../src/control/outcomes.js'
import { EVENT_NAMES } from '../src/webhooks/events.js'
import { gateFailures, reportJunit, reportMarkdown, stoppedCovering, type OutcomeReport } from '../src/control/report-format.js'
import { cardPayload, fieldMessages, sandboxPerTest, SECRET } from './helpers/sandbox.js'

const sandbox = sandboxPerTest()

describe('the outcome catalogue (docs/behaviour.md#readiness-report)', () => {
  it("lists each area's outcomes from its declaration and the packs, and every webhook event", async () => {
    const sb = await sandbox()
    const ids = catalogue(sb.deps.areas, sb.deps.scenarios.baseView).map((o) => o.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ['card.otp', 'card.3ds', 'card.failed.card-could-not-be-charged-due-to-insufficient-funds', 'mobile-money.stk-prompt', 'mobile-money.redirect', 'bank-transfer.underpaid', 'bank-transfer.overpaid', 'bank-transfer.expired', 'transfer.failed', 'transfer.failed.dormant-account', 'transfer.invalid', 'checkout.cancelled', 'checkout.paid.pay-with-bank', 'refund.failed', 'chargeback.lost', 'direct-debit.failed.insufficient-funds', 'pay-with-bank.failed.payment-declined-by-the-bank', 'voucher.failed.the-voucher-has-already-been-used', 'webhook.charge.success', 'webhook.charge.failed', 'webhook.chargeback.lost', 'card.failed.3ds-authentication-was-declined-by-the-cardholder', 'pay-with-bank.failed.payment-was-declined-by-the-customer-at-the-bank', 'identity.ng-bvn.found', 'identity.ng-bvn.not-found', 'conversion.rate-not-found', 'chargeback.pending']) {
      expect(ids).toContain(id)
    }
  })

  it("a pack's new test value brings its outcome: unmet, then met by the charge that meets it", async () => {
    const sb = await sandbox()
    const before = await sb.call('GET', '/_sandbox/report')
    expect(before.body.data.outcomes.map((o: any) => o.id)).not.toContain('card.failed.card-expired-at-the-issuer')
    await sb.call('POST', '/_sandbox/scenarios', { cards: [{ number: '4084080000990000', scheme: 'visa', cvv: '123', expiry_month: '09', expiry_year: '30', steps: [], outcome: 'failed', message: 'Card expired at the issuer', label: 'fails: expired at the issuer' }] })
    const added = await sb.call('GET', '/_sandbox/report')
    expect(added.body.data.outcomes.find((o: any) => o.id === 'card.failed.card-expired-at-the-issuer')).toEqual({ id: 'card.failed.card-expired-at-the-issuer', area: 'cards', label: 'failed: Card expired at the issuer', met: false, reference: null })
    const payload = cardPayload('4084080000990000')
    await sb.charge(payload)
    const after = await sb.call('GET', '/_sandbox/report')
    expect(after.body.data.outcomes.find((o: any) => o.id === 'card.failed.card-expired-at-the-issuer')).toMatchObject({ met: true, reference: payload.reference })
    expect(after.body.data.outcomes.find((o: any) => o.id === 'card.failed')).toMatchObject({ met: true, reference: payload.reference })
    expect(after.body.data.areas.find((a: any) => a.area === 'cards').met).toBe(2)
  })

  it('covers pool accounts, stablecoin wallets and accounts in other currencies, each met by the call that makes it', async () => {
    const sb = await sandbox()
    const met = async () => new Map<string, string | null>((await sb.call('GET', '/_sandbox/report')).body.data.outcomes.map((o: any) => [o.id, o.reference]))
    const before = await met()
    for (const id of ['pool-account.created.kes', 'pool-account.credited.kes', 'pool-account.duplicate-customer', 'stablecoin.wallet.trx', 'virtual-account.opened.kes', 'virtual-account.credited.kes', 'virtual-account.holder.pending']) expect(before.get(id), id).toBeNull()
    const pool = (await sb.call('POST', '/merchant/api/v1/pool-accounts', { customer_name: 'Don Alpha', customer_email: 'don@example.com', currency: 'KES' })).body.data.reference
    const credited = await sb.call('POST', '/merchant/api/v1/pool-accounts/sandbox/credit', { reference: pool, amount: 200, currency: 'KES' })
    expect(credited.status).toBe(200)
    // the bare path the collection writes is refused the same way
    expect((await sb.call('POST', '/api/v1/pool-accounts', { customer_name: 'Don Alpha', customer_email: 'don@example.com', currency: 'KES' })).status).toBe(409)
    await sb.call('POST', '/merchant/api/v1/crypto/wallets', { reference: 'wallet-trx-1', currency: 'USDT', network: 'TRX', customer: { name: 'Rhianna Russel', email: 'buyer@example.com' } })
    await sb.call('POST', '/merchant/api/v1/virtual-bank-account', { account_name: 'Steph James', account_reference: 'kes-1', permanent: true, currency: 'KES', customer: { name: 'John Doe' } })
    const kes = (await sb.call('GET', '/merchant/api/v1/virtual-bank-account/kes-1')).body.data.account_number
    expect((await sb.call('POST', '/merchant/api/v1/virtual-bank-account/sandbox/credit', { account_number: kes, amount: 50, currency: 'KES' })).status).toBe(200)
    const after = await met()
    expect(after.get('pool-account.created.kes')).toBe(pool)
    expect(after.get('pool-account.credited.kes')).toEqual(expect.any(String))
    expect(after.get('pool-account.duplicate-customer')).toMatch(/^journal /)
    expect(after.get('pool-account.created.ghs')).toBeNull()
    expect(after.get('stablecoin.wallet.trx')).toBe('wallet-trx-1')
    expect(after.get('stablecoin.wallet.sol')).toBeNull()
    expect(after.get('virtual-account.opened.kes')).toBe('kes-1')
    expect(after.get('virtual-account.credited.kes')).toEqual(expect.any(String))
    expect(after.get('virtual-account.holder.pending')).toBeNull()
  })

  it('every event the sandbox sends is one of EVENT_NAMES, each sent somewhere and each an outcome of the catalogue', async () => {
    const sb = await sandbox()
    const ids = catalogue(sb.deps.areas, sb.deps.scenarios.baseView).map((o) => o.id)
    for (const e of EVENT_NAMES) expect(ids, e).toContain(`webhook.${e}`)
    expect(sentEvents()).toEqual([...EVENT_NAMES].sort())
  })

  it('has one home per area: every area that keeps records declares its outcomes, and the report names none by hand', async () => {
    const sb = await sandbox()
    for (const a of AREAS) if ('collections' in a && a.collections?.length) expect(a.outcomes, a.key).toBeDefined()
    const ids = catalogue(sb.deps.areas, sb.deps.scenarios.baseView).map((o) => o.id)
    const report = ['src/report-cli.ts', ...sources('src/control')].map((f) => readFileSync(f, 'utf8')).join('\n')
    for (const id of ids) expect(report, id).not.toMatch(new RegExp(`['"\`]${id.replace(/\./g, '\\.')}['"\`]`))
  })

  it("an outcome an area adds to its declaration is in the report, met as the area says, with no other edit", async () => {
    const sb = await sandbox()
    const deposit = { list: () => [{ id: 'stablecoin.deposit', label: 'a deposit received' }], *met() { yield ['stablecoin.deposit', 'deposit-1'] as const } }
    const areas = sb.deps.areas.map((a) => (a.key === 'stablecoins' ? { ...a, outcomes: allOutcomes(a.outcomes!, deposit) } : a))
    const r = outcomeReport({ ...sb.deps, areas }, [SECRET], 'namespace')
    expect(r.outcomes.find((o) => o.id === 'stablecoin.deposit')).toEqual({ id: 'stablecoin.deposit', area: 'stablecoins', label: 'a deposit received', met: true, reference: 'deposit-1' })
    expect(r.areas.find((a) => a.area === 'stablecoins')).toEqual({ area: 'stablecoins', met: 1, total: 4, percent: 25 })
    expect(r.total).toBe(catalogue(sb.deps.areas, sb.deps.scenarios.baseView).length + 1)
  })

  it('is per namespace; scope=all counts every namespace', async () => {
    const sb = await sandbox()
    const payload = cardPayload('4084127883172787')
    await sb.charge(payload, { key: 'sk_test_outcomes_other' })
    const mine = await sb.call('GET', '/_sandbox/report')
    expect(mine.body.data.outcomes.find((o: any) => o.id === 'card.success').met).toBe(false)
    const all = await sb.call('GET', '/_sandbox/report?scope=all')
    expect(all.body.data).toMatchObject({ scope: 'all' })
    expect(all.body.data.outcomes.find((o: any) => o.id === 'card.success')).toMatchObject({ met: true, reference: payload.reference })
  })

  it("the dashboard's panel shows each area's share, the outcomes not met yet and the receiver's answers", async () => {
    const sb = await sandbox()
    await sb.charge(cardPayload('4084127883172787'))
    const panel = String((await sb.call('GET', `/_sandbox/ui/fragment?ns=${SECRET}`, undefined, { key: null })).body).split('id="h-report"')[1].split('</section>')[0]
    const total = catalogue(sb.deps.areas, sb.deps.scenarios.baseView).length
    expect(panel).toContain(`1 of ${total} outcomes met`)
    expect(panel).toMatch(/<tr data-area="cards"><td>cards<\/td><td>1\/\d+ \([\d.]+%\)<\/td><td class="wrap mono small">card.pin, /)
    expect(panel).toContain('<tr data-event-type="charge.success"><td>charge.success</td><td>0</td><td>0</td><td>0</td><td>1</td></tr>')
  })

  it('refuses a scope it does not know with the validation envelope', async () => {
    const sb = await sandbox()
    const res = await sb.call('GET', '/_sandbox/report?scope=some')
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject({ status: false, error: 'validation_error', data: fieldMessages({ scope: expect.any(String) }) })
  })
})

const report: OutcomeReport = {
  scope: 'namespace',
  met: 1,
  total: 3,
  percent: 33.3,
  areas: [
    { area: 'cards', met: 1, total: 2, percent: 50 },
    { area: 'webhooks', met: 0, total: 1, percent: 0 },
  ],
  outcomes: [
    { id: 'card.otp', area: 'cards', label: 'asked for OTP', met: true, reference: 'ref-1' },
    { id: 'card.3ds', area: 'cards', label: 'asked for 3DS', met: false, reference: null },
    { id: 'webhook.charge.failed', area: 'webhooks', label: 'the receiver answered a charge.failed event 2xx', met: false, reference: null },
  ],
  webhooks: [],
}

describe('the gate and the formats', () => {
  it('names each required outcome unmet or unknown, and each area under the share', () => {
    expect(gateFailures(report, { require: ['card.otp'] })).toEqual([])
    expect(gateFailures(report, { require: ['card.otp', 'card.3ds', 'card.nope'] })).toEqual(['card.3ds: not met (asked for 3DS)', 'card.nope: no such outcome in the catalogue'])
    expect(gateFailures(report, { min: 50 })).toEqual(['webhooks: 0% of 1 outcomes met, under 50%'])
    expect(gateFailures(report, { min: 0 })).toEqual([])
  })

  it('writes one JUnit test case per outcome, unmet skipped or failed', () => {
    const skip = reportJunit(report, 'skip')
    expect(skip.match(/<testcase /g)).toHaveLength(3)
    expect(skip.match(/<skipped /g)).toHaveLength(2)
    expect(skip).not.toContain('<failure')
    expect(reportJunit(report, 'fail').match(/<failure /g)).toHaveLength(2)
  })

  it("lists in Markdown what the gate misses and what a former report met that this one does not", () => {
    const former = { ...report, outcomes: report.outcomes.map((o) => ({ ...o, met: true, reference: 'old' })) }
    const lost = stoppedCovering(report, former)
    expect(lost.map((o) => o.id)).toEqual(['card.3ds', 'webhook.charge.failed'])
    const md = reportMarkdown(report, lost, ['card.3ds: not met (asked for 3DS)'])
    expect(md).toContain('### Gate failed')
    expect(md).toContain('- card.3ds: not met (asked for 3DS)')
    expect(md).toContain('### No longer met')
    expect(md).toContain('| cards | 1 | 2 | 50% |')
  })
})

/** The .ts files under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f))
}

/**
 * The event names src/ sends, read from its code: each `events.record(ns, EVENT, ...)`, where EVENT
 * is written as its names (a literal, a choice between two) or is a name the same file gives them,
 * a `const` or the parameter of a method whose calls write them. The webhook probe's deliveries
 * (src/control/probe.ts) are the probe's, not the sandbox's events.
 */
function sentEvents(): string[] {
  const names = new Set<string>()
  const literals = (text: string) => [...text.matchAll(/'([a-z_]+\.[a-z_]+)'/g)].map((m) => m[1])
  for (const file of sources('src').filter((f) => !f.endsWith(join('control', 'probe.ts')))) {
    const text = readFileSync(file, 'utf8')
    for (const [, arg] of text.matchAll(/events\.record\(\s*ns,\s*([^,]+?),/g)) {
      if (!/^\w+$/.test(arg)) {
        literals(arg).forEach((n) => names.add(n))
        continue
      }
      const constant = text.match(new RegExp(`const ${arg} = ([^\n]+)`))
      if (constant) {
        literals(constant[1]).forEach((n) => names.add(n))
        continue
      }
      const method = text.match(new RegExp(`(#?\\w+)\\(ns: string, ${arg}: EventName`))
      expect(method, `${file}: where ${arg} comes from`).not.toBeNull()
      for (const [, call] of text.matchAll(new RegExp(`\\.${method![1]}\\(ns,\\s*([^,]+?),`, 'g'))) literals(call).forEach((n) => names.add(n))
    }
  }
  return [...names].sort()
}

import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, tempFile } from '../helpers/sandbox.js'
import { api, killedAfterEach, runCli, startCli } from './process.js'

/**
 * `sandbox report` (docs/behaviour.md#readiness-report) through the real CLI against a running sandbox: the
 * shipped flows run by `sandbox replay`, then the report, its formats and its gate.
 */
const { running } = killedAfterEach()

/** A pack file with one test card the default pack has no outcome for. */
function packFile(): string {
  const file = tempFile('expired-card.yaml')
  writeFileSync(file, `cards:\n  - { number: "4084080000990000", scheme: visa, cvv: "123", expiry_month: "09", expiry_year: "30", steps: [], outcome: failed, message: "Card expired at the issuer", label: "fails: expired at the issuer" }\n`)
  return file
}

const NEW = 'card.failed.card-expired-at-the-issuer'

const report = async (url: string, ...args: string[]) => runCli(['report', '--base-url', url, '--key', SECRET, ...args])

describe('sandbox report (docs/behaviour.md#readiness-report)', () => {
  it('after the shipped flows: what they meet is met, the rest unmet; the gate fails and passes as documented', async () => {
    const sb = await startCli([])
    running.push(sb)
    const replay = await runCli(['replay', 'scenarios/flows', '--base-url', sb.url])
    expect(replay.code, replay.stdout + replay.stderr).toBe(0)

    const json = await report(sb.url, '--all', '--format', 'json')
    expect(json.code, json.stderr).toBe(0)
    const r = JSON.parse(json.stdout)
    const met = new Set(r.outcomes.filter((o: any) => o.met).map((o: any) => o.id))
    // each named by a flow that meets it: card-pin-otp, card-3ds, card-verve-enrol, card-failures,
    // bank-transfer, checkout-*, refunds, payout-currencies, chargeback, mobile money, pay with bank,
    // direct debit (its debits and its mandate's moves), webhooks-retry, preauth-*, virtual-account
    for (const id of ['card.success', 'card.pin', 'card.otp', 'card.3ds', 'card.avs', 'card.card-enroll', 'card.failed.card-could-not-be-charged-due-to-insufficient-funds', 'bank-transfer.exact', 'bank-transfer.underpaid', 'bank-transfer.expired', 'checkout.paid.card', 'checkout.paid.mobile-money', 'checkout.paid.bank-transfer', 'checkout.cancelled', 'checkout.expired', 'refund.success', 'refund.failed', 'transfer.success', 'transfer.failed', 'chargeback.lost', 'mobile-money.stk-prompt', 'mobile-money.otp', 'pay-with-bank.success', 'direct-debit.failed.insufficient-funds', 'webhook.charge.success', 'webhook.charge.failed', 'webhook.transfer.failed', 'card.failed.3ds-authentication-was-declined-by-the-cardholder', 'identity.ng-bvn.found', 'identity.gh-passport.found', 'chargeback.pending', 'chargeback.partial', 'card.preauth.authorized', 'card.preauth.partially-captured', 'card.preauth.captured', 'card.preauth.capture-voided', 'card.preauth.refunded', 'card.preauth.voided', 'card.preauth.expired', 'card.preauth.zero-auth', 'virtual-account.opened.ngn', 'virtual-account.credited.ngn', 'refund.processing', 'refund.partial', 'direct-debit.mandate.pending', 'direct-debit.mandate.active', 'direct-debit.mandate.suspended', 'direct-debit.mandate.deactivated']) {
      expect(met, id).toContain(id)
    }
    // no shipped flow pays a voucher, overpays a transfer, fails a payout as dormant, makes a pool
    // account or a stablecoin wallet, or opens a USD account
    for (const id of ['voucher.success', 'bank-transfer.overpaid', 'transfer.failed.dormant-account', 'checkout.paid.pay-with-bank', 'pool-account.created.kes', 'stablecoin.wallet.sol', 'virtual-account.opened.usd']) expect(met, id).not.toContain(id)
    expect(r.met).toBe(met.size)
    expect(r.total).toBe(r.outcomes.length)
    for (const o of r.outcomes) expect(o.met ? typeof o.reference : o.reference, o.id).toBe(o.met ? 'string' : null)
    const hooks = Object.fromEntries(r.webhooks.map((w: any) => [w.event, w]))
    // webhooks-retry.yaml: a receiver that fails twice, then answers
    expect(hooks['charge.success'].after_retries).toBeGreaterThan(0)

    const text = await report(sb.url, '--all')
    expect(text.stdout).toMatch(/^Outcomes met: \d+ of \d+ \([\d.]+%\), every namespace/)
    expect(text.stdout).toMatch(/\n {2}met {3}card\.otp {2}\(/)
    expect(text.stdout).toContain('\n  unmet voucher.success  success')

    const passes = await report(sb.url, '--all', '--require', 'card.otp,transfer.failed,webhook.charge.failed', '--min', '0')
    expect(passes.code, passes.stderr).toBe(0)
    const missing = await report(sb.url, '--all', '--require', 'card.otp,voucher.success,card.nope')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe('sandbox: the gate failed:\n  voucher.success: not met (success)\n  card.nope: no such outcome in the catalogue\n')
    const short = await report(sb.url, '--all', '--min', '50')
    expect(short.code).toBe(1)
    expect(short.stderr).toContain('  voucher: 0% of 3 outcomes met, under 50%\n')
    expect(short.stderr).not.toContain('refunds:')
    // the key's own namespace: the flows ran in namespaces of their own
    const mine = await report(sb.url, '--min', '1', '--format', 'json')
    expect(mine.code).toBe(1)
    expect(JSON.parse(mine.stdout).met).toBe(0)

    const junit = await report(sb.url, '--all', '--format', 'junit', '--unmet', 'fail')
    expect(junit.stdout.match(/<testcase /g)).toHaveLength(r.total)
    expect(junit.stdout.match(/<failure /g)).toHaveLength(r.total - r.met)
    const skipped = await report(sb.url, '--all', '--format', 'junit')
    expect(skipped.stdout.match(/<skipped /g)).toHaveLength(r.total - r.met)
    const md = await report(sb.url, '--all', '--format', 'markdown', '--require', 'voucher.success')
    expect(md.code).toBe(1)
    expect(md.stdout).toContain('## Can I go live? Outcomes met')
    expect(md.stdout).toContain('### Gate failed\n\n- voucher.success: not met (success)')
    expect(md.stdout).toContain('| `card.otp` | yes |')

    const bad = await report(sb.url, '--format', 'xml')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('sandbox: --format must be one of text, json, markdown, junit\n')
    // a mistake of use exits 2 before any call; a sandbox it cannot reach, 1
    for (const [args, message] of [[['--min', '150'], '--min must be a percentage from 0 to 100'], [['--min', 'half'], '--min must be a percentage from 0 to 100'], [['--unmet', 'maybe'], '--unmet must be skip or fail']] as const) {
      const wrong = await runCli(['report', '--base-url', 'http://127.0.0.1:1', '--key', SECRET, ...args])
      expect([wrong.code, wrong.stderr], args.join(' ')).toEqual([2, `sandbox: ${message}\n`])
    }
    const away = await runCli(['report', '--base-url', 'http://127.0.0.1:1', '--key', SECRET])
    expect(away.code).toBe(1)
    expect(away.stderr).toMatch(/^sandbox: cannot reach http:\/\/127\.0\.0\.1:1: /)
  }, 60_000)

  it("a pack file's new test value appears in the catalogue, unmet until a charge meets it", async () => {
    const plain = await startCli([])
    running.push(plain)
    const without = JSON.parse((await report(plain.url, '--format', 'json')).stdout)
    expect(without.outcomes.map((o: any) => o.id)).not.toContain(NEW)

    const sb = await startCli(['--scenarios', packFile()])
    running.push(sb)
    const listed = await report(sb.url, '--require', NEW)
    expect(listed.code).toBe(1)
    expect(listed.stdout).toContain(`\n  unmet ${NEW}  failed: Card expired at the issuer\n`)
    expect(listed.stderr).toContain(`  ${NEW}: not met (failed: Card expired at the issuer)\n`)

    const payload = cardPayload('4084080000990000')
    const charged = await api(sb.url, SECRET, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(payload, ENC_KEY) })
    expect(charged.body.data.status).toBe('failed')
    // a payout to the invalid test account is refused at once: met as the journal shows it
    await api(sb.url, SECRET, 'POST', '/_sandbox/balances/fund', { currency: 'NGN', amount: 100000 })
    const invalid = await api(sb.url, SECRET, 'POST', '/merchant/api/v1/transactions/disburse', { reference: 'payout-invalid-1', destination: { type: 'bank_account', amount: 5000, currency: 'NGN', narration: 'x', bank_account: { bank: '011', account: '9999999999' }, customer: { email: 'a@b.co' } } })
    expect(invalid.body.message).toBe('Invalid account.')
    const met = await report(sb.url, '--require', `${NEW},transfer.invalid`, '--format', 'json')
    expect(met.code, met.stderr).toBe(0)
    const outcomes = JSON.parse(met.stdout).outcomes
    expect(outcomes.find((o: any) => o.id === NEW)).toEqual({ id: NEW, area: 'cards', label: 'failed: Card expired at the issuer', met: true, reference: payload.reference })
    expect(outcomes.find((o: any) => o.id === 'transfer.invalid')).toMatchObject({ met: true, reference: 'payout-invalid-1' })

    // --since: what a former JSON report met that this run did not
    const former = tempFile('former.json')
    writeFileSync(former, met.stdout)
    await api(sb.url, SECRET, 'POST', '/_sandbox/reset')
    await api(sb.url, SECRET, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(cardPayload('4084080000990000'), ENC_KEY) })
    const since = await report(sb.url, '--since', former)
    expect(since.code, since.stderr).toBe(0)
    expect(since.stdout).toContain('\nNo longer met (met in the former report)\n  transfer.invalid  invalid\n')
    expect(since.stdout).not.toMatch(/No longer met[^]*card\.failed\.card-expired/)
    const sinceJson = JSON.parse((await report(sb.url, '--since', former, '--format', 'json')).stdout)
    expect(sinceJson.no_longer_met.map((o: any) => o.id)).toEqual(['transfer.invalid'])
    const sinceMd = await report(sb.url, '--since', former, '--format', 'markdown')
    expect(sinceMd.stdout).toContain('### No longer met\n\n- `transfer.invalid` invalid\n')
    const notReport = tempFile('not-a-report.json')
    writeFileSync(notReport, '{"journal": []}')
    const refused = await report(sb.url, '--since', notReport)
    expect([refused.code, refused.stderr]).toEqual([2, `sandbox: ${notReport} is not a JSON report of sandbox report --format json\n`])
  }, 30_000)
})

import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { KNOWN_DIFFERENCES, startStandIn } from '../helpers/stand-in.js'
import { killedAfterEach, runCli } from './process.js'
import { KORAPAY, run, startReachCli } from './reach.js'

/**
 * Issue 37 end to end: a session recorded through the proxy from a stand-in for the live service
 * (docs/behaviour.md#record), then `sandbox verify` of that recording against a fresh sandbox
 * (docs/behaviour.md#verify). The stand-in answers as the sandbox does but for its known differences, so the report
 * must hold those of them the session touched, each explained, and nothing else.
 */

const { running, cleanups } = killedAfterEach()

interface JsonReport {
  flows: number
  steps: number
  skipped: unknown[]
  differences: { flow: string; step: string; path: string; expected: unknown; got: unknown }[]
}

describe('a recorded session verified against the sandbox', () => {
  it('reports exactly the stand-in known differences the session met', async () => {
    const standIn = await startStandIn()
    cleanups.push(() => standIn.close())
    const file = join(mkdtempSync(join(tmpdir(), 'paysandbox-record-verify-')), 'session.yaml')
    const sb = await startReachCli(['--record', file, '--upstream', standIn.url], { NODE_EXTRA_CA_CERTS: standIn.caPath, KORAPAY_ENCRYPTION_KEY: standIn.keys.encryptionKey })
    running.push(sb)

    /** curl through the proxy to the hard-coded service, with the account's own test key */
    const call = async (method: string, path: string, body?: unknown) => {
      const args = ['-sS', '-o', '-', '-w', '\n%{http_code}', '--proxy', sb.proxyUrl, '--cacert', sb.caPath, '-X', method, '-H', `authorization: Bearer ${standIn.keys.secretKey}`, '-H', 'content-type: application/json']
      if (body !== undefined) args.push('--data-binary', '@-')
      const r = await run('curl', [...args, `${KORAPAY}${path}`], {}, body === undefined ? undefined : JSON.stringify(body))
      const at = r.stdout.lastIndexOf('\n')
      return { status: Number(r.stdout.slice(at + 1)), body: JSON.parse(r.stdout.slice(0, at)) as { status: boolean; message: string; data: Record<string, unknown> } }
    }
    const customer = { name: 'Ada Obi', email: 'ada@example.com' }
    const card = await call('POST', '/charges/card', {
      charge_data: encryptChargeData({ reference: 'rec-verify-card-01', amount: 2500, currency: 'NGN', customer, card: { number: '4084127883172787', cvv: '123', expiry_month: '09', expiry_year: '30' } }, standIn.keys.encryptionKey),
    })
    // the client gets the stand-in's answer: its renamed field
    expect(card.status).toBe(200)
    expect(card.body.data.authorization_model).toBe('NO_AUTH')
    expect(card.body.data.auth_model).toBeUndefined()
    expect((await call('GET', '/charges/rec-verify-card-01')).body.data.amount).toBe(2500)
    const transfer = await call('POST', '/charges/bank-transfer', { reference: 'rec-verify-bt-0001', amount: 5000, currency: 'NGN', customer })
    expect(transfer.body.data.status).toBe('awaiting_payment')
    expect((await call('POST', '/charges/card/authorize', { transaction_reference: 'KPY-CA-NOSUCHTX0001', authorization: { pin: '1234' } })).status).toBe(400)
    const mm = await call('POST', '/charges/mobile-money', { reference: 'rec-verify-mm-00001', amount: 100, currency: 'KES', customer, mobile_money: { number: '254700000000' } })
    expect(mm.body.data.provider).toBe('mpesa')
    sb.child.kill('SIGTERM')
    await sb.exited

    const started = Date.now()
    const r = await runCli(['verify', file, '--format', 'json'])
    const ms = Date.now() - started
    expect(r.stderr).toBe('')
    expect(r.code).toBe(1)
    const report = JSON.parse(r.stdout) as JsonReport
    expect(report.flows).toBe(1)
    expect(report.steps).toBe(5)
    // the recording is the expectation and the sandbox the target here: each difference is a
    // known one seen from the other side
    const mirrored = (d: JsonReport['differences'][number]) => ({ path: d.path, expected: d.got, got: d.expected })
    const unexplained = report.differences.filter((d) => !KNOWN_DIFFERENCES.some((k) => k.explains(mirrored(d))))
    expect(unexplained).toEqual([])
    const met = KNOWN_DIFFERENCES.filter((k) => report.differences.some((d) => k.explains(mirrored(d)))).map((k) => k.what)
    expect(met).toEqual(KNOWN_DIFFERENCES.filter((k) => !k.what.includes('OTP')).map((k) => k.what))
    const text = await runCli(['verify', file])
    console.log(`sandbox verify of a recorded session of 5 calls (${ms} ms):\n${text.stdout}`)
  })
})

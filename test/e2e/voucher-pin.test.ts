import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SECRET, ref, tempFile } from '../helpers/sandbox.js'
import { caller, cliWithReceiver } from './caller.js'
import { killedAfterEach, startCli } from './process.js'

/**
 * docs/behaviour.md#request-journal and docs/behaviour.md#vouchers: a PIN is never stored, journaled, recorded or snapshotted. A
 * voucher is charged through the real CLI with `--data`, and PINs in other spellings ride in its
 * metadata (`PIN`, `voucher-pin`, `pinCode`, `Card-PIN`): the store's rule (src/store/secrets.ts)
 * masks them whatever area writes them. Every read, the snapshot, the journal, the flow export,
 * the events, the dashboard and the bytes of the data file are searched for each PIN (the flow
 * export holds the pack's test voucher it puts back, and none of the others); the
 * voucher is still refused as used after a restart on the same file (the store keeps a digest).
 */

const undo = killedAfterEach()
const PATH = '/merchant/api/v1/charge/voucher'
const PIN = '1168648096792943'
/** PINs in other spellings, each a value no other field holds */
const OTHER: Record<string, string> = { PIN: '7391046682', 'voucher-pin': '5820417736', pinCode: '6604918273', 'Card-PIN': '9048172635' }
const body = (reference: string, pin = PIN) => ({
  amount: 100, currency: 'ZAR', reference, voucher: { pin, phone_number: '+270576847568', provider_code: '0001' },
  customer: { email: 'johndoe@example.com', name: 'John Doe' }, metadata: OTHER,
})

describe('a voucher PIN is kept nowhere', () => {
  it('is in no read, snapshot, journal, flow, event, dashboard or data file; a used voucher stays used after a restart', async () => {
    const data = tempFile()
    const { cli, call, rx } = await cliWithReceiver(undo, ['--data', data])
    const reference = ref('pin')
    const res = await call('POST', PATH, { ...body(reference), notification_url: rx.url })
    expect(res.status).toBe(200)
    // the answer echoes the PIN sent, as the sample does: it is the caller's own
    expect(res.body.data.voucher.pin).toBe(PIN)
    await rx.waitFor(1)

    const seen: Record<string, string> = {}
    for (const [label, path] of [
      ['charge query', `/merchant/api/v1/charges/${reference}`],
      ['pay-ins', '/merchant/api/v1/pay-ins'],
      ['transactions', '/merchant/api/v1/transactions'],
      ['snapshot', '/_sandbox/snapshot'],
      ['journal', '/_sandbox/requests'],
      ['flow', '/_sandbox/requests?format=flow'],
      ['events', '/_sandbox/events'],
    ]) seen[label] = JSON.stringify((await call('GET', path)).body)
    seen.dashboard = await (await fetch(`${cli.url}/_sandbox/ui?ns=${SECRET}`)).text()
    seen.webhook = JSON.stringify(rx.received)
    seen['data file'] = readFileSync(data, 'utf8')
    for (const pin of [PIN, ...Object.values(OTHER)]) {
      // an exported flow puts back the pack's own test voucher, a published test value, as it puts back test cards
      const kept = Object.keys(seen).filter((where) => seen[where].includes(pin))
      expect(kept, pin).toEqual(pin === PIN ? ['flow'] : [])
    }
    // what the metadata held under those names is there, masked
    for (const where of ['snapshot', 'data file']) expect(seen[where], where).toContain('"voucher-pin":"********"')

    // the same file after a restart: the voucher is known as used, by its digest
    undo.running.pop()!.child.kill('SIGKILL')
    const again = await startCli(['--data', data])
    undo.running.push(again)
    const call2 = caller(again.url)
    expect(await call2('POST', PATH, body(ref('pin')))).toEqual({ status: 400, body: { status: false, message: 'The voucher has already been used', data: null } })
    expect((await call2('POST', PATH, body(ref('pin'), '1000000000000100'))).status).toBe(200)
    expect(readFileSync(data, 'utf8')).not.toContain('1000000000000100')
  })
})

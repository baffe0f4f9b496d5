import { writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ConfigError, resolveConfig } from '../src/config.js'
import { verifyWebhookSignature } from '../src/webhooks/signature.js'
import { cardPayload, makeSandbox, tempFile, type TestSandbox } from './helpers.js'
import { startReceiver } from './receiver.js'

const cleanups: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

function merchantsFile(text: string, name = 'merchants.yaml'): string {
  const file = tempFile(name)
  writeFileSync(file, text)
  return file
}

describe('a merchants file (docs/behaviour.md 1)', () => {
  it("gives each key its own encryption key and webhook URL, used end to end", async () => {
    const rx = await startReceiver()
    cleanups.push(() => rx.close())
    const file = merchantsFile(`merchants:\n  - secret_key: sk_test_shop_a\n    encryption_key: shop-a-encryption-key-0123456789\n    name: Shop A\n    webhook_url: ${rx.url}\n  - secret_key: sk_test_shop_b\n`)
    const sb: TestSandbox = await makeSandbox({ merchants: file })
    cleanups.push(() => sb.close())
    const p = cardPayload('4084127883172787')
    const res = await sb.call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(p, 'shop-a-encryption-key-0123456789') }, { key: 'sk_test_shop_a' })
    expect(res.body.data.status).toBe('success')
    // the default key cannot decrypt Shop A's payloads: each merchant has its own key
    const wrongKey = await sb.call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(cardPayload('4084127883172787'), 'sandbox-encryption-key-012345678') }, { key: 'sk_test_shop_a' })
    expect(wrongKey.body.message).toBe('Unable to decrypt charge data, please check encryption and try again')
    await rx.waitFor(1)
    expect(rx.received[0].body).toMatchObject({ event: 'charge.success', data: { payment_reference: p.reference } })
    expect(verifyWebhookSignature(rx.received[0].raw, rx.received[0].headers['x-korapay-signature'] as string, 'sk_test_shop_a')).toBe(true)
    // Shop B has no webhook URL: its events are recorded with no target
    const pb = cardPayload('4084127883172787')
    await sb.call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(pb, 'sandbox-encryption-key-012345678') }, { key: 'sk_test_shop_b' })
    const ev = await sb.call('GET', `/_sandbox/events?reference=${pb.reference}`, undefined, { key: 'sk_test_shop_b' })
    expect(ev.body.data[0]).toMatchObject({ target: null, status: 'no_target' })
  })

  it.each([
    ['merchants: []\n', /merchants: must be a list of at least one merchant/],
    ['merchants:\n  - secret_key: sk_live_x\n', /merchants\.0: live keys are never accepted/],
    ['merchants:\n  - secret_key: sk_test_a\n    encryption_key: short\n', /merchants\.0: must be 32 bytes/],
    ['merchants:\n  - secret_key: sk_test_a\n    webhook_url: ftp://x\n', /merchants\.0: must be an http\(s\) URL/],
    ['merchants:\n  - secret_key: sk_test_a\n    colour: red\n', /merchants\.0: unknown field: colour/],
    ['merchants:\n  - secret_key: sk_test_a\n    email: nope\n', /merchants\.0\.email: must be a valid e-mail address/],
    ['merchants:\n  - secret_key: sk_test_a\n  - secret_key: sk_test_a\n', /merchants\.1\.secret_key: appears twice/],
    ['merchants: [\n', /cannot read merchants file/],
  ])('refuses %j naming the file and the entry', (text, pattern) => {
    const file = merchantsFile(text)
    let error: unknown
    try {
      resolveConfig({ merchants: file }, {})
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toContain(file)
    expect((error as Error).message).toMatch(pattern)
  })

  it('reads a JSON merchants file too', () => {
    const file = merchantsFile(JSON.stringify({ merchants: [{ secret_key: 'sk_test_json', name: 'Json Shop' }] }), 'merchants.json')
    const config = resolveConfig({ merchants: file }, {})
    expect(config.merchants.map((m) => m.secret_key)).toEqual(['sk_test_sandbox', 'sk_test_json'])
    expect(config.merchants[1]).toMatchObject({ public_key: 'pk_test_json', name: 'Json Shop', webhook_url: null })
  })
})

import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ConfigError, resolveConfig, servedKeys } from '../src/config.js'
import { verifyWebhookSignature } from '../src/webhooks/signature.js'
import { cardPayload, makeSandbox, tempFile, type TestSandbox } from './helpers/sandbox.js'
import { startReceiver } from './helpers/receiver.js'
import { cleanedAfterEach } from './helpers/after-each.js'

const cleanups = cleanedAfterEach()

function merchantsFile(text: string, name = 'merchants.yaml'): string {
  const file = tempFile(name)
  writeFileSync(file, text)
  return file
}

describe('a merchants file (docs/behaviour.md#keys-and-namespaces)', () => {
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

describe('servedKeys: the keys a start under an environment serves its default merchant (the Action and the container module ask it)', () => {
  it('takes a merchants file\'s keys for the secret key, else pk_ for sk_ and the encryption key; the file may be given apart from the environment', () => {
    const file = merchantsFile('merchants:\n  - secret_key: sk_test_file\n    public_key: pk_test_own\n    encryption_key: file-encryption-key-0123456789ab\n')
    const env = { SANDBOX_SECRET_KEY: 'sk_test_file', SANDBOX_MERCHANTS: file }
    const fromFile = { secretKey: 'sk_test_file', publicKey: 'pk_test_own', encryptionKey: 'file-encryption-key-0123456789ab' }
    expect(servedKeys(env)).toEqual(fromFile)
    // what the server itself resolves from the same environment
    const served = resolveConfig({}, env).merchants.find((m) => m.secret_key === 'sk_test_file')!
    expect([served.public_key, served.encryption_key]).toEqual([fromFile.publicKey, fromFile.encryptionKey])
    // the file read where the caller says (a container names its own path for it)
    expect(servedKeys({ SANDBOX_SECRET_KEY: 'sk_test_file', SANDBOX_MERCHANTS: '/paysandbox/merchants.yaml' }, file)).toEqual(fromFile)
    // a secret key the file does not hold: its own keys
    expect(servedKeys({ SANDBOX_SECRET_KEY: 'sk_test_other', SANDBOX_MERCHANTS: file })).toEqual({ secretKey: 'sk_test_other', publicKey: 'pk_test_other', encryptionKey: 'sandbox-encryption-key-012345678' })
    expect(servedKeys({})).toEqual({ secretKey: 'sk_test_sandbox', publicKey: 'pk_test_sandbox', encryptionKey: 'sandbox-encryption-key-012345678' })
    expect(() => servedKeys({ SANDBOX_SECRET_KEY: 'sk_live_x' })).toThrow('live keys are never accepted by the sandbox')
  })
})

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PaysandboxContainer, type StartedPaysandboxContainer } from 'paysandbox/testcontainers'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { api } from '../e2e/process.js'
import { cardPayload } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'

/**
 * The Testcontainers module, imported as a user imports it (the package's `./testcontainers`
 * export, from dist/), against the image the project's global setup built. Ryuk is off
 * (TESTCONTAINERS_RYUK_DISABLED, vitest.config.ts): its image cannot be pulled here, so each test
 * stops its container itself.
 */

const started: StartedPaysandboxContainer[] = []
const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  while (started.length) await started.pop()!.stop()
  while (closers.length) await closers.pop()!()
})

describe('PaysandboxContainer', () => {
  it('starts the image with a scenario pack and gives the URL and keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tc-pack-'))
    const pack = join(dir, 'funded.yaml')
    writeFileSync(pack, 'name: funded\nsettings:\n  opening_balance: 4321\n')
    const sandbox = await new PaysandboxContainer().withScenarios(pack).start()
    started.push(sandbox)

    expect(sandbox.getUrl()).toMatch(/^http:\/\/[^:]+:\d+$/)
    expect([sandbox.getSecretKey(), sandbox.getPublicKey(), sandbox.getEncryptionKey()]).toEqual(['sk_test_sandbox', 'pk_test_sandbox', 'sandbox-encryption-key-012345678'])
    const balances = await api(sandbox.getUrl(), sandbox.getSecretKey(), 'GET', '/merchant/api/v1/balances')
    expect(balances.body.data.NGN.available_balance).toBe(4321)
    const card = cardPayload('4084127883172787')
    const charged = await api(sandbox.getUrl(), sandbox.getSecretKey(), 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(card, sandbox.getEncryptionKey()) })
    expect([charged.status, charged.body.data.status]).toEqual([200, 'success'])
  })

  it('takes keys, the control token, a webhook receiver on this machine and any SANDBOX_* setting', async () => {
    const hook = await startReceiver(() => 200, '0.0.0.0')
    closers.push(() => hook.close())
    const sandbox = await new PaysandboxContainer()
      .withSecretKey('sk_test_tc')
      .withControlToken('tc-token')
      .withWebhookUrl(`http://host.docker.internal:${hook.port}/webhooks`)
      .withEnvironment({ SANDBOX_JOURNAL_SIZE: '5' })
      .start()
    started.push(sandbox)
    expect([sandbox.getSecretKey(), sandbox.getPublicKey()]).toEqual(['sk_test_tc', 'pk_test_tc'])

    const card = cardPayload('4084127883172787')
    await api(sandbox.getUrl(), sandbox.getSecretKey(), 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(card, sandbox.getEncryptionKey()) })
    await hook.waitFor(1)
    expect(hook.received[0].body).toMatchObject({ event: 'charge.success', data: { payment_reference: card.reference } })

    // the control API from this machine: with the token's headers only
    const clock = (headers: Record<string, string>) => fetch(`${sandbox.getUrl()}/_sandbox/clock`, { headers: { authorization: `Bearer ${sandbox.getSecretKey()}`, ...headers } })
    expect((await clock(sandbox.getControlHeaders())).status).toBe(200)
    expect((await clock({})).status).toBe(403)
  })

  it('restores a snapshot from this machine under its key at start (withLoad), and puts it back over the control API', async () => {
    const fixture = new URL('../fixtures/funded.snapshot.json', import.meta.url).pathname
    const snapshot = JSON.parse(readFileSync(fixture, 'utf8'))
    const sandbox = await new PaysandboxContainer().withLoad(fixture).withControlToken('tc-load').start()
    started.push(sandbox)
    const balances = await api(sandbox.getUrl(), snapshot.key, 'GET', '/merchant/api/v1/balances')
    expect(balances.body.data.GHS.available_balance).toBe(5_000_250.5)

    const card = cardPayload('4084127883172787', { reference: 'tc-load-1' })
    const charged = await api(sandbox.getUrl(), snapshot.key, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(card, snapshot.records.meta.ns.encryption_key) })
    expect(charged.body.data.status).toBe('success')
    const restore = await fetch(`${sandbox.getUrl()}/_sandbox/snapshot`, { method: 'POST', headers: { authorization: `Bearer ${snapshot.key}`, 'content-type': 'application/json', ...sandbox.getControlHeaders() }, body: JSON.stringify(snapshot) })
    expect(restore.status).toBe(200)
    expect((await api(sandbox.getUrl(), snapshot.key, 'GET', '/merchant/api/v1/charges/tc-load-1')).status).toBe(404)
  })

  it('takes a merchants file from this machine (withMerchants) and gives back the keys it gives the default merchant', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tc-merchants-'))
    const file = join(dir, 'merchants.yaml')
    writeFileSync(file, 'merchants:\n  - secret_key: sk_test_tc_file\n    public_key: pk_test_tc_own\n    encryption_key: tc-file-encryption-key-012345678\n')
    const sandbox = await new PaysandboxContainer().withSecretKey('sk_test_tc_file').withMerchants(file).start()
    started.push(sandbox)
    expect([sandbox.getSecretKey(), sandbox.getPublicKey(), sandbox.getEncryptionKey()]).toEqual(['sk_test_tc_file', 'pk_test_tc_own', 'tc-file-encryption-key-012345678'])
    // the container serves those keys: a charge encrypted with the file's encryption key succeeds
    const card = cardPayload('4084127883172787')
    const charged = await api(sandbox.getUrl(), sandbox.getSecretKey(), 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(card, sandbox.getEncryptionKey()) })
    expect([charged.status, charged.body.data.status]).toEqual([200, 'success'])
  })

  it('refuses SANDBOX_MERCHANTS set to a path in the container, whose keys this machine cannot read', async () => {
    await expect(new PaysandboxContainer().withEnvironment({ SANDBOX_MERCHANTS: '/data/merchants.yaml' }).start()).rejects.toThrow('give it with withMerchants(file)')
  })

  it('refuses a live key before any container is made', async () => {
    await expect(new PaysandboxContainer().withSecretKey('sk_live_nope').start()).rejects.toThrow('live keys are never accepted by the sandbox')
  })
})

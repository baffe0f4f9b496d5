import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, cardPayload, tempFile } from '../helpers/sandbox.js'
import { api, killedAfterEach, runCli, startCli } from './process.js'

/**
 * docs/behaviour.md#record-to-flow: `sandbox export-flow` never writes a key. A reset answers with the
 * namespace, which is the secret key: the flow expects the replay's `${key}` there, so it replays
 * under another key; and no card number sent in free text is in the file.
 */

const { running } = killedAfterEach()

const KEY = 'sk_test_export_key_0001'
const OTHER = 'sk_test_export_key_0002'
const PAN = '4539148803436467'

describe('export-flow writes no key and no card number', () => {
  it('a session with a reset, exported with the real CLI, holds neither the key nor the card number and replays under another key', async () => {
    const sb = await startCli([])
    running.push(sb)
    const reset = await api(sb.url, KEY, 'POST', '/_sandbox/reset')
    expect(reset.body.data.namespace).toBe(KEY)
    const payload = cardPayload('4084127883172787', { description: `paid with ${PAN}`, customer: { name: `Ada ${PAN}`, email: 'ada@example.com' }, metadata: { note: PAN } })
    expect((await api(sb.url, KEY, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(payload, ENC_KEY) })).status).toBe(200)
    expect((await api(sb.url, KEY, 'GET', `/merchant/api/v1/charges/${payload.reference}`)).status).toBe(200)

    const file = tempFile('session.yaml')
    const exported = await runCli(['export-flow', '--base-url', sb.url, '--key', KEY, '--output', file])
    expect(exported.code, exported.stderr).toBe(0)
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(KEY)
    expect(text.replace(/[ ._-]/g, '')).not.toContain(PAN)
    expect(text).toContain('namespace: ${key}')

    const replay = await runCli(['replay', file, '--base-url', sb.url, '--key', OTHER])
    expect(replay.code, replay.stdout).toBe(0)
  })
})

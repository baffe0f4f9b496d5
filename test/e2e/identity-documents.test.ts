import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { tempFile } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { api, killedAfterEach, runCli, startCli } from './process.js'

/**
 * Identity beyond SPEC.md against the real CLI (dist/, the shipped fixtures and default pack),
 * sending what merchants' apps send (docs/behaviour.md#identity): `nin` or `number` for the ID, CAC
 * as digits with its registration type apart, each country's documents, the phone check's webhook to a real receiver, and a
 * pack file given with --scenarios adding a country's test value without a code change.
 */

const { running, cleanups } = killedAfterEach()
const KEY = 'sk_test_sandbox'

describe('identity documents over a socket', () => {
  it('answers each country as an app calls it, sends the phone webhook, and takes new test values from a pack file', async () => {
    const pack = tempFile('identity-pack.yaml')
    writeFileSync(pack, 'identities:\n  - { type: ke_phone, id: "0712345678", found: false, label: "KE phone that fails" }\n  - { type: za_said, id: "9001015009087", found: true, label: "a second SAID", record: { first_name: Lerato, last_name: Dlamini } }\n')
    const hook = await startReceiver()
    cleanups.push(() => hook.close())
    const cli = await startCli(['--scenarios', pack, '--webhook-url', hook.url])
    running.push(cli)
    const post = (path: string, body: unknown) => api(cli.url, KEY, 'POST', `/merchant/api/v1/identities/${path}`, body, 10_000)

    // an app that sends the NIN as `nin`, another as `number`
    const byNin = await post('ng/nin', { nin: '55555555555', verification_consent: true })
    expect(byNin.status).toBe(200)
    expect(byNin.body).toMatchObject({ status: true, message: 'NIN verified successfully', data: { id: '55555555555', id_type: 'ng_nin', first_name: 'Adaeze', last_name: 'Nwosu' } })
    const byNumber = await post('ng/nin', { number: '00000000000', verification_consent: true })
    expect(byNumber).toEqual({ status: 404, body: { status: false, message: 'NIN data not found', data: {} } })
    // NIN by phone, read for first_name, last_name, phone_number, date_of_birth and email
    const ninPhone = await post('ng/nin-phone', { id: '08000000000', verification_consent: true })
    expect(ninPhone.body.data).toMatchObject({ first_name: 'Adaeze', last_name: 'Nwosu', phone_number: '08000000000', date_of_birth: '1994-06-17', email: 'adaeze.nwosu@example.com' })
    // the test CAC as the live test environment takes it: digits, the registration type apart (RC00000011 is refused)
    const cac = await post('ng/cac', { id: '00000011', registration_type: 'RC', verification_consent: true })
    expect(cac.body).toMatchObject({ message: 'CAC verified successfully', data: { reference: expect.stringMatching(/^VR-[A-Za-z0-9]{17}$/), name: 'John Doe Inc', search_term: 'RC00000011' } })
    expect((await post('ng/cac', { id: 'RC00000011', registration_type: 'RC', verification_consent: true })).status).toBe(422)

    const phone = await post('ng/phone', { id: '08000000000', verification_consent: true })
    expect(phone.body).toMatchObject({ message: 'Phone number verified successfully', data: { id_type: 'ng_phone', full_name: 'Adaeze Chioma Nwosu' } })
    await hook.waitFor(1)
    expect(hook.received[0].body).toMatchObject({ event: 'verification.completed', data: { reference: phone.body.data.reference, status: 'found' } })

    const ssnit = await post('gh/ssnit', { id: 'C987464748977', verification_consent: true })
    expect(ssnit.body.data).toMatchObject({ id_type: 'gh_ssnit', full_name: 'Kofi Yaw Boateng' })
    const keId = await post('ke/national-id', { id: '25219766', verification_consent: true, validation: { first_name: 'Wanjiru', last_name: 'Kamau', date_of_birth: '1991-03-25' } })
    expect(keId.body.data.validation).toEqual({ first_name: { value: 'Wanjiru', match: true }, last_name: { value: 'Kamau', match: true }, date_of_birth: { value: '1991-03-25', match: true } })
    // the pack file's values
    expect((await post('ke/get-phone', { id: '0712345678', type: 'national_id', verification_consent: true })).body.message).toBe('Phone data not found')
    const said = await post('za/said', { id: '9001015009087', verification_consent: true })
    expect(said.body.data).toMatchObject({ first_name: 'Lerato', last_name: 'Dlamini', id_type: 'za_said' })

    // every check is in the history, newest first, as its lines (limit as the documentation types it, a string)
    const history = await api(cli.url, KEY, 'POST', '/merchant/api/v1/identities/verifications', { limit: '50' }, 10_000)
    expect(history.body.data.data[0]).toMatchObject({ reference: said.body.data.reference, identity_type: 'za_said', identity_type_label: 'South Africa ID', country: 'za', status: 'found' })
    expect(history.body.data.paging.total_items).toBe(9)
    expect(history.body.data.links[0]).toEqual({ href: `${cli.url}/merchant/api/v1/identities/verifications?limit=50&page=1`, rel: 'current', method: 'POST' })

    // sandbox magic shows every document's test values with its path, the pack's too
    const magic = await runCli(['magic', '--scenarios', pack])
    expect(magic.code, magic.stderr).toBe(0)
    expect(magic.stdout).toMatch(/^gh_ssnit\s+gh\/ssnit\s+C987464748977\s+true\s+SSNIT found$/m)
    expect(magic.stdout).toMatch(/^ke_phone\s+ke\/get-phone\s+0712345678\s+false\s+KE phone that fails$/m)
  })
})

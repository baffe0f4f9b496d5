import { afterEach, describe, expect, it } from 'vitest'
import { makeSandbox, type TestSandbox } from './helpers/sandbox.js'

/**
 * A refused key's 401 (docs/behaviour.md#key-on-every-call) keeps api.md's message and says in `data.hint`
 * which common mistake it sees: no header, no `Bearer ` prefix, another scheme, a public key where
 * the secret one is needed, a live key, a key of another shape, a key --strict-keys does not know.
 */

const open: TestSandbox[] = []
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close()
})
async function sandbox(input: Parameters<typeof makeSandbox>[0] = {}) {
  const sb = await makeSandbox(input)
  open.push(sb)
  return sb
}

const BALANCES = '/merchant/api/v1/balances'
const withHeader = (sb: TestSandbox, authorization: string | null, path = BALANCES) =>
  sb.call('GET', path, undefined, { key: null, headers: authorization === null ? {} : { authorization } })

describe('what a refused key is told', () => {
  it.each([
    ['no header', null, 'Invalid authorization key', 'No Authorization header: send the header Authorization: Bearer sk_test_... (the secret key the start printed; sk_test_sandbox by default).'],
    ['the key without "Bearer "', 'sk_test_sandbox', 'Invalid authorization key', 'The Authorization header has the key without the "Bearer " prefix before it: send Authorization: Bearer sk_test_sandbox.'],
    ['another scheme', 'Basic c2tfdGVzdF9zYW5kYm94Og==', 'Invalid authorization key', 'The Authorization header uses the "Basic" scheme: the sandbox takes only Bearer; send the header Authorization: Bearer sk_test_... (the secret key the start printed; sk_test_sandbox by default).'],
    ['a public key', 'Bearer pk_test_sandbox', 'Invalid authorization key', 'A public key where a secret key is needed: this call takes the secret key (sk_test_..., the one the start printed beside this public key).'],
    ['a live secret key', 'Bearer sk_live_abc', 'Live keys are never accepted by the sandbox: use a test secret key (sk_test_...)', 'A live secret key: the sandbox never takes live keys; use a test secret key, sk_test_... (sk_test_sandbox by default).'],
    ['a live public key', 'Bearer pk_live_abc', 'Invalid authorization key', 'A live public key: the sandbox never takes live keys, and this call needs a secret key; use a test secret key, sk_test_... (sk_test_sandbox by default).'],
    ['a key in quotes', 'Bearer "sk_test_sandbox"', 'Invalid authorization key', 'Not a test secret key: the sandbox takes sk_test_ followed by 1 to 200 letters, digits, _ or - (sk_test_sandbox by default). The key is sent without quotes or brackets around it.'],
    ['an empty test key', 'Bearer sk_test_', 'Invalid authorization key', 'Not a test secret key: the sandbox takes sk_test_ followed by 1 to 200 letters, digits, _ or - (sk_test_sandbox by default).'],
  ] as [string, string | null, string, string][])('%s: 401, the message of api.md, and a hint naming the mistake', async (_name, authorization, message, hint) => {
    const sb = await sandbox()
    const res = await withHeader(sb, authorization)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ status: false, message, data: { hint } })
  })

  it('with --strict-keys, a well-formed key it was not started with is told so', async () => {
    const sb = await sandbox({ strictKeys: true })
    const res = await withHeader(sb, 'Bearer sk_test_someone_else')
    expect(res.body).toEqual({ status: false, message: 'Invalid authorization key', data: { hint: 'Not a configured key: with --strict-keys the sandbox takes only the keys it was started with (--secret-key, the merchants file).' } })
    expect((await withHeader(sb, 'Bearer sk_test_sandbox')).status).toBe(200)
  })

  it('the control API refuses with the same hints', async () => {
    const sb = await sandbox()
    const res = await withHeader(sb, 'pk_test_sandbox', '/_sandbox/clock')
    expect(res.status).toBe(401)
    expect(res.body.data.hint).toBe('The Authorization header has the key without the "Bearer " prefix before it: send Authorization: Bearer and the test secret key (sk_test_...).')
  })
})

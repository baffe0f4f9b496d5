import { describe, expect, it } from 'vitest'
import { cliPerFile } from './process.js'

/**
 * A refused key's 401 against the real CLI (docs/behaviour.md#key-on-every-call): api.md's message,
 * and in `data.hint` the mistake the header shows, in the words a person reads at the terminal.
 * A hint never echoes a key the caller did not send as its own test key: a live key written before
 * other text is not named as a "scheme".
 */

const cli = cliPerFile()

const get = async (authorization: string | null) => {
  const res = await fetch(`${cli.running.url}/merchant/api/v1/balances`, {
    headers: authorization === null ? {} : { authorization },
    signal: AbortSignal.timeout(10_000),
  })
  return { status: res.status, body: (await res.json()) as any }
}

const send = 'send the header Authorization: Bearer sk_test_... (the secret key the start printed; sk_test_sandbox by default).'

describe('a refused key over a socket', () => {
  it.each([
    ['no header', null, 'Invalid authorization key', `No Authorization header: ${send}`],
    ['the key without "Bearer "', 'sk_test_sandbox', 'Invalid authorization key', 'The Authorization header has the key without the "Bearer " prefix before it: send Authorization: Bearer sk_test_sandbox.'],
    ['another scheme', 'Basic c2tfdGVzdF9zYW5kYm94Og==', 'Invalid authorization key', `The Authorization header uses the "Basic" scheme: the sandbox takes only Bearer; ${send}`],
    ['a live secret key', 'Bearer sk_live_abc', 'Live keys are never accepted by the sandbox: use a test secret key (sk_test_...)', 'A live secret key: the sandbox never takes live keys; use a test secret key, sk_test_... (sk_test_sandbox by default).'],
    ['a live key before other text', 'sk_live_0123456789abcdef Bearer', 'Invalid authorization key', `The Authorization header is not "Bearer" and one key: ${send}`],
  ] as [string, string | null, string, string][])('%s: 401, the message and the hint', async (_name, authorization, message, hint) => {
    expect(await get(authorization)).toEqual({ status: 401, body: { status: false, message, data: { hint } } })
  })

  it('no hint names any part of a live key it was sent', async () => {
    for (const authorization of ['sk_live_0123456789abcdef x', 'pk_live_0123456789abcdef\tx', 'Token sk_live_0123456789abcdef', 'Bearer sk_live_0123456789abcdef']) {
      const res = await get(authorization)
      expect(res.status).toBe(401)
      expect(JSON.stringify(res.body), authorization).not.toContain('0123456789abcdef')
    }
  })
})

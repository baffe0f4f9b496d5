import { createHmac } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { startReceiver } from '../helpers/receiver.js'
import { api, freePort, killedAfterEach, runCli, startCli } from './process.js'

/**
 * `sandbox probe-webhook` (docs/behaviour.md#webhook-probe) against merchant handlers written four ways, over
 * real HTTP, each one querying the sandbox as a merchant's code does (its API base URL points at
 * the sandbox). Each receiver is written here from the documented scheme (docs/behaviour.md#webhook-signature), not with the
 * sandbox's own code.
 */
const KEY = 'sk_test_probe_merchant'
const { running, cleanups } = killedAfterEach()

type Way = 'correct' | 'trusts any signature' | 'acts on the event name' | 'slow'

/** Signature as a merchant checks it: hex HMAC-SHA256 of JSON.stringify(data), the secret key's. */
function verifies(raw: string, header: string | string[] | undefined): boolean {
  const { data } = JSON.parse(raw) as { data: unknown }
  return typeof header === 'string' && header === createHmac('sha256', KEY).update(JSON.stringify(data)).digest('hex')
}

/** A merchant's handler written the given way; `sandbox` is its API base URL. */
async function handler(way: Way, sandbox: string) {
  const orders = new Map<string, string>()
  const receiver = await startReceiver((_n, req: IncomingMessage, res: ServerResponse) => {
    const last = receiver.received.at(-1)!
    void (async () => {
      if (way !== 'trusts any signature' && !verifies(last.raw, req.headers['x-korapay-signature'])) {
        res.statusCode = 401
        return res.end()
      }
      const { event, data } = last.body as { event: string; data: { reference: string } }
      if (way === 'acts on the event name') {
        orders.set(data.reference, event === 'charge.success' ? 'paid' : 'failed')
        return res.end('ok')
      }
      // query the transaction and act on what the query answers
      const query = await api(sandbox, KEY, 'GET', `/merchant/api/v1/charges/${encodeURIComponent(data.reference)}`)
      if (query.status !== 200) {
        res.statusCode = 400
        return res.end()
      }
      orders.set(data.reference, query.body.data.status === 'success' ? 'paid' : 'not paid')
      // the slow handler does its work before it answers, and the work outlasts the timeout: it
      // never answers (the probe's --webhook-timeout cuts it; the receiver is closed after the test)
      if (way === 'slow') return
      res.end('ok')
    })()
    return 'handled'
  })
  cleanups.push(() => receiver.close())
  return { receiver, orders }
}

async function probe(sandbox: string, url: string, ...args: string[]) {
  const run = await runCli(['probe-webhook', url, '--key', KEY, '--base-url', sandbox, ...args])
  return run
}

const verdicts = (report: { checks: { check: string; passed: boolean }[] }) => Object.fromEntries(report.checks.map((c) => [c.check, c.passed]))

describe('sandbox probe-webhook (docs/behaviour.md#webhook-probe)', () => {
  it('passes a handler that verifies the signature and queries the transaction, and changes nothing in the namespace', async () => {
    const sb = await startCli(['--secret-key', KEY])
    running.push(sb)
    const { receiver, orders } = await handler('correct', sb.url)
    const before = await api(sb.url, KEY, 'GET', '/_sandbox/snapshot')

    const run = await probe(sb.url, receiver.url)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`Webhook probe of ${receiver.url}`)
    expect(run.stdout).toContain('8 of 8 checks passed')
    expect(run.stdout).not.toContain('FAIL')

    // the handler got every delivery of the series, signed as each check says
    expect(receiver.received.map((r) => r.body.event)).toEqual(['charge.success', 'charge.success', 'charge.success', 'charge.success', 'charge.success', 'charge.success', 'charge.failed'])
    expect(receiver.received[3].headers['x-korapay-signature']).toBeUndefined()
    // it acted on what the query answered: the declined charge under charge.success is not paid,
    // the late failure did not undo the success
    const [paid, declined] = [receiver.received[0].body.data.reference, receiver.received[4].body.data.reference]
    expect(orders.get(paid)).toBe('paid')
    expect(orders.get(declined)).toBe('not paid')

    // the handler's queries are journalled like any other call; the namespace's records are as
    // they were, no event was recorded, and the probe's transactions are gone with it
    const journal = await api(sb.url, KEY, 'GET', `/_sandbox/requests?path=${paid}`)
    expect(journal.body.data.length).toBeGreaterThanOrEqual(3)
    const after = await api(sb.url, KEY, 'GET', '/_sandbox/snapshot')
    expect(after.body.data.records).toEqual(before.body.data.records)
    expect((await api(sb.url, KEY, 'GET', '/_sandbox/events')).body.data).toEqual([])
    expect((await api(sb.url, KEY, 'GET', `/merchant/api/v1/charges/${paid}`)).status).toBe(404)

    // the control call answers the same report as --format json
    const json = await probe(sb.url, receiver.url, '--format', 'json')
    expect(json.code).toBe(0)
    const call = await api(sb.url, KEY, 'POST', '/_sandbox/webhooks/probe', { url: receiver.url })
    expect(call.status).toBe(200)
    expect(call.body.message).toBe('Webhook probe: 8 of 8 checks passed')
    const fromCli = JSON.parse(json.stdout)
    expect(Object.keys(call.body.data)).toEqual(Object.keys(fromCli))
    expect(verdicts(call.body.data)).toEqual(verdicts(fromCli))
    expect(Object.values(verdicts(fromCli)).every(Boolean)).toBe(true)
  })

  it('fails a handler that trusts any signature on the three refusals, exit 1', async () => {
    const sb = await startCli(['--secret-key', KEY])
    running.push(sb)
    const { receiver } = await handler('trusts any signature', sb.url)
    const run = await probe(sb.url, receiver.url, '--format', 'json')
    expect(run.code, run.stderr).toBe(1)
    const report = JSON.parse(run.stdout)
    expect(report.passed).toBe(false)
    expect(verdicts(report)).toEqual({ signed: true, bad_signature: false, other_body_signature: false, missing_signature: false, event_name: true, duplicate: true, out_of_order: true, timeout: true })
    expect(report.checks[1].why).toContain('HMAC-SHA256 of JSON.stringify(data)')

    const text = await probe(sb.url, receiver.url)
    expect(text.code).toBe(1)
    expect(text.stdout).toContain('FAIL  bad_signature: a bad signature is refused')
    expect(text.stdout).toContain('5 of 8 checks passed')
  })

  it('fails a handler that acts on the event name alone on the renamed, repeated and late events, with the recipe', async () => {
    const sb = await startCli(['--secret-key', KEY])
    running.push(sb)
    const { receiver, orders } = await handler('acts on the event name', sb.url)
    const run = await probe(sb.url, receiver.url, '--format', 'json')
    expect(run.code, run.stderr).toBe(1)
    const report = JSON.parse(run.stdout)
    expect(verdicts(report)).toEqual({ signed: true, bad_signature: true, other_body_signature: true, missing_signature: true, event_name: false, duplicate: false, out_of_order: false, timeout: true })
    const renamed = report.checks.find((c: { check: string }) => c.check === 'event_name')
    expect(renamed.why).toContain('the handler trusts the event name')
    expect(renamed.why).toContain('query GET /merchant/api/v1/charges/{data.reference}')
    expect(renamed.deliveries[0]).toMatchObject({ event: 'charge.success', status: 'failed', signature: 'valid', status_code: 200, queried: false })
    // what the probe warns of: the declined charge was taken as paid, the paid one as failed
    expect(orders.get(renamed.deliveries[0].reference)).toBe('paid')
    expect(orders.get(report.checks[0].deliveries[0].reference)).toBe('failed')
  })

  it('fails a handler that answers past the timeout: the --webhook-timeout given cuts it, as the service would', async () => {
    const sb = await startCli(['--secret-key', KEY])
    running.push(sb)
    const { receiver } = await handler('slow', sb.url)
    const run = await probe(sb.url, receiver.url, '--webhook-timeout', '300', '--format', 'json')
    expect(run.code, run.stderr).toBe(1)
    const report = JSON.parse(run.stdout)
    expect(report.timeout_ms).toBe(300)
    const v = verdicts(report)
    expect(v.timeout).toBe(false)
    expect(v.signed).toBe(false)
    // its refusals came at once
    expect([v.bad_signature, v.other_body_signature, v.missing_signature]).toEqual([true, true, true])
    expect(report.checks[0].deliveries[0].error).toBe('timeout: no answer within 300 ms')
    expect(report.checks.at(-1).why).toContain('4 of 7 deliveries had no answer within 300 ms')
  })

  it('refuses a bad URL with the validation envelope, and says so when no sandbox answers', async () => {
    const sb = await startCli(['--secret-key', KEY])
    running.push(sb)
    const bad = await api(sb.url, KEY, 'POST', '/_sandbox/webhooks/probe', { url: 'ftp://x' })
    expect(bad.status).toBe(422)
    expect(bad.body.message).toBe('Invalid request data')
    const cli = await probe(sb.url, 'ftp://x')
    expect(cli.code).toBe(1)
    expect(cli.stderr).toContain('the sandbox answered 422: Invalid request data')
    const usage = await probe(sb.url, 'http://127.0.0.1:1/', '--webhook-timeout', 'soon')
    expect(usage.code).toBe(2)
    const nobody = `http://127.0.0.1:${await freePort()}`
    const away = await probe(nobody, 'http://127.0.0.1:1/')
    expect(away.code).toBe(1)
    expect(away.stderr).toContain(`cannot reach ${nobody}`)
  })
})

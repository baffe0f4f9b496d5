import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import type { Store } from '../src/store/store.js'
import { SECRET, cardPayload, openStore, sandboxPerTest, tempFile } from './helpers/sandbox.js'
import { startReceiver } from './helpers/receiver.js'

/**
 * What parts keep of a namespace outside its records (src/store/namespace-state.ts): registered
 * once with the store, told of every reset and of every failed write that put records back
 * (docs/behaviour.md#persistence).
 */

type Rec = Record<string, unknown>

const sandbox = sandboxPerTest()

const opened: Store[] = []
const cleanups: (() => void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) c()
  for (const s of opened.splice(0)) await s.close()
})

async function open(file?: string): Promise<Store> {
  const s = await openStore({ file })
  opened.push(s)
  return s
}

/** What the registered parts heard, in order. */
function listen(s: Store): string[] {
  const heard: string[] = []
  s.registerState({
    reset: (ns) => heard.push(`reset ${ns}`),
    // what it would read again: the records as the file holds them, already back (looked at
    // without creating the namespace, as the clock does)
    restored: (ns) => heard.push(`restored ${ns}: ${s.hasNamespace(ns) ? JSON.stringify([...s.col<Rec>(ns, 'c').entries()]) : 'none'}`),
  })
  s.registerState({ reset: (ns) => heard.push(`reset, own state ${ns}`) })
  return heard
}

/** The data file refuses writes (`chattr +i`: tests run as root, which chmod does not stop), until the test ends. */
function refuseWrites(file: string): void {
  execFileSync('chattr', ['+i', file])
  cleanups.push(() => execFileSync('chattr', ['-i', file]))
}

describe('the state a namespace holds outside its records', () => {
  it('every part registered hears a reset of the namespace, once its records are gone; other namespaces are not touched', async () => {
    const s = await open()
    const heard = listen(s)
    s.col<Rec>('a', 'c').put('k', { v: 1 })
    s.col<Rec>('b', 'c').put('k', { v: 1 })
    s.resetNamespace('a')
    expect(heard).toEqual(['reset a', 'reset, own state a'])
    expect(s.col<Rec>('b', 'c').get('k')).toEqual({ v: 1 })
  })

  it('a failed write tells each part registered for restores, once per namespace it touched, after the records are back as the file holds them', async () => {
    const file = tempFile()
    const s = await open(file)
    const heard = listen(s)
    s.col<Rec>('a', 'c').put('kept', { v: 1 })
    s.col<Rec>('b', 'c').put('kept', { v: 1 })
    s.col<Rec>('quiet', 'c').put('kept', { v: 1 })
    await s.sync()

    refuseWrites(file)
    s.col<Rec>('a', 'c').put('refused', { v: 2 })
    s.col<Rec>('a', 'c').put('kept', { v: 2 })
    s.col<Rec>('b', 'c').delete('kept')
    s.col<Rec>('new', 'c').put('refused', { v: 2 })
    await expect(s.sync()).rejects.toThrow()

    expect(heard.sort()).toEqual(['restored a: [["kept",{"v":1}]]', 'restored b: [["kept",{"v":1}]]', 'restored new: none'])
  })

  it('a pack whose write was refused is not in effect; a reset drops a pack that was written (the balance its opening)', async () => {
    const data = tempFile()
    const sb = await sandbox({ data })
    const ngn = async () => (await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN.available_balance
    const opening = await ngn()

    refuseWrites(data)
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 7 } })).status).toBe(503)
    expect(await ngn()).toBe(opening)

    cleanups.pop()!()
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 7 } })).status).toBe(200)
    expect(await ngn()).toBe(7)
    await sb.call('POST', '/_sandbox/reset')
    expect(await ngn()).toBe(opening)
  })

  it('a webhook whose event a failed write undid holds up no later event of its payment: the retried charge\'s is delivered', async () => {
    // the receiver holds its first answer until the refused charge was answered: an attempt of
    // the undone event, if it started, ends only after the undo
    const held: (() => void)[] = []
    const rx = await startReceiver((n, _req, res) => {
      if (n > 1) return 200
      held.push(() => res.end())
      return 'handled'
    })
    cleanups.push(() => void rx.close())
    const data = tempFile()
    const sb = await sandbox({ data, frozen: true })
    expect((await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })).status).toBe(200)
    const payload = cardPayload('4084127883172787')

    refuseWrites(data)
    expect((await sb.charge(payload)).status).toBe(503)
    cleanups.pop()!()
    for (const release of held) release()

    const retried = await sb.charge(payload)
    expect(retried.status).toBe(200)
    const tx = retried.body.data.transaction_reference
    while (!rx.received.some((r) => r.body?.data?.transaction_reference === tx)) await rx.waitFor(rx.received.length + 1)
    const events = (await sb.call('GET', `/_sandbox/events?reference=${payload.reference}`)).body.data
    // the one event kept is the retried charge's: the undone one left nothing behind
    expect(events.map((e: { event: string; data: { transaction_reference: string } }) => [e.event, e.data.transaction_reference])).toEqual([['charge.success', tx]])
  })
})

/**
 * A webhook_duplicate fault marks the event it took (docs/behaviour.md#fault-injection); the mark is state of
 * the namespace like any other. Under `--seed` a reset, or a failed write's undo, draws the same
 * ids again, so an event left marked would have its namesake delivered twice.
 */
describe('the mark a webhook_duplicate fault leaves on its event', () => {
  type Ev = { id: string; status: string; attempts: unknown[] }
  const eventsOf = async (sb: Awaited<ReturnType<typeof sandbox>>, reference: string, query = ''): Promise<Ev[]> =>
    (await sb.call('GET', `/_sandbox/events?reference=${reference}${query}`)).body.data

  /** a receiver that refuses every post until `accept()` */
  async function receiver() {
    let accepting = false
    const rx = await startReceiver(() => (accepting ? 200 : 500))
    cleanups.push(() => void rx.close())
    return { rx, accept: () => (accepting = true) }
  }

  /** the event delivered once: one post received for it and one attempt recorded */
  async function expectDeliveredOnce(sb: Awaited<ReturnType<typeof sandbox>>, rx: Awaited<ReturnType<typeof receiver>>['rx'], reference: string, before: number) {
    const [delivered] = await eventsOf(sb, reference, '&status=delivered&wait=10000')
    expect(delivered.attempts).toHaveLength(1)
    expect(rx.received.slice(before).filter((r) => r.body?.data?.reference === reference)).toHaveLength(1)
  }

  it('goes with a reset: the same id drawn again afterwards is delivered once', async () => {
    const { rx, accept } = await receiver()
    const sb = await sandbox({ seed: 7 })
    const payload = cardPayload('4084127883172787')
    expect((await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })).status).toBe(200)
    expect((await sb.call('POST', '/_sandbox/faults', { kind: 'webhook_duplicate' })).status).toBe(200)
    expect((await sb.charge(payload)).status).toBe(200)
    await rx.waitFor(1)
    // the refused attempt is recorded before the reset (its answer is on its way back now)
    expect(await sb.deps.events.waitForChange(SECRET, 10_000, undefined, { reference: payload.reference })).toBe(true)
    const [marked] = await eventsOf(sb, payload.reference)
    expect(marked).toMatchObject({ status: 'pending', attempts: [{ status_code: 500 }] })

    expect((await sb.call('POST', '/_sandbox/reset')).status).toBe(200)
    accept()
    const before = rx.received.length
    expect((await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })).status).toBe(200)
    // a fault that takes nothing here, so the stream is drawn from as before the reset
    expect((await sb.call('POST', '/_sandbox/faults', { kind: 'error', path: '/nothing' })).status).toBe(200)
    expect((await sb.charge(payload)).status).toBe(200)
    const [again] = await eventsOf(sb, payload.reference)
    expect(again.id).toBe(marked.id)
    await expectDeliveredOnce(sb, rx, payload.reference, before)
  })

  it('goes with a failed write that undid its event: the same id drawn again is delivered once', async () => {
    const { rx, accept } = await receiver()
    const data = tempFile()
    const sb = await sandbox({ data, seed: 7 })
    const payload = cardPayload('4084127883172787')
    expect((await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })).status).toBe(200)
    expect((await sb.call('POST', '/_sandbox/faults', { kind: 'webhook_duplicate' })).status).toBe(200)

    refuseWrites(data)
    expect((await sb.charge(payload)).status).toBe(503)
    cleanups.pop()!()
    expect(await eventsOf(sb, payload.reference)).toEqual([])

    accept()
    const before = rx.received.length
    expect((await sb.charge(payload)).status).toBe(200)
    await expectDeliveredOnce(sb, rx, payload.reference, before)
  })
})

/**
 * docs/behaviour.md#persistence: nothing is acknowledged that is not durable, a webhook included. The first
 * attempt of an event is due at once, while the write that holds it may still be on its way to the
 * file: it waits for that write, and a write that fails undid the event, so nothing is sent.
 */
describe('a webhook of a write that failed', () => {
  it('is never sent: the receiver hears only the charge whose write held', async () => {
    const rx = await startReceiver(() => 200)
    cleanups.push(() => void rx.close())
    const data = tempFile()
    const sb = await sandbox({ data })
    expect((await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })).status).toBe(200)

    const undone = cardPayload('4084127883172787')
    refuseWrites(data)
    expect((await sb.charge(undone)).status).toBe(503)
    cleanups.pop()!()

    const kept = cardPayload('4084127883172787')
    expect((await sb.charge(kept)).status).toBe(200)
    const [delivered] = (await sb.call('GET', `/_sandbox/events?reference=${kept.reference}&status=delivered&wait=10000`)).body.data
    expect(delivered.attempts).toHaveLength(1)
    expect(rx.received.map((r) => r.body?.data?.reference)).toEqual([kept.reference])
  })
})

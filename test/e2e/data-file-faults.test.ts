import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, tempFile } from '../helpers/sandbox.js'
import { killedAfterEach, runCli, type RunningCli } from './process.js'
import { startReceiver } from '../helpers/receiver.js'
import { NO_AUTH_CARD } from '../helpers/cards.js'

/**
 * The data file under real faults (docs/behaviour.md#persistence), against the real CLI as a child process
 * (`npm run build` first): a second server on the same file, a file or folder that cannot be
 * written (`chattr +i`: tests run as root, which chmod does not stop), a disk that fills up (a
 * small tmpfs filled to the brim), bytes appended to the file or a line cut, a compaction's
 * temporary file left behind.
 */

const { running, cleanups, spawnCli: start } = killedAfterEach()

async function stop(r: RunningCli, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const closed = once(r.child, 'close')
  r.child.kill(signal)
  await closed
}

const headers = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }

async function charge(url: string, payload: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/merchant/api/v1/charges/card`, { method: 'POST', headers, body: JSON.stringify({ charge_data: encryptChargeData(payload, ENC_KEY) }) })
  return { status: res.status, body: await res.json() }
}

async function query(url: string, reference: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/merchant/api/v1/charges/${encodeURIComponent(reference)}`, { headers })
  return { status: res.status, body: await res.json() }
}

/** Every reference answers 200 with itself from this server. */
async function expectAll(url: string, refs: string[]): Promise<void> {
  const lost: string[] = []
  for (const reference of refs) {
    const q = await query(url, reference)
    if (q.status !== 200 || q.body.data.reference !== reference) lost.push(`${reference}: ${q.status}`)
  }
  expect(lost).toEqual([])
}

const UNAVAILABLE = { status: false, message: 'Service currently unavailable', data: null }

function can(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** `chattr +i` works here (root on a file system with the immutable flag). */
const chattrWorks = (() => {
  const probe = tempFile('probe')
  writeFileSync(probe, 'x')
  if (!can('chattr', ['+i', probe])) return false
  can('chattr', ['-i', probe])
  return true
})()

/** `n` card charges, each answered 200: their references. */
async function chargeAcknowledged(url: string, n: number): Promise<string[]> {
  const references: string[] = []
  for (let i = 0; i < n; i++) {
    const p = cardPayload(NO_AUTH_CARD)
    expect((await charge(url, p)).status).toBe(200)
    references.push(p.reference)
  }
  return references
}

function immutable(path: string, on: boolean): void {
  execFileSync('chattr', [on ? '+i' : '-i', path])
}

/** A fresh data file `chattr +i` can make read-only: it must work here (root, an ext4 temp directory), as in CI. */
function lockableFile(): string {
  expect(chattrWorks, 'chattr +i must work here (root, an ext4 temp directory), as in CI').toBe(true)
  return tempFile()
}

describe('one server per data file', () => {
  it('refuses a second server on the same file naming the first one\'s pid; takes over the lock of a killed one; lets it go on stop', async () => {
    const file = tempFile()
    const first = await start(['--data', file])
    const p = cardPayload(NO_AUTH_CARD)
    expect((await charge(first.url, p)).status).toBe(200)

    const second = await runCli(['start', '--port', '0', '--data', file])
    expect(second.code).toBe(2)
    expect(second.stdout).not.toContain('listening')
    const lines = second.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(file)
    expect(lines[0]).toContain(`pid ${first.child.pid}`)

    // the first still serves and writes
    const q = cardPayload(NO_AUTH_CARD)
    expect((await charge(first.url, q)).status).toBe(200)

    // killed: its lock stays, but its process is gone, so the next start takes it over
    await stop(first, 'SIGKILL')
    expect(existsSync(`${file}.lock`)).toBe(true)
    const third = await start(['--data', file])
    await expectAll(third.url, [p.reference, q.reference])
    await stop(third)
    expect(third.child.exitCode).toBe(0)
    expect(existsSync(`${file}.lock`)).toBe(false)
  }, 60_000)
})

describe('a data file or folder that cannot be written', () => {
  it('is refused at start with one line naming the file (exit 2)', async () => {
    const file = lockableFile()
    const first = await start(['--data', file])
    expect((await charge(first.url, cardPayload(NO_AUTH_CARD))).status).toBe(200)
    await stop(first)

    immutable(file, true)
    cleanups.push(() => immutable(file, false))
    const r = await runCli(['start', '--port', '0', '--data', file])
    expect(r.code).toBe(2)
    expect(r.stderr.trim().split('\n')).toEqual([`sandbox: cannot use data file ${file}: cannot write (EPERM)`])
    immutable(file, false)

    const dir = dirname(file)
    immutable(dir, true)
    cleanups.push(() => immutable(dir, false))
    const d = await runCli(['start', '--port', '0', '--data', file])
    expect(d.code).toBe(2)
    expect(d.stderr.trim().split('\n')).toEqual([`sandbox: cannot use data file ${file}: its folder cannot be written (EPERM)`])
  }, 60_000)

  it('made read-only while running: the charge answers 503 and is not kept, and its webhook never sent; once writable, its retry is accepted; every acknowledged charge is back after a restart', async () => {
    const file = lockableFile()
    const rx = await startReceiver()
    cleanups.push(() => void rx.close())
    const server = await start(['--data', file, '--webhook-url', rx.url])
    const acknowledged = await chargeAcknowledged(server.url, 3)
    // their webhooks delivered and the attempts written, so that no write of theirs falls in the read-only window
    for (const reference of acknowledged) {
      const delivered = await fetch(`${server.url}/_sandbox/events?reference=${encodeURIComponent(reference)}&status=delivered&wait=10000`, { headers })
      expect(((await delivered.json()) as { data: unknown[] }).data).toHaveLength(1)
    }
    const before = readFileSync(file)

    immutable(file, true)
    cleanups.push(() => immutable(file, false))
    const refused = cardPayload(NO_AUTH_CARD)
    const r = await charge(server.url, refused)
    expect(r).toEqual({ status: 503, body: UNAVAILABLE })
    // undone: no read shows it
    const q = await query(server.url, refused.reference)
    expect(q.status).toBe(404)
    expect(readFileSync(file).equals(before)).toBe(true)

    immutable(file, false)
    const retry = await charge(server.url, refused)
    expect(retry.status).toBe(200)
    expect(retry.body.data.payment_reference).toBe(refused.reference)
    acknowledged.push(refused.reference)
    // one charge.success per acknowledged charge: none for the write that failed (behaviour.md#persistence)
    await rx.waitFor(acknowledged.length)
    const announced = (transaction: string) => rx.received.filter((w) => (w.body as { data?: { transaction_reference?: string } })?.data?.transaction_reference === transaction)
    expect(announced(retry.body.data.transaction_reference)).toHaveLength(1)

    await stop(server, 'SIGKILL')
    expect(rx.received.map((w) => (w.body as { data: { reference: string } }).data.reference).sort()).toEqual([...acknowledged].sort())
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow()
    const again = await start(['--data', file])
    await expectAll(again.url, acknowledged)
  }, 60_000)

  it('read-only while running: every change of the same moment fails and is undone (new charges and an existing record), and none shows', async () => {
    const file = lockableFile()
    const server = await start(['--data', file])
    const control = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}/_sandbox${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }))
    const first = cardPayload(NO_AUTH_CARD)
    expect((await charge(server.url, first)).status).toBe(200)
    expect((await control('POST', '/clock/advance', { seconds: 60 })).status).toBe(200)

    immutable(file, true)
    cleanups.push(() => immutable(file, false))
    // ten charges and a clock move at once: they share writes, and every one of them fails
    const payloads = Array.from({ length: 10 }, () => cardPayload(NO_AUTH_CARD))
    const [advanced, ...charged] = await Promise.all([control('POST', '/clock/advance', { seconds: 3600 }), ...payloads.map((p) => charge(server.url, p))])
    expect(advanced).toEqual({ status: 503, body: UNAVAILABLE })
    for (const r of charged) expect(r).toEqual({ status: 503, body: UNAVAILABLE })
    for (const p of payloads) expect((await query(server.url, p.reference)).status).toBe(404)
    // the clock is back where the file has it: 60 s ahead, not 3,660
    expect((await control('GET', '/clock')).body.data.offset_ms).toBe(60_000)
    await expectAll(server.url, [first.reference])

    immutable(file, false)
    expect((await control('POST', '/clock/advance', { seconds: 3600 })).body.data.offset_ms).toBe(3_660_000)
    await stop(server, 'SIGKILL')
    const again = await start(['--data', file])
    await expectAll(again.url, [first.reference])
    expect((await fetch(`${again.url}/_sandbox/clock`, { headers }).then((r) => r.json())).data.offset_ms).toBe(3_660_000)
  }, 60_000)

  it('read-only while running: a pack added is answered 503 and is not in effect (the balance keeps its opening); once writable, its retry is', async () => {
    const file = lockableFile()
    const server = await start(['--data', file])
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }))
    const ngn = async () => (await call('GET', '/merchant/api/v1/balances')).body.data.NGN.available_balance
    const opening = await ngn()
    expect(opening).not.toBe(7)

    immutable(file, true)
    cleanups.push(() => immutable(file, false))
    expect(await call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 7 } })).toEqual({ status: 503, body: UNAVAILABLE })
    // undone: neither the balance nor the packs in force show it
    expect(await ngn()).toBe(opening)
    expect((await call('GET', '/_sandbox/scenarios')).body.data.settings.opening_balance).toBe(opening)

    immutable(file, false)
    expect((await call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 7 } })).status).toBe(200)
    expect(await ngn()).toBe(7)
  }, 60_000)
})

describe('a snapshot put back (docs/behaviour.md#snapshots)', () => {
  it('read-only while running: the restore is answered 503 and undone, the namespace as the file holds it; once writable, its retry is', async () => {
    const file = lockableFile()
    const server = await start(['--data', file])
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }))
    const [kept] = await chargeAcknowledged(server.url, 1)
    const snapshot = (await call('GET', '/_sandbox/snapshot')).body.data
    const [later] = await chargeAcknowledged(server.url, 1)

    immutable(file, true)
    cleanups.push(() => immutable(file, false))
    expect(await call('POST', '/_sandbox/snapshot', snapshot)).toEqual({ status: 503, body: UNAVAILABLE })
    // undone: both charges are there, as the file holds them
    await expectAll(server.url, [kept, later])

    immutable(file, false)
    expect((await call('POST', '/_sandbox/snapshot', snapshot)).status).toBe(200)
    await expectAll(server.url, [kept])
    expect((await query(server.url, later)).status).toBe(404)
    await stop(server)
    const again = await start(['--data', file])
    await expectAll(again.url, [kept])
    expect((await query(again.url, later)).status).toBe(404)
  }, 60_000)
})

/** A tmpfs of `size` mounted for this test (unmounted after it), and a data file path on it. */
function smallDisk(size: string): { mnt: string; file: string } {
  const mnt = mkdtempSync(join(tmpdir(), 'paysandbox-full-'))
  expect(can('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mnt]), 'mounting a tmpfs needs root, as CI has').toBe(true)
  cleanups.push(() => {
    can('umount', ['-l', mnt])
    rmSync(mnt, { recursive: true, force: true })
  })
  return { mnt, file: join(mnt, 'data.json') }
}

describe('a disk that fills up (a small tmpfs filled to the brim)', () => {
  it('answers 503 for what it cannot write and keeps the file valid; accepts the retry once space is back; every acknowledged charge is back after a restart', async () => {
    const { mnt, file } = smallDisk('1m')
    const server = await start(['--data', file])
    const acknowledged = await chargeAcknowledged(server.url, 3)

    // fill the disk: a filler file written until the disk refuses it
    const filler = join(mnt, 'filler')
    try {
      execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { stdio: 'ignore' })
    } catch {
      /* dd ends with "No space left on device" */
    }
    // the data file's last page may still hold a charge or two: charge until one is refused
    let refused: ReturnType<typeof cardPayload> | undefined
    for (let i = 0; i < 20 && !refused; i++) {
      const p = cardPayload(NO_AUTH_CARD)
      const r = await charge(server.url, p)
      if (r.status === 200) acknowledged.push(p.reference)
      else {
        expect(r).toEqual({ status: 503, body: UNAVAILABLE })
        refused = p
      }
    }
    expect(refused).toBeDefined()
    expect((await query(server.url, refused!.reference)).status).toBe(404)
    // the file is still valid JSON and holds every acknowledged charge
    const text = readFileSync(file, 'utf8')
    expect(() => JSON.parse(text)).not.toThrow()
    for (const reference of acknowledged) expect(text).toContain(`"payment_reference":${JSON.stringify(reference)}`)
    // still full: refused again, and still not shown
    expect((await charge(server.url, refused!)).status).toBe(503)
    expect((await query(server.url, refused!.reference)).status).toBe(404)

    rmSync(filler)
    const retry = await charge(server.url, refused!)
    expect(retry.status).toBe(200)
    acknowledged.push(refused!.reference)

    await stop(server, 'SIGKILL')
    const again = await start(['--data', file])
    await expectAll(again.url, acknowledged)
  }, 60_000)
})

describe('a disk that fills up under load (10 concurrent clients)', () => {
  it('never acknowledges what it could not write and never shows it; loses nothing acknowledged through a kill -9', async () => {
    const { mnt, file } = smallDisk('2m')
    const server = await start(['--data', file])
    const acknowledged: string[] = []
    const refused: string[] = []
    const unexpected: string[] = []
    let sent = 0
    // each phase runs until its condition holds (bounded by a count of requests, not by time)
    const run = (until: () => boolean) =>
      Promise.all(
        Array.from({ length: 10 }, async () => {
          while (!until() && sent < 20_000) {
            sent++
            const p = cardPayload(NO_AUTH_CARD)
            const r = await charge(server.url, p)
            if (r.status === 200) acknowledged.push(p.reference)
            else if (r.status === 503 && r.body.message === UNAVAILABLE.message) refused.push(p.reference)
            else unexpected.push(`${r.status} ${JSON.stringify(r.body)}`)
          }
        }),
      )
    await run(() => acknowledged.length >= 50)
    const filler = join(mnt, 'filler')
    try {
      execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { stdio: 'ignore' })
    } catch {
      /* dd ends with "No space left on device" */
    }
    await run(() => refused.length >= 100)
    expect(refused.length).toBeGreaterThanOrEqual(100)
    // while full, with writes under way beside them, no refused charge is ever shown
    const shown: string[] = []
    await Promise.all([
      run(() => refused.length >= 300),
      (async () => {
        for (const reference of refused.slice(0, 100)) {
          const q = await query(server.url, reference)
          if (q.status === 200) shown.push(reference)
          else if (q.status !== 404 && q.status !== 503) unexpected.push(`query ${q.status}`)
        }
      })(),
    ])
    expect(shown).toEqual([])
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow()

    rmSync(filler)
    const before = acknowledged.length
    await run(() => acknowledged.length >= before + 100)
    expect(unexpected).toEqual([])

    await stop(server, 'SIGKILL')
    const again = await start(['--data', file])
    await expectAll(again.url, acknowledged)
    for (const reference of refused.slice(0, 100)) expect((await query(again.url, reference)).status).toBe(404)
  }, 120_000)
})

describe('recovery on open', () => {
  /** A file written by a real server: `n` charges, stopped cleanly. */
  async function written(n: number): Promise<{ file: string; refs: string[] }> {
    const file = tempFile()
    const server = await start(['--data', file])
    const refs: string[] = []
    for (let i = 0; i < n; i++) {
      const p = cardPayload(NO_AUTH_CARD)
      expect((await charge(server.url, p)).status).toBe(200)
      refs.push(p.reference)
    }
    await stop(server)
    return { file, refs }
  }

  function damagedFiles(file: string): string[] {
    return readdirSync(dirname(file)).filter((f) => f.startsWith(`${basename(file)}.damaged-`))
  }

  it('one junk byte appended: every change is kept, the byte set aside beside the file and named on stderr', async () => {
    const { file, refs } = await written(3)
    appendFileSync(file, 'X')
    const server = await start(['--data', file])
    await expectAll(server.url, refs)
    const aside = damagedFiles(file)
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dirname(file), aside[0]), 'utf8')).toBe('X')
    expect(server.stderr()).toContain(join(dirname(file), aside[0]))
  }, 60_000)

  it('a last line cut short (a torn write) and junk after it: every complete change is kept, the rest set aside and named', async () => {
    const { file, refs } = await written(3)
    const text = readFileSync(file, 'utf8')
    const torn = `\n,{"n":"${SECRET}","c":"charges","k":"cut-sh`
    writeFileSync(file, text.slice(0, -2) + torn)
    const server = await start(['--data', file])
    await expectAll(server.url, refs)
    const aside = damagedFiles(file)
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dirname(file), aside[0]), 'utf8')).toBe(torn)
    expect(server.stderr()).toContain(aside[0])
    // the file was written whole again: valid, and a restart finds the same
    await stop(server)
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow()
    const again = await start(['--data', file])
    await expectAll(again.url, refs)
  }, 60_000)

  it('a compaction\'s temporary file left by a kill is removed at start', async () => {
    const { file, refs } = await written(2)
    const tmp = join(dirname(file), `.${basename(file)}.compact.tmp`)
    writeFileSync(tmp, '{"paysandbox":1,"snapshot":{"half-writ')
    const server = await start(['--data', file])
    expect(existsSync(tmp)).toBe(false)
    await expectAll(server.url, refs)
  }, 60_000)
})

describe('records of the wrong type (a hand-edited file)', () => {
  /** A real file (a charge, a clock moved), read back as one document to edit. */
  async function realDoc(): Promise<{ file: string; doc: any; reference: string; txKey: string }> {
    const file = tempFile()
    const server = await start(['--data', file])
    const p = cardPayload(NO_AUTH_CARD)
    expect((await charge(server.url, p)).status).toBe(200)
    const adv = await fetch(`${server.url}/_sandbox/clock/advance`, { method: 'POST', headers, body: JSON.stringify({ seconds: 60 }) })
    expect(adv.status).toBe(200)
    await stop(server)
    // replayed into one snapshot, as a person editing it would see it
    const raw = JSON.parse(readFileSync(file, 'utf8'))
    for (const d of raw.deltas) ((raw.snapshot[d.n] ??= {})[d.c] ??= {})[d.k] = d.v
    raw.deltas = []
    const txKey = Object.keys(raw.snapshot[SECRET].charges).find((k) => raw.snapshot[SECRET].charges[k].payment_reference === p.reference)!
    return { file, doc: raw, reference: p.reference, txKey }
  }

  const EDITS: [string, (doc: any, txKey: string) => void, string][] = [
    ['a charge that is a number', (doc, k) => (doc.snapshot[SECRET].charges[k] = 42), 'the record must be an object'],
    ['a charge whose amount is a string', (doc, k) => (doc.snapshot[SECRET].charges[k].amount = '1000'), 'field "amount" must be a whole number of minor units, 0 to 5000000000000000'],
    ['a clock offset that is a string', (doc) => (doc.snapshot[SECRET].meta.clock.offset_ms = '60000'), 'field "offset_ms" must be a finite number'],
    ['a timer with a null payload', (doc) => (doc.snapshot[SECRET].timers = { tmr_hand: { id: 'tmr_hand', due: 1, kind: 'webhook.retry', payload: null, seq: 1 } }), 'field "payload" must be an object'],
    // a pack the control API would refuse (a delay past every valid date) cannot come in by the file either
    ['an added pack with a prompt delay of 1e300 seconds', (doc) => (doc.snapshot[SECRET].packs = { '1': { seq: 1, pack: { settings: { stk_delay_seconds: 1e300 } } } }), 'field "pack": settings.stk_delay_seconds'],
    ['a capture whose amount is a string', (doc, k) => (doc.snapshot[SECRET].card_ops = { 'KPY-CA-HAND': { transaction_reference: 'KPY-CA-HAND', payment_reference: 'hand', parent: k, charge_operation: 'capture', amount: '1000', currency: 'NGN', status: 'success', created_at: '2025-01-15T12:00:00.000Z' } }), 'field "amount" must be a whole number of minor units, 0 to 5000000000000000'],
    ['a seeded mandate with a null history', (doc) => (Object.values<any>(doc.snapshot[SECRET].dd_authorizations)[0].history = null), 'field "history" must be an array'],
    ['an identity check whose matches are a string', (doc) => (doc.snapshot[SECRET].identity_checks = { idc_hand: { reference: 'idc_hand', id_type: 'bvn', id: '22222222222', found: true, mode: 'data', matches: 'all', created_at: '2025-01-15T12:00:00.000Z' } }), 'field "matches" must be an object'],
    // what a kind's own code reads (declared by the area serving the kind), checked as the common fields are
    ['a card charge without its card', (doc, k) => delete doc.snapshot[SECRET].charges[k].card, 'field "card" must be an object'],
    ['a card charge whose card lacks its last four digits', (doc, k) => delete doc.snapshot[SECRET].charges[k].card.last_four, 'field "card.last_four" must be a string'],
    ['a charge of a kind no area serves', (doc, k) => (doc.snapshot[SECRET].charges[k].kind = 'cheque'), 'field "kind" must be one of card, '],
    ['a collection no module declares', (doc) => (doc.snapshot[SECRET].gone = { k: {} }), 'no such collection is kept'],
  ]

  it.each(EDITS)('%s: refused at start with one line naming the collection, key and field; the file untouched', async (_label, edit, problem) => {
    const { file, doc, txKey } = await realDoc()
    edit(doc, txKey)
    const text = JSON.stringify(doc)
    writeFileSync(file, text)
    const r = await runCli(['start', '--port', '0', '--data', file])
    expect(r.code).toBe(2)
    expect(r.stdout).not.toContain('listening')
    const lines = r.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`cannot use data file ${file}: invalid record`)
    expect(lines[0]).toContain(problem)
    expect(lines[0]).toMatch(/namespace "sk_test_sandbox", collection "(charges|meta|timers|packs|card_ops|dd_authorizations|identity_checks|gone)", key "[^"]*"/)
    expect(readFileSync(file, 'utf8')).toBe(text)
    expect(existsSync(`${file}.lock`)).toBe(false)
  }, 60_000)

  it('the same document unedited starts and answers its charge', async () => {
    const { file, doc, reference } = await realDoc()
    writeFileSync(file, JSON.stringify(doc))
    const server = await start(['--data', file])
    await expectAll(server.url, [reference])
  }, 60_000)
})

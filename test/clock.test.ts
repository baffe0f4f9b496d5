import { afterEach, describe, expect, it, vi } from 'vitest'
import { Clocks, type Timer } from '../src/clock.js'
import type { Store } from '../src/store/store.js'
import { openStore, tempFile } from './helpers/sandbox.js'

const T0 = Date.UTC(2025, 0, 15, 12, 0, 0)
const NS = 'sk_test_clock'

/** A clock over a fake wall time the test moves by hand; real timers are not armed. */
function fakeWall(start = T0) {
  const wall = { now: start }
  return { wall, wallNow: () => wall.now }
}

const stores: Store[] = []
const clocksList: Clocks[] = []
async function setup(file?: string, start = T0) {
  const { wall, wallNow } = fakeWall(start)
  const store = await openStore({ file })
  stores.push(store)
  const clocks = new Clocks(store, { wallNow })
  // manual only: these tests move the clock themselves, never through setTimeout
  clocks.stop()
  clocksList.push(clocks)
  return { wall, store, clocks }
}
afterEach(async () => {
  for (const c of clocksList.splice(0)) c.stop()
  for (const s of stores.splice(0)) await s.close()
  vi.useRealTimers()
})

/** Records every firing: kind, payload.name, the clock reading inside the handler. */
function recorder(clocks: Clocks, kinds = ['t']) {
  const fired: { ns: string; name: unknown; now: number; due: number }[] = []
  for (const kind of kinds) {
    clocks.on(kind, (ns, payload, timer: Timer) => {
      fired.push({ ns, name: payload.name, now: clocks.now(ns), due: timer.due })
    })
  }
  return fired
}

describe('Clocks', () => {
  it('reads wall time plus the namespace offset', async () => {
    const { wall, clocks } = await setup()
    expect(clocks.now(NS)).toBe(T0)
    expect(clocks.offset(NS)).toBe(0)
    expect(clocks.iso(NS)).toBe('2025-01-15T12:00:00.000Z')
    wall.now += 1234
    expect(clocks.now(NS)).toBe(T0 + 1234)
    clocks.advanceBy(NS, 60_000)
    expect(clocks.offset(NS)).toBe(60_000)
    expect(clocks.now(NS)).toBe(T0 + 1234 + 60_000)
    // it keeps running at wall speed from its offset
    wall.now += 500
    expect(clocks.now(NS)).toBe(T0 + 1734 + 60_000)
    expect(clocks.iso(NS)).toBe(new Date(T0 + 1734 + 60_000).toISOString())
  })

  it('advanceTo moves to exactly the target', async () => {
    const { wall, clocks } = await setup()
    wall.now += 10
    clocks.advanceTo(NS, T0 + 3_600_000)
    expect(clocks.now(NS)).toBe(T0 + 3_600_000)
    expect(clocks.offset(NS)).toBe(3_600_000 - 10)
  })

  it('fires the timers due in the window in due order, same-due ones in scheduling order', async () => {
    const { clocks } = await setup()
    const fired = recorder(clocks)
    clocks.schedule(NS, 3000, 't', { name: 'c' })
    clocks.schedule(NS, 1000, 't', { name: 'a1' })
    clocks.schedule(NS, 5000, 't', { name: 'late' })
    clocks.schedule(NS, 1000, 't', { name: 'a2' })
    clocks.schedule(NS, 2000, 't', { name: 'b' })
    clocks.schedule(NS, 1000, 't', { name: 'a3' })
    clocks.scheduleAt(NS, T0 + 4000, 't', { name: 'at-4000' })
    expect(clocks.pending(NS).map((t) => t.payload.name)).toEqual(['a1', 'a2', 'a3', 'b', 'c', 'at-4000', 'late'])

    clocks.advanceBy(NS, 4000)
    expect(fired.map((f) => f.name)).toEqual(['a1', 'a2', 'a3', 'b', 'c', 'at-4000'])
    expect(clocks.pending(NS).map((t) => t.payload.name)).toEqual(['late'])
    expect(clocks.now(NS)).toBe(T0 + 4000)

    clocks.advanceTo(NS, T0 + 5000)
    expect(fired.map((f) => f.name)).toEqual(['a1', 'a2', 'a3', 'b', 'c', 'at-4000', 'late'])
    expect(clocks.pending(NS)).toEqual([])
  })

  it('passes the namespace, payload and timer to the handler of its kind', async () => {
    const { clocks } = await setup()
    const seen: unknown[] = []
    clocks.on('settle', (ns, payload, timer) => seen.push(['settle', ns, payload, timer.kind, timer.due]))
    clocks.on('expire', (ns, payload) => seen.push(['expire', ns, payload]))
    const id = clocks.schedule(NS, 10, 'settle', { ref: 'tx1' })
    expect(id).toMatch(/^tmr_/)
    clocks.schedule(NS, 20, 'expire', { ref: 'tx2' })
    clocks.advanceBy(NS, 20)
    expect(seen).toEqual([
      ['settle', NS, { ref: 'tx1' }, 'settle', T0 + 10],
      ['expire', NS, { ref: 'tx2' }],
    ])
  })

  it('fires a timer at exactly the target, not one a millisecond after', async () => {
    const { clocks } = await setup()
    const fired = recorder(clocks)
    clocks.schedule(NS, 1000, 't', { name: 'edge' })
    clocks.schedule(NS, 1001, 't', { name: 'after' })
    clocks.advanceTo(NS, T0 + 1000)
    expect(fired.map((f) => f.name)).toEqual(['edge'])
  })

  it('also fires timers that firing timers schedule inside the window, in order', async () => {
    const { clocks } = await setup()
    const fired: { name: string; now: number }[] = []
    clocks.on('chain', (ns, payload: { name: string; left: number }) => {
      fired.push({ name: payload.name, now: clocks.now(ns) })
      if (payload.left > 0) clocks.schedule(ns, 1000, 'chain', { name: `${payload.name}+`, left: payload.left - 1 })
    })
    clocks.on('other', (ns, payload: { name: string }) => fired.push({ name: payload.name, now: clocks.now(ns) }))
    clocks.schedule(NS, 1000, 'chain', { name: 'x', left: 10 })
    clocks.schedule(NS, 2500, 'other', { name: 'y' })
    clocks.advanceBy(NS, 3500)
    // x at 1000, x+ at 2000, y at 2500, x++ at 3000; x+++ would be at 4000: beyond the window
    expect(fired).toEqual([
      { name: 'x', now: T0 + 1000 },
      { name: 'x+', now: T0 + 2000 },
      { name: 'y', now: T0 + 2500 },
      { name: 'x++', now: T0 + 3000 },
    ])
    expect(clocks.pending(NS).map((t) => [t.payload.name, t.due])).toEqual([['x+++', T0 + 4000]])
    expect(clocks.now(NS)).toBe(T0 + 3500)
  })

  it('reads the due time of the timer inside its handler, then the target after the advance', async () => {
    const { wall, clocks } = await setup()
    const fired = recorder(clocks)
    wall.now += 7
    clocks.schedule(NS, 60_000, 't', { name: 'one' })
    clocks.schedule(NS, 3_600_000, 't', { name: 'two' })
    clocks.advanceBy(NS, 24 * 3_600_000)
    expect(fired.map((f) => f.now)).toEqual([T0 + 7 + 60_000, T0 + 7 + 3_600_000])
    expect(fired.map((f) => f.now)).toEqual(fired.map((f) => f.due))
    expect(clocks.now(NS)).toBe(T0 + 7 + 24 * 3_600_000)
  })

  it('never goes backwards', async () => {
    const { wall, clocks } = await setup()
    clocks.advanceBy(NS, 10_000)
    const before = clocks.now(NS)
    clocks.advanceTo(NS, before - 5000)
    expect(clocks.now(NS)).toBe(before)
    clocks.advanceBy(NS, -5000)
    expect(clocks.now(NS)).toBe(before)
    expect(clocks.offset(NS)).toBe(10_000)
    clocks.advanceTo(NS, 0)
    expect(clocks.now(NS)).toBe(before)
    wall.now += 1
    expect(clocks.now(NS)).toBe(before + 1)
  })

  it('does not fire a timer scheduled in the past before the clock is advanced, then fires it at once', async () => {
    const { clocks } = await setup()
    const fired = recorder(clocks)
    clocks.scheduleAt(NS, T0 - 1000, 't', { name: 'overdue' })
    expect(fired).toEqual([])
    clocks.advanceBy(NS, 0)
    expect(fired.map((f) => f.name)).toEqual(['overdue'])
    // a handler never sees the clock before the moment the advance started
    expect(fired[0].now).toBe(T0)
    expect(clocks.now(NS)).toBe(T0)
  })

  it('keeps the other timers firing when a handler throws', async () => {
    const { clocks } = await setup()
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const fired = recorder(clocks)
    clocks.on('boom', () => {
      throw new Error('handler failed')
    })
    clocks.schedule(NS, 1, 'boom', {})
    clocks.schedule(NS, 2, 't', { name: 'after-boom' })
    clocks.advanceBy(NS, 10)
    expect(fired.map((f) => f.name)).toEqual(['after-boom'])
    expect(err).toHaveBeenCalled()
    expect(clocks.now(NS)).toBe(T0 + 10)
  })

  it('cancel() removes a pending timer, from memory and from the store', async () => {
    const { clocks, store } = await setup()
    const fired = recorder(clocks)
    const keep = clocks.schedule(NS, 1000, 't', { name: 'keep' })
    const drop = clocks.schedule(NS, 500, 't', { name: 'drop' })
    expect(store.col(NS, 'timers').has(drop)).toBe(true)
    clocks.cancel(NS, drop)
    expect(store.col(NS, 'timers').has(drop)).toBe(false)
    expect(clocks.pending(NS).map((t) => t.id)).toEqual([keep])
    clocks.cancel(NS, 'tmr_unknown')
    clocks.cancel('sk_test_no_such_namespace', keep)
    expect(clocks.pending(NS).map((t) => t.id)).toEqual([keep])
    clocks.advanceBy(NS, 2000)
    expect(fired.map((f) => f.name)).toEqual(['keep'])
    expect(store.col(NS, 'timers').size).toBe(0)
  })

  it('cancel() keeps the due order of the others', async () => {
    const { clocks } = await setup()
    const fired = recorder(clocks)
    const ids = [50, 10, 40, 20, 30, 60, 5].map((d) => clocks.schedule(NS, d, 't', { name: d }))
    clocks.cancel(NS, ids[0])
    clocks.cancel(NS, ids[6])
    clocks.advanceBy(NS, 100)
    expect(fired.map((f) => f.name)).toEqual([10, 20, 30, 40, 60])
  })

  it('a namespace reset goes back to wall time with no timers', async () => {
    const { wall, store, clocks } = await setup()
    const fired = recorder(clocks)
    clocks.advanceBy(NS, 86_400_000)
    clocks.schedule(NS, 1000, 't', { name: 'dropped' })
    store.resetNamespace(NS)
    expect(clocks.offset(NS)).toBe(0)
    expect(clocks.now(NS)).toBe(wall.now)
    expect(clocks.pending(NS)).toEqual([])
    clocks.advanceBy(NS, 5000)
    expect(fired).toEqual([])
    expect(clocks.now(NS)).toBe(wall.now + 5000)
  })

  it('keeps namespaces independent', async () => {
    const { store, clocks } = await setup()
    const fired = recorder(clocks)
    const A = 'sk_test_a'
    const B = 'sk_test_b'
    clocks.schedule(A, 1000, 't', { name: 'a' })
    clocks.schedule(B, 1000, 't', { name: 'b' })
    clocks.advanceBy(A, 3_600_000)
    expect(clocks.now(A)).toBe(T0 + 3_600_000)
    expect(clocks.now(B)).toBe(T0)
    expect(clocks.offset(B)).toBe(0)
    expect(fired).toEqual([{ ns: A, name: 'a', now: T0 + 1000, due: T0 + 1000 }])
    expect(clocks.pending(B).map((t) => t.payload.name)).toEqual(['b'])
    store.resetNamespace(A)
    expect(clocks.pending(B)).toHaveLength(1)
    clocks.advanceBy(B, 1000)
    expect(fired.map((f) => [f.ns, f.name])).toEqual([
      [A, 'a'],
      [B, 'b'],
    ])
    expect(clocks.now(A)).toBe(T0)
    expect(clocks.now(B)).toBe(T0 + 1000)
  })

  it('stores the offset in the namespace, and a new Clocks over a reopened file sees it and its pending timers', async () => {
    const file = tempFile()
    const first = await setup(file)
    first.clocks.advanceBy(NS, 2 * 3_600_000)
    first.clocks.advanceBy('sk_test_other', 1000)
    expect(first.store.col<{ offset_ms: number }>(NS, 'meta').get('clock')).toEqual({ offset_ms: 2 * 3_600_000, frozen_at: null })
    const later = first.clocks.schedule(NS, 60_000, 'settle', { ref: 'later' })
    const sooner = first.clocks.schedule(NS, 30_000, 'settle', { ref: 'sooner' })
    first.clocks.schedule(NS, 30_000, 'settle', { ref: 'sooner-2' })
    const cancelled = first.clocks.schedule(NS, 10_000, 'settle', { ref: 'cancelled' })
    first.clocks.cancel(NS, cancelled)
    first.clocks.stop()
    await first.store.close()
    stores.splice(stores.indexOf(first.store), 1)

    // a restart, some wall time later
    const second = await setup(file, T0 + 5000)
    expect(second.clocks.offset(NS)).toBe(2 * 3_600_000)
    expect(second.clocks.now(NS)).toBe(T0 + 5000 + 2 * 3_600_000)
    expect(second.clocks.offset('sk_test_other')).toBe(1000)
    const pending = second.clocks.pending(NS)
    expect(pending.map((t) => t.payload.ref)).toEqual(['sooner', 'sooner-2', 'later'])
    expect(pending.map((t) => t.id)).toEqual([sooner, expect.any(String), later])
    expect(pending.map((t) => t.due)).toEqual([T0 + 2 * 3_600_000 + 30_000, T0 + 2 * 3_600_000 + 30_000, T0 + 2 * 3_600_000 + 60_000])

    const fired: { ref: unknown; now: number }[] = []
    second.clocks.on('settle', (ns, payload) => fired.push({ ref: payload.ref, now: second.clocks.now(ns) }))
    second.clocks.advanceBy(NS, 60_000)
    expect(fired).toEqual([
      { ref: 'sooner', now: T0 + 2 * 3_600_000 + 30_000 },
      { ref: 'sooner-2', now: T0 + 2 * 3_600_000 + 30_000 },
      { ref: 'later', now: T0 + 2 * 3_600_000 + 60_000 },
    ])
    await second.store.close()
    stores.splice(stores.indexOf(second.store), 1)

    // fired timers are gone from the file, and the new offset is in it
    const third = await setup(file, T0 + 5000)
    expect(third.clocks.pending(NS)).toEqual([])
    expect(third.clocks.offset(NS)).toBe(2 * 3_600_000 + 60_000)
  })

  it('a namespace reset is persisted: offset 0 and no timers after a restart', async () => {
    const file = tempFile()
    const first = await setup(file)
    first.clocks.advanceBy(NS, 3_600_000)
    first.clocks.schedule(NS, 1000, 'settle', {})
    first.store.resetNamespace(NS)
    await first.store.close()
    stores.splice(stores.indexOf(first.store), 1)

    const second = await setup(file)
    expect(second.clocks.offset(NS)).toBe(0)
    expect(second.clocks.now(NS)).toBe(T0)
    expect(second.clocks.pending(NS)).toEqual([])
  })

  it('fires a due timer by itself once its time comes, when started', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { wall, wallNow } = fakeWall()
    const store = await openStore()
    stores.push(store)
    const clocks = new Clocks(store, { wallNow })
    clocksList.push(clocks)
    const fired: number[] = []
    clocks.on('t', (ns) => fired.push(clocks.now(ns)))
    clocks.start()
    clocks.schedule(NS, 2000, 't', {})
    wall.now += 1999
    vi.advanceTimersByTime(1999)
    expect(fired).toEqual([])
    wall.now += 1
    vi.advanceTimersByTime(1)
    expect(fired).toEqual([T0 + 2000])
    expect(clocks.pending(NS)).toEqual([])
  })
})

describe('a frozen clock', () => {
  it('stands still until advanced, fires timers only when advanced, and resumes from where it stands', async () => {
    const { Clocks } = await import('../src/clock.js')
    let wall = 1_700_000_000_000
    const clocks = new Clocks(await openStore(), { wallNow: () => wall })
    const fired: number[] = []
    clocks.on('tick', (ns) => fired.push(clocks.now(ns)))
    clocks.freeze('ns', true)
    clocks.schedule('ns', 1_000, 'tick', {})
    wall += 60_000
    expect(clocks.now('ns')).toBe(1_700_000_000_000)
    expect(fired).toEqual([])
    clocks.advanceBy('ns', 999)
    expect(fired).toEqual([])
    clocks.advanceBy('ns', 1)
    expect(fired).toEqual([1_700_000_001_000])
    expect(clocks.now('ns')).toBe(1_700_000_001_000)
    clocks.freeze('ns', false)
    wall += 5_000
    expect(clocks.now('ns')).toBe(1_700_000_006_000)
    clocks.stop()
  })
})

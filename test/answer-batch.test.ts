import { describe, expect, it } from 'vitest'
import { createAnswerBatch } from '../src/http/answer-batch.js'

/** what has been handed over so far */
function track<T>(p: Promise<T>, out: T[]) {
  void p.then((v) => out.push(v))
}
const microtasks = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}
const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('the answer batch (src/http/answer-batch.ts)', () => {
  it('hands over the answers of one turn together, at its end, in their order', async () => {
    const batch = createAnswerBatch<string>()
    const out: string[] = []
    track(batch('a'), out)
    track(batch('b'), out)
    track(batch(Promise.resolve('c')), out)
    await microtasks()
    expect(out).toEqual([])
    await endOfTurn()
    await microtasks()
    expect(out).toEqual(['a', 'b', 'c'])
  })

  it('starts a new batch for the next turn', async () => {
    const batch = createAnswerBatch<number>()
    const out: number[] = []
    track(batch(1), out)
    await endOfTurn()
    await microtasks()
    track(batch(2), out)
    await microtasks()
    expect(out).toEqual([1])
    await endOfTurn()
    await microtasks()
    expect(out).toEqual([1, 2])
  })

  it('hands over an answer not ready by the end of its turn at the end of the turn it is ready in, and passes a failure on at once', async () => {
    const batch = createAnswerBatch<string>()
    const out: string[] = []
    let finish!: (v: string) => void
    track(batch(new Promise<string>((resolve) => (finish = resolve))), out)
    track(batch('ready'), out)
    const failed = batch(Promise.reject(new Error('boom')))
    await expect(failed).rejects.toThrow('boom')
    expect(out).toEqual([])
    await endOfTurn()
    await microtasks()
    expect(out).toEqual(['ready'])
    finish('late')
    track(batch('next'), out)
    await microtasks()
    expect(out).toEqual(['ready'])
    await endOfTurn()
    await microtasks()
    // in the order they were ready: 'next' at once, 'late' a microtask later
    expect(out).toEqual(['ready', 'next', 'late'])
  })
})

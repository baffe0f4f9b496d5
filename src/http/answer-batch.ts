/**
 * Hands the answers of one event-loop turn to node together, at the end of the turn (a
 * setImmediate), instead of each as soon as it is ready: flush consolidation, as Netty's
 * FlushConsolidationHandler does.
 *
 * Why: a client on the same machine (a test suite, the bench's load generator) sleeps while it
 * waits, and the write that hands it an answer also wakes it, inside the server's own system call:
 * on this VM that wake-up (an inter-processor interrupt) was ~11 % of a card charge's CPU time. A
 * bare Hono server made to spend paysandbox's CPU per request spent 57 µs per request in node and
 * the kernel instead of its 32 µs unloaded. Answers written back to back wake a sleeping client
 * once: the first write wakes it and the next ones find it awake. Measured (`npm run bench --
 * --only card`): 118 -> 74-79 µs of CPU per card charge, p50 0.98 -> 0.59-0.69 ms, p99 3.0 ->
 * 2.3-2.6 ms.
 *
 * An answer still being made (a promise) joins the batch of the turn in which it is ready (a long
 * poll, a write to the data file: a later turn); a failure is passed on at once. Within a turn,
 * answers keep the order in which they were ready.
 */
export function createAnswerBatch<T>(): (answer: T | Promise<T>) => Promise<T> {
  let resolvers: ((answer: T) => void)[] = []
  let answers: T[] = []
  const flush = () => {
    const r = resolvers
    const a = answers
    resolvers = []
    answers = []
    for (let i = 0; i < r.length; i++) r[i](a[i])
  }
  const add = (resolve: (answer: T) => void, answer: T) => {
    if (resolvers.push(resolve) === 1) setImmediate(flush)
    answers.push(answer)
  }
  return (answer) =>
    new Promise<T>((resolve, reject) => {
      if (answer instanceof Promise) answer.then((ready) => add(resolve, ready), reject)
      else add(resolve, answer)
    })
}

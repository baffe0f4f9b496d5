// bench/load.mjs, the benchmarks' load generator, against real servers on port 0: what it counts,
// what it sends, and how it reads answers that arrive in pieces, close their connection or cannot
// be timed.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module of the bench, without type declarations
import { runLoad } from '../bench/load.mjs'

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

const servers: Server[] = []
afterEach(async () => {
  while (servers.length) {
    const s = servers.pop()!
    ;(s as { closeAllConnections?: () => void }).closeAllConnections?.()
    await new Promise((r) => s.close(r))
  }
})

async function listen(s: Server): Promise<string> {
  servers.push(s)
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`
}

/**
 * A node:http server that records every request (method, url, headers, body) and answers with
 * `answer(n, req, res)` (n from 1), by default 200 "ok"; `connections` counts the TCP connections.
 */
async function httpServer(answer: (n: number, req: IncomingMessage, res: ServerResponse) => void = (_n, _q, res) => res.end('ok')) {
  const seen: Seen[] = []
  const stats = { connections: 0 }
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('latin1') })
      answer(seen.length, req, res)
    })
  })
  server.on('connection', () => stats.connections++)
  const url = await listen(server)
  return { url, seen, stats }
}

/** Statuses counted from onAnswer, and every latency it was given. */
function tally() {
  const statuses: Record<number, number> = {}
  const ms: number[] = []
  return {
    statuses,
    ms,
    onAnswer: (status: number, t: number) => {
      statuses[status] = (statuses[status] ?? 0) + 1
      ms.push(t)
    },
  }
}

/**
 * A raw TCP server for GET requests (no body): for each request head it reads, it writes the
 * pieces of `parts(n)` one after another with `gapMs` between them (each its own write, Nagle off).
 */
async function rawServer(parts: (n: number) => string[], gapMs = 15) {
  let n = 0
  const server = createNetServer((sock: Socket) => {
    sock.setNoDelay(true)
    let buf = ''
    let queue = Promise.resolve()
    sock.on('data', (d) => {
      buf += d.toString('latin1')
      for (let end = buf.indexOf('\r\n\r\n'); end >= 0; end = buf.indexOf('\r\n\r\n')) {
        buf = buf.slice(end + 4)
        const pieces = parts(++n)
        queue = queue.then(async () => {
          for (const [k, p] of pieces.entries()) {
            if (k > 0) await sleep(gapMs)
            if (sock.destroyed) return
            sock.write(p)
          }
        })
      }
    })
    sock.on('error', () => {})
  })
  const url = await listen(server)
  return { url, requests: () => n }
}

describe('bench/load.mjs runLoad', () => {
  it('counts every answer and gives its status: 200s and 404s', async () => {
    const srv = await httpServer((n, _req, res) => {
      res.statusCode = n % 3 === 0 ? 404 : 200
      res.end(n % 3 === 0 ? 'not here' : '{"status":true}')
    })
    const t = tally()
    const r = await runLoad({ url: srv.url, connections: 3, amount: 30, path: '/x', onAnswer: t.onAnswer })
    expect(srv.seen).toHaveLength(30)
    expect(t.statuses).toEqual({ 200: 20, 404: 10 })
    expect(r).toMatchObject({ sent: 30, answered: 30, errors: 0, timeouts: 0, resets: 0 })
    expect(t.ms).toHaveLength(30)
    for (const ms of t.ms) expect(ms).toBeGreaterThan(0)
    expect(r.seconds).toBeGreaterThan(0)
  })

  it('sends a GET with its path and headers and no body', async () => {
    const srv = await httpServer()
    const r = await runLoad({ url: srv.url, connections: 2, amount: 4, path: '/merchant/api/v1/charges/abc?x=1', headers: { authorization: 'Bearer sk_test_x', 'x-extra': 'yes' } })
    expect(r.answered).toBe(4)
    expect(srv.seen).toHaveLength(4)
    for (const s of srv.seen) {
      expect(s).toMatchObject({ method: 'GET', url: '/merchant/api/v1/charges/abc?x=1', body: '' })
      expect(s.headers).toMatchObject({ authorization: 'Bearer sk_test_x', 'x-extra': 'yes', host: new URL(srv.url).host })
      expect(s.headers['content-length']).toBeUndefined()
    }
  })

  it('sends each POST body intact, strings and Buffers, small and past the 16 KB write buffer', async () => {
    const srv = await httpServer()
    const bodies: (string | Buffer)[] = []
    for (let i = 0; i < 24; i++) {
      const text = `{"reference":"ref-${i}","pad":"${'x'.repeat(i % 4 === 3 ? 40_000 + i : i * 7)}"}`
      bodies.push(i % 2 ? Buffer.from(text, 'latin1') : text)
    }
    let next = 0
    const r = await runLoad({ url: srv.url, connections: 4, amount: bodies.length, method: 'POST', path: '/charges', headers: { 'content-type': 'application/json' }, body: () => bodies[next++] })
    expect(r).toMatchObject({ sent: 24, answered: 24, errors: 0 })
    expect(next).toBe(24)
    const sent = bodies.map((b) => (typeof b === 'string' ? b : b.toString('latin1'))).sort()
    expect(srv.seen.map((s) => s.body).sort()).toEqual(sent)
    for (const s of srv.seen) {
      expect(s).toMatchObject({ method: 'POST', url: '/charges' })
      expect(Number(s.headers['content-length'])).toBe(s.body.length)
      expect(s.headers['content-type']).toBe('application/json')
    }
  })

  it('sends a POST without a body as content-length 0', async () => {
    const srv = await httpServer()
    const r = await runLoad({ url: srv.url, connections: 1, amount: 2, method: 'POST', path: '/reset' })
    expect(r.answered).toBe(2)
    expect(srv.seen.map((s) => [s.method, s.headers['content-length'], s.body])).toEqual([['POST', '0', ''], ['POST', '0', '']])
  })

  it('sends exactly `amount` requests, with fewer or more connections than that', async () => {
    for (const [connections, amount] of [[10, 7], [4, 101], [1, 1]]) {
      const srv = await httpServer()
      const r = await runLoad({ url: srv.url, connections, amount })
      expect(srv.seen).toHaveLength(amount)
      expect(r).toMatchObject({ sent: amount, answered: amount })
    }
  })

  it('reads a response whose head (and body) arrive over several TCP writes', async () => {
    // split inside a header name, between headers, inside the blank line, and in the body
    const srv = await rawServer((n) => [`HTTP/1.1 20`, `${n % 2 ? 0 : 1} OK\r\nConte`, `nt-Length: 7\r\nX-A: b\r\n`, '\r', `\nbody`, `-${n % 10}!`])
    const t = tally()
    const r = await runLoad({ url: srv.url, connections: 2, amount: 6, onAnswer: t.onAnswer })
    expect(r).toMatchObject({ sent: 6, answered: 6, errors: 0, resets: 0 })
    expect(t.statuses).toEqual({ 200: 3, 201: 3 })
    expect(srv.requests()).toBe(6)
    // each latency spans the five gaps between the pieces
    for (const ms of t.ms) expect(ms).toBeGreaterThanOrEqual(5 * 15 - 5)
  })

  it('reads answers without a body: 204, and content-length 0', async () => {
    const srv = await rawServer((n) => (n % 2 ? ['HTTP/1.1 204 No Content\r\nX-A: b\r\n\r\n'] : ['HTTP/1.1 200 OK\r\ncontent-length: 0\r\n', '\r\n']))
    const t = tally()
    const r = await runLoad({ url: srv.url, connections: 1, amount: 4, onAnswer: t.onAnswer })
    expect(r).toMatchObject({ sent: 4, answered: 4, timeouts: 0 })
    expect(t.statuses).toEqual({ 204: 2, 200: 2 })
  })

  it('opens a new connection and goes on when an answer says Connection: close', async () => {
    const srv = await httpServer((n, _req, res) => {
      if (n % 2 === 0) res.setHeader('connection', 'close')
      res.end('ok')
    })
    const t = tally()
    const r = await runLoad({ url: srv.url, connections: 2, amount: 20, onAnswer: t.onAnswer })
    expect(r).toMatchObject({ sent: 20, answered: 20, errors: 0, resets: 0, timeouts: 0 })
    expect(t.statuses).toEqual({ 200: 20 })
    expect(srv.seen).toHaveLength(20)
    // the 2 first connections and one more after each of the 10 closes (but the last)
    expect(srv.stats.connections).toBeGreaterThanOrEqual(2 + 9)
  })

  it('counts a connection the server drops with a request in flight as a reset, and goes on', async () => {
    const srv = await httpServer((n, req, res) => {
      if (n === 3) req.socket.destroy()
      else res.end('ok')
    })
    const r = await runLoad({ url: srv.url, connections: 1, amount: 6 })
    expect(r).toMatchObject({ sent: 6, answered: 5, resets: 1, timeouts: 0 })
    expect(srv.seen).toHaveLength(6)
  })

  it('rejects a chunked answer with its reason', async () => {
    const srv = await httpServer((_n, _req, res) => {
      res.write('part one, ')
      res.end('part two')
    })
    await expect(runLoad({ url: srv.url, connections: 2, amount: 4 })).rejects.toThrow(/chunked/)
  })

  it('rejects when nothing listens on the port', async () => {
    const probe = createNetServer()
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
    const port = (probe.address() as AddressInfo).port
    await new Promise((r) => probe.close(r))
    await expect(runLoad({ url: `http://127.0.0.1:${port}`, connections: 3, duration: 1 })).rejects.toMatchObject({ code: 'ECONNREFUSED' })
  })

  it('rejects an https URL (it speaks plain HTTP/1.1 only)', async () => {
    await expect(runLoad({ url: 'https://127.0.0.1:1', connections: 1, duration: 1 })).rejects.toThrow(/http:\/\/ only/)
  })

  it('rejects, rather than throwing out of a socket callback, when body() throws', async () => {
    const srv = await httpServer()
    let k = 0
    const body = () => {
      if (++k === 5) throw new Error('no more bodies')
      return '{}'
    }
    await expect(runLoad({ url: srv.url, connections: 2, amount: 10, method: 'POST', body })).rejects.toThrow('no more bodies')
  })

  it('at the end of its duration, waits for the requests in flight and counts their answers', async () => {
    // every answer takes 40 ms: at the stop, every connection has one request in flight
    const srv = await httpServer((_n, _req, res) => {
      setTimeout(() => res.end('ok'), 40)
    })
    const answers: { at: number; ms: number }[] = []
    const r = await runLoad({ url: srv.url, connections: 3, duration: 0.1, onAnswer: (_s: number, ms: number) => answers.push({ at: performance.now(), ms }) })
    expect(r.sent).toBeGreaterThanOrEqual(3)
    expect(r).toMatchObject({ answered: r.sent, errors: 0, timeouts: 0, resets: 0 })
    expect(srv.seen).toHaveLength(r.sent)
    expect(answers).toHaveLength(r.sent)
    // the seconds run from the first request's write to the last answer: no answer counted falls
    // outside them (the rate is answers over seconds)
    const firstWrite = Math.min(...answers.map((a) => a.at - a.ms))
    const lastAnswer = Math.max(...answers.map((a) => a.at))
    expect(r.seconds * 1000).toBeGreaterThanOrEqual(lastAnswer - firstWrite - 0.5)
  })

  it('times out a request never answered, then makes its connection again', async () => {
    const srv = await httpServer((n, _req, res) => {
      if (n !== 2) res.end('ok')
    })
    const r = await runLoad({ url: srv.url, connections: 1, amount: 4, timeout: 0.2 })
    expect(r).toMatchObject({ sent: 4, answered: 3, timeouts: 1, resets: 0 })
    expect(srv.stats.connections).toBe(2)
  })

  it('stops after maxSeconds whatever is in flight', async () => {
    const srv = await httpServer(() => {}) // never answers
    const r = await runLoad({ url: srv.url, connections: 2, amount: 100, maxSeconds: 0.3, timeout: 60 })
    expect(r).toMatchObject({ sent: 2, answered: 0 })
    expect(r.seconds).toBeGreaterThanOrEqual(0.25)
    expect(r.seconds).toBeLessThan(5)
  })

  it('answers HEAD requests without waiting for a body', async () => {
    const srv = await httpServer((_n, _req, res) => {
      res.setHeader('content-length', '123')
      res.end()
    })
    const r = await runLoad({ url: srv.url, connections: 1, amount: 3, method: 'HEAD', timeout: 1 })
    expect(r).toMatchObject({ sent: 3, answered: 3, timeouts: 0 })
  })
})

import { connect, createServer } from 'node:net'
import { answerClientError } from '../../src/http/client-error.js'
import { describe, expect, it } from 'vitest'
import { SECRET } from '../helpers/sandbox.js'
import { cliPerFile } from './process.js'

/**
 * HTTP that node cannot parse is answered with the envelope too (docs/behaviour.md#status-codes, docs/behaviour.md#envelope): the
 * status node would send bare, a JSON envelope body, `Connection: close`, and the connection closed
 * by the sandbox. Raw bytes on a real socket against the CLI as a process.
 */

const cli = cliPerFile([])

/** Writes `raw` and reads everything until the sandbox closes the connection. */
function exchange(raw: string | Buffer): Promise<{ status: number; headers: Record<string, string>; body: string; raw: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(cli.port, '127.0.0.1', () => socket.write(raw))
    const chunks: Buffer[] = []
    socket.on('data', (d: Buffer) => chunks.push(d))
    socket.on('error', reject)
    // the sandbox closes the connection itself: nothing here ends it
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('latin1')
      const end = all.indexOf('\r\n\r\n')
      const lines = all.slice(0, end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const l of lines.slice(1)) {
        const i = l.indexOf(':')
        headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim()
      }
      resolve({ status: Number(lines[0]?.split(' ')[1]), headers, body: all.slice(end + 4), raw: all })
    })
  })
}

const CASES: [string, string | Buffer, number, string][] = [
  ['a garbage request line', 'GARBAGE\r\n\r\n', 400, 'Malformed HTTP request'],
  ['random bytes', Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x0d, 0x0a, 0x0d, 0x0a]), 400, 'Malformed HTTP request'],
  ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400, 'Malformed HTTP request'],
  ['a Content-Length that is not a number', 'POST /merchant/api/v1/charges/card HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n', 400, 'Malformed HTTP request'],
  ['a negative Content-Length', 'POST /merchant/api/v1/charges/card HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n', 400, 'Malformed HTTP request'],
  [
    'both Content-Length and chunked',
    'POST /merchant/api/v1/charges/card HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    400,
    'Malformed HTTP request',
  ],
  [
    'a bad chunk size (with a valid key: the app has the request when the body breaks)',
    `POST /merchant/api/v1/charges/card HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${SECRET}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    400,
    'Malformed HTTP request',
  ],
  ['a 20 KB header', `GET /_sandbox/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'Request header fields are too large'],
]

describe('malformed HTTP on a real socket (docs/behaviour.md#status-codes, docs/behaviour.md#envelope)', () => {
  it.each(CASES)('%s: %i with the envelope, Connection: close, then closed', async (_name, raw, status, message) => {
    const res = await exchange(raw)
    expect(res.status, res.raw.slice(0, 200)).toBe(status)
    expect(res.headers['content-type']).toBe('application/json')
    expect(res.headers.connection).toBe('close')
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body))
    expect(JSON.parse(res.body)).toEqual({ status: false, message, data: null })
  })

  it('stays up and changes nothing: the health check answers, the journal holds no call of those, and nothing is logged', async () => {
    const health = await fetch(`${cli.running.url}/_sandbox/health`)
    expect(health.status).toBe(200)
    const journal = await fetch(`${cli.running.url}/_sandbox/requests`, { headers: { authorization: `Bearer ${SECRET}` } })
    const body = (await journal.json()) as any
    expect(journal.status).toBe(200)
    // only the bad chunk's request reached the app (its headers were whole): depending on which
    // comes first, the body's failure or the connection's end, it is journaled as refused or not
    // at all; nothing else is, and nothing was stored
    expect(body.data.length).toBeLessThanOrEqual(1)
    for (const e of body.data) {
      expect(e).toMatchObject({ method: 'POST', path: '/merchant/api/v1/charges/card' })
      expect(e.status).toBeGreaterThanOrEqual(400)
    }
    const events = (await (await fetch(`${cli.running.url}/_sandbox/events`, { headers: { authorization: `Bearer ${SECRET}` } })).json()) as any
    expect(events.data).toEqual([])
    expect(cli.running.stderr()).toBe('')
  })
})

describe("the errors node reports that a test cannot provoke in seconds (node's 60 s header timeout, chunk extensions)", () => {
  it.each([
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'Request Timeout', 'Request timed out'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413, 'Payload Too Large', 'Request chunk extensions are too large'],
    ['HPE_INVALID_METHOD', 400, 'Bad Request', 'Malformed HTTP request'],
  ])('%s: %i with the envelope on a real socket, then closed', async (code, status, reason, message) => {
    const server = createServer((socket) => answerClientError(Object.assign(new Error(code), { code }), socket))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port: p } = server.address() as { port: number }
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(p, '127.0.0.1')
        let got = ''
        socket.on('data', (d: Buffer) => (got += d.toString('latin1')))
        socket.on('error', reject)
        socket.on('close', () => resolve(got))
      })
      const [head, body] = raw.split('\r\n\r\n')
      expect(head.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${reason}`)
      expect(head).toContain('Connection: close')
      expect(JSON.parse(body)).toEqual({ status: false, message, data: null })
    } finally {
      server.close()
    }
  })
})

/** Writes `raw` and reads one answer: its head and as many bytes as its Content-Length says. */
function exchangeOne(raw: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(cli.port, '127.0.0.1', () => socket.write(raw))
    let got = ''
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1')
      const end = got.indexOf('\r\n\r\n')
      if (end < 0) return
      const lines = got.slice(0, end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const l of lines.slice(1)) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim()
      const length = Number(headers['content-length'])
      if (got.length - end - 4 < length) return
      socket.destroy()
      resolve({ status: Number(lines[0].split(' ')[1]), headers, body: got.slice(end + 4, end + 4 + length) })
    })
    socket.on('error', reject)
    socket.on('close', () => reject(new Error(`closed with no whole answer: ${JSON.stringify(got)}`)))
  })
}

describe('what node parses but a URL parser does not (docs/behaviour.md#status-codes, docs/behaviour.md#envelope)', () => {
  const TARGETS: [string, string][] = [
    ['a backslash in the path', 'GET /merchant\\api/v1/charges/x HTTP/1.1\r\nHost: localhost\r\n'],
    ['Host: a@x', 'GET /_sandbox/health HTTP/1.1\r\nHost: a@x\r\n'],
    ['Host: x:99999', 'GET /_sandbox/health HTTP/1.1\r\nHost: x:99999\r\n'],
    ['the request target *', 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\n'],
    ['the request target ftp://x/', 'GET ftp://x/ HTTP/1.1\r\nHost: localhost\r\n'],
    ['Host: a@x on a POST with a body', `POST /merchant/api/v1/charges/card HTTP/1.1\r\nHost: a@x\r\nAuthorization: Bearer ${SECRET}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n`],
  ]

  it.each(TARGETS)('%s: 400 Malformed HTTP request with the envelope', async (_name, head) => {
    const res = await exchangeOne(`${head}\r\n${head.startsWith('POST') ? '{}' : ''}`)
    expect(res.status).toBe(400)
    expect(res.headers['content-type']).toBe('application/json')
    expect(JSON.parse(res.body)).toEqual({ status: false, message: 'Malformed HTTP request', data: null })
  })

  it('on a customer page: the page, in HTML', async () => {
    const res = await exchangeOne('POST /checkout/KPY-PI-NOTHING/pay HTTP/1.1\r\nHost: a@x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 11\r\n\r\naction=card')
    expect(res.status).toBe(400)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.body).toMatch(/^<!doctype html>/)
    expect(res.body).toContain('<h1>Malformed HTTP request</h1>')
  })
})

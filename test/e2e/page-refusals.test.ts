import { connect } from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { SECRET, ref } from '../helpers/sandbox.js'
import { cliPerFile, startCli } from './process.js'

/**
 * The customer pages refuse in HTML whatever refuses (docs/behaviour.md#checkout-page): a body over the
 * limit, declared or chunked, a body node cannot parse, a method no route serves; the JSON API
 * keeps its envelope for the same refusals. Raw requests on a real socket against the CLI.
 */

const cli = cliPerFile([])
let payPath: string

beforeAll(async () => {
  const init = await fetch(`${cli.running.url}/merchant/api/v1/charges/initialize`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reference: ref('page-refusal'), amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' } }),
  })
  payPath = new URL(((await init.json()) as any).data.checkout_url).pathname
})

interface Answer {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * Writes `head`, then `body` (its pieces one after another, while the socket takes them), and reads
 * one answer: its head and as many bytes as its Content-Length says. The sandbox may answer before
 * the body is all sent.
 */
function exchange(head: string, body: Buffer[] = [], to = cli.port): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, '127.0.0.1')
    let got = Buffer.alloc(0)
    let done = false
    const finish = (answer: Answer) => {
      done = true
      socket.destroy()
      resolve(answer)
    }
    socket.on('data', (d: Buffer) => {
      got = Buffer.concat([got, d])
      const text = got.toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return
      const lines = text.slice(0, end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const l of lines.slice(1)) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim()
      const length = Number(headers['content-length'] ?? NaN)
      if (Number.isFinite(length) && got.length - end - 4 >= length) finish({ status: Number(lines[0].split(' ')[1]), headers, body: text.slice(end + 4, end + 4 + length) })
    })
    // the sandbox may close the connection while the body is still being sent
    socket.on('error', (e) => (done ? undefined : reject(e)))
    socket.write(head)
    const pieces = [...body]
    const next = () => {
      while (!done && pieces.length && !socket.destroyed) if (!socket.write(pieces.shift()!)) return socket.once('drain', next)
    }
    next()
  })
}

const FORM_TYPE = 'Content-Type: application/x-www-form-urlencoded\r\n'
/** 2 MiB of form body, in 64 KiB pieces */
const big = () => Array.from({ length: 32 }, (_, i) => Buffer.from((i === 0 ? 'action=card&card_number=' : '') + 'x'.repeat(65_536 - (i === 0 ? 24 : 0))))
const chunked = (pieces: Buffer[]) => [...pieces.map((p) => Buffer.concat([Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')])), Buffer.from('0\r\n\r\n')]

function expectPage(res: Answer, status: number, message: string) {
  expect(res.status).toBe(status)
  expect(res.headers['content-type']).toMatch(/^text\/html/)
  expect(res.body).toMatch(/^<!doctype html>/)
  expect(res.body).toContain(`<h1>${message}</h1>`)
}

describe('the hosted checkout page refuses in HTML (docs/behaviour.md#checkout-page)', () => {
  it('a 2 MiB form post with a declared length: 413, a page', async () => {
    const res = await exchange(`POST ${payPath} HTTP/1.1\r\nHost: localhost\r\n${FORM_TYPE}Content-Length: ${2 * 1024 * 1024}\r\n\r\n`, big())
    expectPage(res, 413, 'Request body is too large')
  })

  it('the same body chunked: 413, the same page', async () => {
    const res = await exchange(`POST ${payPath} HTTP/1.1\r\nHost: localhost\r\n${FORM_TYPE}Transfer-Encoding: chunked\r\n\r\n`, chunked(big()))
    expectPage(res, 413, 'Request body is too large')
  })

  it('a chunked body node cannot parse: 400, a page, the connection closed', async () => {
    const res = await exchange(`POST ${payPath} HTTP/1.1\r\nHost: localhost\r\n${FORM_TYPE}Transfer-Encoding: chunked\r\n\r\nzz\r\naction=card\r\n0\r\n\r\n`)
    expectPage(res, 400, 'Malformed HTTP request')
    expect(res.headers.connection).toBe('close')
  })

  it('a body node cannot parse, sent to a fresh CLI as soon as its health answers (the areas, which declare the pages, may still be loading): a page', async () => {
    const fresh = await startCli([])
    try {
      const res = await exchange(`POST /checkout/KPY-PI-NOTHING/pay HTTP/1.1\r\nHost: localhost\r\n${FORM_TYPE}Transfer-Encoding: chunked\r\n\r\nzz\r\n0\r\n\r\n`, [], Number(new URL(fresh.url).port))
      expectPage(res, 400, 'Malformed HTTP request')
    } finally {
      fresh.child.kill('SIGTERM')
      await fresh.exited
    }
  })

  it('a method or path no route serves under /checkout/: 404, a page', async () => {
    expectPage(await exchange(`PUT ${payPath} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n`), 404, 'Route not found')
    expectPage(await exchange(`GET ${payPath.replace(/\/pay$/, '/elsewhere')} HTTP/1.1\r\nHost: localhost\r\n\r\n`), 404, 'Route not found')
  })

  it('the page still serves a form post of ordinary size', async () => {
    const body = 'action=card&card_number=4084127883172787&expiry=09%2F30&cvv=123'
    const res = await fetch(`${cli.running.url}${payPath}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' })
    expect(res.status).toBe(303)
  })
})

describe("the sandbox bank's page of pay with bank refuses in HTML too (docs/behaviour.md#pay-with-bank)", () => {
  it('a 2 MiB form post: 413, a page; an unknown path under it: 404, a page', async () => {
    const created = await fetch(`${cli.running.url}/merchant/api/v1/charge/pay-with-bank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reference: ref('page-refusal'), amount: 1500, currency: 'NGN', bank_code: '100004', customer: { name: 'Ada', email: 'ada@example.com' } }),
    })
    const bankPath = new URL(((await created.json()) as any).data.authorization.redirect_url).pathname
    expectPage(await exchange(`POST ${bankPath} HTTP/1.1\r\nHost: localhost\r\n${FORM_TYPE}Content-Length: ${2 * 1024 * 1024}\r\n\r\n`, big()), 413, 'Request body is too large')
    expectPage(await exchange(`PUT ${bankPath} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n`), 404, 'Route not found')
  })
})

describe('the JSON API keeps its envelope for the same refusals', () => {
  const api = `POST /merchant/api/v1/charges/card HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${SECRET}\r\nContent-Type: application/json\r\n`
  const envelope = { status: false, message: 'Request body is too large', data: { limit_bytes: 1024 * 1024 } }

  it('declared and chunked: 413 with the envelope', async () => {
    for (const res of [await exchange(`${api}Content-Length: ${2 * 1024 * 1024}\r\n\r\n`, big()), await exchange(`${api}Transfer-Encoding: chunked\r\n\r\n`, chunked(big()))]) {
      expect(res.status).toBe(413)
      expect(res.headers['content-type']).toBe('application/json')
      expect(JSON.parse(res.body)).toEqual(envelope)
    }
  })
})

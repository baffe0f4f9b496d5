import { connect } from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { AREAS } from '../../src/areas.js'
import { encryptChargeData } from '../../src/cards/crypto.js'
import type { Route } from '../../src/http/area.js'
import { customerPages } from '../../src/http/html-page.js'
import { ENC_KEY, SECRET, cardPayload } from '../helpers/sandbox.js'
import { api, rssMb, cliPerFile } from './process.js'

/**
 * Every body is bounded where it is read (docs/behaviour.md#limits): a chunked body past the limit is
 * refused 413 on every route that takes a body, the customer pages included, before anything
 * looks at the request, and the process's memory does not grow with it. Raw chunked requests on a
 * real socket against the CLI as a process, its memory read from /proc.
 */

const cli = cliPerFile([])
/** a card charge waiting on its 3DS page */
let threeDsTx: string

beforeAll(async () => {
  const pending = await api(cli.running.url, SECRET, 'POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(cardPayload('4562543755474674'), ENC_KEY) })
  threeDsTx = pending.body.data.transaction_reference
  expect(pending.body.data.authorization.redirect_url).toBe(`${cli.running.url}/_sandbox/3ds/${threeDsTx}`)
})

const MiB = 1 << 20
const PIECE = 64 * 1024

interface Sent {
  status: number
  type: string
}

/**
 * Sends `head` with `Transfer-Encoding: chunked` and then up to `total` bytes of body, `first`
 * and then 'x's, in 64 KiB chunks as fast as the socket takes them, until the sandbox answers;
 * resolves with the answer's status once its head is in. The sandbox may close the connection
 * while the body is still being sent.
 */
function postChunked(head: string, total: number, first = ''): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const socket = connect(cli.port, '127.0.0.1')
    let got = ''
    let answered: Sent | undefined
    let sent = 0
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1')
      const end = got.indexOf('\r\n\r\n')
      if (end < 0 || answered) return
      answered = { status: Number(got.split(' ')[1]), type: /\r\ncontent-type: ([^\r]*)/i.exec(got.slice(0, end))?.[1] ?? '' }
      socket.destroy()
      resolve(answered)
    })
    socket.on('error', (e) => (answered ? undefined : reject(new Error(`${head.split('\r\n')[0]}: ${e.message} after ${sent} bytes`))))
    socket.on('close', () => (answered ? undefined : reject(new Error(`${head.split('\r\n')[0]}: closed with no answer after ${sent} bytes`))))
    const filler = Buffer.alloc(PIECE, 'x')
    const frame = (piece: Buffer) => Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
    socket.write(`${head}Transfer-Encoding: chunked\r\n\r\n`)
    const next = () => {
      while (!answered && !socket.destroyed) {
        if (sent >= total) return socket.write('0\r\n\r\n')
        const piece = sent === 0 && first ? Buffer.concat([Buffer.from(first), filler.subarray(first.length)]) : filler
        sent += piece.length
        if (!socket.write(frame(piece))) return socket.once('drain', next)
      }
    }
    next()
  })
}

const chargeStatus = async (tx: string) => (await api(cli.running.url, SECRET, 'GET', `/merchant/api/v1/charges/${tx}`)).body.data.status

describe('a chunked body past the limit (docs/behaviour.md#limits)', () => {
  it('an 8 MiB decision=approve&pad=... to the 3DS page, chunked, with no key: 413 in HTML, and the charge is not approved', async () => {
    const res = await postChunked(`POST /_sandbox/3ds/${threeDsTx} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n`, 8 * MiB, 'decision=approve&pad=')
    expect(res.status).toBe(413)
    expect(res.type).toMatch(/^text\/html/)
    expect(await chargeStatus(threeDsTx)).toBe('processing')
    // the page still takes the customer's choice within the limit
    const form = await fetch(`${cli.running.url}/_sandbox/3ds/${threeDsTx}`, { method: 'POST', body: new URLSearchParams({ decision: 'decline' }), redirect: 'manual' })
    expect(form.status).toBeLessThan(400)
    expect(await chargeStatus(threeDsTx)).toBe('failed')
  })

  it('64 MiB chunked to every route that takes a body, pages included: 413 each, and the process stays within bounds', async () => {
    const isPage = customerPages(AREAS)
    const routes = AREAS.flatMap((a) => a.routes as readonly Route<unknown>[]).filter((r) => r.method !== 'get')
    expect(routes.length).toBeGreaterThan(50)
    // the process as it is once it has served a little
    for (let i = 0; i < 3; i++) await api(cli.running.url, SECRET, 'GET', '/_sandbox/requests')
    const before = rssMb(cli.running.child.pid!)
    let peak = before
    const watch = setInterval(() => (peak = Math.max(peak, rssMb(cli.running.child.pid!))), 5)
    /** the routes not answered 413 in the right type: none */
    const wrong: string[] = []
    try {
      for (const route of routes) {
        const path = route.path.replace(/:[a-z_]+/gi, 'KPY-NOTHING-1')
        // a page's form as a browser sends it, an API call's JSON with its key
        const type = isPage(path) ? 'application/x-www-form-urlencoded' : 'application/json'
        const res = await postChunked(`${route.method.toUpperCase()} ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${SECRET}\r\nContent-Type: ${type}\r\n`, 64 * MiB)
        if (res.status !== 413 || !res.type.startsWith(isPage(path) ? 'text/html' : 'application/json')) wrong.push(`${route.method} ${route.path}: ${res.status} ${res.type}`)
        peak = Math.max(peak, rssMb(cli.running.child.pid!))
      }
    } finally {
      clearInterval(watch)
    }
    // a body is never held past its limit: the process grows by less than one body of 64 MiB
    expect(peak - before, `RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most`).toBeLessThan(64)
    expect(wrong).toEqual([])
    expect((await fetch(`${cli.running.url}/_sandbox/health`)).status).toBe(200)
  })
})

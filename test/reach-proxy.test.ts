import { once } from 'node:events'
import { createServer } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { MSG } from '../src/messages.js'
import { isLoopback, reachesLoopback } from '../src/http/middleware/loopback.js'
import { FAR_ADDRESS } from './helpers/sandbox.js'
import { InterceptedHosts } from '../src/reach/hosts.js'
import { connectTarget, createProxy } from '../src/reach/proxy.js'

describe('the proxy and a client that opens a tunnel and sends nothing (docs/behaviour.md#proxy)', () => {
  it('lets the socket go after the HTTP port headers timeout, as the HTTP port does', async () => {
    let terminated = 0
    const { server } = createProxy({ hosts: new InterceptedHosts(['api.korapay.com']), onlyIntercepted: false, serve: (_req, res) => res.end(), terminate: () => terminated++ })
    // a short timeout for the test: the default is node's 60 s
    server.headersTimeout = 200
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    try {
      const client = connect((server.address() as AddressInfo).port, '127.0.0.1')
      client.write('CONNECT api.korapay.com:443 HTTP/1.1\r\nHost: api.korapay.com:443\r\n\r\n')
      let answer = ''
      client.on('data', (b) => (answer += b.toString('latin1')))
      // the proxy closes the idle tunnel; without the timeout this waits for the test's own timeout
      await once(client, 'close')
      expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\n$/)
      expect(terminated).toBe(0)
    } finally {
      server.close()
    }
  }, 5_000)
})

describe('CONNECT targets (docs/behaviour.md#proxy)', () => {
  it('reads host and port of names, IPv4 and bracketed IPv6 addresses', () => {
    expect(connectTarget('API.korapay.com:443')).toEqual({ host: 'api.korapay.com', port: 443 })
    expect(connectTarget('127.0.0.1:8443')).toEqual({ host: '127.0.0.1', port: 8443 })
    expect(connectTarget('[::1]:443')).toEqual({ host: '::1', port: 443 })
    expect(connectTarget('[2001:db8::1]:8443')).toEqual({ host: '2001:db8::1', port: 8443 })
    expect(connectTarget('api.korapay.com')).toBeUndefined()
    expect(connectTarget('api.korapay.com:0')).toBeUndefined()
    expect(connectTarget('api.korapay.com:70000')).toBeUndefined()
  })
})

const farAddress = FAR_ADDRESS

/** Sends `head` raw to the proxy reached at `proxyHost` (a far address makes the proxy's client far) and reads the answer to its end. */
async function rawAsk(proxyHost: string, port: number, head: string): Promise<string> {
  const client = connect(port, proxyHost)
  let answer = ''
  client.on('data', (b) => (answer += b.toString('latin1')))
  client.write(head)
  // a tunnel that opened is closed by the test once its status line is in
  client.on('data', () => answer.startsWith('HTTP/1.1 200 Connection Established') && client.end())
  await once(client, 'close')
  return answer
}

describe('a client beyond loopback and a target on this machine\'s loopback (docs/behaviour.md#proxy)', () => {
  it('is refused 403 by name, by IPv4, IPv6, unspecified and IPv4-mapped addresses, forwarded and tunnelled; a loopback client is not', async () => {
    // the machine must have an address beyond loopback for this to mean anything: no skipping
    expect(farAddress).toBeDefined()
    const far = farAddress as string
    // what stands for the control API: a server on loopback that counts what reaches it
    let reached = 0
    const local = createServer((_req, res) => {
      reached++
      res.end('local')
    })
    local.listen(0, '::')
    await once(local, 'listening')
    const localPort = (local.address() as AddressInfo).port
    const { server } = createProxy({ hosts: new InterceptedHosts(['api.korapay.com']), onlyIntercepted: false, serve: (_req, res) => res.end('served'), terminate: () => undefined })
    server.listen(0, '0.0.0.0')
    await once(server, 'listening')
    const port = (server.address() as AddressInfo).port
    try {
      const targets = ['127.0.0.1', 'localhost', '[::1]', '0.0.0.0', '[::]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '127.1.2.3']
      for (const t of targets) {
        const forwarded = await rawAsk(far, port, `GET http://${t}:${localPort}/_sandbox/clock HTTP/1.1\r\nHost: ${t}:${localPort}\r\nConnection: close\r\n\r\n`)
        expect(forwarded, t).toMatch(/^HTTP\/1\.1 403 /)
        expect(forwarded, t).toContain(`"message":"${MSG.PROXY_LOOPBACK_REFUSED}"`)
        const tunnelled = await rawAsk(far, port, `CONNECT ${t}:${localPort} HTTP/1.1\r\nHost: ${t}:${localPort}\r\n\r\n`)
        expect(tunnelled, t).toMatch(/^HTTP\/1\.1 403 /)
        expect(tunnelled, t).toContain(`"message":"${MSG.PROXY_LOOPBACK_REFUSED}"`)
      }
      expect(reached).toBe(0)
      // this machine's own address beyond loopback is not loopback: reached (as a far peer)
      expect(await rawAsk(far, port, `GET http://${far}:${localPort}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200 [^]*local$/)
      // from loopback, the same targets are forwarded and tunnelled to
      expect(await rawAsk('127.0.0.1', port, `GET http://localhost:${localPort}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200 [^]*local$/)
      expect(await rawAsk('127.0.0.1', port, `CONNECT 127.0.0.1:${localPort} HTTP/1.1\r\nHost: x\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200 Connection Established/)
      expect(reached).toBe(2)
      // a connection the proxy keeps open from a loopback client's forward is never lent to a far one
      const again = await rawAsk(far, port, `GET http://localhost:${localPort}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
      expect(again).toMatch(/^HTTP\/1\.1 403 /)
      expect(reached).toBe(2)
      // an intercepted host is still served, for a far client too
      expect(await rawAsk(far, port, `GET http://api.korapay.com/x HTTP/1.1\r\nHost: api.korapay.com\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200 [^]*served$/)
    } finally {
      server.close()
      local.close()
      local.closeAllConnections()
    }
  })
})

describe('this machine\'s loopback (docs/behaviour.md#control-access, docs/behaviour.md#proxy)', () => {
  it('a loopback peer is 127/8 or ::1, also IPv4-mapped; connecting to the unspecified addresses also reaches loopback', () => {
    for (const a of ['127.0.0.1', '127.9.9.9', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:1']) expect([isLoopback(a), reachesLoopback(a)], a).toEqual([true, true])
    for (const a of ['0.0.0.0', '::', '::ffff:0.0.0.0']) expect([isLoopback(a), reachesLoopback(a)], a).toEqual([false, true])
    for (const a of ['192.0.2.2', '::ffff:192.0.2.2', '10.0.0.1', 'fe80::1', 'localhost', '', undefined]) expect([isLoopback(a), reachesLoopback(a)], String(a)).toEqual([false, false])
  })
})

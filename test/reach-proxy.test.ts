import { once } from 'node:events'
import { connect, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { InterceptedHosts } from '../src/reach/hosts.js'
import { connectTarget, createProxy } from '../src/reach/proxy.js'

describe('the proxy and a client that opens a tunnel and sends nothing (docs/behaviour.md 14.2)', () => {
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

describe('CONNECT targets (docs/behaviour.md 14.2)', () => {
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

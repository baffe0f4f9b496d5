import { once } from 'node:events'
import { connect, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createProxy } from '../src/reach/proxy.js'

describe('the proxy and a client that opens a tunnel and sends nothing (docs/behaviour.md 14.2)', () => {
  it('lets the socket go after the HTTP port headers timeout, as the HTTP port does', async () => {
    let terminated = 0
    const { server } = createProxy({ hosts: new Set(['api.korapay.com']), onlyIntercepted: false, serve: (_req, res) => res.end(), terminate: () => terminated++ })
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

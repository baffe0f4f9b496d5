import { mkdtempSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { issueLeaf, loadOrCreateCa } from '../../src/reach/ca.js'

/** A request the upstream received, its body as text. */
export interface UpstreamRequest {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

export type UpstreamHandler = (req: UpstreamRequest, res: ServerResponse) => void

export interface Upstream {
  /** https://127.0.0.1:port */
  url: string
  /** its CA's certificate: what a client trusts it by (NODE_EXTRA_CA_CERTS) */
  caPath: string
  /** what it was asked, in order */
  seen: UpstreamRequest[]
  close(): Promise<void>
}

/**
 * A service on loopback speaking HTTPS with a CA of its own, made the way the sandbox makes its
 * CA (src/reach/ca.ts), in a directory of its own: it answers each request, once its body is read,
 * with the handler given.
 */
export async function startUpstream(handler: UpstreamHandler): Promise<Upstream> {
  const ca = await loadOrCreateCa(join(mkdtempSync(join(tmpdir(), 'paysandbox-upstream-')), 'ca'))
  const leaf = await issueLeaf(ca, ['localhost', '127.0.0.1'])
  const seen: UpstreamRequest[] = []
  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const received = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      seen.push(received)
      handler(received, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    caPath: ca.certPath,
    seen,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

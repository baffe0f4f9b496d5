import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  headers: IncomingMessage['headers']
  raw: string
  body: any
}

export type Behaviour = (n: number, req: IncomingMessage, res: ServerResponse) => 'handled' | number

/**
 * A real local HTTP webhook receiver. `behaviour(n)` decides the answer to the n-th post
 * (1-based): a status code, or 'handled' when it answered (or chose not to) itself. It listens on
 * `host`: loopback, unless a container must reach it through the host's gateway (`0.0.0.0`).
 */
export async function startReceiver(behaviour: Behaviour = () => 200, host = '127.0.0.1') {
  const received: Received[] = []
  const waiters: { n: number; resolve: () => void }[] = []
  let current = behaviour
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: unknown = null
      try {
        body = JSON.parse(raw)
      } catch {
        /* keep raw */
      }
      received.push({ headers: req.headers, raw, body })
      const n = received.length
      const outcome = current(n, req, res)
      if (outcome !== 'handled') {
        res.statusCode = outcome
        if (outcome >= 300 && outcome < 400) res.setHeader('location', 'http://127.0.0.1:1/elsewhere')
        res.end('ok')
      }
      for (const w of [...waiters]) {
        if (received.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve()
        }
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    port,
    received,
    /** resolves once at least n posts have arrived */
    waitFor(n: number): Promise<void> {
      if (received.length >= n) return Promise.resolve()
      return new Promise((resolve) => waiters.push({ n, resolve }))
    },
    setBehaviour(b: Behaviour) {
      current = b
    },
    close(): Promise<void> {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

/** A running receiver (startReceiver). */
export type Receiver = Awaited<ReturnType<typeof startReceiver>>

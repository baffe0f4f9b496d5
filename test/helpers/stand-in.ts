import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox, type Sandbox } from '../../src/index.js'
import { issueLeaf, loadOrCreateCa } from '../../src/reach/ca.js'

/**
 * A stand-in for the live service (issue 37's tests): HTTPS on loopback with a CA of its own, its
 * answers those of an in-process sandbox behind it, but with the known differences below, and no
 * `/_sandbox` (the live service has no control API). Trust it through NODE_EXTRA_CA_CERTS=caPath.
 */

type Answer = { status: number; body: { status?: boolean; message?: string; data?: Record<string, unknown> } }

export interface KnownDifference {
  what: string
  /** the calls it changes */
  method: string
  path: RegExp
  change: (a: Answer) => void
  /** the path of a `sandbox verify` difference it causes, and whether the values are its own */
  explains: (d: { path: string; expected: unknown; got: unknown }) => boolean
}

const ABSENT = '(absent)'
const data = (a: Answer) => a.body.data ?? {}

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    what: 'a field renamed: the card charge says authorization_model for auth_model',
    method: 'POST',
    path: /^\/merchant\/api\/v1\/charges\/card$/,
    change: (a) => {
      const d = data(a)
      if (!('auth_model' in d)) return
      d.authorization_model = d.auth_model
      delete d.auth_model
    },
    explains: (d) => (d.path === 'data.auth_model' && d.got === ABSENT) || (d.path === 'data.authorization_model' && d.expected === ABSENT),
  },
  {
    what: "a field's type changed: the charge query's amount is a number",
    method: 'GET',
    path: /^\/merchant\/api\/v1\/charges\/[^/]+$/,
    change: (a) => {
      const d = data(a)
      if (typeof d.amount === 'string') d.amount = Number(d.amount)
    },
    explains: (d) => d.path === 'data.amount' && typeof d.expected === 'string' && typeof d.got === 'number',
  },
  {
    what: 'an extra field: the mobile money charge adds data.provider',
    method: 'POST',
    path: /^\/merchant\/api\/v1\/charges\/mobile-money$/,
    change: (a) => {
      if (a.body.data) a.body.data.provider = 'mpesa'
    },
    explains: (d) => d.path === 'data.provider' && d.expected === ABSENT && d.got === 'mpesa',
  },
  {
    what: 'another message: resending the OTP',
    method: 'POST',
    path: /^\/merchant\/api\/v1\/charges\/card\/resend-otp$/,
    change: (a) => {
      a.body.message = 'OTP sent'
    },
    explains: (d) => d.path === 'message' && d.got === 'OTP sent',
  },
  {
    what: 'another status code: authorizing an unknown transaction answers 400',
    method: 'POST',
    path: /^\/merchant\/api\/v1\/charges\/card\/authorize$/,
    change: (a) => {
      if (a.status === 404) a.status = 400
    },
    explains: (d) => d.path === '(status)' && d.expected === 404 && d.got === 400,
  },
  {
    what: 'a status the sandbox never gives: a new bank transfer is awaiting_payment',
    method: 'POST',
    path: /^\/merchant\/api\/v1\/charges\/bank-transfer$/,
    change: (a) => {
      const d = data(a)
      if (d.status === 'processing') d.status = 'awaiting_payment'
    },
    explains: (d) => d.path === 'data.status' && d.expected === 'processing' && d.got === 'awaiting_payment',
  },
]

export interface StandIn {
  /** https://127.0.0.1:<port> */
  url: string
  /** the stand-in's CA certificate */
  caPath: string
  /** the test keys it takes (those of the sandbox behind it) */
  keys: Sandbox['keys']
  close(): Promise<void>
}

export async function startStandIn(): Promise<StandIn> {
  const ca = await loadOrCreateCa(join(mkdtempSync(join(tmpdir(), 'paysandbox-stand-in-')), 'ca'))
  const leaf = await issueLeaf(ca, ['127.0.0.1', 'localhost'])
  const behind = await startSandbox({ port: 0 })
  const server: Server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void (async () => {
        const path = new URL(req.url ?? '/', 'https://stand-in').pathname
        let answer: Answer
        if (path.startsWith('/_sandbox')) answer = { status: 404, body: { status: false, message: 'Not Found' } }
        else {
          const headers: Record<string, string> = {}
          for (const h of ['authorization', 'content-type', 'accept']) if (req.headers[h]) headers[h] = String(req.headers[h])
          const body = chunks.length ? Buffer.concat(chunks) : undefined
          const r = await fetch(`${behind.url}${req.url}`, { method: req.method, headers, body, redirect: 'manual' })
          answer = { status: r.status, body: (await r.json().catch(() => ({}))) as Answer['body'] }
          for (const k of KNOWN_DIFFERENCES) if (k.method === req.method && k.path.test(path)) k.change(answer)
        }
        res.writeHead(answer.status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(answer.body))
      })()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    caPath: ca.certPath,
    keys: behind.keys,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
      await behind.close()
    },
  }
}

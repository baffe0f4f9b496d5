import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer as createHttpsServer } from 'node:https'
import type { IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { issueLeaf, loadOrCreateCa } from '../../src/reach/ca.js'
import { endInput, startCli, type RunningCli } from './process.js'

/** The tests of the ways to reach the sandbox unchanged (docs/behaviour.md#reaching): shared helpers. */

export const KORAPAY = 'https://api.korapay.com/merchant/api/v1'

/** A fresh CA directory (never the user's own). */
export function tempCaDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'paysandbox-ca-')), 'ca')
}

export interface ReachCli extends RunningCli {
  proxyUrl: string
  httpsUrl: string
  caPath: string
}

/** one CA directory for the starts of a test file: the CA is made once, as for a user */
let sharedCaDir: string | undefined

/** `sandbox start --proxy` (and `--tls` unless `tls: false`) on free ports with a test CA; the URLs read from its output. */
export async function startReachCli(args: string[] = [], env: Record<string, string> = {}, { tls = true } = {}): Promise<ReachCli> {
  const caDir = (sharedCaDir ??= tempCaDir())
  const cli = await startCli([...(tls ? ['--tls', '--tls-port', '0'] : []), '--proxy', '--proxy-port', '0', '--ca-dir', caDir, ...args], env)
  const out = cli.stdout()
  return {
    ...cli,
    proxyUrl: /paysandbox proxy on (http:\/\/\S+)/.exec(out)?.[1] ?? '',
    httpsUrl: /paysandbox https on (https:\/\/\S+)/.exec(out)?.[1] ?? '',
    caPath: join(caDir, 'ca.pem'),
  }
}

/**
 * The environment of a client child process: this one's without any proxy or CA variable (so only
 * what a test gives counts), plus `env`.
 */
export function clientEnv(env: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = {}
  const dropped = /^(https?_proxy|all_proxy|no_proxy|node_extra_ca_certs|ssl_cert_file|ssl_cert_dir|curl_ca_bundle|requests_ca_bundle|node_options)$/i
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !dropped.test(k)) base[k] = v
  return { ...base, ...env }
}

/** Runs a program to its end; a program that is not installed fails the test (spawn's error). */
export function run(command: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: clientEnv(env), stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    endInput(child.stdin, input)
  })
}

export interface SeenRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

/**
 * An HTTPS server of the test's own, with a certificate from a CA of its own (made by the same
 * library as the sandbox's): what a tunnelled host looks like.
 */
export async function startOwnHttpsServer() {
  const ca = await loadOrCreateCa(tempCaDir())
  const leaf = await issueLeaf(ca, ['localhost', '127.0.0.1'])
  const seen: SeenRequest[] = []
  const server = createHttpsServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body })
      res.writeHead(201, { 'content-type': 'text/plain', 'x-own-server': 'yes' })
      res.end(`own server got ${req.method} ${req.url}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    url: `https://127.0.0.1:${port}`,
    caPath: ca.certPath,
    caPem: ca.certPem,
    leafPem: leaf.certPem,
    seen,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

import { X509Certificate } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { request as httpsRequest } from 'node:https'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload } from '../helpers/sandbox.js'
import { killedAfterEach, runCli, startCli } from './process.js'
import { run, tempCaDir } from './reach.js'

/**
 * `sandbox start --tls` and `sandbox ca` (docs/behaviour.md#tls-and-local-ca): HTTPS beside HTTP with a leaf
 * certificate from the local CA, which is made once, owner-only, and kept.
 */

const { running } = killedAfterEach()

async function tlsSandbox(caDir: string, args: string[] = []) {
  const cli = await startCli(['--tls', '--tls-port', '0', '--ca-dir', caDir, ...args])
  running.push(cli)
  const httpsUrl = /paysandbox https on (https:\/\/\S+)/.exec(cli.stdout())![1]
  return { ...cli, httpsUrl, caPath: join(caDir, 'ca.pem') }
}

function curlJson(url: string, ca: string, body?: unknown) {
  const args = ['-sS', '--cacert', ca, '-H', `authorization: Bearer ${SECRET}`, '-H', 'content-type: application/json']
  if (body !== undefined) args.push('--data-binary', '@-')
  return run('curl', [...args, url], {}, body === undefined ? undefined : JSON.stringify(body)).then((r) => ({ ...r, body: r.stdout ? JSON.parse(r.stdout) : null }))
}

/** A TLS handshake with Node's https, trusting `ca` only (or the system's CAs without it). */
function handshake(url: string, ca?: string): Promise<{ ok: true; cert: X509Certificate } | { ok: false; code: string }> {
  return new Promise((resolve) => {
    const req = httpsRequest(`${url}/_sandbox/health`, { ca, agent: false }, (res) => {
      const cert = (res.socket as import('node:tls').TLSSocket).getPeerX509Certificate()!
      res.resume()
      res.on('end', () => resolve({ ok: true, cert }))
    })
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ ok: false, code: e.code ?? e.message }))
    req.end()
  })
}

describe('sandbox start --tls', () => {
  it('serves the API over HTTPS beside HTTP: curl --cacert runs a card charge and its query', async () => {
    const caDir = tempCaDir()
    const sb = await tlsSandbox(caDir)
    const out = sb.stdout()
    // the HTTPS line comes before the ready line
    expect(out.indexOf('paysandbox https on https://127.0.0.1:')).toBeGreaterThan(-1)
    expect(out.indexOf('paysandbox https on')).toBeLessThan(out.indexOf('paysandbox listening on'))
    expect(out).not.toContain('paysandbox proxy on')
    expect(out).toContain(`CA certificate: ${sb.caPath}`)

    const payload = cardPayload('5188513618552975', {}, { pin: '1234' })
    const charged = await curlJson(`${sb.httpsUrl}/merchant/api/v1/charges/card`, sb.caPath, { charge_data: encryptChargeData(payload, ENC_KEY) })
    expect(charged.stderr).toBe('')
    expect(charged.body.data).toMatchObject({ status: 'success', payment_reference: payload.reference })
    const query = await curlJson(`${sb.httpsUrl}/merchant/api/v1/charges/${payload.reference}`, sb.caPath)
    expect(query.body.data).toMatchObject({ status: 'success', reference: payload.reference })
    // the same store as the HTTP port
    const direct = await fetch(`${sb.url}/merchant/api/v1/charges/${payload.reference}`, { headers: { authorization: `Bearer ${SECRET}` } })
    expect(((await direct.json()) as any).data.status).toBe('success')

    // a 3DS card's redirect_url names the origin the client called: the HTTPS port, not the HTTP one
    const threeDs = cardPayload('4562543755474674')
    const pending = await curlJson(`${sb.httpsUrl}/merchant/api/v1/charges/card`, sb.caPath, { charge_data: encryptChargeData(threeDs, ENC_KEY) })
    const tx = pending.body.data.transaction_reference
    expect(pending.body.data.authorization.redirect_url).toBe(`${sb.httpsUrl}/_sandbox/3ds/${tx}`)
    const page = await run('curl', ['-sS', '--cacert', sb.caPath, pending.body.data.authorization.redirect_url])
    expect(page.stdout).toContain('<form')
    // and a pay with bank charge's (docs/behaviour.md#pay-with-bank)
    const pwb = await curlJson(`${sb.httpsUrl}/merchant/api/v1/charge/pay-with-bank`, sb.caPath, {
      reference: `${payload.reference}-pwb`, amount: 5000, currency: 'NGN', bank_code: '100004', customer: { name: 'Ada Obi', email: 'ada@example.com' },
    })
    const bankPage = `${sb.httpsUrl}/_sandbox/pay-with-bank/${pwb.body.data.transaction_reference}`
    expect(pwb.body.data.authorization.redirect_url).toBe(bankPage)
    expect((await run('curl', ['-sS', '--cacert', sb.caPath, bankPage])).stdout).toContain('<form')

    // so does a checkout's checkout_url (docs/behaviour.md#urls-handed-out): the HTTPS port's over HTTPS, the
    // HTTP port's over HTTP, and each serves the page
    const init = { amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' } }
    const overTls = await curlJson(`${sb.httpsUrl}/merchant/api/v1/charges/initialize`, sb.caPath, { ...init, reference: `${payload.reference}-tls` })
    expect(overTls.body.data.checkout_url).toMatch(new RegExp(`^${sb.httpsUrl}/checkout/KPY-PI-[A-Z0-9]+/pay$`))
    expect((await run('curl', ['-sS', '--cacert', sb.caPath, overTls.body.data.checkout_url])).stdout).toContain(`${payload.reference}-tls`)
    const overHttp = await fetch(`${sb.url}/merchant/api/v1/charges/initialize`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...init, reference: `${payload.reference}-http` }) })
    const plainUrl = ((await overHttp.json()) as any).data.checkout_url as string
    expect(plainUrl).toMatch(new RegExp(`^${sb.url}/checkout/KPY-PI-[A-Z0-9]+/pay$`))
    expect((await fetch(plainUrl)).status).toBe(200)

    // https://localhost works too: the certificate names localhost, 127.0.0.1, ::1 and the intercepted hosts
    const port = new URL(sb.httpsUrl).port
    const local = await curlJson(`https://localhost:${port}/merchant/api/v1/charges/${payload.reference}`, sb.caPath)
    expect(local.body.data.status).toBe('success')
    const seen = await handshake(sb.httpsUrl, readFileSync(sb.caPath, 'utf8'))
    expect(seen.ok).toBe(true)
    if (seen.ok) {
      expect(seen.cert.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:api.korapay.com')
      expect(seen.cert.checkIssued(new X509Certificate(readFileSync(sb.caPath)))).toBe(true)
    }
  })

  it('fails the handshake of a client that does not trust the CA (curl and Node), and keeps serving', async () => {
    const sb = await tlsSandbox(tempCaDir())
    const bare = await run('curl', ['-sS', '-o', '/dev/null', `${sb.httpsUrl}/_sandbox/health`])
    expect(bare.code).toBe(60)
    const node = await handshake(sb.httpsUrl)
    expect(node).toEqual({ ok: false, code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' })
    // a CA of another directory is not this one
    const other = await runCli(['ca', '--ca-dir', tempCaDir(), '--path'])
    expect(await handshake(sb.httpsUrl, readFileSync(other.stdout.trim(), 'utf8'))).toMatchObject({ ok: false })
    // the refused handshakes ended their own connections only
    expect((await handshake(sb.httpsUrl, readFileSync(sb.caPath, 'utf8'))).ok).toBe(true)
  })

  it('refuses a --tls-port in use, a bad one and a bad --intercept host with one line and exit code 2', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as import('node:net').AddressInfo).port
    try {
      const inUse = await runCli(['start', '--port', '0', '--tls', '--tls-port', String(port), '--ca-dir', tempCaDir()])
      expect(inUse.code).toBe(2)
      expect(inUse.stderr).toBe(`sandbox: port ${port} on 127.0.0.1 is already in use (try --tls-port 0)\n`)
    } finally {
      blocker.close()
    }
    const bad = await runCli(['start', '--port', '0', '--tls', '--tls-port', '70000'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('sandbox: --tls-port must be a whole number from 0 to 65535 (got 70000)\n')
    const host = await runCli(['start', '--port', '0', '--proxy', '--intercept', 'not a host'])
    expect(host.code).toBe(2)
    expect(host.stderr).toBe('sandbox: --intercept must be host names (at most 100), such as api.korapay.com (got not a host)\n')
  })
})

describe('the proxy beyond loopback', () => {
  it('warns that it tunnels for whoever reaches it, unless --proxy-only-intercepted', async () => {
    const caDir = tempCaDir()
    // all it wrote on stderr, once it has stopped (its output pipes closed)
    const stderrOf = async (args: string[]) => {
      const cli = await startCli(['--host', '0.0.0.0', '--control-token', 't', '--proxy', '--proxy-port', '0', '--ca-dir', caDir, ...args])
      running.push(cli)
      const closed = new Promise((resolve) => cli.child.once('close', resolve))
      cli.child.kill('SIGTERM')
      await closed
      return cli.stderr()
    }
    expect(await stderrOf([])).toBe('sandbox: warning: the proxy listens beyond loopback and tunnels to any host for whoever reaches it (--proxy-only-intercepted refuses other hosts)\n')
    expect(await stderrOf(['--proxy-only-intercepted'])).toBe('')
  })
})

describe('sandbox ca', () => {
  it('creates the CA once with owner-only permissions, then prints the same path and the trust lines', async () => {
    const caDir = tempCaDir()
    const first = await runCli(['ca', '--ca-dir', caDir])
    expect(first.code).toBe(0)
    const caPath = join(caDir, 'ca.pem')
    expect(first.stdout).toContain(`CA certificate: ${caPath} (created now)`)
    for (const line of [`NODE_EXTRA_CA_CERTS=${caPath}`, `REQUESTS_CA_BUNDLE=${caPath}`, `SSL_CERT_FILE=${caPath}`, `CURL_CA_BUNDLE=${caPath}`, 'keytool -importcert']) {
      expect(first.stdout).toContain(line)
    }
    expect(statSync(caDir).mode & 0o777).toBe(0o700)
    expect(statSync(join(caDir, 'ca-key.pem')).mode & 0o777).toBe(0o600)
    const cert = new X509Certificate(readFileSync(caPath))
    expect(cert.ca).toBe(true)

    const again = await runCli(['ca', '--path'], undefined, { SANDBOX_CA_DIR: caDir })
    expect(again.stdout).toBe(`${caPath}\n`)
    expect(new X509Certificate(readFileSync(caPath)).fingerprint256).toBe(cert.fingerprint256)

    // and a start with that directory serves a certificate this CA issued
    const sb = await tlsSandbox(caDir)
    const seen = await handshake(sb.httpsUrl, readFileSync(caPath, 'utf8'))
    expect(seen.ok && seen.cert.checkIssued(cert)).toBe(true)
    // the leaves' key, made by that start, is owner-only too, and the next start keeps it
    const leafKey = readFileSync(join(caDir, 'leaf-key.pem'), 'utf8')
    expect(statSync(join(caDir, 'leaf-key.pem')).mode & 0o777).toBe(0o600)
    const next = await tlsSandbox(caDir)
    const again2 = await handshake(next.httpsUrl, readFileSync(caPath, 'utf8'))
    expect(again2.ok && again2.cert.publicKey.export({ format: 'pem', type: 'spki' })).toBe(seen.ok && seen.cert.publicKey.export({ format: 'pem', type: 'spki' }))
    expect(readFileSync(join(caDir, 'leaf-key.pem'), 'utf8')).toBe(leafKey)
  })

  it('refuses a CA directory holding a certificate without its key, and one that is a file', async () => {
    const caDir = tempCaDir()
    await runCli(['ca', '--ca-dir', caDir])
    const { rmSync } = await import('node:fs')
    rmSync(join(caDir, 'ca-key.pem'))
    const broken = await runCli(['start', '--port', '0', '--tls', '--tls-port', '0', '--ca-dir', caDir])
    expect(broken.code).toBe(2)
    expect(broken.stderr).toBe(`sandbox: the CA in ${caDir} has ca.pem but no ca-key.pem (remove the directory to make a new CA)\n`)
    const file = join(caDir, 'ca.pem')
    const notDir = await runCli(['ca', '--ca-dir', file])
    expect(notDir.code).toBe(2)
    expect(notDir.stderr).toBe(`sandbox: --ca-dir ${file} is not a directory\n`)
  })
})

describe('the CA made by two starts at once', () => {
  it('is one CA: both get the same certificate and key', async () => {
    const { loadOrCreateCa } = await import('../../src/reach/ca.js')
    const dir = tempCaDir()
    const [a, b] = await Promise.all([loadOrCreateCa(dir), loadOrCreateCa(dir)])
    expect([a.created, b.created].sort()).toEqual([false, true])
    expect(a.certPem).toBe(b.certPem)
    expect(a.certPem).toBe(readFileSync(join(dir, 'ca.pem'), 'utf8'))
    const { readdirSync } = await import('node:fs')
    expect(readdirSync(dir).sort()).toEqual(['ca-key.pem', 'ca.pem'])
  })
})

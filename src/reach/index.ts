import type { RequestListener, Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import type { Config } from '../config.js'
import type { ClientErrorListener } from '../http/client-error.js'
import { CaError, issueLeaf, loadOrCreateCa } from './ca.js'
import { InterceptedHosts } from './hosts.js'
import { ReachError } from './errors.js'
import { createProxy, hostOf } from './proxy.js'
import type { Recorder } from './recorder.js'

/**
 * What `--tls` and `--proxy` add beside the HTTP port (docs/behaviour.md#reaching): the CA, one leaf
 * certificate for `localhost`, `127.0.0.1`, `::1` and the intercepted hosts (made once per start:
 * the cache of leaves is this one certificate), an HTTPS server serving the sandbox's own request
 * handler, and the proxy. Loaded only when one of the two is asked for.
 */

export interface Reach {
  /** https://host:port with --tls */
  httpsUrl?: string
  httpsPort?: number
  /** http://host:port with --proxy */
  proxyUrl?: string
  proxyPort?: number
  caPath: string
  close(): Promise<void>
}

export { CaError, ReachError }

const LOCAL_NAMES = ['localhost', '127.0.0.1', '::1']

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve()
    server.close(() => resolve())
    server.closeIdleConnections()
    setTimeout(() => server.closeAllConnections(), 2_000).unref()
  })
}

/**
 * With a recorder (`--record`, docs/behaviour.md#record), what is asked of an intercepted host is
 * forwarded by it instead of served: whether through a tunnel the HTTPS server ends or as a
 * request in absolute form, the request names the host it was sent to.
 */
export async function startReach(config: Config, sandbox: RequestListener, clientError: ClientErrorListener, recorder?: Recorder): Promise<Reach> {
  const ca = await loadOrCreateCa(config.caDir)
  const intercepted = new InterceptedHosts(config.interceptHosts)
  const serve: RequestListener = recorder ? (req, res) => (intercepted.has(hostOf(req.headers.host ?? '')) ? recorder.forward(req, res) : sandbox(req, res)) : sandbox
  const names = [...new Set([...LOCAL_NAMES, ...intercepted.list(), ...(['127.0.0.1', 'localhost', '::1'].includes(config.host) ? [] : [config.host])])]
  const leaf = await issueLeaf(ca, names)
  const https = createHttpsServer({ cert: leaf.certPem, key: leaf.keyPem }, serve) as unknown as Server
  https.keepAliveTimeout = 65_000
  https.on('clientError', clientError)
  // a handshake that fails (the client does not trust the CA) ends that connection only
  https.on('tlsClientError', (_err: Error, socket: Socket) => socket.destroy())
  const proxy = config.proxy
    ? createProxy({ hosts: intercepted, onlyIntercepted: config.proxyOnlyIntercepted, serve, clientError, terminate: (socket) => https.emit('connection', socket) })
    : undefined
  const bracket = config.host.includes(':') ? `[${config.host}]` : config.host
  const reach: Reach = {
    caPath: ca.certPath,
    async close() {
      proxy?.closeTunnels()
      await Promise.all([closeServer(https), proxy ? closeServer(proxy.server) : undefined])
      // the sockets the proxy handed to the HTTPS server without it listening
      https.closeAllConnections()
    },
  }
  let flag = '--tls-port'
  let port = config.tlsPort
  try {
    if (config.tls) {
      reach.httpsPort = await listen(https, port, config.host)
      reach.httpsUrl = `https://${bracket}:${reach.httpsPort}`
    }
    if (proxy) {
      ;[flag, port] = ['--proxy-port', config.proxyPort]
      reach.proxyPort = await listen(proxy.server, port, config.host)
      reach.proxyUrl = `http://${bracket}:${reach.proxyPort}`
    }
  } catch (e) {
    await reach.close()
    const code = (e as NodeJS.ErrnoException).code
    const why = code === 'EADDRINUSE' ? `port ${port} on ${config.host} is already in use (try ${flag} 0)` : `cannot listen on ${config.host}:${port} for ${flag} (${code ?? (e as Error).message})`
    throw new ReachError(why)
  }
  return reach
}

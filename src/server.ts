import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Config } from './config.js'
import type { Deps } from './deps.js'
import type { Pack } from './scenario/index.js'
import { createAnswerBatch } from './http/answer-batch.js'
import { answerClientError, requestListener, type ClientErrorListener, type FetchCallback } from './http/client-error.js'
import { customerPages, pagePrefixes, type CustomerPages } from './http/html-page.js'
import { MSG } from './messages.js'
import { errorJson } from './http/envelope.js'
import { healthBody } from './control/info.js'

export interface RunningServer {
  url: string
  host: string
  port: number
  /** the sandbox's state, once loaded (at once unless `lazy`) */
  deps: Deps | undefined
  /** resolves once the whole app is loaded and answering */
  loaded: Promise<Deps>
  /** with --tls: the HTTPS URL (docs/behaviour.md#tls-and-local-ca) */
  httpsUrl?: string
  /** with --proxy: the proxy's URL (docs/behaviour.md#proxy) */
  proxyUrl?: string
  /** with --tls or --proxy: the CA certificate clients trust */
  caPath?: string
  /** Stops listening, closes connections, stops the clocks and flushes the store. */
  close(): Promise<void>
}

type Fetch = FetchCallback

/**
 * Builds the sandbox and puts it on a socket; resolves once it listens.
 *
 * With `lazy` (the CLI), the socket opens as soon as the HTTP layer is loaded and the rest of
 * the app (validation, services) loads right after: the health check answers at once and any
 * other request waits for the load. Whatever can refuse a start (a scenario pack, a data file, a
 * snapshot to load) is still checked before the socket opens: a pack by the scenario module alone,
 * a data file or a snapshot by the whole app (their records are checked against every area's
 * collections), which then loads before the socket opens.
 */
export async function startServer(config: Config, { lazy = false } = {}): Promise<RunningServer> {
  const startedAt = Date.now()
  let deps: Deps | undefined
  let appFetch: Fetch | undefined
  let packs: Pack[] | undefined
  /** the areas' customer pages, once the areas are loaded */
  let pages: CustomerPages | undefined
  const load = async (): Promise<Deps> => {
    const [{ createDeps }, { createApp }] = await Promise.all([import('./deps.js'), import('./app.js')])
    const d = await createDeps(config, startedAt, undefined, packs)
    appFetch = createApp(d).fetch as Fetch
    pages = customerPages(d.areas)
    deps = d
    return d
  }
  // --record (docs/behaviour.md#record): its flow file is opened before the socket, so a start it refuses opens none
  const recorder = config.recordFile ? (await import('./reach/recorder.js')).startRecording(config) : undefined
  // a data file or a snapshot is checked against every area's collections: the whole app loads
  // before the socket opens; a pack needs the scenario module and the areas' declarations, checked here, the app after
  const eager = !lazy || !!config.dataFile || !!config.storeUrl || config.loadFiles.length > 0
  let loaded: Promise<Deps> | undefined
  try {
    if (!eager && config.scenarioFiles.length) {
      // the packs are checked under the areas' settings as well as the shared ones (`Area.settings`):
      // the shipped pack sets some of them, so the areas' declarations are read before the socket
      const [{ Scenarios, packRules }, { AREAS }] = await Promise.all([import('./scenario/index.js'), import('./areas.js')])
      packs = Scenarios.loadPacks(config.scenarioFiles, { rules: packRules(AREAS) })
    }
    loaded = eager ? Promise.resolve(await load()) : undefined
  } catch (e) {
    recorder?.close()
    throw e
  }
  const health = () => new Response(JSON.stringify(healthBody(startedAt)), { headers: { 'content-type': 'application/json' } })
  // the health check tells the truth (docs/behaviour.md#container-image): with --tls or --proxy it answers 503
  // until their ports listen and the CA's certificate is written, whatever else is ready
  let allListening = !(config.tls || config.proxy)
  const starting = () => new Response(errorJson(MSG.STARTING), { status: 503, headers: { 'content-type': 'application/json' } })
  // every answer of the app leaves at the end of its event-loop turn, with the others of that turn
  const batch = createAnswerBatch<Response>()
  const serve: Fetch = (req, env) => {
    if (!allListening && req.method === 'GET' && new URL(req.url).pathname === '/_sandbox/health') return starting()
    const webhookKept = recorder?.webhook(req, (env as { incoming: IncomingMessage }).incoming)
    if (webhookKept) return webhookKept
    if (appFetch) return batch(appFetch(req, env))
    if (req.method === 'GET' && req.url.endsWith('/_sandbox/health')) return health()
    return loaded!.then(() => appFetch!(req, env))
  }

  // several processes on one database (--store, loaded before the socket): a call for a namespace
  // another process owns goes there; the other stores' calls pass no check
  const leases = deps?.store.leases
  const cluster = leases && (await import('./cluster.js'))
  const route = cluster && cluster.clusterRouter(leases, deps!.namespaces, deps!.store, pagePrefixes(deps!.areas), config)
  const fetch: Fetch = route ? (req, env) => route(req, (env as { incoming: IncomingMessage }).incoming, () => serve(req, env)) ?? serve(req, env) : serve
  // the one listener of every server (plain, TLS, the proxy's): what it cannot make a request of is
  // answered with the envelope, or in HTML on a customer page, as what node cannot parse is
  const listener = requestListener(fetch, config.host, () => pages ?? (loaded ? loaded.then(() => pages!) : customerPages([])))
  const server = createServer(listener)
  server.keepAliveTimeout = 65_000
  // HTTP node cannot parse is answered with the envelope too (docs/behaviour.md#status-codes), or in HTML on
  // a customer page: the areas declare their pages, so what comes while they load waits for them
  const clientError: ClientErrorListener = (err, socket) => {
    if (pages || !loaded) answerClientError(err, socket, pages)
    else loaded.then(() => answerClientError(err, socket, pages), () => socket.destroy())
  }
  server.on('clientError', clientError)
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(config.port, config.host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (e) {
    recorder?.close()
    if (deps) await (await import('./deps.js')).closeDeps(deps)
    throw e
  }
  if (!loaded) {
    loaded = load()
    loaded.catch((e) => {
      process.stderr.write(`sandbox: cannot load the app: ${(e as Error).message}\n`)
      process.exit(1)
    })
  }
  // --tls and --proxy: the same handler behind TLS and the proxy, so the rules are the same code
  let reach: import('./reach/index.js').Reach | undefined
  if (config.tls || config.proxy) {
    try {
      const { startReach } = await import('./reach/index.js')
      reach = await startReach(config, listener, clientError, recorder)
      allListening = true
    } catch (e) {
      recorder?.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      const d = await loaded.catch(() => undefined)
      if (d) await (await import('./deps.js')).closeDeps(d)
      throw e
    }
  }
  const addr = server.address() as AddressInfo
  if (cluster) leases.start(cluster.advertisedUrl(config, addr.port))
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  let closing: Promise<void> | null = null
  return {
    url: `http://${host}:${addr.port}`,
    host: config.host,
    port: addr.port,
    get deps() {
      return deps
    },
    loaded,
    httpsUrl: reach?.httpsUrl,
    proxyUrl: reach?.proxyUrl,
    caPath: reach?.caPath,
    close() {
      closing ??= (async () => {
        const d = await loaded!.catch(() => undefined)
        await reach?.close()
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeIdleConnections()
          setTimeout(() => server.closeAllConnections(), 2_000).unref()
        })
        recorder?.close()
        if (d) await (await import('./deps.js')).closeDeps(d)
      })()
      return closing
    },
  }
}

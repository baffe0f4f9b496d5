import { createAdaptorServer } from '@hono/node-server'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createApp } from './app.js'
import type { Config } from './config.js'
import { closeDeps, createDeps, type Deps } from './deps.js'

export interface RunningServer {
  url: string
  host: string
  port: number
  deps: Deps
  /** Stops listening, closes connections, stops the clocks and flushes the store. */
  close(): Promise<void>
}

/** Builds the sandbox and puts it on a socket; resolves once it listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const deps = await createDeps(config)
  const app = createApp(deps)
  const server = createAdaptorServer({ fetch: app.fetch, hostname: config.host }) as Server
  server.keepAliveTimeout = 65_000
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(config.port, config.host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (e) {
    await closeDeps(deps)
    throw e
  }
  const addr = server.address() as AddressInfo
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  let closing: Promise<void> | null = null
  return {
    url: `http://${host}:${addr.port}`,
    host: config.host,
    port: addr.port,
    deps,
    close() {
      closing ??= (async () => {
        deps.webhooks.stop()
        deps.clocks.stop()
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeIdleConnections()
          setTimeout(() => server.closeAllConnections(), 2_000).unref()
        })
        await closeDeps(deps)
      })()
      return closing
    },
  }
}

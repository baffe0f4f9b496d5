import { execFile } from 'node:child_process'
import { createServer, request, type Server } from 'node:http'
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { freePort } from './process.js'

/**
 * A throwaway PostgreSQL cluster for one test file: `initdb` in a temporary folder, a port nothing
 * listens on, trust authentication on loopback only, stopped and removed at the end. Never a shared
 * server. Debian's binaries (`/usr/lib/postgresql/<version>/bin`, installed by `.ci/run` when
 * missing). PostgreSQL refuses to run as root: as root the cluster is made and run by `nobody`
 * (`runuser`), in a folder of /tmp that user can reach (the run's TMPDIR is root's alone).
 */

const run = promisify(execFile)

export interface Cluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string
  port: number
  /** pg_ctl stop -m fast: the server ends its connections and stops */
  stop(): Promise<void>
  /** pg_ctl start on the same folder and port, waiting until it takes connections */
  start(): Promise<void>
  /** a query on a connection of its own */
  query<T = any>(sql: string, params?: unknown[]): Promise<T[]>
  /** stops the server and removes its folder */
  remove(): Promise<void>
}

/** The newest installed version's binaries. */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : []
  if (!versions.length) throw new Error('PostgreSQL is not installed (/usr/lib/postgresql/*/bin/initdb): .ci/run installs Debian\'s postgresql package')
  versions.sort((a, b) => Number(b) - Number(a))
  return join(root, versions[0], 'bin')
}

const asRoot = process.getuid?.() === 0

/** Runs one of the binaries, as `nobody` when we are root. */
function pgRun(bin: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const file = join(postgresBin(), bin)
  return asRoot ? run('runuser', ['-u', 'nobody', '--', file, ...args]) : run(file, args)
}

/**
 * Beyond loopback (the container tests: test/container/postgres.test.ts): the server listens on
 * `address` too, and takes `network`'s clients with this password (scram-sha-256, never trust);
 * loopback stays trusted for the test's own queries.
 */
export interface Reachable {
  address: string
  /** a CIDR, as pg_hba.conf takes it */
  network: string
  password: string
}

export async function startCluster(reachable?: Reachable): Promise<Cluster> {
  const dir = mkdtempSync(join(asRoot ? '/tmp' : tmpdir(), 'paysandbox-pg-'))
  if (asRoot) {
    chmodSync(dir, 0o777)
  }
  const data = join(dir, 'data')
  await pgRun('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'])
  if (reachable) appendFileSync(join(data, 'pg_hba.conf'), `host all all ${reachable.network} scram-sha-256\n`)
  const port = await freePort()
  const listen = ['127.0.0.1', ...(reachable ? [reachable.address] : [])].join(',')
  const options = `-p ${port} -k ${dir} -c listen_addresses=${listen} -c fsync=off -c max_connections=50`
  const start = async () => {
    await pgRun('pg_ctl', ['start', '-w', '-D', data, '-l', join(dir, 'log'), '-o', options])
  }
  await start()
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  if (reachable) await queryDb(url, `ALTER USER postgres PASSWORD '${reachable.password.replace(/'/g, "''")}'`)
  let removed = false
  const stop = async () => {
    await pgRun('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', data]).catch(() => undefined)
  }
  return {
    url,
    port,
    stop,
    start,
    async query(sql, params) {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        return (await client.query(sql, params as unknown[])).rows
      } finally {
        await client.end()
      }
    },
    async remove() {
      if (removed) return
      removed = true
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A round-robin proxy: each call goes to the next backend, as it came; a backend that fails closes the client's connection. */
export async function roundRobin(backends: string[]): Promise<{ url: string; server: Server; sent: number[] }> {
  let next = 0
  const sent = backends.map(() => 0)
  const server = createServer((req, res) => {
    const i = next++ % backends.length
    sent[i]++
    const out = request(new URL(req.url!, backends[i]), { method: req.method, headers: req.headers }, (back) => {
      res.writeHead(back.statusCode!, back.headers)
      back.pipe(res)
    })
    out.on('error', () => res.destroy())
    req.pipe(out)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server, sent }
}

/**
 * One throwaway cluster for a test file, started before its tests and removed after them; `fresh()`
 * makes a database of its own on it (a test's, or a deployment's).
 */
export function clusterPerFile(): { readonly pg: Cluster; fresh(): Promise<string> } {
  let cluster: Cluster | undefined
  let made = 0
  beforeAll(async () => {
    cluster = await startCluster()
  }, 60_000)
  afterAll(async () => {
    await cluster?.remove()
  })
  return {
    get pg() {
      return cluster!
    },
    async fresh() {
      const name = `t${++made}`
      await cluster!.query(`CREATE DATABASE ${name}`)
      return cluster!.url.replace(/\/postgres$/, `/${name}`)
    },
  }
}

/** The rows of one statement on the database at `url`, on a connection of its own. */
export async function queryDb(url: string, sql: string, params: unknown[] = []): Promise<any[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(sql, params)).rows
  } finally {
    await client.end()
  }
}

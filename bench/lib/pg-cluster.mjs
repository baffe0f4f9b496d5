// A throwaway PostgreSQL cluster for bench/postgres.mjs: `initdb` in a temporary folder, a free
// port, trust authentication on loopback only, removed at the end (as test/e2e/postgres.ts makes
// the tests'). Debian's binaries (/usr/lib/postgresql/<version>/bin); as root, run by `nobody`.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { countAsOurs, freePort } from './servers.mjs'

const asRoot = process.getuid?.() === 0

function bin() {
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb'))) : []
  if (!versions.length) throw new Error('PostgreSQL is not installed (/usr/lib/postgresql/*/bin/initdb)')
  versions.sort((a, b) => Number(b) - Number(a))
  return path.join(root, versions[0], 'bin')
}

const pgRun = (name, args) => {
  const file = path.join(bin(), name)
  return asRoot ? execFileSync('runuser', ['-u', 'nobody', '--', file, ...args], { stdio: 'pipe' }) : execFileSync(file, args, { stdio: 'pipe' })
}

/** Starts a cluster; resolves with `{ url(db), pids(), createDatabase(name), version, remove() }`. */
export async function startCluster() {
  const dir = mkdtempSync(path.join(asRoot ? '/tmp' : tmpdir(), 'paysandbox-bench-pg-'))
  if (asRoot) chmodSync(dir, 0o777)
  const data = path.join(dir, 'data')
  pgRun('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'])
  const port = await freePort()
  // fsync stays on: the figures are those of a database that keeps what it acknowledged
  pgRun('pg_ctl', ['start', '-w', '-D', data, '-l', path.join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`])
  const url = (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`
  // the server and its backends: what they use is the store's, not other load on the machine
  const pids = () => {
    try {
      const main = readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0].trim()
      return [Number(main), ...readFileSync(`/proc/${main}/task/${main}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)]
    } catch {
      return []
    }
  }
  countAsOurs(pids)
  return {
    url,
    pids,
    version: path.basename(path.dirname(bin())),
    async createDatabase(name) {
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: url() })
      await client.connect()
      try {
        await client.query(`CREATE DATABASE ${name}`)
      } finally {
        await client.end()
      }
      return url(name)
    },
    remove() {
      try {
        pgRun('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', data])
      } catch { /* already stopped */ }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

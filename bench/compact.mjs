#!/usr/bin/env node
// CPU of one compaction of the data file with N card charges stored, of each build (issue 51).
//
//   node bench/compact.mjs [--charges 50000] [--times 3] BUILD BUILD ...
//
// BUILD is a checkout with dist/ built (`.` for this one). Each build runs in a process of its
// own, one after the other: its app made as a test embeds it (dist/index.js) with `--data` on a
// fresh file, filled with N card charges (50 at a time, in process, no socket), then compacted
// `--times` times (`Store.compact`, what the file log does on its own once the appended changes
// outgrow the snapshot), each timed by the process's CPU (all its threads: the writes, the
// collector). A compaction writes the whole store in one go, so its cost grows with the store
// while a card charge's own does not: a load window it falls in loses that much CPU.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const { values, positionals } = parseArgs({
  options: { charges: { type: 'string', default: '50000' }, times: { type: 'string', default: '3' }, worker: { type: 'boolean' }, help: { type: 'boolean' } },
  allowPositionals: true,
})
if (positionals.length === 0 || values.help) {
  console.log('usage: node bench/compact.mjs [--charges 50000] [--times 3] BUILD BUILD ...')
  process.exit(values.help ? 0 : 2)
}
const charges = Number(values.charges)
const times = Number(values.times)
if (!(charges > 0) || !(times > 0)) throw new Error('--charges and --times take a positive number')

if (!values.worker) {
  for (const build of positionals) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--worker', '--charges', String(charges), '--times', String(times), build], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`${build}: the worker failed (${r.status})`)
    process.stdout.write(`${build.padEnd(30)} ${r.stdout}`)
  }
  process.exit(0)
}

const root = path.resolve(positionals[0])
const { SECRET, cardBody } = await import('./lib/bodies.mjs')
const m = await import(pathToFileURL(path.join(root, 'dist/index.js')).href)
const dir = mkdtempSync(path.join(os.tmpdir(), 'paysandbox-compact-'))
const file = path.join(dir, 'data.json')
try {
  const deps = await m.createDeps(m.resolveConfig({ port: 0, secretKey: SECRET, encryptionKey: 'sandbox-encryption-key-012345678', data: file }, {}))
  const app = m.createApp(deps)
  const headers = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }
  let n = 0
  const worker = async () => {
    while (n < charges) {
      const res = await app.request('/merchant/api/v1/charges/card', { method: 'POST', headers, body: cardBody(`compact-${process.pid}-${n++}`) })
      if (res.status !== 200) throw new Error(`a card charge answered ${res.status}: ${await res.text()}`)
      await res.arrayBuffer()
    }
  }
  await Promise.all(Array.from({ length: 50 }, worker))
  const ms = []
  for (let i = 0; i < times; i++) {
    const before = process.cpuUsage()
    await deps.store.compact()
    const spent = process.cpuUsage(before)
    ms.push(Math.round((spent.user + spent.system) / 1000))
  }
  console.log(`${ms.join(', ')} ms of CPU per compaction with ${charges} card charges stored (file ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB)`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
process.exit(0)

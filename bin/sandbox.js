#!/usr/bin/env node
import { fileURLToPath } from 'node:url'
import { ensureBuilt } from './built.mjs'

// in a checkout, dist/ is built first when it is missing or older than src/ (saying so);
// an installed package runs the dist/ it was packed with
try {
  ensureBuilt(fileURLToPath(new URL('..', import.meta.url)))
} catch (err) {
  process.stderr.write(`${err.message}\n`)
  process.exit(1)
}
const { main } = await import('../dist/cli.js')
await main()

// tsc compiles src/ into dist/ and copies nothing else: the files the code reads beside itself
// (the dashboard's stylesheet and browser script, see src/control/dashboard/assets.ts; the SQL
// migrations of src/store/migrations/) are copied here,
// and the shipped scenario pack is checked and kept as JSON (src/scenario/index.ts, loadBuiltPack):
// a default pack the schema refuses fails the build.
import { cpSync, writeFileSync } from 'node:fs'
import { BUILT_DEFAULT_PACK_FILE, DEFAULT_PACK_FILE, buildPack } from '../dist/scenario/index.js'

for (const file of ['control/dashboard/dashboard.css', 'control/dashboard/dashboard.js']) {
  cpSync(new URL(`../src/${file}`, import.meta.url), new URL(`../dist/${file}`, import.meta.url))
}

// the PostgreSQL store's migrations, read beside src/store/pg-schema.ts at start
cpSync(new URL('../src/store/migrations', import.meta.url), new URL('../dist/store/migrations', import.meta.url), { recursive: true })

writeFileSync(BUILT_DEFAULT_PACK_FILE, buildPack(DEFAULT_PACK_FILE))

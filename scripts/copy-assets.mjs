// tsc compiles src/ into dist/ and copies nothing else: the files the code reads beside itself
// (the dashboard's stylesheet and browser script, see src/control/dashboard/assets.ts; the SQL
// migrations of src/store/migrations/) are copied here,
// and the shipped scenario pack is checked and kept as JSON (src/scenario/index.ts, loadBuiltPack):
// a default pack the schema refuses (the shared settings' and the areas' own) fails the build.
import { cpSync, writeFileSync } from 'node:fs'
import { BUILT_DEFAULT_PACK_FILE, DEFAULT_PACK_FILE, buildPack, packRules } from '../dist/scenario/index.js'

for (const file of ['control/dashboard/dashboard.css', 'control/dashboard/dashboard.js']) {
  cpSync(new URL(`../src/${file}`, import.meta.url), new URL(`../dist/${file}`, import.meta.url))
}

// the PostgreSQL store's migrations, read beside src/store/pg-schema.ts at start
cpSync(new URL('../src/store/migrations', import.meta.url), new URL('../dist/store/migrations', import.meta.url), { recursive: true })

// the areas are read once the files they may read beside themselves are copied
const { AREAS } = await import('../dist/areas.js')
writeFileSync(BUILT_DEFAULT_PACK_FILE, buildPack(DEFAULT_PACK_FILE, packRules(AREAS)))

// Writes docs/outcomes.md, the outcome catalogue (docs/behaviour.md#readiness-report), from the built areas'
// declarations and the shipped pack. `--check` writes nothing and exits 1 when the page differs.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { AREAS } from '../dist/areas.js'
import { catalogue, catalogueMarkdown } from '../dist/control/outcomes.js'
import { ActiveScenarios, Scenarios } from '../dist/scenario/index.js'

const FILE = fileURLToPath(new URL('../docs/outcomes.md', import.meta.url))
const text = catalogueMarkdown(catalogue(AREAS, new ActiveScenarios(Scenarios.loadPacks([]))))

if (process.argv.includes('--check')) {
  let current = ''
  try {
    current = readFileSync(FILE, 'utf8')
  } catch {
    /* missing: differs */
  }
  if (current !== text) {
    process.stderr.write('docs/outcomes.md differs from the catalogue: run npm run outcomes:docs\n')
    process.exit(1)
  }
} else writeFileSync(FILE, text)

// Writes docs/outcomes.md, the outcome catalogue (docs/behaviour.md#readiness-report), from the built areas'
// declarations and the shipped pack. `--check` writes nothing and exits 1 when the page differs.
import { fileURLToPath } from 'node:url'
import { writeOrCheck } from './generated.mjs'
import { AREAS } from '../dist/areas.js'
import { catalogue, catalogueMarkdown } from '../dist/control/outcomes.js'
import { ActiveScenarios, Scenarios, packRules } from '../dist/scenario/index.js'

const FILE = fileURLToPath(new URL('../docs/outcomes.md', import.meta.url))
const text = catalogueMarkdown(catalogue(AREAS, new ActiveScenarios(Scenarios.loadPacks([], { rules: packRules(AREAS) }), packRules(AREAS))))

writeOrCheck(FILE, text, 'docs/outcomes.md differs from the catalogue: run npm run outcomes:docs')

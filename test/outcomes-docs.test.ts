import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { AREAS } from '../src/areas.js'
import { catalogue, catalogueMarkdown } from '../src/control/outcomes.js'
import { ActiveScenarios, Scenarios, packRules } from '../src/scenario/index.js'

describe('docs/outcomes.md (docs/behaviour.md#readiness-report)', () => {
  it('is the catalogue the code declares under the shipped pack: npm run outcomes:docs writes it', () => {
    const page = readFileSync(new URL('../docs/outcomes.md', import.meta.url), 'utf8')
    const entries = catalogue(AREAS, new ActiveScenarios(Scenarios.loadPacks([], { rules: packRules(AREAS) }), packRules(AREAS)))
    expect(page, 'docs/outcomes.md differs from the catalogue: run npm run outcomes:docs').toBe(catalogueMarkdown(entries))
    for (const id of ['card.otp', 'transfer.failed', 'bank-transfer.underpaid', 'checkout.cancelled', 'webhook.charge.success']) expect(page).toContain(`| \`${id}\` |`)
  })
})

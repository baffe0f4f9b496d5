import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AREAS } from '../src/areas.js'
import { DEFAULT_PACK_FILE, loadPackFile, packRules } from '../src/scenario/index.js'

/**
 * docs/test-values.md is made from the data it describes (scripts/test-values.mjs reads the shipped
 * pack through the pack loader in dist/, and fixtures/): the committed page must be what the data
 * gives today, as test/e2e/conformance.test.ts holds docs/conformance.md to the scoreboard.
 */

const ROOT = resolve(import.meta.dirname, '..')
const PAGE = join(ROOT, 'docs', 'test-values.md')

describe('docs/test-values.md', () => {
  it('is what scripts/test-values.mjs makes of the pack and the fixtures (regenerate it with npm run docs:test-values)', () => {
    const made = execFileSync(process.execPath, [join(ROOT, 'scripts', 'test-values.mjs')], { cwd: ROOT, encoding: 'utf8' })
    expect(made).toBe(readFileSync(PAGE, 'utf8'))
  })

  it('names every test value of the shipped pack', () => {
    const page = readFileSync(PAGE, 'utf8')
    const pack = loadPackFile(DEFAULT_PACK_FILE, packRules(AREAS))
    const values = [
      ...pack.cards.map((x) => x.number),
      ...pack.wallets.map((x) => x.number),
      ...pack.identities.map((x) => x.id),
      ...pack.accounts.map((x) => x.account_number),
      ...pack.authorizations.map((x) => x.reference),
      ...pack.payouts.map((x) => `| \`${x.bank}\` | \`${x.account}\` |`),
      ...pack.banks.map((x) => x.bank_code),
      ...pack.vouchers.map((x) => x.pin),
      ...pack.transfers.map((x) => x.amount.toFixed(2)),
    ]
    expect(values.filter((v) => !page.includes(v))).toEqual([])
  })
})

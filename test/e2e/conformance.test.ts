import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startCli, type RunningCli } from './process.js'

/** `sandbox conformance` (docs/behaviour.md 10.7) as a process: the scoreboard, its exit codes and the page it writes. */

let sandbox: RunningCli
beforeAll(async () => {
  sandbox = await startCli([])
})
afterAll(async () => {
  sandbox.child.kill()
  await sandbox.exited
})

/** A corpus of one endpoint and one entry file, in a temporary directory. */
function corpus(entries: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-'))
  mkdirSync(join(dir, 'entries'))
  writeFileSync(join(dir, 'endpoints.yaml'), 'endpoints:\n  - { area: balances, method: GET, path: /merchant/api/v1/balances, source: "https://developers.korapay.com/docs/balance-api" }\n')
  writeFileSync(
    join(dir, 'entries', 'balances.yaml'),
    `source: { url: "https://developers.korapay.com/docs/balance-api" }
kind: docs
date: 2025-02-28
profile: [default]
entries:
${entries}`,
  )
  return dir
}

const entry = (message: string, extra = '') => `  - id: balances
    endpoint: GET /merchant/api/v1/balances
    tier: 1
${extra}    steps:
      - request: { method: GET, path: /merchant/api/v1/balances }
        expect: { status: 200, body: { status: true, message: ${message} } }
`

describe('sandbox conformance', () => {
  it('gives, in markdown, the page docs/conformance.md holds (regenerate it with npm run conformance:docs)', async () => {
    const r = await runCli(['conformance', '--format', 'markdown'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(readFileSync('docs/conformance.md', 'utf8'))
  })

  it('gives the README the totals the scoreboard gives', async () => {
    const r = await runCli(['conformance', '--format', 'json'])
    const { tiers, coverage } = JSON.parse(r.stdout).totals
    const readme = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ')
    for (const n of ['1', '2', '3']) expect(readme).toContain(`**tier ${n}** ${['', '(documented success paths)', '(refusals and failures)', '(strict: exact texts, number vs string, key order)'][Number(n)]} ${tiers[n].pass}/${tiers[n].pass + tiers[n].fail} (${tiers[n].score})`)
    expect(readme).toContain(`**coverage** ${coverage.served} of ${coverage.documented} documented endpoints served (${coverage.score})`)
  })

  it('prints the scoreboard: each documented endpoint, then the totals per tier beside coverage', async () => {
    const r = await runCli(['conformance'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Profile: default\. The live profile \(CONTRACT 15\) is not served yet/)
    expect(r.stdout).toMatch(/^POST \/merchant\/api\/v1\/crypto\/wallets +no +\d+ /m)
    expect(r.stdout).toMatch(/^Totals: tier 1 \d+\/\d+ \([\d.]+ %\), tier 2 \d+\/\d+ \([\d.]+ %\), tier 3 .*; coverage \d+\/\d+ documented endpoints served \([\d.]+ %\)$/m)
  })

  it('exits 1 when a tier-1 entry fails, 0 when the same failure is a known difference (still a failure in the score)', async () => {
    const failing = await runCli(['conformance', '--corpus', corpus(entry('Balances retrieved successfully')), '--format', 'json'])
    expect(failing.code).toBe(1)
    const report = JSON.parse(failing.stdout)
    expect(report.totals.tiers['1']).toEqual({ pass: 0, fail: 1, score: '0.0 %' })
    expect(report.entries[0].differences).toEqual([{ step: '1. GET /merchant/api/v1/balances', path: 'message', expected: 'Balances retrieved successfully', got: 'success' }])
    const known = await runCli(['conformance', '--corpus', corpus(entry('Balances retrieved successfully', '    known_difference: the sandbox still says success\n'))])
    expect(known.code).toBe(0)
    expect(known.stdout).toContain('Totals: tier 1 0/1 (0.0 %)')
    expect(known.stdout).toContain('[known: the sandbox still says success]')
  })

  it('runs against a running sandbox with --against', async () => {
    const r = await runCli(['conformance', '--corpus', corpus(entry('success')), '--against', sandbox.url, '--format', 'json'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).totals.tiers['1']).toEqual({ pass: 1, fail: 0, score: '100.0 %' })
  })

  it('gives sandbox verify a file of entries as one flow per entry, each named by its file and id', async () => {
    const dir = corpus(entry('success') + entry('Balances retrieved successfully').replace('id: balances', 'id: balances-message'))
    const r = await runCli(['verify', join(dir, 'entries', 'balances.yaml'), '--format', 'json'])
    const report = JSON.parse(r.stdout)
    expect(report.flows).toBe(2)
    expect(report.differences).toEqual([
      { flow: `${join(dir, 'entries', 'balances.yaml')}#balances-message`, step: '1. GET /merchant/api/v1/balances', path: 'message', expected: 'Balances retrieved successfully', got: 'success' },
    ])
    expect(r.code).toBe(1)
  })

  it('refuses a bad entry naming its file and field, a bad flag, and the live profile it cannot score yet (exit 2)', async () => {
    const dir = corpus(entry('success').replace('tier: 1', 'tier: 5'))
    const bad = await runCli(['conformance', '--corpus', dir])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/entries\/balances\.yaml: entries\.0\.tier: /)
    const format = await runCli(['conformance', '--format', 'junit'])
    expect(format.code).toBe(2)
    expect(format.stderr).toContain('--format must be text, json or markdown (got junit)')
    const live = await runCli(['conformance', '--profile', 'live'])
    expect(live.code).toBe(2)
    expect(live.stderr).toContain('the live profile (CONTRACT 15) is not served yet')
  })
})

import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, runCli, startCli, type RunningCli } from './process.js'

/** `sandbox conformance` (docs/behaviour.md#conformance) as a process: the scoreboard, its exit codes and the page it writes. */

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
    const { totals } = JSON.parse(r.stdout)
    const readme = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ')
    for (const profile of ['default', 'live']) {
      const { tiers } = totals[profile]
      const cells = ['1', '2', '3'].map((n) => `${tiers[n].pass}/${tiers[n].pass + tiers[n].fail} (${tiers[n].score})`)
      expect(readme).toContain(`| ${profile} | ${cells.join(' | ')} |`)
    }
    const { coverage } = totals.default
    expect(readme).toContain(`**coverage** ${coverage.served} of ${coverage.documented} documented endpoints served (${coverage.score})`)
  })

  it('prints the scoreboard: each documented endpoint, then the totals per tier beside coverage', async () => {
    const r = await runCli(['conformance'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Profiles scored: default \(\d+ entries.*\), live \(\d+ entries/)
    expect(r.stdout).toMatch(/^== live profile ==$/m)
    expect(r.stdout).toMatch(/^POST \/merchant\/api\/v1\/charges\/card +yes +\d+ /m)
    expect(r.stdout).toMatch(/^Totals \(live profile\): tier 1 \d+\/\d+/m)
    expect(r.stdout).toMatch(/^Totals \(default profile\): tier 1 \d+\/\d+ \([\d.]+ %\), tier 2 \d+\/\d+ \([\d.]+ %\), tier 3 .*; coverage \d+\/\d+ documented endpoints served \([\d.]+ %\)$/m)
  })

  it('exits 1 when a tier-1 entry fails, 0 when the same failure is a known difference (still a failure in the score)', async () => {
    const failing = await runCli(['conformance', '--corpus', corpus(entry('Balances retrieved successfully')), '--format', 'json'])
    expect(failing.code).toBe(1)
    const report = JSON.parse(failing.stdout)
    expect(report.totals.default.tiers['1']).toEqual({ pass: 0, fail: 1, score: '0.0 %' })
    expect(report.entries[0].differences).toEqual([{ step: '1. GET /merchant/api/v1/balances', path: 'message', expected: 'Balances retrieved successfully', got: 'success' }])
    const known = await runCli(['conformance', '--corpus', corpus(entry('Balances retrieved successfully', '    known_difference: the sandbox still says success\n')), '--profile', 'default'])
    expect(known.code).toBe(0)
    expect(known.stdout).toContain('Totals: tier 1 0/1 (0.0 %)')
    expect(known.stdout).toContain('[known: the sandbox still says success]')
  })

  it('runs against a running sandbox with --against', async () => {
    const r = await runCli(['conformance', '--corpus', corpus(entry('success')), '--against', sandbox.url, '--format', 'json'])
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report.profiles).toEqual(['default'])
    expect(report.totals.default.tiers['1']).toEqual({ pass: 1, fail: 0, score: '100.0 %' })
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

  it('scores an entry of the live profile against a sandbox under it, and a sandbox started with --profile live answers so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-live-'))
    mkdirSync(join(dir, 'entries'))
    writeFileSync(join(dir, 'endpoints.yaml'), 'endpoints:\n  - { area: bank-transfer, method: POST, path: /merchant/api/v1/charges/bank-transfer, source: "https://developers.korapay.com/docs/bank-transfers" }\n')
    const refusal = (id: string, profile: string, message: string) => `  - id: ${id}
    endpoint: POST /merchant/api/v1/charges/bank-transfer
    tier: 2
    profile: [${profile}]
    steps:
      - request: { method: POST, path: /merchant/api/v1/charges/bank-transfer, body: { currency: NGN } }
        expect: { status: 422, body: { status: false, error: validation_error, message: "${message}" } }
`
    const live = 'One or more fields are invalid. Please fix them and try again.'
    writeFileSync(join(dir, 'entries', 'refusals.yaml'), `source: { url: "https://developers.korapay.com/docs/bank-transfers" }\nkind: live\ndate: 2026-10-07\nentries:\n${refusal('as-spec', 'default', 'Invalid request data')}${refusal('as-recorded', 'live', live)}`)
    const r = await runCli(['conformance', '--corpus', dir, '--format', 'json'])
    expect(r.stderr).toBe('')
    const report = JSON.parse(r.stdout)
    expect(report.entries.map((e: { entry: string; profile: string; pass: boolean }) => [e.entry.split('#')[1], e.profile, e.pass])).toEqual([
      ['as-spec', 'default', true],
      ['as-recorded', 'live', true],
    ])
    const started = await startCli(['--profile', 'live'])
    try {
      const res = await api(started.url, 'sk_test_live_cli', 'POST', '/merchant/api/v1/charges/bank-transfer', { currency: 'NGN' })
      expect(res.status).toBe(422)
      expect(res.body.message).toBe(live)
    } finally {
      started.child.kill()
      await started.exited
    }
    const refused = await runCli(['start', '--port', '0'], undefined, { SANDBOX_PROFILE: 'recorded' })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--profile must be default or live (got recorded)')
  })

  it('refuses a bad entry naming its file and field, and a bad flag (exit 2)', async () => {
    const dir = corpus(entry('success').replace('tier: 1', 'tier: 5'))
    const bad = await runCli(['conformance', '--corpus', dir])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/entries\/balances\.yaml: entries\.0\.tier: /)
    const format = await runCli(['conformance', '--format', 'junit'])
    expect(format.code).toBe(2)
    expect(format.stderr).toContain('--format must be text, json or markdown (got junit)')
    const profile = await runCli(['conformance', '--profile', 'recorded'])
    expect(profile.code).toBe(2)
    expect(profile.stderr).toContain('--profile must be default, live or both (got recorded)')
  })

  it('adds a recorded flow as a dated live entry of the endpoint of its last call, and refuses what the corpus would not take', async () => {
    const dir = corpus(entry('success'))
    const flow = join(dir, 'session.yaml')
    writeFileSync(
      flow,
      `name: recorded session
description: recorded through the sandbox's proxy from https://api.korapay.com
steps:
  - request: { method: GET, path: "/merchant/api/v1/balances?currency=NGN" }
    expect: { status: 200, body: { status: true, message: success } }
`,
    )
    const added = await runCli(['conformance', 'add', flow, '--corpus', dir, '--date', '2026-11-28'])
    expect(added.stderr).toBe('')
    expect(added.code).toBe(0)
    expect(added.stdout).toContain('added recorded-session-2026-11-28 (GET /merchant/api/v1/balances, tier 1)')
    const written = readFileSync(join(dir, 'entries', 'recorded', 'recorded-session-2026-11-28.yaml'), 'utf8')
    expect(written).toMatch(/^kind: live$/m)
    expect(written).toMatch(/^date: 2026-11-28$/m)
    const scored = JSON.parse((await runCli(['conformance', '--corpus', dir, '--format', 'json', '--profile', 'default'])).stdout)
    const mine = scored.entries.find((e: { entry: string }) => e.entry.endsWith('#recorded-session-2026-11-28'))
    expect(mine, JSON.stringify(mine)).toMatchObject({ kind: 'live', date: '2026-11-28', pass: true })
    expect(scored.endpoints[0].validated_live).toBe('2026-11-28')
    // the same id again, a call of no listed endpoint, a bad date: refused, nothing written
    const again = await runCli(['conformance', 'add', flow, '--corpus', dir, '--date', '2026-11-28'])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('the corpus has an entry recorded-session-2026-11-28 already')
    writeFileSync(flow, 'name: s\nsteps:\n  - request: { method: GET, path: /merchant/api/v1/nowhere }\n    expect: { status: 200 }\n')
    const unlisted = await runCli(['conformance', 'add', flow, '--corpus', dir, '--date', '2026-11-29'])
    expect(unlisted.code).toBe(2)
    expect(unlisted.stderr).toContain('GET /merchant/api/v1/nowhere, is no endpoint of endpoints.yaml')
    const day = await runCli(['conformance', 'add', flow, '--corpus', dir, '--date', '28/11/2026'])
    expect(day.code).toBe(2)
    expect(readdirSync(join(dir, 'entries', 'recorded'))).toEqual(['recorded-session-2026-11-28.yaml'])
  })

  it('scores the live-profile entries against a service that is not a sandbox with the test keys, and refuses it without them', async () => {
    // a service that is not a sandbox (no control API), answering the balances as the entry expects
    const seen: string[] = []
    const service = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`)
      res.writeHead(req.url === '/merchant/api/v1/balances' ? 200 : 404, { 'content-type': 'application/json' })
      res.end(JSON.stringify(req.url === '/merchant/api/v1/balances' ? { status: true, message: 'success', data: {} } : { status: false, message: 'Route not found', data: null }))
    })
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`
    try {
      const dir = corpus(entry('success'))
      writeFileSync(join(dir, 'entries', 'balances.yaml'), readFileSync(join(dir, 'entries', 'balances.yaml'), 'utf8').replace('profile: [default]', 'profile: [default, live]'))
      const keys = { KORAPAY_SECRET_KEY: 'sk_test_nightly', KORAPAY_ENCRYPTION_KEY: 'k'.repeat(32) }
      const r = await runCli(['conformance', '--corpus', dir, '--against', url, '--format', 'json'], undefined, keys)
      expect(r.stderr).toBe('')
      const report = JSON.parse(r.stdout)
      expect(report.profiles).toEqual(['live'])
      expect(report.totals.live.tiers['1']).toEqual({ pass: 1, fail: 0, score: '100.0 %' })
      expect(seen).toContain('GET /merchant/api/v1/balances Bearer sk_test_nightly')
      const bare = await runCli(['conformance', '--corpus', dir, '--against', url], undefined, { KORAPAY_SECRET_KEY: '', KORAPAY_ENCRYPTION_KEY: '' })
      expect(bare.code).toBe(2)
      expect(bare.stderr).toContain('set KORAPAY_SECRET_KEY and KORAPAY_ENCRYPTION_KEY to your test keys')
      const liveKey = await runCli(['conformance', '--corpus', dir, '--against', url], undefined, { ...keys, KORAPAY_SECRET_KEY: 'sk_live_nope' })
      expect(liveKey.code).toBe(2)
      expect(liveKey.stderr).toContain('refusing a live key')
    } finally {
      service.close()
    }
  })
})

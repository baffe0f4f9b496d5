import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadCorpus } from '../src/replay/corpus.js'

/**
 * scripts/postman-to-conformance.mjs (docs/behaviour.md#conformance): a fetched Postman collection's
 * examples become conformance entries the corpus accepts, offline.
 */

const ROOT = resolve(import.meta.dirname, '..')

describe('scripts/postman-to-conformance.mjs', () => {
  it('writes an entry per example of a listed endpoint, with its source, date, tier and whole answer, and names what it leaves out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'postman-'))
    const out = join(dir, 'entries')
    const run = spawnSync(process.execPath, [
      join(ROOT, 'scripts/postman-to-conformance.mjs'),
      join(ROOT, 'test/fixtures/postman-mini.json'),
      '--out', out,
      '--repo', 'Jae3y/procureai', '--path', 'docs/kora-snapshots/kora-postman-collection.json', '--commit', 'b3d9407a2cc0b5214f62fa33fc804d17d492970b',
      '--original', 'https://docs.korapay.com', '--date', '2026-10-06',
    ], { encoding: 'utf8' })
    expect(run.status).toBe(0)
    expect(run.stdout).toBe('4 entries in 2 files, 2 examples left out\n')
    expect(run.stderr).toContain('left out: Card Issuing / Create card / Create card - Success: POST /merchant/api/v1/cards is not in endpoints.yaml')
    expect(run.stderr).toContain('left out: Balances / Get Balances / Get Balance - Broken: the answer is not JSON')
    expect(readdirSync(out).sort()).toEqual(['balances.yaml', 'pay-ins.yaml'])

    // the files are entries the corpus accepts as they are
    mkdirSync(join(dir, 'corpus'))
    cpSync(join(ROOT, 'conformance/endpoints.yaml'), join(dir, 'corpus/endpoints.yaml'))
    cpSync(out, join(dir, 'corpus/entries'), { recursive: true })
    const corpus = loadCorpus(join(dir, 'corpus'), join(dir, 'corpus'))
    const byId = Object.fromEntries(corpus.entries.map((e) => [e.id, e]))
    expect(Object.keys(byId).sort()).toEqual([
      'pm-charge-duplicate-payment-reference-error',
      'pm-get-balances-get-balance-success',
      'pm-query-charge-query-charge-not-found',
      'pm-resend-otp-resend-otp-transaction-not-found',
    ])
    const voucher = byId['pm-charge-duplicate-payment-reference-error']
    expect(voucher.endpoint).toBe('POST /merchant/api/v1/charge/voucher')
    expect(voucher).toMatchObject({ tier: 2, date: '2026-10-06', kind: 'docs' })
    expect(voucher.source).toEqual({
      repo: 'Jae3y/procureai',
      path: 'docs/kora-snapshots/kora-postman-collection.json',
      commit: 'b3d9407a2cc0b5214f62fa33fc804d17d492970b',
      original: 'https://docs.korapay.com',
      item: 'Pay-ins / Voucher / Charge / Duplicate payment reference error',
    })
    expect(voucher.flow.steps[0]).toEqual({
      request: { method: 'POST', path: '/merchant/api/v1/charge/voucher', body: { amount: 100, currency: 'ZAR', reference: 'example-unique-reference' } },
      expect: { whole: true, body: { status: false, message: 'Duplicate payment reference', data: null } },
    })
    expect(byId['pm-resend-otp-resend-otp-transaction-not-found']).toMatchObject({ tier: 2, date: '2023-05-02', endpoint: 'POST /merchant/api/v1/charges/card/resend-otp' })
    expect(byId['pm-query-charge-query-charge-not-found'].flow.steps[0].request).toEqual({ method: 'GET', path: '/merchant/api/v1/charges/:reference' })
    expect(byId['pm-get-balances-get-balance-success']).toMatchObject({ tier: 1, date: '2021-04-23', endpoint: 'GET /merchant/api/v1/balances' })
  })
})

import type { Source } from './corpus.js'
import { ratio, TIERS, type Count, type EndpointScore, type EntryResult, type Scoreboard } from './conformance.js'
import { ABSENT } from './shape.js'

/** The three reports of `sandbox conformance` (docs/behaviour.md 10.7): text, JSON and the page docs/conformance.md. */

const PROFILE_NOTE = (s: Scoreboard) =>
  `Profile: default. The live profile (CONTRACT 15) is not served yet, so only the default profile is scored${s.notScored.length ? `; ${s.notScored.length} entries hold for the live profile only and are listed, not scored` : ''}.`

const cell = (c: Count) => (c.pass + c.fail ? `${c.pass}/${c.pass + c.fail}` : '-')
const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)} %` : '-')

/** One line of totals: each tier's Pass/(Pass+Fail), beside coverage. */
export function totalsLine(s: Scoreboard): string {
  const t = s.totals
  const tiers = TIERS.map((n) => `tier ${n} ${cell(t.tiers[n])} (${ratio(t.tiers[n])})`).join(', ')
  return `${tiers}; coverage ${t.served}/${t.documented} documented endpoints served (${pct(t.served, t.documented)})`
}

const shown = (v: unknown) => (v === ABSENT ? ABSENT : JSON.stringify(v))

/** The paths an entry differs at, once each, without the values (which may change run to run). */
const paths = (r: EntryResult) => [...new Set(r.differences.map((d) => d.path))]

export function sourceText(src: Source): string {
  if ('url' in src) return src.item ? `${src.url} (${src.item})` : src.url
  return `${src.repo}:${src.path}@${src.commit.slice(0, 7)}${src.item ? ` (${src.item})` : ''}`
}

function sourceLink(src: Source): string {
  const url = 'url' in src ? src.url : `https://github.com/${src.repo}/blob/${src.commit}/${src.path}`
  const name = 'url' in src ? src.url.replace(/^https?:\/\//, '') : `${src.repo}:${src.path}`
  return `[${name}](${url})${src.item ? ` (${src.item})` : ''}`
}

export function textReport(s: Scoreboard): string {
  const out: string[] = [PROFILE_NOTE(s), '']
  const rows = s.endpoints.map((e) => [
    `${e.endpoint.method} ${e.endpoint.path}`,
    e.served ? 'yes' : 'no',
    String(e.entries),
    ...TIERS.map((n) => cell(e.tiers[n])),
    String(e.masks),
    e.newest ?? '-',
    e.live,
  ])
  const head = ['endpoint', 'served', 'entries', 'tier 1', 'tier 2', 'tier 3', 'masked', 'newest source', 'validated live']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  for (const r of [head, ...rows]) out.push(r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd())
  out.push('')
  for (const r of s.results.filter((x) => !x.pass)) {
    const mark = r.entry.knownDifference ? ` [known: ${r.entry.knownDifference}]` : ''
    out.push(`FAIL tier ${r.entry.tier} ${r.entry.at}${mark}`)
    for (const d of r.differences.slice(0, 8)) out.push(`    step ${d.step}  ${d.path}: expected ${shown(d.expected)}, got ${shown(d.got)}`)
    if (r.differences.length > 8) out.push(`    ... ${r.differences.length - 8} more`)
  }
  for (const r of s.stale) out.push(`PASS ${r.entry.at} is marked known_difference but passes: the mark can go`)
  const t = s.totals
  out.push(`${t.entries} entries, ${t.knownDifferences} of them known differences (counted as failures), ${t.maskedEntries} masked (${pct(t.maskedEntries, t.entries)})`)
  out.push(`Totals: ${totalsLine(s)}`)
  if (s.failing.length) out.push(`${s.failing.length} tier-1 entries fail on served endpoints with no known difference given`)
  return out.join('\n') + '\n'
}

export function jsonReport(s: Scoreboard): string {
  const endpoint = (e: EndpointScore) => ({
    method: e.endpoint.method,
    path: e.endpoint.path,
    area: e.endpoint.area,
    source: e.endpoint.source,
    served: e.served,
    entries: e.entries,
    tiers: e.tiers,
    masked_paths: e.masks,
    newest_source: e.newest ?? null,
    validated_live: e.live,
  })
  const entry = (r: EntryResult) => ({
    entry: r.entry.at,
    endpoint: r.entry.endpoint,
    tier: r.entry.tier,
    kind: r.entry.kind,
    date: r.entry.date,
    pass: r.pass,
    known_difference: r.entry.knownDifference ?? null,
    masked: r.masked,
    differences: r.differences.map((d) => ({ step: d.step, path: d.path, expected: d.expected, got: d.got })),
  })
  const t = s.totals
  const totals = {
    tiers: Object.fromEntries(TIERS.map((n) => [n, { ...t.tiers[n], score: ratio(t.tiers[n]) }])),
    coverage: { served: t.served, documented: t.documented, score: pct(t.served, t.documented) },
    entries: t.entries,
    masked_entries: t.maskedEntries,
    known_differences: t.knownDifferences,
  }
  const body = { profile: s.profile, not_scored: s.notScored.map((e) => e.at), totals, endpoints: s.endpoints.map(endpoint), entries: s.results.map(entry) }
  return JSON.stringify(body, null, 2) + '\n'
}

/** docs/conformance.md: the same scoreboard as a page, with no value that changes run to run. */
export function markdownReport(s: Scoreboard): string {
  const t = s.totals
  const out: string[] = [
    '# Conformance: how faithful the sandbox is',
    '',
    '<!-- Generated by `npm run conformance:docs` (`node bin/sandbox.js conformance --format markdown`); test/e2e/conformance.test.ts fails when this page differs from what the corpus gives. Do not edit by hand. -->',
    '',
    'Every answer Kora has published (its documentation pages, its Postman collection\'s examples), that a public client\'s test suite asserted against its live test environment, or that an integrator recorded from it, is an entry of `conformance/` and is run against a fresh sandbox by `sandbox conformance` (docs/behaviour.md 10.7). An entry passes when the sandbox\'s answer has the same shape: the HTTP status, the envelope\'s `status` and `message`, every field\'s presence and JSON type and the enumerated values (tier 3 also every other value and the order of keys), less the paths its masks cover, each with its reason.',
    '',
    'Tiers: **1** the documented success path; **2** refusals and failure outcomes; **3** strict (exact texts, number vs string, key order). A *known difference* is a failure in the score; it is only kept out of the exit code, with its reason.',
    '',
    PROFILE_NOTE(s),
    '',
    '## Totals',
    '',
    '| | Pass | Fail | Pass/(Pass+Fail) |',
    '|---|---:|---:|---:|',
    ...TIERS.map((n) => `| Tier ${n} | ${t.tiers[n].pass} | ${t.tiers[n].fail} | ${ratio(t.tiers[n])} |`),
    `| **Coverage** (documented endpoints served) | ${t.served} | ${t.documented - t.served} | ${pct(t.served, t.documented)} |`,
    '',
    `${t.entries} entries scored; ${t.knownDifferences} are known differences; ${t.maskedEntries} (${pct(t.maskedEntries, t.entries)}) mask a path.`,
    '',
    '## Per endpoint',
    '',
    '| Endpoint | Served | Entries | Tier 1 | Tier 2 | Tier 3 | Masked paths | Newest source | Validated live |',
    '|---|---|---:|---:|---:|---:|---:|---|---|',
    ...s.endpoints.map(
      (e) => `| [\`${e.endpoint.method} ${e.endpoint.path}\`](${e.endpoint.source}) | ${e.served ? 'yes' : 'no'} | ${e.entries} | ${TIERS.map((n) => cell(e.tiers[n])).join(' | ')} | ${e.masks} | ${e.newest ?? '-'} | ${e.live} |`,
    ),
    '',
    '## Entries',
    '',
    '| Entry | Tier | Kind | Date | Result | Source |',
    '|---|---:|---|---|---|---|',
    ...s.results.map((r) => {
      const result = r.pass ? 'pass' : `fail: ${paths(r).slice(0, 6).map((p) => `\`${p}\``).join(', ')}${paths(r).length > 6 ? ', ...' : ''}`
      return `| \`${r.entry.at}\` | ${r.entry.tier} | ${r.entry.kind} | ${r.entry.date} | ${result} | ${sourceLink(r.entry.source)} |`
    }),
  ]
  const known = s.results.filter((r) => r.entry.knownDifference)
  if (known.length) out.push('', '## Known differences', '', ...known.map((r) => `- \`${r.entry.at}\`: ${r.entry.knownDifference}`))
  const masked = s.results.filter((r) => r.entry.masks.length)
  if (masked.length) out.push('', '## Masks', '', ...masked.flatMap((r) => r.entry.masks.map((m) => `- \`${r.entry.at}\` \`${m.path}\`: ${m.reason}`)))
  const values = s.results.filter((r) => r.entry.testValues)
  if (values.length) out.push('', '## Test values in place of the source\'s', '', ...values.map((r) => `- \`${r.entry.at}\`: ${r.entry.testValues}`))
  if (s.notScored.length) out.push('', '## Not scored (live profile only)', '', ...s.notScored.map((e) => `- \`${e.at}\` (tier ${e.tier}, ${sourceText(e.source)})`))
  return out.join('\n') + '\n'
}

import type { Entry, Source } from './corpus.js'
import { ratio, TIERS, type Count, type EndpointScore, type EntryResult, type Scoreboard } from './conformance.js'
import { ABSENT } from './shape.js'

/**
 * The three reports of `sandbox conformance` (docs/behaviour.md#conformance): text, JSON and the page
 * docs/conformance.md, each of the profiles scored (the first is the default's when it was scored).
 */

const PROFILE_NOTE = (boards: Scoreboard[]) =>
  `Profiles scored: ${boards.map((s) => `${s.profile} (${s.totals.entries} entries${s.notScored.length ? `; ${s.notScored.length} hold for the other profile only` : ''})`).join(', ')}. Each profile's entries run against a sandbox under it (docs/behaviour.md#live-profile).`

const SUPERSEDED_NOTE = (s: Scoreboard) =>
  s.superseded.length ? `${s.superseded.length} entries are superseded: a source CONTRACT 15 puts first answers otherwise, so they are listed with the entry that holds that answer, not scored.` : ''

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

export function textReport(boards: Scoreboard[]): string {
  const out: string[] = [PROFILE_NOTE(boards), '']
  for (const s of boards) out.push(...profileText(s, boards.length > 1))
  const note = SUPERSEDED_NOTE(boards[0])
  if (note) out.push(note)
  for (const s of boards) out.push(`Totals${boards.length > 1 ? ` (${s.profile} profile)` : ''}: ${totalsLine(s)}`)
  const failing = boards.flatMap((s) => s.failing.map((r) => `${r.entry.at} (${s.profile})`))
  if (failing.length) out.push(`${failing.length} tier-1 entries fail on served endpoints with no known difference given: ${failing.join(', ')}`)
  return out.join('\n') + '\n'
}

function profileText(s: Scoreboard, named: boolean): string[] {
  const out: string[] = named ? [`== ${s.profile} profile ==`, ''] : []
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
  out.push(`${t.entries} entries, ${t.knownDifferences} of them known differences (counted as failures), ${t.maskedEntries} masked (${pct(t.maskedEntries, t.entries)}), ${t.aliasReplays} replayed against an alias path`, '')
  return out
}

const totalsJson = (s: Scoreboard) => {
  const t = s.totals
  return {
    tiers: Object.fromEntries(TIERS.map((n) => [n, { ...t.tiers[n], score: ratio(t.tiers[n]) }])),
    coverage: { served: t.served, documented: t.documented, score: pct(t.served, t.documented) },
    entries: t.entries,
    masked_entries: t.maskedEntries,
    alias_replays: t.aliasReplays,
    known_differences: t.knownDifferences,
  }
}

const supersededJson = (e: Entry) => ({ entry: e.at, tier: e.tier, superseded_by: e.supersededBy!.entry, reason: e.supersededBy!.reason })

/**
 * `{profiles, totals: {<profile>: ...}, superseded, endpoints (tiers per profile), entries (one per
 * entry and profile scored)}`.
 */
export function jsonReport(boards: Scoreboard[]): string {
  const first = boards[0]
  const endpoint = (e: EndpointScore, i: number) => ({
    method: e.endpoint.method,
    path: e.endpoint.path,
    area: e.endpoint.area,
    source: e.endpoint.source,
    alias_of: e.endpoint.alias_of?.endpoint ?? null,
    served: e.served,
    entries: e.entries,
    tiers: Object.fromEntries(boards.map((s) => [s.profile, s.endpoints[i].tiers])),
    masked_paths: e.masks,
    newest_source: e.newest ?? null,
    validated_live: e.live,
  })
  const entry = (profile: string) => (r: EntryResult) => ({
    entry: r.entry.at,
    endpoint: r.entry.endpoint,
    alias_of: r.entry.aliasOf ?? null,
    profile,
    tier: r.entry.tier,
    kind: r.entry.kind,
    date: r.entry.date,
    pass: r.pass,
    known_difference: r.entry.knownDifference ?? null,
    masked: r.masked,
    differences: r.differences.map((d) => ({ step: d.step, path: d.path, expected: d.expected, got: d.got })),
  })
  const body = {
    profiles: boards.map((s) => s.profile),
    totals: Object.fromEntries(boards.map((s) => [s.profile, totalsJson(s)])),
    superseded: first.superseded.map(supersededJson),
    endpoints: first.endpoints.map(endpoint),
    entries: boards.flatMap((s) => s.results.map(entry(s.profile))),
  }
  return JSON.stringify(body, null, 2) + '\n'
}

/** docs/conformance.md: the same scoreboard as a page, with no value that changes run to run. */
export function markdownReport(boards: Scoreboard[]): string {
  const first = boards[0]
  const t = first.totals
  const names = boards.map((s) => s.profile)
  const out: string[] = [
    '# Conformance: how faithful the sandbox is',
    '',
    '<!-- Generated by `npm run conformance:docs` (`node bin/sandbox.js conformance --format markdown`); test/e2e/conformance.test.ts fails when this page differs from what the corpus gives. Do not edit by hand. -->',
    '',
    'Every answer Kora has published (its documentation pages, its Postman collection\'s examples), that a public client\'s test suite asserted against its live test environment, or that an integrator recorded from it, is an entry of `conformance/` and is run against a fresh sandbox by `sandbox conformance` (docs/behaviour.md#conformance). An entry passes when the sandbox\'s answer has the same shape: the HTTP status, the envelope\'s `status` and `message`, every field\'s presence and JSON type and the enumerated values (tier 3 also every other value and the order of keys), less the paths its masks cover, each with its reason.',
    '',
    'Tiers: **1** the documented success path; **2** refusals and failure outcomes; **3** strict (exact texts, number vs string, key order). A *known difference* is a failure in the score; it is only kept out of the exit code, with its reason.',
    '',
    'Profiles (CONTRACT 15, docs/behaviour.md#live-profile): the **default** profile answers as the interface document (docs/api.md) where a live recording contradicts it, the **live** profile as recorded. An entry says which profiles it holds for; each profile\'s entries run against a sandbox under it. ' + SUPERSEDED_NOTE(first),
    '',
    '## Totals',
    '',
    `| | ${names.map((n) => `${n}: Pass | Fail | Pass/(Pass+Fail)`).join(' | ')} |`,
    `|---|${names.map(() => '---:|---:|---:').join('|')}|`,
    ...TIERS.map((n) => `| Tier ${n} | ${boards.map((s) => `${s.totals.tiers[n].pass} | ${s.totals.tiers[n].fail} | ${ratio(s.totals.tiers[n])}`).join(' | ')} |`),
    `| **Coverage** (documented endpoints served) | ${boards.map(() => `${t.served} | ${t.documented - t.served} | ${pct(t.served, t.documented)}`).join(' | ')} |`,
    '',
    ...boards.map((s) => `${s.profile}: ${s.totals.entries} entries scored; ${s.totals.knownDifferences} are known differences; ${s.totals.maskedEntries} (${pct(s.totals.maskedEntries, s.totals.entries)}) mask a path; ${s.totals.aliasReplays} are another endpoint's entries replayed against an alias path.`).flatMap((l) => [l, '']),
    '## Per endpoint',
    '',
    `| Endpoint | Served | Entries | ${names.map((n) => `Tier 1 (${n}) | Tier 2 (${n}) | Tier 3 (${n})`).join(' | ')} | Masked paths | Newest source | Validated live |`,
    `|---|---|---:|${names.map(() => '---:|---:|---:').join('|')}|---:|---|---|`,
    ...first.endpoints.map(
      (e, i) =>
        `| [\`${e.endpoint.method} ${e.endpoint.path}\`](${e.endpoint.source})${e.endpoint.alias_of ? `, alias of \`${e.endpoint.alias_of.endpoint}\`` : ''} | ${e.served ? 'yes' : 'no'} | ${e.entries} | ${boards.map((s) => TIERS.map((n) => cell(s.endpoints[i].tiers[n])).join(' | ')).join(' | ')} | ${e.masks} | ${e.newest ?? '-'} | ${e.live} |`,
    ),
    '',
    '## Entries',
    '',
    `| Entry | Tier | Kind | Date | ${names.map((n) => `Result (${n})`).join(' | ')} | Source |`,
    `|---|---:|---|---|${names.map(() => '---|').join('')}---|`,
  ]
  const byProfile = boards.map((s) => new Map(s.results.map((r) => [r.entry.at, r])))
  const entries = [...new Map(boards.flatMap((s) => s.results.map((r) => [r.entry.at, r.entry] as const))).values()]
  for (const e of entries) {
    const results = byProfile.map((m) => {
      const r = m.get(e.at)
      if (!r) return '-'
      return r.pass ? 'pass' : `fail: ${paths(r).slice(0, 6).map((p) => `\`${p}\``).join(', ')}${paths(r).length > 6 ? ', ...' : ''}`
    })
    out.push(`| \`${e.at}\` | ${e.tier} | ${e.kind} | ${e.date} | ${results.join(' | ')} | ${sourceLink(e.source)} |`)
  }
  const known = entries.filter((e) => e.knownDifference)
  if (known.length) out.push('', '## Known differences', '', ...known.map((e) => `- \`${e.at}\`: ${e.knownDifference}`))
  const masked = entries.filter((e) => e.masks.length)
  if (masked.length) out.push('', '## Masks', '', ...masked.flatMap((e) => e.masks.map((m) => `- \`${e.at}\` \`${m.path}\`: ${m.reason}`)))
  const values = entries.filter((e) => e.testValues)
  if (values.length) out.push('', '## Test values in place of the source\'s', '', ...values.map((e) => `- \`${e.at}\`: ${e.testValues}`))
  if (first.superseded.length) out.push('', '## Superseded (listed, not scored)', '', ...first.superseded.map((e) => `- \`${e.at}\` (tier ${e.tier}, ${sourceText(e.source)}): ${e.supersededBy!.reason} (see \`${e.supersededBy!.entry}\`)`))
  const unscored = first.notScored.filter((e) => !boards.some((s) => s.results.some((r) => r.entry === e)))
  if (unscored.length) out.push('', '## Not scored (for a profile not run)', '', ...unscored.map((e) => `- \`${e.at}\` (tier ${e.tier}, profile ${e.profile.join(', ')})`))
  return out.join('\n') + '\n'
}

import { endpointKey, masks, type Corpus, type Endpoint, type Entry } from './corpus.js'
import { verifyFlows, type Difference, type Target } from './verify.js'

/**
 * `sandbox conformance` (docs/behaviour.md#conformance): runs every entry of the corpus against a sandbox
 * with the comparison of `sandbox verify` (`src/replay/shape.ts`; tier 3 strictly), drops the
 * differences its masks cover, and scores each documented endpoint and the whole: Pass/(Pass+Fail)
 * per tier, always beside coverage (documented endpoints served / documented endpoints).
 */

export type Tier = 1 | 2 | 3
export const TIERS: readonly Tier[] = [1, 2, 3]

/** The profiles the sandbox answers under (CONTRACT 15, docs/behaviour.md#live-profile); each is scored against a sandbox under it. */
export const PROFILES = ['default', 'live'] as const
export type Profile = (typeof PROFILES)[number]

export interface EntryResult {
  entry: Entry
  pass: boolean
  /** the differences no mask covers (a step that could not run is one, at `(step)`) */
  differences: Difference[]
  /** how many differences its masks covered */
  masked: number
}

export interface Count {
  pass: number
  fail: number
}

export interface EndpointScore {
  endpoint: Endpoint
  served: boolean
  entries: number
  tiers: Record<Tier, Count>
  /** the paths the endpoint's entries mask */
  masks: number
  /** the newest date of its sources, if it has entries */
  newest?: string
  /** the newest date of its entries recorded from the live service, or `never` */
  live: string
}

export interface Scoreboard {
  profile: Profile
  endpoints: EndpointScore[]
  results: EntryResult[]
  /** entries for the other profile only */
  notScored: Entry[]
  /** entries a source CONTRACT 15 puts first answers otherwise: listed with the entry that does, not scored */
  superseded: Entry[]
  totals: {
    tiers: Record<Tier, Count>
    served: number
    documented: number
    entries: number
    /** entries with at least one mask */
    maskedEntries: number
    /** entries that are a canonical entry replayed against an alias endpoint (docs/behaviour.md#conformance) */
    aliasReplays: number
    knownDifferences: number
    superseded: number
  }
  /** tier-1 entries on served endpoints that fail with no known difference given: exit code 1 */
  failing: EntryResult[]
  /** entries marked known_difference that pass: the mark can go */
  stale: EntryResult[]
}

const zero = (): Record<Tier, Count> => ({ 1: { pass: 0, fail: 0 }, 2: { pass: 0, fail: 0 }, 3: { pass: 0, fail: 0 } })

/** Pass/(Pass+Fail) as a percentage with one decimal, or `-` when nothing was scored. */
export const ratio = (c: Count) => (c.pass + c.fail ? `${((100 * c.pass) / (c.pass + c.fail)).toFixed(1)} %` : '-')

/**
 * Runs the corpus's entries for `profile` against the sandbox at `target`, which answers under that
 * profile (or against the live service, `live`: its own steps skipped, as `sandbox verify` does); `served` says whether the route table serves a documented endpoint (by `endpointKey`).
 */
export async function scoreCorpus(
  corpus: Corpus,
  target: Omit<Target, 'live'> & { live?: boolean },
  served: (key: string) => boolean,
  options: { concurrency: number; seed?: number; profile?: Profile },
): Promise<Scoreboard> {
  const profile = options.profile ?? 'default'
  const scored = corpus.entries.filter((e) => e.profile.includes(profile) && !e.supersededBy)
  const differences = new Map<string, Difference[]>(scored.map((e) => [e.at, []]))
  for (const strict of [false, true]) {
    const flows = scored.filter((e) => (e.tier === 3) === strict).map((e) => ({ flow: e.flow, file: e.at }))
    if (!flows.length) continue
    const report = await verifyFlows(flows, { ...target, live: target.live ?? false }, { concurrency: options.concurrency, seed: options.seed, strict })
    for (const d of report.differences) differences.get(d.flow)!.push(d)
  }
  const results: EntryResult[] = scored.map((entry) => {
    const all = differences.get(entry.at)!
    const kept = all.filter((d) => !entry.masks.some((m) => masks(m.path, d.path)))
    return { entry, pass: kept.length === 0, differences: kept, masked: all.length - kept.length }
  })
  const endpoints: EndpointScore[] = corpus.endpoints.map((endpoint) => {
    const key = endpointKey(endpoint.method, endpoint.path)
    const mine = corpus.entries.filter((e) => endpointKey(...(e.endpoint.split(' ') as [string, string])) === key)
    const tiers = zero()
    for (const r of results) if (mine.includes(r.entry)) tiers[r.entry.tier][r.pass ? 'pass' : 'fail']++
    const dates = mine.map((e) => e.date).sort()
    // an alias replay's recording was made at the canonical path: it validates nothing of the alias live
    const live = mine.filter((e) => e.kind === 'live' && !e.aliasOf).map((e) => e.date).sort()
    return {
      endpoint,
      served: served(key),
      entries: mine.length,
      tiers,
      masks: mine.reduce((n, e) => n + e.masks.length, 0),
      newest: dates.at(-1),
      live: live.at(-1) ?? 'never',
    }
  })
  const tiers = zero()
  for (const r of results) tiers[r.entry.tier][r.pass ? 'pass' : 'fail']++
  const servedEndpoint = (e: Entry) => served(endpointKey(...(e.endpoint.split(' ') as [string, string])))
  return {
    profile,
    endpoints,
    results,
    notScored: corpus.entries.filter((e) => !e.profile.includes(profile) && !e.supersededBy),
    superseded: corpus.entries.filter((e) => e.supersededBy),
    totals: {
      tiers,
      served: endpoints.filter((e) => e.served).length,
      documented: endpoints.length,
      entries: results.length,
      maskedEntries: results.filter((r) => r.entry.masks.length).length,
      aliasReplays: results.filter((r) => r.entry.aliasOf).length,
      knownDifferences: results.filter((r) => r.entry.knownDifference).length,
      superseded: corpus.entries.filter((e) => e.supersededBy).length,
    },
    failing: results.filter((r) => !r.pass && r.entry.tier === 1 && !r.entry.knownDifference && servedEndpoint(r.entry)),
    stale: results.filter((r) => r.pass && r.entry.knownDifference),
  }
}

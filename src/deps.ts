import { VERSION } from './version.js'
import { Clocks, TIMERS_SPEC } from './clock.js'
import type { Config } from './config.js'
import { Journal } from './http/journal.js'
import { META_SPEC, Namespaces, snapshotIssues } from './namespaces.js'
import { packRules, packsSpec, Scenarios, type Pack } from './scenario/index.js'
import { CHARGES_SPEC } from './engine/types.js'
import { Ledger, ledgerSpec } from './engine/ledger.js'
import { LEDGER_CARRY_OVER } from './engine/ledger-carry-over.js'
import { CHECKOUT_CARRY_OVER } from './checkout/carry-over.js'
import { EVENT_SEQ_CARRY_OVER } from './webhooks/carry-over.js'
import { VOUCHER_PIN_CARRY_OVER } from './voucher/carry-over.js'
import { AttemptEnds } from './engine/kit.js'
import { Kinds } from './engine/kinds.js'
import type { Kit } from './engine/kit.js'
import { AREAS, type ServicesOf } from './areas.js'
import type { AnyArea } from './http/area.js'
import { joinCollections, type CollectionSpec } from './store/collection.js'
import { Store } from './store/store.js'
import { readSnapshot, SnapshotError, type NamespaceSnapshot } from './store/snapshot.js'
import type { CarryOver } from './store/persistence.js'
import { readDocumentFile } from './files.js'
import { EVENTS_SPEC, Events } from './webhooks/events.js'
import { WebhookDelivery } from './webhooks/delivery.js'
import { Faults } from './faults.js'
import { Random } from './random.js'
export { VERSION }

/** The collections of the engine; each area declares its own (src/http/area.ts). */
const ENGINE_COLLECTIONS: readonly CollectionSpec[] = [CHARGES_SPEC, EVENTS_SPEC, TIMERS_SPEC, META_SPEC]

/**
 * Every collection a sandbox of these areas keeps, with what areas declare of them as data (a
 * kind's charges, the ledger's sources, the packs' settings): the store holds no other.
 */
export const collectionsOf = (areas: readonly AnyArea[]): CollectionSpec[] =>
  joinCollections([...ENGINE_COLLECTIONS, packsSpec(packRules(areas)), ledgerSpec(areas), ...areas.flatMap((a) => a.collections ?? [])])

/** How a data file (or a snapshot) of an older format is carried over, declared by the modules whose records changed shape. */
const CARRY_OVERS: readonly CarryOver[] = [LEDGER_CARRY_OVER, CHECKOUT_CARRY_OVER, EVENT_SEQ_CARRY_OVER, VOUCHER_PIN_CARRY_OVER]

/**
 * The snapshots of `--load` (docs/behaviour.md#snapshots), each read and checked as `POST
 * /_sandbox/snapshot` checks one, before the data file is opened: a bad one refuses the start
 * (SnapshotError, naming the file and the field) and changes no file.
 */
function readLoadFiles(config: Config, collections: readonly CollectionSpec[]): { snap: NamespaceSnapshot; source: string }[] {
  return config.loadFiles.map((file) => {
    const raw = readDocumentFile(file, (why) => new SnapshotError({ snapshot: why.message }, file))
    const snap = readSnapshot(raw, collections, CARRY_OVERS, file)
    const issues = snapshotIssues(snap, snap.key, config)
    if (Object.keys(issues).length) throw new SnapshotError(issues, file)
    return { snap, source: file }
  })
}

/**
 * The sandbox's state and services, wired once: what the HTTP app (app.ts) is a function of. The
 * kit is built here; each area of the list builds its own services from it (src/areas.ts).
 */
export type Deps<L extends readonly AnyArea[] = typeof AREAS> = Kit & ServicesOf<L>

/** Opens the store, loads the packs, builds the clocks, then the areas in order, without HTTP. */
export async function createDeps<L extends readonly AnyArea[] = typeof AREAS>(config: Config, startedAt = Date.now(), areas: L = AREAS as unknown as L, checkedPacks?: Pack[]): Promise<Deps<L>> {
  // packs first: a bad pack file is refused before anything touches the data file (unless the
  // caller loaded them already, from the same files: src/server.ts)
  // checked with the settings the areas declare besides the shared ones (`Area.settings`)
  const rules = packRules(areas)
  const loaded = checkedPacks ?? Scenarios.loadPacks(config.scenarioFiles, { rules })
  // `--profile live` is the setting of a pack after the files': the flag wins (docs/behaviour.md#live-profile)
  const packs = config.profile === 'live' ? [...loaded, { name: '--profile live', settings: { profile: 'live' as const } }] : loaded
  const collections = collectionsOf(areas)
  const loads = readLoadFiles(config, collections)
  const store = await Store.open({ file: config.dataFile, postgres: config.storeUrl, leaseMs: config.leaseMs, collections, carryOvers: CARRY_OVERS, hotRecords: config.hotRecords, coldBlock: config.coldBlock, compactMinBytes: config.compactMinBytes })
  const scenarios = new Scenarios(packs, store, rules)
  // under a seed, every draw from the seed and every clock frozen at the clock start (docs/behaviour.md#seed-and-clock-start)
  const random = new Random(config.seed, store)
  const clocks = new Clocks(store, { random, frozenFrom: config.seed === undefined ? null : Date.parse(config.clockStart) })
  const namespaces = new Namespaces(store, config, clocks)
  const events = new Events(store, clocks, random, namespaces, config.maxEvents)
  const faults = new Faults(random)
  const journal = new Journal(config.journalSize, { bodyBytes: config.journalBodyBytes, nsBytes: config.journalBytes, totalBytes: config.journalTotalBytes })
  const webhooks = new WebhookDelivery(events, clocks, faults, {
    retrySchedule: config.webhookRetrySchedule,
    timeoutMs: config.webhookTimeoutMs,
    concurrency: config.webhookConcurrency,
    namespaceConcurrency: config.webhookNamespaceConcurrency,
    userAgent: `paysandbox/${VERSION}`,
    seeded: config.seed !== undefined,
  })
  // what a namespace holds besides its records and derives from none: emptied by a reset, kept
  // through a failed write (the refused call stays journalled, an armed fault stays armed)
  store.registerState({ reset: (ns) => journal.clear(ns) })
  store.registerState({ reset: (ns) => faults.clear(ns) })

  const kinds = new Kinds()
  const ledger = new Ledger(store, scenarios, kinds, areas)
  // a snapshot's balances are the ledger's to check (docs/behaviour.md#snapshots)
  namespaces.onCheck((snap) => ledger.snapshotIssues(snap.records))
  const kit: Kit = { config, store, clocks, random, scenarios, namespaces, events, journal, webhooks, faults, kinds, ledger, attempts: new AttemptEnds(), areas, version: VERSION, startedAt }
  // each area from the kit and the services built before it, which its own join under their names
  let built: Record<string, unknown> = { ...kit }
  for (const area of areas) {
    const services = area.build(built) as Record<string, unknown>
    for (const name of Object.keys(services)) if (name in built) throw new Error(`area ${area.key}: "${name}" is already a part of the sandbox`)
    // a new object, not one grown by assignment: V8 turns that into a dictionary, slower to read
    // on every request (handlers read their services from it)
    built = { ...built, ...services }
  }
  webhooks.resume()
  clocks.start()
  // each snapshot of --load under its key, in the file before the start is ready
  if (loads.length) {
    try {
      // several processes on one database: a namespace is replaced by the owner of its lease (src/store/pg-lease.ts)
      for (const { snap } of loads) await store.leases?.claim(snap.key)
      namespaces.restoreAll(loads)
      await store.sync()
    } catch (e) {
      await closeDeps(kit)
      throw e
    }
  }
  return built as Deps<L>
}

/** Stops deliveries and timers, then flushes and closes the store. */
export async function closeDeps(deps: Kit): Promise<void> {
  deps.webhooks.stop()
  deps.clocks.stop()
  await deps.store.close()
}

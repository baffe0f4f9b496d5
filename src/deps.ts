import { VERSION } from './version.js'
import { Clocks } from './clock.js'
import type { Config } from './config.js'
import { Journal } from './http/journal.js'
import { Namespaces } from './namespaces.js'
import { Scenarios } from './scenario/index.js'
import { CHARGES_SPEC } from './charges/types.js'
import { Store } from './store/store.js'
import { EVENTS_SPEC, Events } from './webhooks/events.js'
import { WebhookDelivery } from './webhooks/delivery.js'
import { Faults } from './control/faults.js'

export { VERSION }

/** Everything the app is a function of (DESIGN.md: createApp(deps)). */
export interface Deps {
  config: Config
  store: Store
  clocks: Clocks
  scenarios: Scenarios
  namespaces: Namespaces
  events: Events
  journal: Journal
  webhooks: WebhookDelivery
  faults: Faults
  version: string
  startedAt: number
}

/** Opens the store, loads the packs, builds the clocks: the sandbox's state, without HTTP. */
export async function createDeps(config: Config, startedAt = Date.now()): Promise<Deps> {
  // packs first: a bad pack file is refused before anything touches the data file
  const packs = Scenarios.loadPacks(config.scenarioFiles)
  const store = await Store.open({ file: config.dataFile, collections: [CHARGES_SPEC, EVENTS_SPEC], hotRecords: config.hotRecords, coldBlock: config.coldBlock, compactMinBytes: config.compactMinBytes })
  const scenarios = new Scenarios(packs, store)
  const clocks = new Clocks(store)
  const namespaces = new Namespaces(store, config, clocks)
  const events = new Events(store, clocks, namespaces, config.maxEvents)
  const faults = new Faults()
  const webhooks = new WebhookDelivery(events, clocks, faults, {
    retrySchedule: config.webhookRetrySchedule,
    timeoutMs: config.webhookTimeoutMs,
    concurrency: 8,
    userAgent: `paysandbox/${VERSION}`,
  })
  webhooks.resume()
  clocks.start()
  return {
    config,
    store,
    clocks,
    scenarios,
    namespaces,
    events,
    journal: new Journal(config.journalSize),
    webhooks,
    faults,
    version: VERSION,
    startedAt,
  }
}

/** Stops deliveries and timers, then flushes and closes the store. */
export async function closeDeps(deps: Deps): Promise<void> {
  deps.webhooks.stop()
  deps.clocks.stop()
  await deps.store.close()
}

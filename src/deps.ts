import { VERSION } from './version.js'
import { Clocks } from './clock.js'
import type { Config } from './config.js'
import { Journal } from './http/journal.js'
import { Namespaces } from './namespaces.js'
import { Scenarios } from './scenario/index.js'
import { CHARGES, type ChargeBase } from './charges/types.js'
import { Store } from './store/store.js'
import { EVENTS, Events } from './webhooks/events.js'
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

/** Secondary indexes of the store's collections. */
export const INDEXES = {
  [CHARGES]: { payment_reference: (c: ChargeBase) => c.payment_reference },
}

/**
 * Collections that keep fewer records live than the store's default. An event is written once
 * and, without a webhook receiver, never read again; kept live, each of the last 128 would be
 * copied by every young collection while it waits to go cold. Delivery reads an event back
 * (parsed again) and puts it once per attempt.
 */
export const HOT = { [EVENTS]: 1 }

/** Opens the store, loads the packs, builds the clocks: the sandbox's state, without HTTP. */
export async function createDeps(config: Config, startedAt = Date.now()): Promise<Deps> {
  // packs first: a bad pack file is refused before anything touches the data file
  const packs = Scenarios.loadPacks(config.scenarioFiles)
  const store = await Store.open({ file: config.dataFile, indexes: INDEXES, hot: HOT, compactMinBytes: config.compactMinBytes })
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

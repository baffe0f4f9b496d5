import { readFileSync } from 'node:fs'
import { Clocks } from './clock.js'
import type { Config } from './config.js'
import { Journal } from './http/journal.js'
import { Namespaces } from './namespaces.js'
import { Scenarios } from './scenario/index.js'
import { CHARGES, type ChargeBase } from './charges/types.js'
import { Store } from './store/store.js'
import { Events } from './webhooks/events.js'

export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version

/** Everything the app is a function of (DESIGN.md: createApp(deps)). */
export interface Deps {
  config: Config
  store: Store
  clocks: Clocks
  scenarios: Scenarios
  namespaces: Namespaces
  events: Events
  journal: Journal
  version: string
  startedAt: number
}

/** Secondary indexes of the store's collections. */
export const INDEXES = {
  [CHARGES]: { payment_reference: (c: ChargeBase) => c.payment_reference },
}

/** Opens the store, loads the packs, builds the clocks: the sandbox's state, without HTTP. */
export async function createDeps(config: Config): Promise<Deps> {
  // packs first: a bad pack file is refused before anything touches the data file
  const packs = Scenarios.loadPacks(config.scenarioFiles)
  const store = await Store.open({ file: config.dataFile, indexes: INDEXES })
  const scenarios = new Scenarios(packs, store)
  const clocks = new Clocks(store)
  const namespaces = new Namespaces(store, config, clocks)
  const events = new Events(store, clocks, namespaces, config.maxEvents)
  return {
    config,
    store,
    clocks,
    scenarios,
    namespaces,
    events,
    journal: new Journal(config.journalSize),
    version: VERSION,
    startedAt: Date.now(),
  }
}

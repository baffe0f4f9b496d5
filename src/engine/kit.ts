import type { Clocks } from '../clock.js'
import type { Config } from '../config.js'
import type { Faults } from '../faults.js'
import type { AnyArea } from '../http/area.js'
import type { Journal } from '../http/journal.js'
import type { Namespaces } from '../namespaces.js'
import type { Random } from '../random.js'
import type { Scenarios } from '../scenario/index.js'
import type { Store } from '../store/store.js'
import type { Events } from '../webhooks/events.js'
import type { WebhookDelivery } from '../webhooks/delivery.js'
import type { Ledger } from './ledger.js'
import type { Kinds } from './kinds.js'
import type { ChargeBase } from './types.js'

/**
 * What every area is built from (`Area.build`, src/http/area.ts): the engine's parts, wired once by
 * src/deps.ts before any area. An area that needs the services of another names them beside the
 * kit (`Kit & { cards: CardService }`); src/areas.ts lists it after that area. A service names in
 * its constructor the parts it uses, `Pick<Kit, 'store' | 'clocks'>`, and is handed the kit
 * (docs/architecture.md, "Services take what they use").
 */
export interface Kit {
  config: Config
  store: Store
  clocks: Clocks
  /** every reference, id and code made up, and every duration measured (src/random.ts) */
  random: Random
  scenarios: Scenarios
  namespaces: Namespaces
  events: Events
  journal: Journal
  webhooks: WebhookDelivery
  faults: Faults
  /** the merchant's ledger: every balance is derived from its entries */
  ledger: Ledger
  /** what is decided per kind of charge: each area declares its kinds there (src/engine/kinds.ts) */
  kinds: Kinds
  /** where a checkout attempt's end is heard (src/engine/lifecycle.ts) */
  attempts: AttemptEnds
  /** the areas the sandbox serves, in order (the OpenAPI document is derived from them) */
  areas: readonly AnyArea[]
  version: string
  startedAt: number
}

/**
 * Who hears of a checkout attempt's end, which is not announced by an event of its own: the area
 * that makes attempts (src/checkout/service.ts) listens; the channels' lifecycles, built before
 * it, tell it when an attempt ends. One per wired sandbox (src/deps.ts), like the clock's timers.
 */
export class AttemptEnds {
  readonly #listeners: ((ns: string, charge: ChargeBase) => void)[] = []

  on(listener: (ns: string, charge: ChargeBase) => void): void {
    this.#listeners.push(listener)
  }

  ended(ns: string, charge: ChargeBase): void {
    for (const listener of this.#listeners) listener(ns, charge)
  }
}

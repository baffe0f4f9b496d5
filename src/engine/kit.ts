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
 * kit (`Kit & { cards: CardService }`); src/areas.ts lists it after that area.
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

/** The parts of the kit a channel's service and its charges' lifecycle work with. */
export type Engine = Pick<Kit, 'store' | 'clocks' | 'random' | 'scenarios' | 'namespaces' | 'events' | 'ledger' | 'kinds' | 'attempts'>

/**
 * What is built on the engine (a service, a lifecycle) is given the one `Engine` and has its parts
 * as fields under their own names: `this.store`, `this.clocks` ... (the attempts' registry only
 * concerns the lifecycle and the checkout, which take it from the engine).
 */
export abstract class OnEngine {
  /** the engine itself, for what is built on it in turn (a service's charges' lifecycle) */
  protected readonly engine: Engine
  protected readonly store: Store
  protected readonly clocks: Clocks
  protected readonly random: Random
  protected readonly scenarios: Scenarios
  protected readonly namespaces: Namespaces
  protected readonly events: Events
  protected readonly ledger: Ledger
  protected readonly kinds: Kinds

  constructor(engine: Engine) {
    this.engine = engine
    this.store = engine.store
    this.clocks = engine.clocks
    this.random = engine.random
    this.scenarios = engine.scenarios
    this.namespaces = engine.namespaces
    this.events = engine.events
    this.ledger = engine.ledger
    this.kinds = engine.kinds
  }
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

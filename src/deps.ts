import { VERSION } from './version.js'
import { Clocks, TIMERS_SPEC } from './clock.js'
import type { Config } from './config.js'
import { Journal } from './http/journal.js'
import { META_SPEC, Namespaces } from './namespaces.js'
import { PACKS_SPEC, Scenarios } from './scenario/index.js'
import { CHARGES_SPEC } from './charges/types.js'
import { LEDGER_SPEC, Ledger } from './charges/ledger.js'
import { LEDGER_CARRY_OVER } from './charges/ledger-carry-over.js'
import { BalanceService } from './balances/service.js'
import { Store } from './store/store.js'
import { EVENTS_SPEC, Events } from './webhooks/events.js'
import { WebhookDelivery } from './webhooks/delivery.js'
import { Faults } from './faults.js'
import { CardService } from './cards/service.js'
import { PreauthService, type CardRefundHooks } from './cards/preauth.js'
import { REFUNDS_SPEC, RefundService } from './refunds/service.js'
import { MobileMoneyService } from './mobile-money/service.js'
import { DirectDebitService } from './direct-debit/service.js'
import { IdentityService } from './identity/service.js'
import { BankTransferService } from './bank-transfer/service.js'
import { CheckoutService } from './checkout/service.js'
import { VBA_TRANSFERS_SPEC, VIRTUAL_ACCOUNTS_SPEC, VirtualAccountService } from './virtual-accounts/service.js'
import type { AttemptHooks } from './charges/lifecycle.js'
import type { QueryExtras } from './charges/routes.js'
import type { CardCharge, ChargeKind } from './charges/types.js'
import type { MobileMoneyCharge } from './mobile-money/service.js'
import type { DirectDebit } from './direct-debit/service.js'
import type { BankTransferCharge } from './bank-transfer/service.js'
import type { CheckoutCharge } from './checkout/service.js'
import type { VirtualAccountCharge } from './virtual-accounts/service.js'
import { PayinService } from './pay-ins/service.js'
import { PAYOUTS_SPEC, PayoutService } from './payouts/service.js'
import { PAYOUT_BATCHES_SPEC, BulkPayoutService } from './payouts/bulk.js'

export { VERSION }

/**
 * The sandbox's state and services, wired once: what the HTTP app (app.ts) is a function of.
 * Every part takes only the collaborators it names; this is the one place that knows them all.
 */
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
  cards: CardService
  preauth: PreauthService
  mobileMoney: MobileMoneyService
  directDebit: DirectDebitService
  identity: IdentityService
  bankTransfer: BankTransferService
  checkout: CheckoutService
  /** the merchant's ledger: every balance is derived from its entries */
  ledger: Ledger
  balances: BalanceService
  refunds: RefundService
  virtualAccounts: VirtualAccountService
  /** per kind of charge, what its query record adds (the charge query and the pay-ins list) */
  queryExtras: Record<ChargeKind, QueryExtras>
  payins: PayinService
  payouts: PayoutService
  bulkPayouts: BulkPayoutService
  version: string
  startedAt: number
}

/** Opens the store, loads the packs, builds the clocks and the services, without HTTP. */
export async function createDeps(config: Config, startedAt = Date.now()): Promise<Deps> {
  // packs first: a bad pack file is refused before anything touches the data file
  const packs = Scenarios.loadPacks(config.scenarioFiles)
  const store = await Store.open({ file: config.dataFile, collections: [CHARGES_SPEC, LEDGER_SPEC, EVENTS_SPEC, TIMERS_SPEC, META_SPEC, PACKS_SPEC, VIRTUAL_ACCOUNTS_SPEC, VBA_TRANSFERS_SPEC, REFUNDS_SPEC, PAYOUTS_SPEC, PAYOUT_BATCHES_SPEC], upgrades: [LEDGER_CARRY_OVER], hotRecords: config.hotRecords, coldBlock: config.coldBlock, compactMinBytes: config.compactMinBytes })
  const scenarios = new Scenarios(packs, store)
  const clocks = new Clocks(store)
  const namespaces = new Namespaces(store, config, clocks)
  const events = new Events(store, clocks, namespaces, config.maxEvents)
  const faults = new Faults()
  const journal = new Journal(config.journalSize, { bodyBytes: config.journalBodyBytes, nsBytes: config.journalBytes, totalBytes: config.journalTotalBytes })
  const webhooks = new WebhookDelivery(events, clocks, faults, {
    retrySchedule: config.webhookRetrySchedule,
    timeoutMs: config.webhookTimeoutMs,
    concurrency: config.webhookConcurrency,
    namespaceConcurrency: config.webhookNamespaceConcurrency,
    userAgent: `paysandbox/${VERSION}`,
  })
  // what a namespace holds besides its records, emptied with them by a reset
  namespaces.onReset((ns) => scenarios.invalidate(ns))
  namespaces.onReset((ns) => journal.clear(ns))
  namespaces.onReset((ns) => faults.clear(ns))
  namespaces.onReset((ns) => events.forget(ns))
  namespaces.onReset((ns) => webhooks.forget(ns))

  const ledger = new Ledger(store, scenarios)
  // a card refund is also a refund record (docs/behaviour.md 13.8): the refunds area is built after it
  const cardRefunds: { current?: CardRefundHooks } = {}
  const preauth = new PreauthService(store, clocks, scenarios, events, ledger, cardRefunds)
  const refunds = new RefundService(store, clocks, scenarios, events, ledger, preauth)
  cardRefunds.current = {
    check: (ns, tx, currency, amount) => refunds.checkCardRefund(ns, tx, currency, amount),
    recorded: (ns, op, parent, targetAmount) => refunds.recordCardRefund(ns, op, parent, targetAmount),
  }
  // a checkout's attempts are charges of their channels: their ends go to the checkout (built after them)
  let checkout: CheckoutService | undefined
  const attempts: AttemptHooks = { onAttemptEnd: (ns, charge) => checkout!.attemptEnded(ns, charge) }
  const cards = new CardService(store, clocks, scenarios, events, ledger, { ...attempts, onPreauthorized: (ns, charge) => preauth.place(ns, charge) })
  const mobileMoney = new MobileMoneyService(store, clocks, scenarios, events, ledger, attempts)
  const bankTransfer = new BankTransferService(store, clocks, scenarios, events, ledger, attempts)
  checkout = new CheckoutService(store, clocks, scenarios, events, ledger, cards, mobileMoney, bankTransfer)
  const virtualAccounts = new VirtualAccountService(store, clocks, scenarios, events, ledger, bankTransfer, config.maxVirtualAccounts)
  const directDebit = new DirectDebitService(store, clocks, scenarios, events, ledger, namespaces, config.debitLimit)
  const queryExtras: Record<ChargeKind, QueryExtras> = {
    card: (ns, charge) => preauth.queryExtras(ns, charge as CardCharge),
    mobile_money: (_ns, charge) => mobileMoney.queryExtras(charge as MobileMoneyCharge),
    direct_debit: (_ns, charge) => directDebit.queryExtras(charge as DirectDebit),
    bank_transfer: (_ns, charge) => bankTransfer.queryExtras(charge as BankTransferCharge),
    checkout: (_ns, charge) => checkout!.queryExtras(charge as CheckoutCharge),
    virtual_account: (_ns, charge) => virtualAccounts.queryExtras(charge as VirtualAccountCharge),
  }
  const payouts = new PayoutService(store, clocks, scenarios, events, ledger)
  const deps: Deps = {
    config,
    store,
    clocks,
    scenarios,
    namespaces,
    events,
    journal,
    webhooks,
    faults,
    cards,
    preauth,
    mobileMoney,
    bankTransfer,
    checkout,
    ledger,
    refunds,
    balances: new BalanceService(clocks, ledger),
    virtualAccounts,
    directDebit,
    queryExtras,
    payins: new PayinService(store, queryExtras),
    identity: new IdentityService(store, clocks, scenarios, namespaces),
    payouts,
    bulkPayouts: new BulkPayoutService(store, clocks, ledger, payouts),
    version: VERSION,
    startedAt,
  }
  webhooks.resume()
  clocks.start()
  return deps
}

/** Stops deliveries and timers, then flushes and closes the store. */
export async function closeDeps(deps: Deps): Promise<void> {
  deps.webhooks.stop()
  deps.clocks.stop()
  await deps.store.close()
}

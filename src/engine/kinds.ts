import { payinMoney, type PayinMoney } from '../money.js'
import type { Settings } from '../scenario/schema.js'
import { isPaymentMethod } from './schemas.js'
import type { Frozen } from '../store/frozen.js'
import type { ChargeBase, ChargeKind, PaymentMethod } from './types.js'

/**
 * What the sandbox decides per kind of charge, declared once by the area that serves the kind
 * (its `build`, src/http/area.ts) and asked by the parts that handle every kind: the charge query
 * and the pay-ins list, the ledger, the control API, the dashboard, and the checkout page for a
 * channel's label. None of them compares a charge's kind against a name, nor does the checkout,
 * which reaches each channel through its declaration (src/engine/checkout-channel.ts;
 * docs/architecture.md, "Kinds of charge").
 */
export interface Kind<C extends ChargeBase = ChargeBase> {
  kind: C['kind']
  /** how the checkout page (capitalised on its channel links), its history and the dashboard name it: its name in words, `bank transfer` */
  label: string
  /** how a charge of it was paid (docs/behaviour.md#virtual-accounts): `payment_method` of its query and events */
  method(charge: Frozen<C>): PaymentMethod | null
  /** its pay-ins settle at once rather than after the pack's settlement delay (docs/behaviour.md#ledger-and-balances) */
  settlesAtOnce?: boolean
  /**
   * what the customer paid for a charge of it that succeeded, and of that the fee and VAT the
   * customer bore (`customerCost`, src/money.ts), and what split accounts receive of it (`shared`);
   * absent: its amount, the cost the merchant's
   */
  paid?(ns: string, charge: Frozen<C>): { paid: number; borne: number; shared?: number }
  /**
   * the currency a charge of it credits the merchant in, when not its own, and what `credit` (its
   * own currency's minor units) comes to there (a checkout paid in one currency and settled in
   * another: docs/behaviour.md#checkout-split-and-conversion); absent or null: its own currency, as it is
   */
  settlement?(charge: Frozen<C>, credit: number): { currency: string; amount: number } | null
  /** what its charge query record adds (docs/api.md 2.8), which the pay-ins list reads too */
  queryExtras(ns: string, charge: Frozen<C>): Record<string, unknown>
  /** finishes a processing charge of it (`POST /_sandbox/charges/:reference/complete`); absent: nothing is left to complete */
  complete?(ns: string, transactionReference: string, outcome: 'success' | 'failed', message?: string): Frozen<ChargeBase>
  /** the lines under its kind in the dashboard's charges table: the card, wallet or account it was paid with */
  instrument(charge: Frozen<C>): string[]
  /** as an attempt of a checkout, its line on the checkout page: `Mobile money 254700000000` */
  attemptLine?(charge: Frozen<C>): string
  /** what a processing charge of it waits for when no step is pending (the dashboard says so) */
  waiting?: string
}

/**
 * What an area declares of its kind: the label is the kind's name in words, and a charge of a kind
 * is paid by the method of the same name unless the kind says otherwise (a virtual account's
 * transfer is a bank transfer, a checkout is paid by its attempt's channel).
 */
export type KindDeclaration<C extends ChargeBase> = Omit<Kind<C>, 'label' | 'method'> &
  (C['kind'] extends PaymentMethod ? Partial<Pick<Kind<C>, 'method'>> : Pick<Kind<C>, 'method'>)

/** A channel's service that answers, charge by charge, what its kind is asked for. */
export interface KindService<C extends ChargeBase, K extends C['kind'] = C['kind']> {
  /** its kind's name, the one its lifecycle is told (`Channel.kind`) */
  readonly kind: K
  paid(charge: Frozen<C>): { paid: number; borne: number }
  queryExtras(charge: Frozen<C>): Record<string, unknown>
  complete(ns: string, transactionReference: string, outcome: 'success' | 'failed', message?: string): Frozen<ChargeBase>
}

/** Its name and what a kind is asked, answered by its service: `kinds.declare({ ...servedBy(service), ... })`. */
export function servedBy<C extends ChargeBase, K extends C['kind']>(service: KindService<C, K>): { kind: K } & Pick<Kind<C>, 'paid' | 'queryExtras' | 'complete'> {
  return {
    kind: service.kind,
    paid: (_ns, charge) => service.paid(charge),
    queryExtras: (_ns, charge) => service.queryExtras(charge),
    complete: (ns, tx, outcome, message) => service.complete(ns, tx, outcome, message),
  }
}

/** The method of the kind's own name, for a kind that declares none: only a kind that is a method may. */
function methodNamed(kind: ChargeKind): () => PaymentMethod {
  if (!isPaymentMethod(kind)) throw new Error(`kind ${kind} must declare its payment method`)
  return () => kind
}

/** The pack's settlement delay, in milliseconds. */
const settlementDelayMs = (settings: Settings): number => Math.round(settings.settlement_delay_hours * 3_600_000)

/** The kinds of the sandbox, one registry per wired sandbox (src/deps.ts), part of the kit. */
export class Kinds {
  readonly #kinds = new Map<string, Kind>()

  /** Called by the area serving the kind, once. */
  declare<C extends ChargeBase>(declared: KindDeclaration<C>): void {
    const name = declared.kind
    if (this.#kinds.has(name)) throw new Error(`kind ${name} is declared twice`)
    const kind: Kind<C> = { label: name.replaceAll('_', ' '), ...declared, method: declared.method ?? methodNamed(name) }
    this.#kinds.set(name, kind as unknown as Kind)
  }

  /** Every declared kind, in the order the areas declared them. */
  all(): Kind[] {
    return [...this.#kinds.values()]
  }

  /**
   * How paying by a kind is said after "Pay" or "paid": `by card`, `by bank transfer`; a label
   * that is itself a way to pay (`pay with bank`) gives its own words, `with bank`, never "Pay by
   * pay with bank".
   */
  payBy(kind: string): string {
    const { label } = this.of(kind)
    return label.startsWith('pay ') ? label.slice('pay '.length) : `by ${label}`
  }

  /** the declared kind named `kind` (a checkout's channel, named by a string the checkout took among the declared ones); throws when none is */
  of(kind: string): Kind {
    const k = this.#kinds.get(kind)
    if (!k) throw new Error(`kind ${kind} is not declared`)
    return k
  }

  /** How the charge was paid (docs/behaviour.md#virtual-accounts). */
  methodOf(charge: Frozen<ChargeBase>): PaymentMethod | null {
    return this.of(charge.kind).method(charge)
  }

  /**
   * What a charge that succeeded came to for each side (docs/behaviour.md#ledger-and-balances): what the customer
   * paid, what the merchant is credited, what a refund may return. The ledger's credit, the refund
   * checks and the answers' `amount_paid` all ask this.
   */
  money(ns: string, charge: Frozen<ChargeBase>): PayinMoney {
    const { paid, borne, shared } = this.of(charge.kind).paid?.(ns, charge) ?? { paid: charge.amount, borne: 0 }
    return payinMoney(paid, charge.fee, charge.vat, borne, shared)
  }

  /** The currency and amount a pay-in's credit of `credit` (minor units of its currency) is posted in (docs/behaviour.md#checkout-split-and-conversion). */
  settlementOf(charge: Frozen<ChargeBase>, credit: number): { currency: string; amount: number } {
    return this.of(charge.kind).settlement?.(charge, credit) ?? { currency: charge.currency, amount: credit }
  }

  /**
   * How long a pay-in of this charge takes to settle (docs/behaviour.md#ledger-and-balances): at once when the
   * kind of its payment method says so, otherwise after the pack's settlement delay.
   */
  settlementMs(charge: Frozen<ChargeBase>, settings: Settings): number {
    const method = this.methodOf(charge)
    return method && this.#kinds.get(method)?.settlesAtOnce ? 0 : settlementDelayMs(settings)
  }
}

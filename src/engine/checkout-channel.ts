import type { Child } from 'hono/jsx'
import type { z } from 'zod'
import type { ActiveScenarios } from '../scenario/index.js'
import type { Frozen } from '../store/frozen.js'
import type { ChargeBase } from './types.js'

/**
 * A channel a checkout offers (docs/behaviour.md#checkout), declared by the area that serves its kind
 * (`checkoutChannel(...)` beside its `area.ts`): how an attempt starts from a checkout, the page's
 * form and the views of its steps, the steps the page posts, its test values and its scripted
 * payment for `POST /_sandbox/checkouts/:reference/pay`. The checkout (src/checkout/) iterates the
 * declared channels and names none.
 */

/** What a checkout asks of an attempt, whatever its channel. */
export interface AttemptOrder {
  /** `<checkout's transaction reference>-<n>` */
  reference: string
  /** the checkout's transaction reference */
  parent: string
  amount: number
  currency: string
  customer: { email: string; name?: string }
  /** the checkout's, as a channel's service takes them (absent rather than null) */
  description?: string
  metadata?: Record<string, unknown>
  merchant_bears_cost: boolean
  /** the checkout's page: a page of the channel sends the customer back there */
  returnUrl: string
  /** the namespace's merchant, who the customer pays */
  merchant: string
}

/** One post of the checkout page being read: a field refused is kept as the page's error. */
export interface FormReader {
  get(field: string): string
  /** the field, required and matching `re` (`digits`: spaces and dashes dropped first); refused with `<label> <message>` */
  need(field: string, re: RegExp, message: string, digits?: boolean): string
  /** typed again into the form after a refusal (never a secret) */
  echo(field: string): void
  refuse(field: string, message: string): void
  refused(field: string): boolean
}

/** a page's texts by field: its errors, or what is typed again into it */
export type FieldTexts = Readonly<Record<string, string | undefined>>

/** What a channel's form and step views are given. */
export interface ChannelView<S = unknown> {
  s: S
  ns: string
  /** the checkout page's path the forms post to */
  base: string
  errors: FieldTexts
  echo: FieldTexts
  currency: string
  amount: number
  merchant: string
}

/** one test value and what paying with it does */
export interface TestValue {
  value: string
  what: string
}

/** The test values the page shows under a channel's form (docs/behaviour.md#checkout-page). */
export interface ChannelTestValues {
  /** one line above the list: the PIN, OTP and the like */
  note: string
  values: TestValue[]
}

/** The scripted customer's hands on the checkout: each call ends with the attempt as it is then. */
export interface Drive<A> {
  /** the checkout's currency, the customer's */
  currency: string
  start(input: unknown): Frozen<A>
  step(action: string, value: unknown): Frozen<A>
  /** finishes the attempt under way as the channel's completer does */
  complete(outcome: 'success' | 'failed'): void
}

export type Want = 'success' | 'failed'

/** The first test value of the currency that ends as `want`: a wallet, a bank (`sandbox magic` shows it too). */
export function pickTestOf<T extends { outcome: string; currency: string }>(values: Iterable<T>, currency: string, want: Want): T | undefined {
  for (const v of values) if (v.currency === currency && v.outcome === want) return v
  return undefined
}

/** `S`: the services it uses (the wired sandbox's, by name); `A`: its attempt's charge; `I`: what starts one. */
export interface CheckoutChannel<S = never, A extends ChargeBase = ChargeBase, I = unknown> {
  /** its kind, which names it on the page and in requests */
  kind: string
  /** where the page lists it among those offered when the merchant names none (lowest first) */
  place: number
  /** a checkout is priced by this channel's fee rule of the packs until an attempt pays it (then by the paying channel's): one channel declares it */
  pricesCheckouts?: true
  /** the currencies it takes in the sandbox */
  currencies: readonly string[]
  /** the page's fields it reads, each with the label the customer sees */
  labels: Readonly<Record<string, string>>
  /** which page field a service's field error is about (docs/api.md's field names) */
  serviceFields?: Readonly<Record<string, string>>
  /** reads the post that starts it (action: its kind) */
  read(form: FormReader, currency: string): I
  start(s: S, ns: string, order: AttemptOrder, input: I): Frozen<A>
  /** the attempt under way is kept rather than another opened (a transfer's account still open) */
  keeps?(attempt: Frozen<A>): boolean
  /** the page's posts to its attempt under way, by action, each read from the form */
  steps: Readonly<Record<string, (form: FormReader) => unknown>>
  /** answers a step of its attempt under way (a page's post, or the scripted customer's) */
  step(s: S, ns: string, attempt: Frozen<A>, action: string, value: unknown): Frozen<A>
  Form(v: ChannelView<S>): Child
  Step(v: ChannelView<S> & { attempt: Frozen<A> }): Child
  testValues(pack: ActiveScenarios, currency: string): ChannelTestValues
  /** the control pay call's fields of its own, and what the call's description says of paying by it */
  payFields: z.ZodRawShape
  payNote: string
  /** pays as a customer on the page would (docs/behaviour.md#checkout) */
  pay(s: S, ns: string, input: Record<string, unknown>, want: Want, drive: Drive<A>): void
  /** the checkout ended while its attempt was under way: what it stops, as a line of the checkout's history (null: nothing) */
  stop?(s: S, ns: string, attempt: Frozen<A>): string | null
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCheckoutChannel = CheckoutChannel<any, any, any>

const declared = new Map<string, AnyCheckoutChannel>()

/** the declared channels by their place: a new list at each declaration, which `byChannels` watches */
let ordered: readonly AnyCheckoutChannel[] = []

/** Declares a checkout channel (once per kind); the checkout offers it from then on. */
export function checkoutChannel<S, A extends ChargeBase, I>(channel: CheckoutChannel<S, A, I>): CheckoutChannel<S, A, I> {
  declared.set(channel.kind, channel)
  ordered = [...declared.values()].sort((a, b) => a.place - b.place)
  return channel
}

/** The declared channels, by their place. */
export const checkoutChannels = (): readonly AnyCheckoutChannel[] => ordered

export const checkoutChannelOf = (kind: string): AnyCheckoutChannel | undefined => declared.get(kind)

/** The kind whose fee rule prices a checkout no attempt has paid yet (`pricesCheckouts`): asked when the checkout is wired, after every channel is declared. */
export function checkoutPricedBy(): string {
  const by = ordered.filter((ch) => ch.pricesCheckouts)
  if (by.length !== 1) throw new Error(`one checkout channel prices checkouts (pricesCheckouts), not ${by.length}`)
  return by[0].kind
}

/** `make` of the declared channels, made again only when a channel is declared. */
export function byChannels<T>(make: (channels: readonly AnyCheckoutChannel[]) => T): () => T {
  let seen: readonly AnyCheckoutChannel[] | undefined
  let made: T
  return () => {
    if (seen !== ordered) {
      made = make(ordered)
      seen = ordered
    }
    return made
  }
}

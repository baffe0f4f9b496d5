import type { Kit } from '../engine/kit.js'
import { ALPHANUMERIC, DIGITS } from '../random.js'
import { ChargeLifecycle, type LifecycleParts } from '../engine/lifecycle.js'
import type { ChargeBase } from '../engine/types.js'
import { badRequest, conflict, invalid, notFound } from '../errors.js'
import { MSG } from '../messages.js'
import { toDecimalString, toMajor, toMinor } from '../money.js'
import type { AuthorizationSeed } from '../scenario/schema.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { ARRAY, MINOR, STRING } from '../store/validate.js'
import { CURRENCY } from '../scenario/lookups.js'
import { DD_MSG } from './messages.js'
import { AUTH_STATUSES, BANKS, type CreateAuthorizationInput, type DebitInput, type InitiateInput } from './schemas.js'
import { accountName } from '../lookups/index.js'
import { isoAt } from '../time.js'
import { directDebitSettings } from './settings.js'

/** The kind of its charges. */
export const DIRECT_DEBIT = 'direct_debit'

/** Whether a charge is a direct debit. */
export const isDebit = (c: Frozen<ChargeBase>): c is Frozen<DirectDebit> => c.kind === DIRECT_DEBIT
export const AUTHS = 'dd_authorizations'
const COMPLETE = 'dd.complete'
const EXPIRE = 'dd.expire'
const TOKEN = 'dd.token'
/** docs/behaviour.md#direct-debit-authorizations: the token payment that activates a mandate initiated by API, minor units (NGN 50.00) */
export const TOKEN_AMOUNT = 5000
const DAY = 86_400_000
const REF_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'

export type AuthStatus = (typeof AUTH_STATUSES)[number]

/** docs/api.md 2.9, amounts in minor units. */
export interface DebitAuthorization {
  reference: string
  status: AuthStatus
  amount: number
  currency: 'NGN'
  type: 'variable' | 'fixed'
  account_name: string
  account_number: string
  bank_code: string
  bank_name: string
  status_update_reason: string | null
  start_date: string
  end_date: string
  created_at: string
  updated_at: string
  history: { at: string; status: AuthStatus; reason: string | null }[]
  /** initiated by API (docs/behaviour.md#direct-debit-authorizations): the code the debit path takes (`KPY-AUTH-...`); otherwise the reference is the code */
  authorization_code?: string
  /** initiated by API: what the merchant sent */
  description?: string
  customer?: { name: string; email: string; billing_address?: string; phone_number?: string }
  /** a fixed mandate's schedule, as sent (kept, not run: docs/limitations.md) */
  schedule?: { initial_debit_date: string; frequency: string; interval: number; retrial_frequency: number | null }
  /** the token payment that activates it: its amount (minor units), and when it arrived */
  token?: { amount: number; paid_at: string | null }
}

/** The mandates, as a data file must hold them (src/store/validate.ts). */
export const AUTHS_SPEC: CollectionSpec<DebitAuthorization> = {
  name: AUTHS,
  keyOf: 'reference',
  fields: { reference: STRING, status: STRING, amount: MINOR, currency: CURRENCY, type: STRING, start_date: STRING, end_date: STRING, created_at: STRING, history: ARRAY },
  indexes: { authorization_code: (a) => a.authorization_code },
  asWritten: ['reference', 'account_number', 'authorization_code'],
}

export interface DirectDebit extends ChargeBase {
  kind: 'direct_debit'
  authorization_code: string
  narration: string
  interbank_transaction_id: string
  processed_at: string
  account_number: string
  bank_code: string
  /** the timer that completes it */
  complete_timer?: string
}

export type Transition = 'approve' | 'decline' | 'suspend' | 'reactivate' | 'deactivate'

/** Which statuses each move starts from, where it goes, and the reason it records. */
const MOVES: Record<Transition, { from: AuthStatus[]; to: AuthStatus; reason: string }> = {
  approve: { from: ['pending'], to: 'active', reason: DD_MSG.APPROVED },
  decline: { from: ['pending'], to: 'deactivated', reason: DD_MSG.DECLINED },
  suspend: { from: ['active'], to: 'suspended', reason: DD_MSG.SUSPENDED },
  reactivate: { from: ['suspended'], to: 'active', reason: DD_MSG.REACTIVATED },
  deactivate: { from: ['pending', 'active', 'suspended'], to: 'deactivated', reason: DD_MSG.DEACTIVATED },
}

const ymd = (ms: number) => isoAt(ms).slice(0, 10)
/** "A year on": the same calendar date next year (29 February becomes 28 February). */
function sameDateNextYear(d: string): string {
  const [y, m, day] = d.split('-').map(Number)
  const next = new Date(Date.UTC(y + 1, m - 1, day))
  if (next.getUTCMonth() !== m - 1) next.setUTCDate(0)
  return ymd(next.getTime())
}
/** The moment an authorization whose end_date is `d` expires: the day after it begins. */
const expiryMoment = (d: string) => Date.parse(`${d}T00:00:00Z`) + DAY

/**
 * Direct debit (docs/api.md 2.9-2.11, 3.4, 3.5, 4.3; docs/behaviour.md#direct-debit): authorizations with a lifecycle
 * moved by control calls and by the clock, and debits that complete after a delay by the account's
 * scenario.
 */
export class DirectDebitService {
  readonly #debits: ChargeLifecycle<DirectDebit>
  /** the merchant's transaction limit for a single debit, minor units (the config's `debitLimit`, NGN) */
  readonly #limit: number

  constructor(private readonly kit: Pick<Kit, LifecycleParts | 'namespaces' | 'config'>) {
    this.#limit = toMinor(kit.config.debitLimit)
    this.#debits = new ChargeLifecycle<DirectDebit>(kit, {
      kind: DIRECT_DEBIT,
      prefix: 'DD',
      attempt: 'bank_account',
      succeeded: DD_MSG.DEBIT_SUCCESS,
    })
    this.kit.clocks.on(EXPIRE, (ns, p: { reference: string }) => {
      const auth = this.#auths(ns).get(p.reference)
      if (auth) this.#expireIfDue(ns, auth)
    })
    this.kit.clocks.on(COMPLETE, (ns, p: { tx: string }) => this.#complete(ns, p.tx))
    this.kit.clocks.on(TOKEN, (ns, p: { reference: string }) => this.#tokenPaid(ns, p.reference))
    this.kit.namespaces.onSeed((ns) => this.seed(ns))
  }

  #auths(ns: string) {
    return this.kit.store.col<DebitAuthorization>(ns, AUTHS)
  }

  /** Seeds the pack's authorizations into a new (or reset) namespace. */
  seed(ns: string): void {
    const now = this.kit.clocks.now(ns)
    for (const s of this.kit.scenarios.forNs(ns).authorizations.values()) this.#seedOne(ns, s, now)
  }

  #seedOne(ns: string, s: AuthorizationSeed, now: number): void {
    const expired = s.status === 'expired'
    const bank = s.bank_code ?? '058'
    const at = isoAt(now)
    const auth: DebitAuthorization = {
      reference: s.reference,
      status: s.status,
      amount: toMinor(s.amount),
      currency: 'NGN',
      type: 'variable',
      account_name: s.account_name ?? 'Sandbox Customer',
      account_number: s.account_number ?? '0123456789',
      bank_code: bank,
      bank_name: BANKS[bank] ?? 'Sandbox Bank',
      status_update_reason: s.status === 'pending' ? null : DD_MSG.seeded(s.status),
      start_date: ymd(now - (expired ? 400 : 30) * DAY),
      end_date: ymd(now + (expired ? -35 : 335) * DAY),
      created_at: at,
      updated_at: at,
      history: [{ at, status: s.status, reason: DD_MSG.HISTORY_SEEDED }],
    }
    this.#auths(ns).put(auth.reference, auth)
    this.#scheduleExpiry(ns, auth)
  }

  /** By its reference or, for one initiated by API, its authorization code (docs/behaviour.md#direct-debit-calls). */
  get(ns: string, reference: string): Frozen<DebitAuthorization> {
    const auths = this.#auths(ns)
    const auth = auths.get(reference) ?? auths.findBy('authorization_code', reference)
    if (!auth) throw notFound(DD_MSG.AUTH_NOT_FOUND)
    return this.#expireIfDue(ns, auth)
  }

  list(ns: string): Frozen<DebitAuthorization>[] {
    return [...this.#auths(ns).values()].map((a) => this.#expireIfDue(ns, a))
  }

  /** Control: a new authorization, `pending` until approved. */
  create(ns: string, input: CreateAuthorizationInput): Frozen<DebitAuthorization> {
    const now = this.kit.clocks.now(ns)
    const reference = input.reference ?? `AUTH-${this.kit.random.text(ns, REF_ALPHABET, 12)}`
    if (this.#auths(ns).has(reference)) throw badRequest(DD_MSG.DUPLICATE_AUTH)
    const start = input.start_date ?? ymd(now)
    const end = input.end_date ?? sameDateNextYear(start)
    if (expiryMoment(end) <= now) throw invalid({ end_date: DD_MSG.END_DATE_PAST })
    const { amount } = input
    const at = isoAt(now)
    const auth: DebitAuthorization = {
      reference,
      status: 'pending',
      amount,
      currency: 'NGN',
      type: input.type ?? 'variable',
      account_name: input.account_name,
      account_number: input.account_number,
      bank_code: input.bank_code,
      bank_name: BANKS[input.bank_code],
      status_update_reason: null,
      start_date: start,
      end_date: end,
      created_at: at,
      updated_at: at,
      history: [{ at, status: 'pending', reason: DD_MSG.HISTORY_CREATED }],
    }
    const stored = this.#auths(ns).put(reference, auth)
    this.#scheduleExpiry(ns, stored)
    return stored
  }

  /**
   * `POST /merchant/api/v1/direct-debit/initiate` (docs/behaviour.md#direct-debit-authorizations): a mandate, `pending`
   * until the customer's token payment from the registered account arrives, by itself
   * `transfer_delay_seconds` later on the namespace clock (or at once by the control call
   * `approve`); it is then approved as any mandate is, with its `direct_debit.auth` event.
   */
  initiate(ns: string, input: InitiateInput): Frozen<DebitAuthorization> {
    const now = this.kit.clocks.now(ns)
    if (expiryMoment(input.end_date) <= now) throw invalid({ end_date: DD_MSG.END_DATE_PAST })
    const at = isoAt(now)
    const { customer } = input
    const auth: DebitAuthorization = {
      reference: `KPY-DD-AUTH-${this.kit.random.text(ns, ALPHANUMERIC, 15)}`,
      authorization_code: `KPY-AUTH-${this.kit.random.text(ns, REF_ALPHABET, 15)}`,
      status: 'pending',
      amount: input.amount,
      currency: 'NGN',
      type: input.debit_type,
      // the name the bank holds for the account, as the account look-up resolves it
      account_name: accountName(customer.bank_code, customer.account_number) ?? customer.name,
      account_number: customer.account_number,
      bank_code: customer.bank_code,
      bank_name: BANKS[customer.bank_code],
      status_update_reason: null,
      start_date: input.start_date,
      end_date: input.end_date,
      created_at: at,
      updated_at: at,
      history: [{ at, status: 'pending', reason: DD_MSG.HISTORY_INITIATED }],
      description: input.description,
      customer: { name: customer.name, email: customer.email, ...(customer.billing_address ? { billing_address: customer.billing_address } : {}), ...(customer.phone_number ? { phone_number: customer.phone_number } : {}) },
      ...(input.debit_type === 'fixed'
        ? { schedule: { initial_debit_date: input.initial_debit_date!, frequency: input.frequency!, interval: input.interval!, retrial_frequency: input.retrial_frequency ?? null } }
        : {}),
      token: { amount: TOKEN_AMOUNT, paid_at: null },
    }
    const stored = this.#auths(ns).put(auth.reference, auth)
    this.#scheduleExpiry(ns, stored)
    this.kit.clocks.schedule(ns, this.kit.scenarios.forNs(ns).settings.transfer_delay_seconds * 1000, TOKEN, { reference: auth.reference })
    return stored
  }

  /** The token payment arrived: a mandate still pending is approved (a declined or deactivated one stays so). */
  #tokenPaid(ns: string, reference: string): void {
    const auth = this.#auths(ns).get(reference)
    if (!auth || auth.status !== 'pending') return
    this.move(ns, reference, 'approve', DD_MSG.TOKEN_PAID)
  }

  /** Control: approve, decline, suspend, reactivate, deactivate. */
  move(ns: string, reference: string, move: Transition, reason?: string): Frozen<DebitAuthorization> {
    const auth = this.get(ns, reference)
    const rule = MOVES[move]
    if (!rule.from.includes(auth.status)) {
      throw badRequest(DD_MSG.cannotMove(move, auth.status), { status: auth.status, allowed_from: rule.from })
    }
    const moved = this.#setStatus(ns, auth.reference, rule.to, reason ?? rule.reason, move === 'approve' && auth.token && !auth.token.paid_at)
    if (move === 'approve' || move === 'decline') {
      // docs/api.md 6.2: status success means debits may be made at once
      this.kit.events.record(ns, 'direct_debit.auth', {
        reference: auth.reference,
        authorization_code: auth.authorization_code ?? auth.reference,
        status: move === 'approve' ? 'success' : 'failed',
        type: auth.type,
        amount: toMajor(auth.amount),
        currency: auth.currency,
        account_name: auth.account_name,
        account_number: auth.account_number,
        bank_code: auth.bank_code,
        bank_name: auth.bank_name,
      })
    }
    return moved
  }

  /** POST .../authorizations/{code}/debits */
  debit(ns: string, code: string, input: DebitInput): Frozen<DirectDebit> {
    const auth = this.get(ns, code)
    if (auth.status !== 'active') throw badRequest(DD_MSG.notActive(auth.status), { status: auth.status })
    // docs/behaviour.md#direct-debit-authorizations: no debit before the start (UTC) of start_date on the namespace clock
    if (this.kit.clocks.now(ns) < Date.parse(`${auth.start_date}T00:00:00Z`)) {
      throw badRequest(DD_MSG.notActiveUntil(auth.start_date), { start_date: auth.start_date })
    }
    if (auth.type !== 'variable') throw badRequest(DD_MSG.NOT_VARIABLE, {})
    const { amount } = input
    if (amount > auth.amount) throw badRequest(DD_MSG.OVER_CEILING, { ceiling: toMajor(auth.amount) })
    if (amount > this.#limit) throw badRequest(DD_MSG.OVER_LIMIT, { limit: toMajor(this.#limit) })
    const reference = input.reference ?? `DD-${this.kit.random.text(ns, REF_ALPHABET, 12)}`
    // not the transaction reference of another charge either (the lifecycle checks payment references)
    if (this.#debits.col(ns).has(reference)) throw conflict(MSG.DUPLICATE_REFERENCE)
    const { narration } = input
    const base = this.#debits.create(ns, {
      payment_reference: reference,
      amount,
      currency: 'NGN',
      description: DD_MSG.debitDescription(narration),
      customer: { name: auth.account_name },
      response_message: DD_MSG.DEBIT_ACCEPTED,
      created: DD_MSG.debitOf(toMajor(amount), auth.reference),
    })
    const debit: DirectDebit = Object.assign(base, {
      authorization_code: auth.authorization_code ?? auth.reference,
      narration,
      interbank_transaction_id: `${1 + this.kit.random.int(ns, 9)}${this.kit.random.text(ns, DIGITS, 29)}`,
      processed_at: base.created_at,
      account_number: auth.account_number,
      bank_code: auth.bank_code,
    })
    const scenarios = this.kit.scenarios.forNs(ns)
    const account = scenarios.account(auth.account_number)
    if (account?.outcome !== 'processing') {
      debit.complete_timer = this.kit.clocks.schedule(ns, directDebitSettings.of(scenarios).debit_delay_seconds * 1000, COMPLETE, { tx: debit.transaction_reference })
    }
    return this.#debits.save(ns, debit)
  }

  /** docs/api.md 2.9 */
  authorizationRecord(auth: Frozen<DebitAuthorization>) {
    return {
      reference: auth.reference,
      status: auth.status,
      amount: toMajor(auth.amount),
      currency: auth.currency,
      type: auth.type,
      account_name: auth.account_name,
      account_number: auth.account_number,
      bank_code: auth.bank_code,
      bank_name: auth.bank_name,
      status_update_reason: auth.status_update_reason,
      start_date: auth.start_date,
      end_date: auth.end_date,
    }
  }

  /** docs/behaviour.md#direct-debit-authorizations: the initiate call's answer. */
  initiateRecord(auth: Frozen<DebitAuthorization>) {
    return {
      status: auth.status,
      reference: auth.reference,
      authorization_code: auth.authorization_code ?? auth.reference,
      amount: toMajor(auth.amount),
      currency: auth.currency,
      debit_type: auth.type,
      description: DD_MSG.tokenPayment(toDecimalString(auth.token?.amount ?? TOKEN_AMOUNT)),
      customer_account_number: auth.account_number,
      customer_bank_code: auth.bank_code,
      customer_account_name: auth.account_name,
      customer_bank_name: auth.bank_name,
      start_date: auth.start_date,
      end_date: auth.end_date,
      created_at: auth.created_at,
      updated_at: auth.updated_at,
    }
  }

  /** docs/api.md 2.10 */
  debitRecord(debit: Frozen<DirectDebit>) {
    return {
      transaction_reference: debit.transaction_reference,
      reference: debit.payment_reference,
      authorization_code: debit.authorization_code,
      status: debit.status,
      amount: toMajor(debit.amount),
      fee: toMajor(debit.fee),
      vat: toMajor(debit.vat),
      currency: debit.currency,
      interbank_transaction_id: debit.interbank_transaction_id,
      processed_at: debit.processed_at,
    }
  }

  queryExtras(debit: Frozen<DirectDebit>): Record<string, unknown> {
    return {
      authorization_code: debit.authorization_code,
      interbank_transaction_id: debit.interbank_transaction_id,
      processed_at: debit.processed_at,
    }
  }

  /** Control: finish a processing debit now. */
  completeNow(ns: string, reference: string, outcome: 'success' | 'failed', message?: string): Frozen<DirectDebit> {
    const debit = this.#debits.pending(ns, reference)
    if (debit.complete_timer) this.kit.clocks.cancel(ns, debit.complete_timer)
    return this.#finish(ns, debit, outcome, message ?? DD_MSG.DEBIT_FAILED)
  }

  #complete(ns: string, tx: string): void {
    const debit = this.#debits.col(ns).draft(tx)
    if (!debit || !isDebit(debit) || debit.status !== 'processing') return
    const account = this.kit.scenarios.forNs(ns).account(debit.account_number)
    if (account?.outcome === 'processing') return
    this.#finish(ns, debit, account?.outcome ?? 'success', account?.message ?? DD_MSG.DEBIT_FAILED)
  }

  /** Ends a processing debit (`debit`: a copy to change); returns it as stored. */
  #finish(ns: string, debit: DirectDebit, outcome: 'success' | 'failed', message: string): Frozen<DirectDebit> {
    if (outcome === 'failed') this.#debits.fail(ns, debit, message, 'outcome')
    else {
      this.#debits.note(ns, debit, 'outcome', 'success')
      this.#debits.succeed(ns, debit)
    }
    return this.#debits.save(ns, debit)
  }

  /** `tokenPaid`: the approval is the token payment's arrival (a mandate initiated by API). */
  #setStatus(ns: string, reference: string, status: AuthStatus, reason: string, tokenPaid = false): Frozen<DebitAuthorization> {
    const at = this.kit.clocks.iso(ns)
    return this.#auths(ns).update(reference, (auth) => {
      if (tokenPaid && auth.token) auth.token.paid_at = at
      auth.status = status
      auth.status_update_reason = reason
      auth.updated_at = at
      auth.history.push({ at, status, reason })
    })
  }

  #scheduleExpiry(ns: string, auth: Frozen<DebitAuthorization>): void {
    if (auth.status === 'expired' || auth.status === 'deactivated') return
    this.kit.clocks.scheduleAt(ns, expiryMoment(auth.end_date), EXPIRE, { reference: auth.reference })
  }

  /**
   * `end_date` has passed on the clock: expired, whatever it was (but deactivated stays). Returns
   * the authorization as stored.
   */
  #expireIfDue(ns: string, auth: Frozen<DebitAuthorization>): Frozen<DebitAuthorization> {
    if (auth.status === 'expired' || auth.status === 'deactivated') return auth
    if (this.kit.clocks.now(ns) < expiryMoment(auth.end_date)) return auth
    return this.#setStatus(ns, auth.reference, 'expired', DD_MSG.END_DATE_PASSED)
  }

  /** The moves an authorization in `status` allows, in MOVES' order. */
  movesFrom(status: AuthStatus): Transition[] {
    return (Object.keys(MOVES) as Transition[]).filter((m) => MOVES[m].from.includes(status))
  }
}


import type { Kit } from '../engine/kit.js'
import { ChargeLifecycle, requested, sha256, type LifecycleParts } from '../engine/lifecycle.js'
import type { ChargeBase } from '../engine/types.js'
import { badRequest } from '../errors.js'
import { customerCost, toMajor, toMinor } from '../money.js'
import { DIGITS } from '../random.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Frozen } from '../store/frozen.js'
import { STRING } from '../store/validate.js'
import { isoAt } from '../time.js'
import { VOUCHER_MSG } from './messages.js'
import { VOUCHER_PROVIDERS, type VoucherInput } from './schemas.js'

/** The kind of its charges, named here only. */
const KIND = 'voucher'

/**
 * The vouchers redeemed in a namespace, by the digest of their provider and PIN (`voucherDigest`):
 * each pays once. The PIN itself is kept nowhere (docs/behaviour.md#request-journal).
 */
export const REDEEMED = 'vouchers_redeemed'
export interface Redeemed {
  digest: string
  transaction_reference: string
}
export const REDEEMED_SPEC: CollectionSpec<Redeemed> = {
  name: REDEEMED,
  keyOf: 'digest',
  fields: { digest: STRING, transaction_reference: STRING },
  asWritten: ['digest', 'transaction_reference'],
}

/** What tells a voucher redeemed: SHA-256 of its provider and PIN, in hex. */
export const voucherDigest = (provider_code: string, pin: string): string => sha256(`voucher:${provider_code}:${pin}`)

export interface VoucherCharge extends ChargeBase {
  kind: 'voucher'
  /** never its PIN (docs/behaviour.md#request-journal): the answer echoes the one sent */
  voucher: { serial_number: string; balance: number; phone_number: string; provider_code: string; expiry_date: string }
  merchant_bears_cost: boolean
  notification_url: string | null
}

/** `YYYY-MM-DD HH:MM:SS` of a moment, as the sample writes the voucher's expiry. */
const plainMoment = (ms: number) => isoAt(ms).slice(0, 19).replace('T', ' ')

/**
 * Vouchers (ZAR, docs/behaviour.md#vouchers): a voucher of the packs pays its whole value towards a
 * charge of at least that amount, at once, and only once in a namespace. Refused, in this order:
 * a provider other than 1Voucher's `0001`; a PIN the packs do not list; a reference already used;
 * a voucher already redeemed (or the packs' spent one); a voucher worth more than the amount.
 */
export class VoucherService {
  readonly #charges: ChargeLifecycle<VoucherCharge>
  readonly kind = KIND

  constructor(private readonly kit: Pick<Kit, LifecycleParts>) {
    this.#charges = new ChargeLifecycle<VoucherCharge>(kit, { kind: KIND, prefix: 'CA', attempt: null, succeeded: VOUCHER_MSG.CHARGED })
  }

  charge(ns: string, input: VoucherInput): Frozen<VoucherCharge> {
    const { pin, phone_number, provider_code } = input.voucher
    if (!(VOUCHER_PROVIDERS as readonly string[]).includes(provider_code)) throw badRequest(VOUCHER_MSG.PROVIDER_NOT_SUPPORTED)
    const voucher = this.kit.scenarios.forNs(ns).voucher(pin)
    if (!voucher) throw badRequest(VOUCHER_MSG.INVALID_PIN)
    this.#charges.requireNewReference(ns, input.reference)
    const redeemed = this.kit.store.col<Redeemed>(ns, REDEEMED)
    if (voucher.outcome === 'failed') throw badRequest(voucher.message ?? VOUCHER_MSG.ALREADY_USED)
    const digest = voucherDigest(provider_code, pin)
    if (redeemed.has(digest)) throw badRequest(VOUCHER_MSG.ALREADY_USED)
    const value = toMinor(voucher.value)
    if (value > input.amount) throw badRequest(VOUCHER_MSG.OVER_AMOUNT)
    const now = this.kit.clocks.now(ns)
    const serial = `${isoAt(now).slice(0, 19).replace(/\D/g, '')}${this.kit.random.text(ns, DIGITS, 6)}`
    // the voucher pays its value: that is the charge's amount
    const base = this.#charges.create(ns, requested({ ...input, amount: value }, input.description ?? null, VOUCHER_MSG.CHARGED, VOUCHER_MSG.redeemed(serial)))
    const charge: VoucherCharge = Object.assign(base, {
      voucher: { serial_number: serial, balance: value, phone_number, provider_code, expiry_date: plainMoment(now + 365 * 86_400_000) },
      merchant_bears_cost: input.merchant_bears_cost ?? true,
      notification_url: input.notification_url ?? null,
    })
    this.#charges.succeed(ns, charge)
    redeemed.put(digest, { digest, transaction_reference: charge.transaction_reference })
    return this.#charges.save(ns, charge)
  }

  /** What the customer paid: the voucher's value, and the fee and VAT unless the merchant bore them. */
  paid(charge: Frozen<VoucherCharge>): { paid: number; borne: number } {
    const borne = customerCost(charge.fee, charge.vat, charge.merchant_bears_cost, 'fee and VAT')
    return { paid: charge.amount + borne, borne }
  }

  /** docs/behaviour.md#vouchers: the charge's answer, which echoes the PIN the caller sent (`pin`), as the sample does. */
  responseData(charge: Frozen<VoucherCharge>, pin: string) {
    const v = charge.voucher
    return {
      currency: charge.currency,
      amount: toMajor(charge.amount),
      fee: toMajor(charge.fee),
      vat: toMajor(charge.vat),
      transaction_reference: charge.transaction_reference,
      payment_reference: charge.payment_reference,
      status: charge.status,
      voucher: { serial_number: v.serial_number, balance: toMajor(v.balance), pin, expiry_date: v.expiry_date },
      customer: { name: charge.customer?.name ?? null, email: charge.customer?.email ?? null },
    }
  }

  /** What the charge query adds for a voucher (never its PIN). */
  queryExtras(charge: Frozen<VoucherCharge>): Record<string, unknown> {
    const v = charge.voucher
    return { merchant_bears_cost: charge.merchant_bears_cost, voucher: { serial_number: v.serial_number, balance: toMajor(v.balance), provider_code: v.provider_code, expiry_date: v.expiry_date } }
  }
}

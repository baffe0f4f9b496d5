/**
 * Money is held as integer minor units (kobo, cents, pesewas) everywhere inside the sandbox.
 * Major-unit numbers only exist at the edge: parsed from requests, formatted into responses.
 */

/** Largest amount accepted, in major units: keeps every minor-unit sum a safe integer. */
export const MAX_MAJOR_AMOUNT = 1_000_000_000_000

/**
 * The most a namespace takes in per currency until it is reset, minor units (docs/behaviour.md#ledger-and-balances, "Exact at any size"): its opening balance, fundings and pay-ins not failed. Every balance,
 * history sum and running balance stays below it (plus one amount), so each is a safe integer and
 * its major-unit JSON number (below 2^46, where doubles are 1/128 apart) has its two decimals exact.
 */
export const INTAKE_LIMIT = 5_000_000_000_000_000

const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/

/**
 * Parses a major-unit amount (number, or numeric string where `allowString`) into minor units.
 * Returns null when it is not a non-negative amount with at most 2 decimals.
 */
export function parseAmount(value: unknown, { allowString = false } = {}): number | null {
  let text: string
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0 || value > MAX_MAJOR_AMOUNT) return null
    text = String(value)
  } else if (allowString && typeof value === 'string') {
    text = value
  } else {
    return null
  }
  const m = DECIMAL.exec(text)
  if (!m) return null
  const major = Number(m[1])
  if (major > MAX_MAJOR_AMOUNT) return null
  const frac = (m[2] ?? '').padEnd(2, '0')
  return major * 100 + Number(frac)
}

/**
 * A major-unit number the sandbox is configured with (a scenario pack's setting or amount, a
 * limit of the configuration) in minor units, to the nearest one. A request's amount is parsed
 * instead (`parseAmount`), by its schema.
 */
export function toMinor(major: number): number {
  return Math.round(major * 100)
}

/** Minor units to a major-unit number for JSON (100050 -> 1000.5). */
export function toMajor(minor: number): number {
  return minor / 100
}

/** Minor units to a decimal string with two places (100050 -> "1000.50"). */
export function toDecimalString(minor: number): string {
  const sign = minor < 0 ? '-' : ''
  const abs = Math.abs(minor)
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** An amount as people read it in a message or on a page: `NGN 1,234.50` (`NGN -1,234.50`). */
export function formatMoney(currency: string, minor: number): string {
  const [whole, frac] = toDecimalString(minor).split('.')
  const neg = whole.startsWith('-')
  const digits = neg ? whole.slice(1) : whole
  return `${currency} ${neg ? '-' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`
}

/** A percentage given as a number (1.4 = 1.4 %) turned into basis points (140), exactly. */
export function percentToBps(percent: number): number {
  return Math.round(percent * 100)
}

/** Rounds half away from zero: amount * bps / 10_000 in integer arithmetic. */
export function applyBps(minor: number, bps: number): number {
  const num = minor * bps
  if (Number.isSafeInteger(num + 5_000)) return Math.floor((num + 5_000) / 10_000)
  // past 2^53 a float product loses units: do it exactly
  return Number((BigInt(minor) * BigInt(bps) + 5_000n) / 10_000n)
}

export interface FeeRule {
  /** percent of the amount, e.g. 1.4 */
  percent: number
  /** flat part, major units */
  flat?: number
  /** cap on the fee, major units (before VAT) */
  cap?: number
}

/**
 * The smallest amount of a currency with `decimals` decimals (fixtures/lookups.json's), in the
 * sandbox's minor units (hundredths): 1 for NGN's kobo, 100 for XAF and XOF, which have no minor unit.
 */
export const unitOf = (decimals: number): number => 10 ** (2 - decimals)

/** Minor units rounded, half up, to the unit of a currency with `decimals` decimals (XAF 3250 -> 3300: 32.50 -> 33). */
export function roundToUnit(minor: number, decimals: number): number {
  const unit = unitOf(decimals)
  return unit === 1 ? minor : Math.round(minor / unit) * unit
}

/**
 * Fee and VAT on the fee, both in minor units, each rounded to the currency's unit (docs/behaviour.md#money: XAF's and XOF's to whole francs): the fee, then the VAT on the rounded fee.
 */
export function computeFee(amountMinor: number, rule: FeeRule, vatPercent: number, decimals = 2): { fee: number; vat: number } {
  let fee = applyBps(amountMinor, percentToBps(rule.percent)) + toMinor(rule.flat ?? 0)
  if (rule.cap !== undefined) fee = Math.min(fee, toMinor(rule.cap))
  fee = roundToUnit(fee, decimals)
  const vat = roundToUnit(applyBps(fee, percentToBps(vatPercent)), decimals)
  return { fee, vat }
}

/**
 * What of a pay-in's cost the customer pays on top of the amount when the merchant does not bear
 * it (docs/behaviour.md#ledger-and-balances): the fee alone (a bank transfer: the VAT on the fee stays the
 * merchant's) or the fee and its VAT (mobile money).
 */
export type CustomerShare = 'fee' | 'fee and VAT'

/** What the customer bears of a pay-in's fee and VAT, minor units: nothing when the merchant bears the cost. */
export function customerCost(fee: number, vat: number, merchantBearsCost: boolean, share: CustomerShare): number {
  if (merchantBearsCost) return 0
  return share === 'fee' ? fee : fee + vat
}

/** A paid pay-in's money, minor units: each fee and VAT taken once, whoever bore them. */
export interface PayinMoney {
  /** what the customer paid */
  paid: number
  /** what the merchant is credited: what the customer paid, less the fee and its VAT */
  credit: number
  /** what a refund may return: what the customer paid, less the cost the customer bore (fees are the service's) */
  refundable: number
}

/**
 * The one rule of who gets what of a pay-in (docs/behaviour.md#ledger-and-balances): the customer paid `paid`, of
 * which `borne` was the fee and VAT the customer bore; the service keeps fee and VAT, the merchant
 * is credited the rest, less what a split payment's accounts receive (`shared`), so paid = credit +
 * fee + VAT + shared for either bearer.
 */
export function payinMoney(paid: number, fee: number, vat: number, borne: number, shared = 0): PayinMoney {
  return { paid, credit: paid - fee - vat - shared, refundable: paid - borne }
}

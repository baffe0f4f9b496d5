import type { Kit } from '../engine/kit.js'
import { decimalsOf } from '../scenario/lookups.js'
import { rateFor } from '../scenario/rates.js'
import { badRequest, conflict, notFound } from '../errors.js'
import { listTime, recordsInOrder } from '../http/cursor-list.js'
import type { CollectionSpec } from '../store/collection.js'
import { NUMBER, STRING } from '../store/validate.js'
import { CURRENCY } from '../scenario/lookups.js'
import { toDecimalString, toMajor } from '../money.js'
import { CONVERSION_MSG, RATE_NOT_FOUND_CODE } from './messages.js'
import { convertMinor, rateString, withinLimit } from './rates.js'
import type { ConvertInput, HistoryQuery, QuoteInput } from './schemas.js'
import { isoAt } from '../time.js'

/**
 * Rate conversions between the merchant's balances (docs/behaviour.md#conversions): a quote at the
 * pack's rate, good for `QUOTE_SECONDS` on the namespace clock and for one conversion, which
 * takes the source amount from the from-currency's available balance and adds the converted
 * amount to the to-currency's, both through the ledger, available at once.
 */

/** how long a quote may be converted, on the namespace clock (the live samples: 25 s) */
const QUOTE_SECONDS = 25

const QUOTES = 'conversion_quotes'
export const CONVERSIONS = 'conversions'

/** A rate quoted, by its reference: amounts in minor units. */
export interface Quote {
  from_currency: string
  to_currency: string
  from_amount: number
  to_amount: number
  rate: number
  /** the merchant's own note sent with the quote */
  note: string | null
  created_at: string
  expires_at: string
  /** the conversion that used it */
  used_by: string | null
}

/** A conversion done, by its reference: amounts in minor units. */
export interface Conversion {
  reference: string
  rate_reference: string
  source_currency: string
  destination_currency: string
  source_amount: number
  converted_amount: number
  rate: number
  customer_name: string | null
  customer_email: string | null
  narration: string | null
  created_at: string
}

/** the ledger source of a conversion's two entries, declared by the conversions area (src/conversions/area.ts) */
export const CONVERSION = 'conversion'

export const QUOTES_SPEC: CollectionSpec<Quote> = {
  name: QUOTES,
  fields: { from_currency: CURRENCY, to_currency: CURRENCY, from_amount: NUMBER, to_amount: NUMBER, rate: NUMBER, expires_at: STRING },
  asWritten: ['used_by'],
}

export const CONVERSIONS_SPEC: CollectionSpec<Conversion> = {
  name: CONVERSIONS,
  fields: { reference: STRING, source_currency: CURRENCY, destination_currency: CURRENCY, source_amount: NUMBER, converted_amount: NUMBER, rate: NUMBER, created_at: STRING },
  // the history's order (docs/behaviour.md#lists)
  order: { by: (c) => Date.parse(c.created_at) },
  asWritten: ['reference', 'rate_reference'],
}


export class ConversionService {
  constructor(private readonly kit: Pick<Kit, 'store' | 'clocks' | 'random' | 'scenarios' | 'namespaces' | 'ledger'>) {}

  /** POST /conversions/rates: a quote for converting `amount` of the from-currency. */
  quote(ns: string, input: QuoteInput) {
    const { from_currency: from, to_currency: to } = input
    const rate = rateFor(this.kit.scenarios.forNs(ns).settings.conversion_rates, from, to)
    if (!rate) throw badRequest(CONVERSION_MSG.PAIR)
    const fromAmount = input.amount
    // rounded down to the destination currency's unit (XAF, XOF: whole francs, docs/behaviour.md#money)
    const toAmount = convertMinor(fromAmount, rate, decimalsOf(to))
    if (toAmount < 1) throw badRequest(CONVERSION_MSG.TOO_SMALL)
    if (!withinLimit(toAmount)) throw badRequest(CONVERSION_MSG.TOO_LARGE)
    const now = this.kit.clocks.now(ns)
    const reference = this.kit.random.uuid(ns)
    const quote: Quote = {
      from_currency: from, to_currency: to, from_amount: fromAmount, to_amount: toAmount, rate: rate.rate,
      note: input.reference ?? null, created_at: isoAt(now), expires_at: isoAt(now + QUOTE_SECONDS * 1000), used_by: null,
    }
    this.kit.store.col<Quote>(ns, QUOTES).put(reference, quote)
    return {
      from_currency: from, to_currency: to, from_amount: toMajor(fromAmount), to_amount: toMajor(toAmount), rate: rate.rate,
      reference, expiry_in_seconds: QUOTE_SECONDS, expiry_date: quote.expires_at,
    }
  }

  /**
   * POST /conversions: converts as a quote said, once, before it expires, when the from-currency's
   * available balance covers it. A refused conversion changes nothing.
   */
  convert(ns: string, input: ConvertInput) {
    const quotes = this.kit.store.col<Quote>(ns, QUOTES)
    const quote = quotes.get(input.rate_reference)
    const now = this.kit.clocks.now(ns)
    // the service keeps a rate's details until it expires: unknown and expired answer alike
    if (!quote || now > Date.parse(quote.expires_at)) throw conflict(CONVERSION_MSG.RATE_NOT_FOUND, RATE_NOT_FOUND_CODE)
    if (quote.used_by) throw badRequest(CONVERSION_MSG.USED_RATE)
    if (input.from_currency !== quote.from_currency || input.to_currency !== quote.to_currency || input.amount !== quote.from_amount) throw badRequest(CONVERSION_MSG.MISMATCH)
    this.kit.ledger.requireAvailable(ns, quote.from_currency, quote.from_amount, now)
    // what it brings into the to-currency counts toward what the namespace may take in (docs/behaviour.md#ledger-and-balances)
    this.kit.ledger.takeIn(ns, quote.to_currency, quote.to_amount)

    const reference = this.kit.random.uuid(ns)
    const at = isoAt(now)
    const conversion: Conversion = {
      reference, rate_reference: input.rate_reference,
      source_currency: quote.from_currency, destination_currency: quote.to_currency,
      source_amount: quote.from_amount, converted_amount: quote.to_amount, rate: quote.rate,
      customer_name: input.customer_name ?? null, customer_email: input.customer_email ?? null, narration: input.narration ?? null,
      created_at: at,
    }
    // the record, its two entries and the quote's use: one synchronous turn, one write
    this.kit.store.col<Conversion>(ns, CONVERSIONS).put(reference, conversion)
    this.kit.ledger.post(ns, CONVERSION, reference, { direction: 'debit', amount: quote.from_amount, currency: quote.from_currency, available_at: at, created_at: at })
    this.kit.ledger.post(ns, CONVERSION, reference, { direction: 'credit', amount: quote.to_amount, currency: quote.to_currency, available_at: at, created_at: at })
    quotes.put(input.rate_reference, { ...quote, used_by: reference })
    const s = shown(conversion)
    // the fields of the live sample, in its order
    return { converted_amount: s.converted_amount, source_amount: s.source_amount, destination_currency: s.destination_currency, exchange_rate: s.exchange_rate, reference, source_currency: s.source_currency, status: s.status }
  }

  /** GET /conversions/{reference} */
  get(ns: string, reference: string) {
    const conversion = this.kit.store.col<Conversion>(ns, CONVERSIONS).get(reference)
    if (!conversion) throw notFound(CONVERSION_MSG.NOT_FOUND)
    return shown(conversion)
  }

  /**
   * GET /conversions: newest first, `limit` a page (20 unless asked), `page` from 1, `date` one
   * day or a range of days (UTC). It reads the kept order from the newest down (docs/behaviour.md#lists): the conversions after the range and those on the pages before, and the page's records.
   */
  history(ns: string, q: HistoryQuery) {
    const meta = this.kit.namespaces.get(ns)
    const account = { name: meta?.name ?? '', email: meta?.email ?? '' }
    const [first, last = first] = q.date ? q.date.split(',').map((d) => d.trim()) : []
    const from = first ? Date.parse(`${first}T00:00:00Z`) : -Infinity
    const to = last ? Date.parse(`${last}T00:00:00Z`) + 86_399_999 : Infinity
    const limit = q.limit ?? 20
    let skip = ((q.page ?? 1) - 1) * limit
    const items = recordsInOrder(this.kit.store.col<Conversion>(ns, CONVERSIONS))
    const history = []
    for (let i = items.size - 1; i >= 0 && history.length < limit; i--) {
      const at = items.dateAt(i)
      if (at > to) continue
      if (at < from) break
      if (skip > 0) skip--
      else history.push({ ...shown(items.itemAt(i)), account })
    }
    return { history }
  }
}

/** A conversion as the single and the history answers show it (the live documentation's order). */
function shown(c: Conversion) {
  return {
    source_currency: c.source_currency,
    destination_currency: c.destination_currency,
    exchange_rate: rateString(c.rate),
    source_amount: toDecimalString(c.source_amount),
    converted_amount: toDecimalString(c.converted_amount),
    status: 'success' as const,
    reference: c.reference,
    channel: 'api' as const,
    customer_name: c.customer_name,
    customer_email: c.customer_email,
    narration: c.narration,
    transaction_date: listTime(c.created_at)!,
  }
}

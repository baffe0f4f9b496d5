import type { Kit } from '../engine/kit.js'
import type { Area, Route } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { CONVERSION_MSG, RETRIEVED_CODE } from './messages.js'
import { conversionAnswerSchema, convertAnswerSchema, convertSchema, historyAnswerSchema, historyQuerySchema, quoteAnswerSchema, quoteSchema } from './schemas.js'
import { CONVERSION, CONVERSIONS, CONVERSIONS_SPEC, ConversionService, QUOTES_SPEC } from './service.js'
import { refusalsMet } from '../engine/outcomes.js'
import { conversionsTestValues } from './test-values.js'

type Conversions = { conversions: ConversionService }

const BASE = '/merchant/api/v1/conversions'

/** The convert call and the history, with the trailing slash the SDKs send and without (docs/behaviour.md#conversions). */
const slashed = ([BASE, `${BASE}/`] as const).flatMap((path, i): Route<Conversions>[] => {
  const suffix = i === 0 ? '' : 'Slash'
  return [
    {
      method: 'post', path, access: 'secret key', tag: 'conversions', operationId: `convert${suffix}`, summary: 'Convert between two balances at a quoted rate, once, before the quote expires (message `Conversion processed successfully`)',
      body: { name: 'ConvertRequest', schema: convertSchema }, answer: { name: 'Conversion', schema: convertAnswerSchema },
      handler: async (c, { conversions }) => ok(c, CONVERSION_MSG.CONVERTED, conversions.convert(c.get('ns'), validate(convertSchema, await readJsonObject(c)))),
    },
    {
      method: 'get', path, access: 'secret key', tag: 'conversions', operationId: `listConversions${suffix}`, summary: 'The conversions, newest first, by page (message `Conversion transactions retrieved successfully`)',
      query: historyQuerySchema, answer: { name: 'ConversionHistory', schema: historyAnswerSchema },
      handler: (c, { conversions }) => ok(c, CONVERSION_MSG.HISTORY, conversions.history(c.get('ns'), validate(historyQuerySchema, c.req.query()))),
    },
  ]
})

/** Rate conversions between the merchant's balances (docs/behaviour.md#conversions). */
export const conversionsArea: Area<Conversions, Kit> = {
  key: 'conversions',
  testValues: conversionsTestValues,
  outcomes: {
    list: () => [
      { id: 'conversion.success', label: 'converted' },
      { id: 'conversion.rate-not-found', label: 'refused: the rate reference expired or is unknown' },
      { id: 'conversion.rate-used', label: 'refused: the rate reference was already used' },
    ],
    *met(s, ns, seen) {
      for (const c of s.store.col<{ reference: string }>(ns, CONVERSIONS).values()) yield ['conversion.success', c.reference]
      yield* refusalsMet(seen, BASE, { 'conversion.rate-not-found': CONVERSION_MSG.RATE_NOT_FOUND, 'conversion.rate-used': CONVERSION_MSG.USED_RATE })
    },
  },
  tags: { conversions: "Rate conversions between the merchant's balances: a quote at the pack's rate, the conversion, one by reference and the history" },
  // what a conversion brings into a currency is taken in, as a funding is
  ledger: { [CONVERSION]: { describe: (ref, e) => CONVERSION_MSG.entry(ref, e.direction, e.currency), intake: true } },
  collections: [QUOTES_SPEC, CONVERSIONS_SPEC],
  build: (kit) => ({ conversions: new ConversionService(kit) }),
  routes: [
    {
      method: 'post', path: `${BASE}/rates`, access: 'secret key', tag: 'conversions', operationId: 'quoteConversionRate', summary: "A rate for a pair at the pack's rates, good for 25 s on the namespace clock (message `Conversion rate retrieved successfully`)",
      body: { name: 'ConversionRateRequest', schema: quoteSchema }, answer: { name: 'ConversionRate', schema: quoteAnswerSchema },
      handler: async (c, { conversions }) => ok(c, CONVERSION_MSG.QUOTED, conversions.quote(c.get('ns'), validate(quoteSchema, await readJsonObject(c)))),
    },
    ...slashed,
    {
      method: 'get', path: `${BASE}/:reference`, access: 'secret key', tag: 'conversions', operationId: 'getConversion', summary: 'One conversion by its reference (message `Conversion retrieved successfully`, code `AA000`)',
      answer: { name: 'ConversionDetail', schema: conversionAnswerSchema },
      handler: (c, { conversions }) => ok(c, CONVERSION_MSG.RETRIEVED, conversions.get(c.get('ns'), c.req.param('reference')!), { code: RETRIEVED_CODE }),
    },
  ],
}

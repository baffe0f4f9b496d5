import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { quickCardCharge } from '../src/cards/quick-input.js'
import { cardChargeSchema, preauthChargeSchema } from '../src/cards/schemas.js'
import { maskCardPayload, maskSecrets } from '../src/http/mask.js'

/**
 * The card charge's quick path (src/cards/quick-input.ts) against zod and the generic masker: on
 * payloads near the valid shape, whatever the quick path takes zod takes too, with the same
 * output (key order included), and the quick masker journals it exactly as `maskSecrets` does.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000)

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max })
const text = (max: number) => fc.string({ maxLength: max })
/** strings around a length limit */
const around = (limit: number) => fc.integer({ min: limit - 2, max: limit + 2 }).map((n) => 'a'.repeat(n))
/** mostly a good value, now and then a bad one */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: bad, weight: 1 })
/** sometimes absent (undefined is dropped by JSON) */
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 })
/** mostly absent */
const rarely = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 7 }, { arbitrary: arb, weight: 1 })
/** a value of the wrong type for any field */
const wrong = fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.constant([]), fc.constant({}), fc.constant('NGN'))
/** card numbers that pass Luhn, where a PAN may hide in free text */
const PANS = ['4084127883172787', '5188513618552975', '5060990580000217499']
const freeText = (max: number) => fc.oneof(text(max), around(max), fc.constantFrom(...PANS, `card ${PANS[0]} here`, '4084-1278-8317-2787'))

const card = fc.record(
  {
    name: maybe(mostly(freeText(100), wrong)),
    number: mostly(fc.constantFrom(...PANS, '4084127883172788'), fc.oneof(digits(10, 21), fc.constant('4084 1278 8317 2787'), wrong)),
    cvv: mostly(digits(3, 4), fc.oneof(digits(0, 6), wrong)),
    expiry_month: mostly(fc.constantFrom('01', '09', '12'), fc.oneof(fc.constantFrom('00', '13', '1', '001', ' 09'), wrong)),
    expiry_year: mostly(fc.oneof(digits(2, 2), digits(4, 4)), fc.oneof(digits(0, 5), wrong)),
    pin: maybe(mostly(digits(4, 4), fc.oneof(digits(3, 5), wrong))),
    extra: rarely(fc.oneof(fc.string(), wrong)),
  },
  { requiredKeys: ['number', 'cvv', 'expiry_month', 'expiry_year'] },
)

const emails = mostly(
  fc.oneof(fc.constantFrom('ada@example.com', 'a.b+c@x.co'), fc.stringMatching(/^[a-z0-9._+'-]{1,10}@[a-z0-9-]{1,8}\.[a-z]{2,4}$/)),
  fc.oneof(fc.constantFrom('.a@x.co', 'a@x', 'a..b@x.co', 'a@-x.co', `${'a'.repeat(250)}@x.co`, `${'a'.repeat(243)}@example.com`), fc.emailAddress(), text(20), wrong),
)

const metadata = mostly(
  fc.dictionary(fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1, maxKeys: 5 }),
  fc.oneof(
    fc.dictionary(fc.stringMatching(/^[A-Za-z0-9-]{1,22}$/), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 7 }),
    fc.dictionary(text(5), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    fc.constantFrom({ deep: [[[[[[[[[[[1]]]]]]]]]]] }, { ok: [[[[[[[[[1]]]]]]]]] }, { pan: PANS[0] }, {}),
    fc.array(fc.integer(), { maxLength: 2 }),
    wrong,
  ),
)

const payload = fc.record(
  {
    reference: mostly(fc.oneof(fc.constant('order-0001'), fc.stringMatching(/^ {0,2}[a-z0-9-]{6,12} {0,2}$/), around(100), fc.constant(`ref-${PANS[1]}`)), fc.oneof(text(110), wrong)),
    card: mostly(card, wrong),
    amount: mostly(
      fc.oneof(fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom(0.5, 10.25, 1e12)),
      fc.oneof(fc.integer({ min: -5, max: 0 }), fc.constantFrom(0, 10.255, 1e12 + 1, 1e21, -0, 0.1 + 0.2), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant('100'), wrong),
    ),
    currency: mostly(fc.constant('NGN'), fc.oneof(fc.constantFrom('ngn', 'USD'), wrong)),
    redirect_url: maybe(mostly(fc.oneof(fc.constantFrom('https://shop.example/done', 'http://127.0.0.1:3000/x?y=1'), fc.webUrl()), fc.oneof(fc.constantFrom('ftp://x.example/', 'not a url', `https://x.example/${'a'.repeat(2030)}`), wrong))),
    customer: mostly(fc.record({ email: emails, name: maybe(mostly(freeText(100), wrong)), extra: rarely(fc.string()) }, { requiredKeys: ['email'] }), wrong),
    metadata: maybe(metadata),
    dynamic_descriptor: maybe(mostly(fc.stringMatching(/^[A-Z0-9]{1,10}$/), fc.oneof(fc.constantFrom('ABCDEFGHIJK', 'shop', ''), wrong))),
    description: maybe(mostly(freeText(255), wrong)),
    extra: rarely(fc.oneof(fc.string(), wrong)),
  },
  { requiredKeys: ['reference', 'card', 'amount', 'currency', 'customer'] },
)

/** Drops undefined fields (a JSON body has none) and, now and then, adds an own `__proto__` key. */
const asParsedJson = (p: Record<string, unknown>, proto: boolean) => {
  const json = JSON.stringify(p)
  return JSON.parse(proto ? json.replace(/^\{/, '{"__proto__":{"x":1},') : json) as Record<string, unknown>
}

describe('the card charge quick path', () => {
  for (const [name, schema, allowZero] of [
    ['charge', cardChargeSchema, false],
    ['pre-authorization', preauthChargeSchema, true],
  ] as const) {
    it(`takes only what zod takes for a ${name}, answers what zod answers and journals what maskSecrets journals`, () => {
      let taken = 0
      fc.assert(
        fc.property(payload, fc.nat(19), (raw, proto) => {
          const p = asParsedJson(raw, proto === 0)
          const quick = quickCardCharge(p, allowZero, false)
          if (quick === undefined) return
          taken++
          const zod = schema.safeParse(p)
          expect(zod.success).toBe(true)
          expect(JSON.stringify(quick)).toBe(JSON.stringify(zod.data))
          expect(quick).toStrictEqual(zod.data)
          expect(JSON.stringify(maskCardPayload(p))).toBe(JSON.stringify(maskSecrets(p)))
        }),
        { seed: 20261124, numRuns: RUNS },
      )
      // a check that never ran would prove nothing: a fair share of the cases must be taken
      expect(taken).toBeGreaterThan(RUNS / 10)
    })
  }

  it('takes the payloads SDKs send, with every optional field', () => {
    const full = {
      ...VALID,
      card: { name: 'Ada Obi', number: '5188513618552975', cvv: '1234', expiry_month: '12', expiry_year: '2030', pin: '1234' },
      redirect_url: 'https://shop.example/done',
      metadata: { order: 'A-1', 'cart-id': 7, tags: ['x', { y: 1 }] },
      dynamic_descriptor: 'SHOP1',
      description: 'two shirts',
    }
    for (const p of [VALID, full, { ...VALID, reference: '  order-0002  ' }]) {
      const quick = quickCardCharge(p, false, false)
      expect(quick).toStrictEqual(cardChargeSchema.parse(p))
      expect(maskCardPayload(p)).toStrictEqual(maskSecrets(p))
    }
    expect(JSON.stringify(maskCardPayload(full))).not.toContain('5188513618552975')
    expect(quickCardCharge({ ...VALID, amount: 0 }, false, false)).toBeUndefined()
    expect(quickCardCharge({ ...VALID, amount: 0 }, true, false)).toStrictEqual(preauthChargeSchema.parse({ ...VALID, amount: 0 }))
  })

  it('leaves to zod every payload it does not know, valid or not', () => {
    for (const p of [
      { ...VALID, extra: 1 },
      { ...VALID, card: { ...VALID.card, number: '4084 1278 8317 2787' } },
      { ...VALID, amount: '100' },
      { ...VALID, metadata: {} },
      { ...VALID, customer: { email: 'a@b.co', phone: '1' } },
    ]) {
      expect(quickCardCharge(p, false, false)).toBeUndefined()
    }
  })
})

const VALID = {
  reference: 'order-0001',
  card: { number: '4084127883172787', cvv: '123', expiry_month: '09', expiry_year: '30' },
  amount: 1000,
  currency: 'NGN',
  customer: { email: 'ada@example.com', name: 'Ada Obi' },
}

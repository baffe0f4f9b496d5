import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../src/app.js'
import { AREAS } from '../src/areas.js'
import { ActionForm, Field } from '../src/checkout/page-views.js'
import { checkoutChannel, checkoutChannels } from '../src/engine/checkout-channel.js'
import type { Kit } from '../src/engine/kit.js'
import { ChargeLifecycle, requested, type LifecycleParts } from '../src/engine/lifecycle.js'
import { chargeKind, type ChargeBase } from '../src/engine/types.js'
import { resolveConfig } from '../src/config.js'
import { closeDeps, createDeps, type Deps } from '../src/deps.js'
import type { AnyArea, Area } from '../src/http/area.js'
import { pageId } from '../src/namespaces.js'
import type { Frozen } from '../src/store/frozen.js'
import { STRING } from '../src/store/validate.js'
import { z } from '../src/zod-messages.js'
import { makeSandbox, ref, SECRET } from './helpers/sandbox.js'

/**
 * Checkout channels are declared by the areas that serve them (docs/architecture.md, "Checkout"):
 * the checkout's own files name none, and a channel declared by a new area is offered on the page
 * and in the initialize call and paid through the control call, with no edit to src/checkout/.
 */

const CHECKOUT_DIR = join(import.meta.dirname, '..', 'src', 'checkout')

/** the ways a file names a channel: its name quoted, or a word made of it (`payCard`, `MobileMoneyCharge`, `bank_transfer`) */
function namings(kind: string): RegExp {
  const camel = kind.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('')
  const spaced = kind.includes('_') ? `|\\b${kind}\\b` : ''
  return new RegExp(`['"\`]${kind}['"\`]|${camel}|\\b${camel[0].toLowerCase()}${camel.slice(1)}\\b${spaced}`)
}

/** a file's code, its comments dropped (a comment may say "a declined card") */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')

describe('the checkout names no channel', () => {
  it('no file of src/checkout/ names a declared channel', () => {
    // the sandbox's own, and the one declared below
    const kinds = checkoutChannels().map((ch) => ch.kind)
    expect(kinds).toEqual(['card', 'bank_transfer', 'mobile_money', 'pay_with_bank', 'gift_card'])
    const found: string[] = []
    for (const file of readdirSync(CHECKOUT_DIR, { recursive: true }) as string[]) {
      if (!/\.tsx?$/.test(file)) continue
      const text = code(readFileSync(join(CHECKOUT_DIR, file), 'utf8'))
      for (const kind of kinds) {
        const m = namings(kind).exec(text)
        if (m) found.push(`${file}: ${m[0]}`)
      }
    }
    expect(found).toEqual([])
  })
})

/* A new area, declared here as one in src/ would be: a gift card paid with its code, one step to redeem it. */

interface GiftCardCharge extends ChargeBase {
  kind: 'gift_card'
  code: string
}

// its kind, declared to the engine as an area of src/ declares its own
declare module '../src/engine/types.js' {
  interface ChargeKinds { gift_card: { record: GiftCardCharge } }
}

class GiftCardService {
  readonly #charges: ChargeLifecycle<GiftCardCharge>

  constructor(kit: Pick<Kit, LifecycleParts>) {
    this.#charges = new ChargeLifecycle<GiftCardCharge>(kit, { kind: 'gift_card', prefix: 'GC', attempt: null, fees: 'card', succeeded: 'Gift card redeemed' })
  }

  start(ns: string, o: { reference: string; amount: number; currency: string; customer: { email: string; name?: string }; description: string | null; parent: string }, code: string): Frozen<GiftCardCharge> {
    const base = this.#charges.create(ns, requested({ ...o }, o.description, 'Awaiting redemption', `gift card ${code}`, o.parent))
    return this.#charges.save(ns, Object.assign(base, { kind: 'gift_card' as const, status: 'processing' as const, code }))
  }

  redeem(ns: string, tx: string, ok: boolean): Frozen<GiftCardCharge> {
    const c = this.#charges.col(ns).draft(tx) as GiftCardCharge
    if (ok) this.#charges.succeed(ns, c)
    else this.#charges.fail(ns, c, 'Gift card refused', 'redeem')
    return this.#charges.save(ns, c)
  }
}

const giftCardChannel = checkoutChannel<{ giftCards: GiftCardService }, GiftCardCharge, string>({
  kind: 'gift_card',
  place: 5,
  currencies: ['NGN'],
  labels: { gift_code: 'Gift card code' },
  read: (form) => form.need('gift_code', /^GC\d{4}$/, 'must be GC and 4 digits'),
  start: ({ giftCards }, ns, o, code) => giftCards.start(ns, o, code),
  steps: { redeem: () => true },
  step: ({ giftCards }, ns, a, _action, value) => giftCards.redeem(ns, a.transaction_reference, value === true),
  Form: ({ base, errors, echo }) => ActionForm({ base, action: 'gift_card', button: 'Pay', label: 'Pay with a gift card', children: Field({ name: 'gift_code', label: 'Gift card code', errors, echo }) }),
  Step: ({ base }) => ActionForm({ base, action: 'redeem', button: 'Redeem', label: 'Redeem the gift card' }),
  testValues: () => ({ note: 'Gift cards GC0000 to GC9999.', values: [{ value: 'GC1234', what: 'redeemed' }] }),
  payFields: { gift_code: z.string().optional() },
  payNote: 'A gift card: `gift_code`.',
  pay: (_s, _ns, input, want, drive) => {
    drive.start((input.gift_code as string | undefined) ?? 'GC0001')
    drive.step('redeem', want === 'success')
  },
})

const giftCardsArea: Area<{ giftCards: GiftCardService }, Kit> = {
  key: 'gift-cards',
  collections: [chargeKind('gift_card', { code: STRING })],
  build(kit) {
    const giftCards = new GiftCardService(kit)
    kit.kinds.declare<GiftCardCharge>({
      kind: 'gift_card',
      method: () => 'card',
      queryExtras: () => ({}),
      instrument: (c) => [`gift card ${c.code}`],
      attemptLine: (c) => `Gift card ${c.code}`,
    })
    return { giftCards }
  },
  routes: [],
}
void giftCardChannel

describe('a channel declared by a new area', () => {
  let deps: Deps | undefined
  afterEach(async () => {
    if (deps) await closeDeps(deps)
    deps = undefined
  })

  async function sandbox() {
    // the new area is listed before the checkout, as the channels' areas are (src/areas.ts)
    const at = AREAS.findIndex((a) => a.key === 'checkout')
    const areas = [...AREAS.slice(0, at), giftCardsArea, ...AREAS.slice(at)] as AnyArea[]
    deps = (await createDeps(resolveConfig({ port: 0 }, {}), Date.now(), areas)) as unknown as Deps
    const app = createApp(deps)
    const call = async (method: string, path: string, body?: unknown, form?: Record<string, string>) => {
      const res = await app.request(path, {
        method,
        headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
        body: form ? new URLSearchParams(form).toString() : body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await res.text()
      return { status: res.status, text, json: () => JSON.parse(text), location: res.headers.get('location') }
    }
    return call
  }

  it('is offered on the page with its form and test values, and the page pays by it', async () => {
    const call = await sandbox()
    const init = await call('POST', '/merchant/api/v1/charges/initialize', { reference: ref('gc'), amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' }, channels: ['gift_card', 'card'] })
    expect(init.status).toBe(200)
    const path = new URL(init.json().data.checkout_url).pathname.replace('/checkout/', `/checkout/${pageId(SECRET)}/`)
    const page = await call('GET', path)
    expect(page.text).toContain('>Gift card</a>')
    expect(page.text).toContain('name="gift_code"')
    expect(page.text).toContain('GC1234')
    // its own field's refusal, in its own words
    const refused = await call('POST', path, undefined, { action: 'gift_card', gift_code: 'nope' })
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('Gift card code must be GC and 4 digits')
    expect((await call('POST', path, undefined, { action: 'gift_card', gift_code: 'GC1234' })).status).toBe(303)
    expect((await call('GET', path)).text).toContain('value="redeem"')
    expect((await call('POST', path, undefined, { action: 'redeem' })).status).toBe(303)
    const query = await call('GET', `/merchant/api/v1/charges/${init.json().data.reference}`)
    expect(query.json().data).toMatchObject({ status: 'success', payment_attempts: [{ channel: 'gift_card', status: 'success' }] })
  })

  it('is paid through the control call, by its own script, and listed in the initialize call', async () => {
    const call = await sandbox()
    const reference = ref('gc')
    expect((await call('POST', '/merchant/api/v1/charges/initialize', { reference, amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' }, default_channel: 'gift_card' })).status).toBe(200)
    const failed = await call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'gift_card', outcome: 'failed', gift_code: 'GC0002' })
    expect(failed.status).toBe(200)
    expect(failed.json().data).toMatchObject({ status: 'processing', payment_attempts: [{ channel: 'gift_card', status: 'failed', message: 'Gift card refused' }] })
    const paid = await call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'gift_card' })
    expect(paid.json().data).toMatchObject({ status: 'success', payment_method: 'gift_card' })
    expect(paid.json().data.payment_attempts).toHaveLength(2)
    // a channel nobody declared is refused as before
    const unknown = await call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'cheque' })
    expect(unknown.status).toBe(422)
  })
})

describe("an attempt's end", () => {
  it('reaches the checkout once its call into the channel returned, not while the call is on the stack', async () => {
    const sb = await makeSandbox()
    try {
      const reference = ref('co')
      expect((await sb.call('POST', '/merchant/api/v1/charges/initialize', { reference, amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' } })).status).toBe(200)
      // heard beside the checkout when a declined card's attempt ends, inside the card service's call
      const atTheEnd: string[] = []
      sb.deps.attempts.on((ns, child) => atTheEnd.push(sb.deps.checkout.get(ns, child.parent!).history.at(-1)!.result))
      const res = await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'card', outcome: 'failed' })
      expect(res.body.data.payment_attempts).toMatchObject([{ status: 'failed' }])
      // the checkout had not been changed yet: its end was applied after the call returned
      expect(atTheEnd).toEqual(['checkout initialized'])
      expect(sb.deps.checkout.get(SECRET, reference).history.at(-1)!.result).toMatch(/^KPY-CA-\w+ failed: /)
    } finally {
      await sb.close()
    }
  })
})

import { isJsonObject, parseWithoutNullFields, readJsonObject, validate } from '../http/body.js'
import { noteRequest, type AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { clientOrigin } from '../http/origin.js'
import { ApiError, invalid } from '../errors.js'
import { FAILURE, MSG } from '../messages.js'
import { maskCardPayload, maskSecrets } from '../http/mask.js'
import { decryptChargeText } from './crypto.js'
import { CARD_MSG } from './messages.js'
import { validateWithMetadata } from '../engine/schemas.js'
import { quickCardCharge } from './quick-input.js'
import type { z } from 'zod'
import type { Context } from 'hono'
import { STEPPED_FIELDS, chargeKind } from '../engine/types.js'
import { CARD_OPS, CARD_OPS_SPEC, payinStatus, type CardCharge, type CardOperation } from './types.js'
import { EPOCH_MS, MINOR, STRING, STRINGS, maybe, shape } from '../store/validate.js'
import { PreauthService, type Written } from './preauth.js'
import {
  authorizeSchema,
  captureSchema,
  cardChargeSchema,
  chargeDataSchema,
  preauthChargeSchema,
  transactionReferenceSchema,
  voidSchema,
  type CardChargeInput,
} from './schemas.js'
import { CardService } from './service.js'
import { CAPTURE } from './capture-ledger.js'
import { pageRoutePaths } from '../engine/pages.js'
import { threeDsPage } from './three-ds.js'
import type { DecisionPage } from '../engine/decision-page.js'
import type { Area, AreaOutcomes } from '../http/area.js'
import type { Kit } from '../engine/kit.js'
import { allOutcomes, chargeOutcomes, chargesOf } from '../engine/outcomes.js'
// its checkout channel, declared beside it: the checkout offers it (src/engine/checkout-channel.ts)
import './checkout-channel.js'
import { cardSettings } from './settings.js'
import { cardsTestValues } from './test-values.js'

/** its kind of charge, declared to the engine (`ChargeKinds`, src/engine/types.ts) */
declare module '../engine/types.js' {
  interface ChargeKinds { card: { record: CardCharge; method: 'card'; attempt: 'card' } }
}

/** What each card operation's payload is checked with: zod's schema, and the quick path's one difference. */
const PAYLOAD: Record<CardCharge['operation'], { schema: z.ZodType<CardChargeInput>; allowZero: boolean }> = {
  charge: { schema: cardChargeSchema, allowZero: false },
  pre_authorization: { schema: preauthChargeSchema, allowZero: true },
}

/**
 * Decrypts `charge_data` with the namespace's key and validates it (docs/api.md 2.2, 5);
 * `underscores`: the namespace's pack takes `_` in metadata keys (docs/behaviour.md#scenario-packs).
 */
async function readChargeData(c: Context<AppEnv>, underscores: boolean, operation: CardCharge['operation'] = 'charge'): Promise<CardChargeInput> {
  const { schema, allowZero } = PAYLOAD[operation]
  const body = await readJsonObject(c)
  const chargeData = body.charge_data
  // the decrypted payload is a body of its own: null in its fields is left out as in any body
  const plain = typeof chargeData === 'string' && chargeData !== '' ? decryptChargeText(chargeData, c.get('nsMeta').encryption_key) : undefined
  const payload = plain === undefined ? undefined : parseWithoutNullFields(plain)
  if (payload === undefined) {
    // never journal charge_data itself: a client may send the card unencrypted by mistake (and
    // masking it first would scan a long hex string for card numbers on every charge)
    const others: Record<string, unknown> = {}
    for (const k of Object.keys(body)) if (k !== 'charge_data' || typeof body[k] !== 'string') others[k] = body[k]
    const journalBody = maskSecrets(others) as Record<string, unknown>
    if (typeof chargeData === 'string') journalBody.charge_data = '(not journaled)'
    noteRequest(c, journalBody, true)
    // missing, empty or not a string: its field error; otherwise it could not be decrypted
    validate(chargeDataSchema, body)
    // the collection's sample (2021, the only one): `code: null` and `data: {}` (docs/behaviour.md#card-charge-data)
    throw new ApiError(400, CARD_MSG.DECRYPT_FAILED, {}, undefined, null)
  }
  // the journal shows what was decrypted, masked; never the card itself
  const journalDecrypted = (masked: unknown) => noteRequest(c, { charge_data: '(encrypted)', decrypted: masked }, true)
  if (!isJsonObject(payload)) {
    journalDecrypted(maskSecrets(payload))
    throw invalid({ charge_data: CARD_MSG.NOT_AN_OBJECT })
  }
  // the usual payload is taken by the quick path; anything else, and every error, is zod's
  const quick = quickCardCharge(payload, allowZero, underscores)
  journalDecrypted(quick ? maskCardPayload(payload) : maskSecrets(payload))
  return quick ?? validateWithMetadata(schema, payload, underscores)
}

export interface CardServices {
  cards: CardService
  preauth: PreauthService
  threeDs: DecisionPage
}

/** a pre-authorization that holds answers its 2.5 record; anything else the 2.3 charge (an authorize's, with the OTP step's metadata) */
const answer = (s: CardServices, ns: string, charge: CardCharge, origin: () => string, asPlaced = false, authorized = false) =>
  charge.preauth && charge.status === 'success' ? s.preauth.preauthRecord(ns, charge, { asPlaced }) : authorized ? s.cards.authorizeData(charge, origin) : s.cards.responseData(charge, origin)

/**
 * The handler of a card operation (capture, void, the card refund): its body checked, the operation
 * done, and answered with the operation's message and its docs/api.md 3.2 record.
 */
export function cardOperation<I, S extends { preauth: PreauthService }>(schema: z.ZodType<I>, run: (s: S, ns: string, input: I) => Written) {
  return async (c: Context<AppEnv>, s: S) => {
    const ns = c.get('ns')
    const { op, parent } = run(s, ns, validate(schema, await readJsonObject(c)))
    return ok(c, op.response_message, s.preauth.opRecord(ns, op, parent))
  }
}

/**
 * What a pre-authorization's hold went through (docs/api.md 3.2, docs/behaviour.md#preauth): placed (or a
 * zero auth, released at once), captured in part or in full, a capture voided or refunded, the hold
 * voided or expired; met by the card charges' holds and their operations.
 */
const PREAUTH_OUTCOMES: AreaOutcomes<Kit> = {
  list: () => [
    { id: 'card.preauth.authorized', label: "a pre-authorization's hold placed" },
    { id: 'card.preauth.zero-auth', label: 'a zero auth: held and released at once' },
    { id: 'card.preauth.partially-captured', label: 'a capture of part of the hold' },
    { id: 'card.preauth.captured', label: 'the hold captured in full' },
    { id: 'card.preauth.capture-voided', label: 'a capture voided' },
    { id: 'card.preauth.refunded', label: 'a capture refunded' },
    { id: 'card.preauth.voided', label: 'the hold voided' },
    { id: 'card.preauth.expired', label: 'the hold expired' },
  ],
  *met(s, ns) {
    const ops = s.store.col<CardOperation>(ns, CARD_OPS)
    for (const c of chargesOf<CardCharge>(s.store, ns, 'card')) {
      const hold = c.preauth
      const ref = c.payment_reference
      if (!hold) continue
      if (hold.zero_auth) {
        yield ['card.preauth.zero-auth', ref]
        continue
      }
      yield ['card.preauth.authorized', ref]
      if (hold.state !== 'pre_authorized') yield [`card.preauth.${hold.state}`, ref]
      let captured = 0
      // a card refund is an operation; one through the refunds API counts on the hold
      let refunded = hold.refunded > 0
      for (const op of hold.operations.map((r) => ops.get(r))) {
        if (op?.charge_operation === 'capture') yield [(captured += op.amount) < c.amount ? 'card.preauth.partially-captured' : 'card.preauth.captured', ref]
        else if (op?.charge_operation === 'void_capture') yield ['card.preauth.capture-voided', ref]
        else if (op?.charge_operation === 'refund') refunded = true
      }
      if (refunded) yield ['card.preauth.refunded', ref]
    }
  },
}

const CARD = '/merchant/api/v1/charges/card'
const [THREE_DS, THREE_DS_BARE] = pageRoutePaths('/_sandbox/3ds/:tx')
const chargeData = { name: 'ChargeDataRequest', schema: chargeDataSchema }

/** Card charges, their steps, pre-authorization, capture and void (docs/api.md 2, 3), and the 3DS page. */
export const cardsArea: Area<CardServices, Kit> = {
  key: 'cards',
  settings: cardSettings,
  testValues: cardsTestValues,
  outcomes: allOutcomes<Kit>(chargeOutcomes('card', 'card', (s) => s.cards.values(), [{ step: '3DS', message: FAILURE.THREE_DS_DECLINED }]), PREAUTH_OUTCOMES),
  tags: { cards: 'Card charges, authorization steps, pre-authorization, capture, void and refund' },
  pages: { prefix: '/_sandbox/3ds/', replaysAsForm: true },
  ledger: { [CAPTURE]: { describe: (ref, e) => CARD_MSG.captureEntry(ref, e.why, e.of) } },
  collections: [
    CARD_OPS_SPEC,
    // what the card code reads of its charge: the card's summary, the hold of a pre-authorization
    chargeKind('card', {
      ...STEPPED_FIELDS,
      operation: STRING,
      card: shape({ card_type: STRING, first_six: STRING, last_four: STRING, expiry: STRING }),
      preauth: maybe(shape({ state: STRING, authorized: MINOR, captured: MINOR, refunded: MINOR, expires_at: EPOCH_MS, captures: STRINGS, operations: STRINGS })),
      refunded: maybe(MINOR),
      refunds: maybe(STRINGS),
    }, {
      // `card` is the card's summary (first six, last four)
      asWritten: ['card', 'preauth.receipt', 'preauth.captures', 'preauth.operations', 'refunds'],
      facts: { status: payinStatus },
    }),
  ],
  build(kit) {
    const { store, namespaces, kinds, config } = kit
    const preauth = new PreauthService(kit)
    const cards = new CardService(kit, { onPreauthorized: (ns, charge) => preauth.place(ns, charge) })
    kinds.declare<CardCharge>({
      kind: 'card',
      queryExtras: (ns, charge) => ({ card: charge.card, ...preauth.queryExtras(ns, charge) }),
      complete: (ns, tx, outcome, message) => cards.complete(ns, tx, outcome, message),
      // masked as first six****last four
      attemptLine: ({ card }) => CARD_MSG.attempt(card.card_type, card.last_four),
      instrument: ({ card }) => [`${card.card_type} ${card.first_six}****${card.last_four}`],
    })
    return { cards, preauth, threeDs: threeDsPage({ store, namespaces, cards, intercepted: config.interceptHosts }) }
  },
  routes: [
    {
      method: 'post', path: CARD, access: 'secret key', tag: 'cards', operationId: 'chargeCard', summary: 'Charge a card', body: chargeData,
      description: '`charge_data` is the card charge payload (`CardChargePayload`) as JSON, encrypted with AES-256-GCM under the namespace\'s 32-character encryption key: `hex(iv16):hex(ciphertext):hex(tag16)`.',
      extensions: { 'x-charge-data-schema': { name: 'CardChargePayload', schema: cardChargeSchema } },
      handler: async (c, s) => {
        const ns = c.get('ns')
        const input = await readChargeData(c, s.scenarios.forNs(ns).metadataUnderscores)
        const charge = s.cards.charge(ns, input)
        return ok(c, s.cards.envelopeMessage(charge), s.cards.responseData(charge, () => clientOrigin(c, s.config.interceptHosts)))
      },
    },
    {
      method: 'post', path: `${CARD}/pre-authorize`, access: 'secret key', tag: 'cards', operationId: 'preauthorizeCard', summary: 'Place a hold on a card', body: chargeData,
      description: '`charge_data` is `PreauthChargePayload` (the card charge payload, where `amount` may be 0), encrypted as for a charge.',
      extensions: { 'x-charge-data-schema': { name: 'PreauthChargePayload', schema: preauthChargeSchema } },
      handler: async (c, s) => {
        const ns = c.get('ns')
        const input = await readChargeData(c, s.scenarios.forNs(ns).metadataUnderscores, 'pre_authorization')
        const charge = s.cards.charge(ns, input, 'pre_authorization')
        return ok(c, s.cards.envelopeMessage(charge), answer(s, ns, charge, () => clientOrigin(c, s.config.interceptHosts), true))
      },
    },
    {
      method: 'post', path: `${CARD}/authorize`, access: 'secret key', tag: 'cards', operationId: 'authorizeCardCharge', step: true, summary: 'Answer the pending step of a card charge (PIN, OTP, AVS or phone)',
      body: { name: 'CardAuthorizeRequest', schema: authorizeSchema },
      handler: async (c, s) => {
        const input = validate(authorizeSchema, await readJsonObject(c))
        const ns = c.get('ns')
        const charge = s.cards.authorize(ns, input)
        return ok(c, s.cards.envelopeMessage(charge), answer(s, ns, charge, () => clientOrigin(c, s.config.interceptHosts), true, true))
      },
    },
    {
      method: 'post', path: `${CARD}/capture`, access: 'secret key', tag: 'cards', operationId: 'capturePreauthorization', summary: 'Capture from a pre-authorization',
      body: { name: 'CaptureRequest', schema: captureSchema },
      handler: cardOperation(captureSchema, (s, ns, input) => s.preauth.capture(ns, input)),
    },
    {
      method: 'post', path: `${CARD}/void`, access: 'secret key', tag: 'cards', operationId: 'voidCapture', summary: 'Void an unsettled capture or the authorization',
      body: { name: 'VoidRequest', schema: voidSchema },
      handler: cardOperation(voidSchema, (s, ns, input) => s.preauth.void(ns, input)),
    },
    {
      method: 'post', path: `${CARD}/resend-otp`, access: 'secret key', tag: 'cards', operationId: 'resendCardOtp', step: true, summary: 'Resend the OTP of a card charge',
      body: { name: 'TransactionReferenceRequest', schema: transactionReferenceSchema },
      handler: async (c, s) => {
        const { transaction_reference } = validate(transactionReferenceSchema, await readJsonObject(c))
        const charge = s.cards.resendOtp(c.get('ns'), transaction_reference)
        return ok(c, CARD_MSG.OTP_SENT, s.cards.resendData(charge))
      },
    },
    // the customer's 3DS page (docs/behaviour.md#card-3ds-page): no key; its namespace named, or the reference alone
    { method: 'get', path: THREE_DS, access: 'open', page: true, handler: (c, s) => s.threeDs.show(c) },
    { method: 'post', path: THREE_DS, access: 'open', page: true, handler: (c, s) => s.threeDs.decide(c) },
    { method: 'get', path: THREE_DS_BARE, access: 'open', page: true, handler: (c, s) => s.threeDs.show(c) },
    { method: 'post', path: THREE_DS_BARE, access: 'open', page: true, handler: (c, s) => s.threeDs.decide(c) },
  ],
}


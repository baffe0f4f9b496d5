import { Hono } from 'hono'
import { isJsonObject, readJsonObject, validate } from '../http/body.js'
import { noteRequest, type AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { ApiError, MSG } from '../errors.js'
import { maskCardPayload, maskSecrets } from '../http/mask.js'
import { decryptChargeData } from './crypto.js'
import { quickCardCharge } from './quick-input.js'
import type { z } from 'zod'
import type { CardCharge } from '../charges/types.js'
import type { PreauthService } from './preauth.js'
import {
  authorizeSchema,
  captureSchema,
  cardChargeSchema,
  chargeDataSchema,
  preauthChargeSchema,
  refundSchema,
  transactionReferenceSchema,
  voidSchema,
  type CardChargeInput,
} from './schemas.js'
import type { CardService } from './service.js'

/** What each card operation's payload is checked with: zod's schema, and the quick path's one difference. */
const PAYLOAD: Record<CardCharge['operation'], { schema: z.ZodType<CardChargeInput>; allowZero: boolean }> = {
  charge: { schema: cardChargeSchema, allowZero: false },
  pre_authorization: { schema: preauthChargeSchema, allowZero: true },
}

/** Decrypts `charge_data` with the namespace's key and validates it (docs/api.md 2.2, 5). */
export async function readChargeData(c: import('hono').Context<AppEnv>, operation: CardCharge['operation'] = 'charge'): Promise<CardChargeInput> {
  const { schema, allowZero } = PAYLOAD[operation]
  const body = await readJsonObject(c)
  const chargeData = body.charge_data
  const payload = typeof chargeData === 'string' && chargeData !== '' ? decryptChargeData(chargeData, c.get('nsMeta').encryption_key) : undefined
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
    throw new ApiError(400, MSG.DECRYPT_FAILED)
  }
  // the journal shows what was decrypted, masked; never the card itself
  const journalDecrypted = (masked: unknown) => noteRequest(c, { charge_data: '(encrypted)', decrypted: masked }, true)
  if (!isJsonObject(payload)) {
    journalDecrypted(maskSecrets(payload))
    throw new ApiError(400, MSG.INVALID_REQUEST, { charge_data: 'must decrypt to a JSON object' })
  }
  // the usual payload is taken by the quick path; anything else, and every error, is zod's
  const quick = quickCardCharge(payload, allowZero)
  journalDecrypted(quick ? maskCardPayload(payload) : maskSecrets(payload))
  return quick ?? validate(schema, payload)
}

export function cardRoutes(cards: CardService, preauth: PreauthService) {
  const app = new Hono<AppEnv>()
  const origin = (c: { req: { url: string } }) => originOf(c.req.url)
  /** a pre-authorization that holds answers its 2.5 record; anything else the 2.3 charge */
  const data = (ns: string, charge: CardCharge, url: string, asPlaced = false) =>
    charge.preauth && charge.status === 'success' ? preauth.preauthRecord(ns, charge, { asPlaced }) : cards.responseData(charge, originOf(url))

  app.post('/', async (c) => {
    const input = await readChargeData(c)
    const charge = cards.charge(c.get('ns'), input)
    return ok(c, cards.envelopeMessage(charge), cards.responseData(charge, origin(c)))
  })

  app.post('/pre-authorize', async (c) => {
    const input = await readChargeData(c, 'pre_authorization')
    const ns = c.get('ns')
    const charge = cards.charge(ns, input, 'pre_authorization')
    return ok(c, cards.envelopeMessage(charge), data(ns, charge, c.req.url, true))
  })

  app.post('/authorize', async (c) => {
    const input = validate(authorizeSchema, await readJsonObject(c))
    const ns = c.get('ns')
    const charge = cards.authorize(ns, input)
    return ok(c, cards.envelopeMessage(charge), data(ns, charge, c.req.url, true))
  })

  app.post('/capture', async (c) => {
    const ns = c.get('ns')
    const { op, parent } = preauth.capture(ns, validate(captureSchema, await readJsonObject(c)))
    return ok(c, op.response_message, preauth.opRecord(ns, op, parent))
  })

  app.post('/void', async (c) => {
    const ns = c.get('ns')
    const { op, parent } = preauth.void(ns, validate(voidSchema, await readJsonObject(c)))
    return ok(c, op.response_message, preauth.opRecord(ns, op, parent))
  })

  app.post('/refund', async (c) => {
    const ns = c.get('ns')
    const { op, parent } = preauth.refund(ns, validate(refundSchema, await readJsonObject(c)))
    return ok(c, op.response_message, preauth.opRecord(ns, op, parent))
  })

  app.post('/resend-otp', async (c) => {
    const { transaction_reference } = validate(transactionReferenceSchema, await readJsonObject(c))
    const charge = cards.resendOtp(c.get('ns'), transaction_reference)
    return ok(c, 'OTP resent successfully', cards.responseData(charge, origin(c)))
  })

  return app
}

/** `http://host:port` of an absolute URL, without parsing it whole. */
export function originOf(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2)
  return slash < 0 ? url : url.slice(0, slash)
}

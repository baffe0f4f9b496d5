import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * docs/behaviour.md#webhooks: `x-korapay-signature` is the hex HMAC-SHA256 of `JSON.stringify(data)` (the
 * event's `data` object, not the whole body), keyed with the merchant's secret key.
 */
export function signWebhook(data: unknown, secretKey: string): string {
  return createHmac('sha256', secretKey).update(JSON.stringify(data)).digest('hex')
}

/**
 * Checks a webhook signature the way a merchant's handler does.
 * `payload` is the raw body string or Buffer (`{event, data}`), or the parsed `data` object.
 * @example
 * app.post('/webhooks', express.raw({ type: '*\/*' }), (req, res) => {
 *   if (!verifyWebhookSignature(req.body, req.get('x-korapay-signature'), SECRET_KEY)) return res.sendStatus(401)
 *   res.sendStatus(200)
 * })
 */
export function verifyWebhookSignature(payload: string | Buffer | Record<string, unknown>, signature: string | undefined | null, secretKey: string): boolean {
  if (!signature || typeof signature !== 'string') return false
  let data: unknown = payload
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    try {
      const body = JSON.parse(payload.toString()) as { data?: unknown }
      data = body && typeof body === 'object' && 'data' in body ? body.data : body
    } catch {
      return false
    }
  }
  const expected = Buffer.from(signWebhook(data, secretKey), 'hex')
  const given = Buffer.from(signature.trim().toLowerCase(), 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { jsonOf } from '../files.js'

/**
 * docs/api.md 5.3: AES-256-GCM, key = the UTF-8 bytes of the 32-character encryption key, a fresh
 * 16-byte IV, output `<iv_hex>:<ciphertext_hex>:<auth_tag_hex>` in lowercase hex.
 */

const keyCache = new Map<string, Buffer>()

function keyBytes(encryptionKey: string): Buffer {
  let key = keyCache.get(encryptionKey)
  if (!key) {
    key = Buffer.from(encryptionKey, 'utf8')
    if (key.length !== 32) throw new Error('the encryption key must be 32 bytes of UTF-8 (AES-256)')
    // a handful of keys per process: keep their bytes
    if (keyCache.size < 1000) keyCache.set(encryptionKey, key)
  }
  return key
}

/** Hex to bytes, or undefined when it is not whole-byte hex (Buffer.from stops at the first bad digit). */
function hexBytes(hex: string): Buffer | undefined {
  if (hex.length % 2) return undefined
  const buf = Buffer.from(hex, 'hex')
  return buf.length * 2 === hex.length ? buf : undefined
}

/**
 * Encrypts a charge payload the way a merchant's SDK does.
 * @example
 * const charge_data = encryptChargeData({ reference: 'order-0001', card: {...}, amount: 1000, currency: 'NGN', customer: { email: 'a@b.co' } }, 'sandbox-encryption-key-012345678')
 */
export function encryptChargeData(payload: unknown, encryptionKey: string): string {
  const iv = randomBytes(16)
  const cipher = createCipheriv('aes-256-gcm', keyBytes(encryptionKey), iv)
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload)
  const ct = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()])
  return `${iv.toString('hex')}:${ct.toString('hex')}:${cipher.getAuthTag().toString('hex')}`
}

/**
 * Decrypts `charge_data` and parses its JSON. Returns `undefined` when it cannot be decrypted
 * (wrong key, bad format, bad tag) or does not hold JSON: the caller answers docs/api.md 5.4's error.
 */
export function decryptChargeData(chargeData: string, encryptionKey: string): unknown {
  const text = decryptChargeText(chargeData, encryptionKey)
  return text === undefined ? undefined : jsonOf(text)
}

/** Decrypts to the plaintext string, or `undefined`. */
export function decryptChargeText(chargeData: string, encryptionKey: string): string | undefined {
  if (typeof chargeData !== 'string') return undefined
  const parts = chargeData.split(':')
  if (parts.length !== 3) return undefined
  const [ivHex, ctHex, tagHex] = parts
  if (ivHex.length !== 32 || tagHex.length !== 32 || ctHex.length === 0) return undefined
  const iv = hexBytes(ivHex)
  const ct = hexBytes(ctHex)
  const tag = hexBytes(tagHex)
  if (!iv || !ct || !tag) return undefined
  let key: Buffer
  try {
    key = keyBytes(encryptionKey)
  } catch {
    return undefined
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 })
    decipher.setAuthTag(tag)
    const plain = decipher.update(ct)
    // final() checks the tag (it throws on a bad one) and, GCM being a stream mode, adds no
    // bytes: the text is decoded once, without the StringDecoder an 'utf8' update() sets up
    decipher.final()
    return plain.toString('utf8')
  } catch {
    return undefined
  }
}

import { KEY_SHAPE } from '../../config-options.js'
import { ApiError } from '../../errors.js'
import { MSG } from '../../messages.js'
import { NamespaceLimitError, type Namespaces } from '../../namespaces.js'
import { header } from '../context.js'
import type { Middleware } from './chain.js'

/** The secret key of an Authorization header, or null. */
export function bearerKey(h: string | undefined): string | null {
  if (!h) return null
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(h)
  return m ? m[1] : null
}

/**
 * What a refused key's 401 says in `data.hint` (docs/behaviour.md#key-on-every-call), in words a person reads:
 * which of the common mistakes the header shows. The message stays api.md's; the refusal is the
 * same whatever the hint.
 */
export function keyHint(auth: string | undefined, { publicKeys = false, strictKeys = false } = {}): string {
  const send = 'send the header Authorization: Bearer sk_test_... (the secret key the start printed; sk_test_sandbox by default)'
  if (auth === undefined || !auth.trim()) return `No Authorization header: ${send}.`
  const bare = auth.trim()
  const key = bearerKey(auth)
  if (key === null) {
    if (/^(sk|pk)_(test|live)_\S*$/.test(bare)) return `The Authorization header has the key without the "Bearer " prefix before it: send ${bare.startsWith('sk_test_') ? `Authorization: Bearer ${bare}.` : 'Authorization: Bearer and the test secret key (sk_test_...).'}`
    // a scheme is named only when it reads as one (Basic, Token, AWS4-HMAC-SHA256): a key written before other text is never echoed
    const scheme = /^([A-Za-z][A-Za-z0-9-]{0,19})\s/.exec(bare)?.[1]
    if (scheme && !/^bearer$/i.test(scheme)) return `The Authorization header uses the "${scheme}" scheme: the sandbox takes only Bearer; ${send}.`
    return `The Authorization header is not "Bearer" and one key: ${send}.`
  }
  if (key.startsWith('sk_live_')) return 'A live secret key: the sandbox never takes live keys; use a test secret key, sk_test_... (sk_test_sandbox by default).'
  if (key.startsWith('pk_live_')) return 'A live public key: the sandbox never takes live keys, and this call needs a secret key; use a test secret key, sk_test_... (sk_test_sandbox by default).'
  if (key.startsWith('pk_test_')) return publicKeys ? 'No merchant has this public key: use its test secret key (sk_test_...) or the public key the start printed.' : 'A public key where a secret key is needed: this call takes the secret key (sk_test_..., the one the start printed beside this public key).'
  if (!KEY_SHAPE.test(key)) return `Not a test secret key: the sandbox takes sk_test_ followed by 1 to 200 letters, digits, _ or - (sk_test_sandbox by default).${/^["'<]/.test(key) ? ' The key is sent without quotes or brackets around it.' : ''}`
  if (strictKeys) return 'Not a configured key: with --strict-keys the sandbox takes only the keys it was started with (--secret-key, the merchants file).'
  return `Not a key the sandbox takes: ${send}.`
}

export interface SecretKeyOptions {
  namespaces: Namespaces
  /** only keys of configured merchants are accepted */
  strictKeys: boolean
  /** the look-ups (docs/behaviour.md#look-ups): a public test key is taken for its secret key's namespace */
  publicKeys?: boolean
}

/**
 * docs/behaviour.md#keys-and-namespaces: every merchant, identity and control call carries `Bearer sk_test_...`; the key
 * is the namespace. Sets `ns` and `nsMeta`, or refuses with 401 (or the namespace limit's 403).
 * With `publicKeys` (the look-ups' chain only, docs/behaviour.md#look-ups) a public test key is taken
 * for its secret key's namespace.
 */
export function secretKey({ namespaces, strictKeys, publicKeys = false }: SecretKeyOptions): Middleware {
  /** Authorization headers already checked, so a repeat caller costs one Map lookup. */
  const known = new Map<string, string>()
  // a refusal's hint is worked out only when a key is refused: a known key costs nothing more
  const refuse = (auth: string | undefined, message: string) => new ApiError(401, message, { hint: keyHint(auth, { publicKeys, strictKeys }) })
  return (c, next) => {
    const auth = header(c, 'authorization')
    let key = auth === undefined ? undefined : known.get(auth)
    if (key === undefined) {
      key = bearerKey(auth) ?? undefined
      if (!key) throw refuse(auth, MSG.INVALID_KEY)
      if (key.startsWith('sk_live_') || (publicKeys && key.startsWith('pk_live_'))) throw refuse(auth, MSG.LIVE_KEY)
      if (publicKeys && !KEY_SHAPE.test(key)) key = namespaces.publicKeyNamespace(key) ?? undefined
      if (!key || !KEY_SHAPE.test(key)) throw refuse(auth, MSG.INVALID_KEY)
      if (known.size < 10_000) known.set(auth!, key)
    }
    if (strictKeys && !namespaces.isConfigured(key)) throw refuse(auth, MSG.INVALID_KEY)
    try {
      c.set('nsMeta', namespaces.resolve(key))
    } catch (e) {
      if (e instanceof NamespaceLimitError) throw new ApiError(403, MSG.namespaceLimit(e.message))
      throw e
    }
    c.set('ns', key)
    return next()
  }
}

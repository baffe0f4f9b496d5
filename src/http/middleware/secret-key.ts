import { KEY_SHAPE } from '../../config-options.js'
import { ApiError, MSG } from '../../errors.js'
import { NamespaceLimitError, type Namespaces } from '../../namespaces.js'
import { header } from '../context.js'
import type { Middleware } from './chain.js'

/** The secret key of an Authorization header, or null. */
function bearerKey(h: string | undefined): string | null {
  if (!h) return null
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(h)
  return m ? m[1] : null
}

export interface SecretKeyOptions {
  namespaces: Namespaces
  /** only keys of configured merchants are accepted */
  strictKeys: boolean
  /** the look-ups (docs/behaviour.md 13.5): a public test key is taken for its secret key's namespace */
  publicKeys?: boolean
}

/**
 * docs/behaviour.md 1: every merchant, identity and control call carries `Bearer sk_test_...`; the key
 * is the namespace. Sets `ns` and `nsMeta`, or refuses with 401 (or the namespace limit's 403).
 * With `publicKeys` (the look-ups' chain only, docs/behaviour.md 13.5) a public test key is taken
 * for its secret key's namespace.
 */
export function secretKey({ namespaces, strictKeys, publicKeys = false }: SecretKeyOptions): Middleware {
  /** Authorization headers already checked, so a repeat caller costs one Map lookup. */
  const known = new Map<string, string>()
  return (c, next) => {
    const auth = header(c, 'authorization')
    let key = auth === undefined ? undefined : known.get(auth)
    if (key === undefined) {
      key = bearerKey(auth) ?? undefined
      if (!key) throw new ApiError(401, MSG.INVALID_KEY)
      if (key.startsWith('sk_live_') || (publicKeys && key.startsWith('pk_live_'))) throw new ApiError(401, MSG.LIVE_KEY)
      if (publicKeys && !KEY_SHAPE.test(key)) key = namespaces.publicKeyNamespace(key) ?? undefined
      if (!key || !KEY_SHAPE.test(key)) throw new ApiError(401, MSG.INVALID_KEY)
      if (known.size < 10_000) known.set(auth!, key)
    }
    if (strictKeys && !namespaces.isConfigured(key)) throw new ApiError(401, MSG.INVALID_KEY)
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

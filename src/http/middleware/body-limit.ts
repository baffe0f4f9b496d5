import { tooLarge } from '../../errors.js'
import { readBodyFirst } from '../body.js'
import { header } from '../context.js'
import type { Middleware } from './chain.js'

export interface BodyLimitOptions {
  /** the most bytes a request body may have */
  maxSize: number
  /** paths allowed a larger body (the identity calls, which carry selfies; a snapshot), the first that matches */
  larger?: readonly { path: RegExp; maxSize: number }[]
}

/**
 * Body limits (docs/behaviour.md#limits), for every route and customer page alike: 413 with the
 * envelope (a page on a customer page). A declared Content-Length over the limit is refused at
 * once; a body of unknown length (chunked) is read here, its bytes counted as they arrive
 * (`readBodyFirst`, body.ts), before the middleware after this one and the handler look at the
 * request: a body past the limit costs no key check and no look-up, and never more memory than
 * the limit.
 */
export function bodyLimit({ maxSize, larger }: BodyLimitOptions): Middleware {
  return (c, next) => {
    const limit = larger?.find((l) => l.path.test(c.req.path))?.maxSize ?? maxSize
    c.set('bodyLimit', limit)
    const declared = header(c, 'content-length')
    if (declared && Number(declared) > limit) throw tooLarge(limit)
    const reading = readBodyFirst(c)
    return reading ? reading.then(next) : next()
  }
}

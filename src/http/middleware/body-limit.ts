import { tooLarge } from '../../errors.js'
import { header } from '../context.js'
import type { Middleware } from './chain.js'

export interface BodyLimitOptions {
  /** the most bytes a request body may have */
  maxSize: number
  /** paths allowed a larger body (the identity calls, which carry selfies; a snapshot), the first that matches */
  larger?: readonly { path: RegExp; maxSize: number }[]
}

/**
 * Body limits (docs/behaviour.md 2): 413 with the envelope. A declared Content-Length over the limit is
 * refused at once; otherwise readBodyText (body.ts) counts the bytes as they arrive.
 */
export function bodyLimit({ maxSize, larger }: BodyLimitOptions): Middleware {
  return (c, next) => {
    const limit = larger?.find((l) => l.path.test(c.req.path))?.maxSize ?? maxSize
    c.set('bodyLimit', limit)
    const declared = header(c, 'content-length')
    if (declared && Number(declared) > limit) throw tooLarge(limit)
    return next()
  }
}

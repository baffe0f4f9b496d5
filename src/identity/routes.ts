import { Hono } from 'hono'
import { readJsonObject, validate } from '../http/body.js'
import { noteRequest, type AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { badRequest } from '../errors.js'
import { CONSENT_REQUIRED, ID_TYPES, identityRequestSchema, type IdType } from './schemas.js'
import type { IdentityService } from './service.js'

/** POST /api/v1/identities/{gh/passport, ng/bvn, ng/vnin} (docs/api.md 4.4). */
export function identityRoutes(identity: IdentityService) {
  const app = new Hono<AppEnv>()
  for (const [type, spec] of Object.entries(ID_TYPES) as [IdType, (typeof ID_TYPES)[IdType]][]) {
    app.post(`/${spec.path}`, async (c) => {
      const body = await readJsonObject(c)
      // keep the journal light: a selfie is kept as its size, not its bytes
      const v = body.validation as Record<string, unknown> | undefined
      if (v && typeof v === 'object' && typeof v.selfie === 'string') {
        noteRequest(c, { ...body, validation: { ...v, selfie: `(${v.selfie.length} characters)` } })
      }
      // no consent, no check: this refusal comes before any other
      if (body.verification_consent !== true) throw badRequest(CONSENT_REQUIRED, { verification_consent: 'must be true' })
      const input = validate(identityRequestSchema, body)
      const { message, data } = identity.verify(c.get('ns'), type, input)
      return ok(c, message, data)
    })
  }
  return app
}

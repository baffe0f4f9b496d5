import type { Kit } from '../charges/kit.js'
import type { Area, Route } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { noteRequest } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { badRequest } from '../errors.js'
import { CONSENT_REQUIRED, ID_TYPES, identityRequestSchema, type IdType } from './schemas.js'
import { CHECKS_SPEC, IdentityService } from './service.js'

type Identity = { identity: IdentityService }

/** POST /api/v1/identities/{gh/passport, ng/bvn, ng/vnin} (docs/api.md 4.4), with and without the /merchant prefix. */
const routes = ([['', ''], ['/merchant', 'Merchant']] as const).flatMap(([prefix, suffix]) =>
  (Object.entries(ID_TYPES) as [IdType, (typeof ID_TYPES)[IdType]][]).map(([type, spec]): Route<Identity> => ({
    method: 'post', path: `${prefix}/api/v1/identities/${spec.path}`, access: 'secret key', tag: 'identity',
    operationId: `verify${type.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('')}${suffix}`,
    summary: `Verify a ${type.replace('_', ' ').toUpperCase()}: lookup, data matching, or facial matching with a selfie`, body: { name: 'IdentityRequest', schema: identityRequestSchema },
    description: '`verification_consent` must be `true`: without it the call is refused before any other check.',
    handler: async (c, { identity }) => {
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
    },
  })),
)

/** Identity verification (docs/api.md 4.4): a larger body limit, for selfies (src/app.ts). */
export const identityArea: Area<Identity, Kit> = {
  key: 'identity',
  collections: [CHECKS_SPEC],
  build: ({ store, clocks, random, scenarios, namespaces }) => ({ identity: new IdentityService(store, clocks, random, scenarios, namespaces) }),
  routes,
}

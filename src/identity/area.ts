import type { Kit } from '../engine/kit.js'
import type { Area, Route } from '../http/area.js'
import { readBodyText, readJsonObject, validate } from '../http/body.js'
import { noteRequest } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { clientOrigin } from '../http/origin.js'
import { badRequest } from '../errors.js'
import { identityBankLists, identityDocuments } from '../scenario/documents.js'
import { z } from '../zod-messages.js'
import { IDENTITY_MSG } from './messages.js'
import { historySchema, identityRequestSchema, parseIdentityRequest } from './schemas.js'
import { CHECKS, CHECKS_SPEC, IdentityService, type IdentityCheck } from './service.js'
import { distinct, slug } from '../engine/outcomes.js'
import { identityPanel } from './panel.js'
import { identityTestValues } from './test-values.js'

type Identity = { identity: IdentityService }

/** Both prefixes: api.md names `/api/v1/identities/...`, the live documentation `/merchant/api/v1/...` (docs/behaviour.md#identity-calls-and-modes). */
const PREFIXES = [['', ''], ['/merchant', 'Merchant']] as const
const camel = (s: string) => s.split(/[_-]/).map((w) => w[0].toUpperCase() + w.slice(1)).join('')

/** POST /identities/<country>/<document>: one route per path of each document of fixtures/identity-documents.json (docs/behaviour.md#identity-calls-and-modes). */
const verifyRoutes = PREFIXES.flatMap(([prefix, suffix]) =>
  [...identityDocuments().values()].flatMap((doc) => [doc.path, ...doc.other_paths].map((path): Route<Identity> => ({
    method: 'post', path: `${prefix}/api/v1/identities/${path}`, access: 'secret key', tag: 'identity',
    operationId: `verify${camel(doc.type)}${path === doc.path ? '' : `Via${camel(path.slice(3))}`}${suffix}`,
    summary: `Verify a ${doc.name} (\`${doc.type}\`): ${doc.selfie ? 'lookup, data matching, or facial matching with a selfie' : doc.validation.length ? 'lookup or data matching' : 'lookup'} (message \`${doc.message}\`)`,
    body: { name: 'IdentityRequest', schema: identityRequestSchema },
    description:
      '`verification_consent` must be `true`: without it the call is refused before any other check.' +
      (doc.validation.length ? ` \`validation\` compares ${doc.validation.join(', ')}.` : ' `validation` is not taken.') +
      (doc.banks ? ` \`bank_code\` is required: a code of \`GET identities/${doc.country}/banks?type=${doc.banks.list}\` (${doc.banks.banks.map((b) => b.code).join(', ')}); another finds nothing.` : '') +
      Object.entries(doc.takes).map(([f, t]) => ` \`${f}\` may be ${t.one_of.map((v) => `\`${v}\``).join(' or ')}.`).join('') +
      (path !== doc.path ? ` Another spelling of \`identities/${doc.path}\`, as a source writes it.` : doc.path_shown ? '' : ' The live documentation does not show this path: it follows the documented pattern.'),
    handler: async (c, { identity }) => {
      const body = await readJsonObject(c)
      // keep the journal light: a selfie is kept as its size, not its bytes
      const v = body.validation as Record<string, unknown> | undefined
      if (v && typeof v === 'object' && typeof v.selfie === 'string') {
        noteRequest(c, { ...body, validation: { ...v, selfie: `(${v.selfie.length} characters)` } })
      }
      // no consent, no check: this refusal comes before any other
      if (body.verification_consent !== true) throw badRequest(IDENTITY_MSG.CONSENT_REQUIRED, { verification_consent: IDENTITY_MSG.MUST_BE_TRUE })
      const { message, data } = identity.verify(c.get('ns'), doc, parseIdentityRequest(doc, body))
      return ok(c, message, data)
    },
  }))),
)

/** GET /identities/<country>/banks?type=<list>: the banks a bank-account check takes (docs/behaviour.md#identity-bank-account-banks). */
const bankRoutes = PREFIXES.flatMap(([prefix, suffix]) =>
  [...new Set([...identityDocuments().values()].filter((d) => d.banks).map((d) => d.country))].map((country): Route<Identity> => {
    const lists = identityBankLists(country)
    const query = z.object({ type: z.string().pipe(z.enum([...lists.keys()] as [string, ...string[]])) })
    return {
      method: 'get', path: `${prefix}/api/v1/identities/${country}/banks`, access: 'secret key', tag: 'identity',
      operationId: `listIdentityBanks${camel(country)}${suffix}`, query,
      summary: `The banks of each bank-account look-up, by \`type\` (${[...lists.keys()].join(' or ')}, required) (message \`${IDENTITY_MSG.BANKS}\`)`,
      handler: (c) => ok(c, IDENTITY_MSG.BANKS, lists.get(validate(query, c.req.query()).type)!.map((b) => ({ ...b }))),
    }
  }),
)

/** The query of one check and the history (docs/behaviour.md#identity-query-and-history). */
const verificationRoutes = PREFIXES.flatMap(([prefix, suffix]): Route<Identity & Kit>[] => [
  {
    method: 'get', path: `${prefix}/api/v1/identities/verifications/:reference`, access: 'secret key', tag: 'identity',
    operationId: `getVerification${suffix}`, summary: `One identity check by its reference, found or not (message \`${IDENTITY_MSG.RETRIEVED}\`)`,
    handler: (c, { identity }) => ok(c, IDENTITY_MSG.RETRIEVED, identity.get(c.get('ns'), c.req.param('reference')!)),
  },
  {
    method: 'post', path: `${prefix}/api/v1/identities/verifications`, access: 'secret key', tag: 'identity',
    operationId: `listVerifications${suffix}`, summary: `The identity checks, newest first, by page, between two days (message \`${IDENTITY_MSG.HISTORY}\`)`,
    body: { name: 'VerificationHistoryRequest', schema: historySchema }, bodyRequired: false,
    handler: async (c, { identity, config }) => {
      // the body may be left out: the first page of every check; what it leaves out the query may give (the links name pages so)
      const body = (await readBodyText(c)).trim() ? await readJsonObject(c) : {}
      const q = validate(historySchema, { ...c.req.query(), ...body })
      const h = identity.history(c.get('ns'), q)
      const at = `${clientOrigin(c, config.interceptHosts)}${prefix}/api/v1/identities/verifications`
      const link = (rel: string, page: number) => ({ href: `${at}?limit=${q.limit}&page=${page}`, rel, method: 'POST' })
      return ok(c, IDENTITY_MSG.HISTORY, { ...h, links: [link('current', q.page), ...('next' in h.paging ? [link('next', q.page + 1)] : [])] })
    },
  },
])

/** The outcome of a check of a document, found or not. */
const checkOutcome = (type: string, found: boolean) => ({ id: `identity.${slug(type)}.${found ? 'found' : 'not-found'}`, label: `${type}: ${found ? 'found' : 'not found'}` })

/** Identity verification (docs/api.md 4.4; docs/behaviour.md#identity): a larger body limit, for selfies (src/app.ts). */
export const identityArea: Area<Identity, Kit> = {
  key: 'identity',
  testValues: identityTestValues,
  panels: [identityPanel],
  tags: { identity: 'Identity verification: every document of fixtures/identity-documents.json (Nigeria, Ghana, Kenya, South Africa), the banks of the bank-account look-ups, the query of one check and the history' },
  collections: [CHECKS_SPEC],
  // by document, found and not found as the packs' test IDs say (docs/behaviour.md#identity-checks)
  outcomes: {
    list: (scenarios) => distinct([...scenarios.identities.values()].filter((x) => !x.unavailable).map((x) => checkOutcome(x.type, x.found))),
    *met(s, ns) {
      for (const c of s.store.col<IdentityCheck>(ns, CHECKS).values()) yield [checkOutcome(c.id_type, c.found).id, c.reference]
    },
  },
  build: (kit) => ({ identity: new IdentityService(kit) }),
  routes: [...verifyRoutes, ...bankRoutes, ...verificationRoutes],
}

import { z } from 'zod'
import type { AnyArea, Documented, Named, Route } from './http/area.js'

/**
 * The OpenAPI 3.1 document of the merchant, identity and control API, served at
 * `GET /_sandbox/openapi.json`, derived from the areas' route tables (src/areas.ts): each route's
 * path, access, summary, and the very zod schemas its handler validates with, under their
 * component names. A route the app serves is in the document by construction. The 3DS page, the
 * hosted checkout page and the dashboard are HTML for a browser (`page: true`) and are left out.
 */

type Schema = Record<string, unknown>
type DocRoute = Route<unknown> & Documented

/** docs/api.md 2.1: every JSON answer, errors included. */
const envelopeSchema = z.object({
  status: z.boolean().describe('true when the call was accepted (whatever the payment\'s own status), false on an error'),
  message: z.string(),
  code: z.string().nullable().optional().describe('AA001 while a mobile-money authorization step is needed; AA021 beside a reused reference on bank transfers and pay with bank; null beside a card charge\'s decrypt refusal'),
  error: z.enum(['validation_error', 'conflict']).optional().describe('the kind of a refusal: validation_error (422) or a payout\'s conflict (409)'),
  data: z.unknown().describe("the call's record; on `Invalid request data` one `{message}` per bad field, keyed by its dotted path; often null on other errors"),
})
const healthSchema = envelopeSchema.extend({
  data: z.object({ version: z.string(), uptime_s: z.number().int() }),
})

/** zod -> JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), as the request is sent. */
function toSchema(schema: z.ZodType): Schema {
  // refinements (amounts, URLs, calendar dates) cannot be expressed: they come out as what zod gives
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Schema
  if (JSON.stringify(rest).includes('"#/$defs/')) throw new Error('openapi: a schema with $defs refs would not resolve inside the document')
  return rest
}

const json = (ref: string) => ({ 'application/json': { schema: { $ref: ref } } })
const envelopeResponse = (description: string) => ({ description, content: json('#/components/schemas/Envelope') })
/** the envelope whose `data` is the component `answer` */
const answerResponse = (description: string, answer: string) => ({
  description,
  content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { data: { $ref: `#/components/schemas/${answer}` } } }] } } },
})

function operation(route: DocRoute, version: string): Schema {
  const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }))
  if (route.query) {
    const q = toSchema(route.query) as { properties?: Record<string, Schema>; required?: string[] }
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      params.push({ name, in: 'query', required: q.required?.includes(name) ?? false, schema: schema as { type: string } })
    }
  }
  const op: Schema = {
    tags: [route.tag],
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(route.body
      ? { requestBody: { required: route.bodyRequired ?? true, content: json(`#/components/schemas/${route.body.name}`) } }
      : {}),
    ...Object.fromEntries(Object.entries(route.extensions ?? {}).map(([key, named]) => [key, { $ref: `#/components/schemas/${named.name}` }])),
  }
  if (route.operationId === 'openapi') {
    op.responses = { 200: { description: `This OpenAPI document (paysandbox ${version})`, content: { 'application/json': { schema: { type: 'object' } } } } }
  } else if (route.operationId === 'health') {
    op.responses = { 200: { description: 'Running', content: json('#/components/schemas/HealthEnvelope') } }
  } else {
    op.responses = {
      200: route.answer
        ? answerResponse('Accepted, whatever the payment\'s own status (success, failed, processing)', route.answer.name)
        : envelopeResponse('Accepted, whatever the payment\'s own status (success, failed, processing)'),
      400: { $ref: '#/components/responses/BadRequest' },
      422: { $ref: '#/components/responses/Invalid' },
      401: { $ref: '#/components/responses/Unauthorized' },
      403: { $ref: '#/components/responses/Forbidden' },
      ...(params.some((p) => p.in === 'path') ? { 404: { $ref: '#/components/responses/NotFound' } } : {}),
      ...(route.step ? { 409: { $ref: '#/components/responses/Conflict' } } : {}),
      ...(route.body ? { 413: { $ref: '#/components/responses/TooLarge' } } : {}),
    }
  }
  if (route.access === 'open') op.security = []
  if (route.access === 'public key') op.security = [{ bearerAuth: [] }, { publicKeyAuth: [] }]
  return op
}

/** Adds `named` to the components; one name is one schema. */
function component(schemas: Record<string, Schema>, seen: Map<string, z.ZodType>, named: Named, closed = false): void {
  const before = seen.get(named.name)
  if (before === named.schema) return
  if (before) throw new Error(`openapi: two schemas are named ${named.name}`)
  seen.set(named.name, named.schema)
  schemas[named.name] = closed ? { ...toSchema(named.schema), additionalProperties: false } : toSchema(named.schema)
}

function build(version: string, areas: readonly AnyArea[]): Schema {
  const paths: Record<string, Record<string, Schema>> = {}
  const schemas: Record<string, Schema> = {
    Envelope: toSchema(envelopeSchema),
    HealthEnvelope: toSchema(healthSchema),
  }
  const seen = new Map<string, z.ZodType>()
  // the tags each area declares, in the order of the areas; a tag no area declares is listed after them
  const tags: { name: string; description?: string }[] = areas.flatMap((area) => Object.entries(area.tags ?? {}).map(([name, description]) => ({ name, description })))
  for (const area of areas) {
    for (const route of area.routes as readonly Route<unknown>[]) {
      if ('page' in route) continue
      const path = route.path.replace(/:(\w+)/g, '{$1}')
      paths[path] ??= {}
      paths[path][route.method] = operation(route, version)
      if (route.body) component(schemas, seen, route.body.ofAreas ? { name: route.body.name, schema: route.body.ofAreas(areas) } : route.body, route.closed)
      for (const named of Object.values(route.extensions ?? {})) component(schemas, seen, named)
      if (route.answer) component(schemas, seen, route.answer)
      if (!tags.some((t) => t.name === route.tag)) tags.push({ name: route.tag })
    }
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'paysandbox',
      version,
      description:
        'A local sandbox of the payments, direct-debit and identity-verification API. Every answer is the envelope ' +
        '`{status, message, data}`. Any `sk_test_` key is accepted and owns its own namespace. Request schemas are ' +
        'generated from the zod schemas the sandbox validates with; rules written as code (amounts with at most 2 ' +
        'decimals, http(s) URLs, calendar dates, wallet prefixes) are enforced but not all expressible here.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:4010', description: 'sandbox start (default port)' }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A test secret key: `Authorization: Bearer sk_test_...`. Live keys (sk_live_) are refused.' },
        publicKeyAuth: { type: 'http', scheme: 'bearer', description: "The look-ups only: a test public key, `Authorization: Bearer pk_test_...`, standing for the secret key's namespace with the same suffix." },
      },
      schemas,
      responses: {
        BadRequest: envelopeResponse('A business-rule refusal'),
        Invalid: envelopeResponse('`Invalid request data`, `error: "validation_error"`: one `{message}` per bad field in `data`, keyed by its dotted path'),
        Unauthorized: envelopeResponse('Missing, unknown or live key; `data.hint` says which common mistake the header shows'),
        Forbidden: envelopeResponse('A control call from beyond loopback without the control token, or the namespace limit reached'),
        NotFound: envelopeResponse('Transaction, charge, authorization or route not found'),
        Conflict: envelopeResponse('`Payment has already been completed` or `Transaction has already been completed`: the payment has already finished (a checkout: `This checkout is no longer open for payment`; a virtual account: `Duplicate account reference`; a temporary account: `Account has expired`)'),
        TooLarge: envelopeResponse('Body over the limit (1 MiB; 4 MiB on the identity endpoints)'),
      },
    },
  }
}

const cache = new WeakMap<readonly AnyArea[], Map<string, Schema>>()

/** The OpenAPI 3.1 document of a list of areas (a sandbox's `areas`), built on first use and cached. */
export function buildOpenApi(version: string, areas: readonly AnyArea[]): Schema {
  let docs = cache.get(areas)
  if (!docs) cache.set(areas, (docs = new Map()))
  let doc = docs.get(version)
  if (!doc) {
    doc = build(version, areas)
    docs.set(version, doc)
  }
  return doc
}

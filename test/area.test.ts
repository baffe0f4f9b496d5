import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createApp } from '../src/app.js'
import { AREAS } from '../src/areas.js'
import type { Kit } from '../src/charges/kit.js'
import { resolveConfig } from '../src/config.js'
import { closeDeps, createDeps, type Deps } from '../src/deps.js'
import { MSG, conflict, notFound } from '../src/errors.js'
import type { Area } from '../src/http/area.js'
import { readJsonObject, validate } from '../src/http/body.js'
import { ok } from '../src/http/envelope.js'
import type { Clocks } from '../src/clock.js'
import type { CollectionSpec } from '../src/store/collection.js'
import type { Store } from '../src/store/store.js'
import { STRING } from '../src/store/validate.js'

/**
 * "Add an area" (docs/architecture.md), built from scratch: a folder's worth of code (a collection,
 * a service, a route table with a step) and one line in a list of areas, served by the real app.
 */

// the area's folder: src/tickets/service.ts ...
interface Ticket {
  reference: string
  status: 'open' | 'used'
  created_at: string
}
const TICKETS_SPEC: CollectionSpec<Ticket> = { name: 'tickets', fields: { reference: STRING, status: STRING, created_at: STRING } }

class TicketService {
  constructor(
    private readonly store: Store,
    private readonly clocks: Clocks,
  ) {}

  #col(ns: string) {
    return this.store.col<Ticket>(ns, TICKETS_SPEC.name)
  }

  open(ns: string, reference: string): Ticket {
    const ticket: Ticket = { reference, status: 'open', created_at: this.clocks.iso(ns) }
    this.#col(ns).put(reference, ticket)
    return ticket
  }

  /** a step: refused once the ticket is used */
  use(ns: string, reference: string): Ticket {
    const ticket = this.#col(ns).get(reference)
    if (!ticket) throw notFound(MSG.TRANSACTION_NOT_FOUND)
    if (ticket.status === 'used') throw conflict(MSG.TRANSACTION_COMPLETED)
    const used: Ticket = { ...ticket, status: 'used' }
    this.#col(ns).put(reference, used)
    return used
  }
}

// ... its schemas.ts ...
const openSchema = z.object({ reference: z.string().min(1) })
const ticketSchema = z.object({ reference: z.string(), status: z.enum(['open', 'used']), created_at: z.string() })

// ... and its area.ts
const ticketsArea: Area<{ tickets: TicketService }, Kit> = {
  key: 'tickets',
  collections: [TICKETS_SPEC],
  build: ({ store, clocks }) => ({ tickets: new TicketService(store, clocks) }),
  routes: [
    {
      method: 'post', path: '/merchant/api/v1/tickets', access: 'secret key', tag: 'tickets', operationId: 'openTicket', summary: 'Open a ticket',
      body: { name: 'OpenTicketRequest', schema: openSchema }, answer: { name: 'Ticket', schema: ticketSchema },
      handler: async (c, { tickets }) => ok(c, 'Ticket opened', tickets.open(c.get('ns'), validate(openSchema, await readJsonObject(c)).reference)),
    },
    {
      method: 'post', path: '/merchant/api/v1/tickets/:reference/use', access: 'secret key', tag: 'tickets', operationId: 'useTicket', summary: 'Use a ticket, once',
      answer: { name: 'Ticket', schema: ticketSchema }, step: true,
      handler: (c, { tickets }) => ok(c, 'Ticket used', tickets.use(c.get('ns'), c.req.param('reference')!)),
    },
  ],
}

// the one line: the shipped areas and this one
const areas = [...AREAS, ticketsArea] as const

let deps: Deps<typeof areas>
let app: ReturnType<typeof createApp>
const KEY = 'sk_test_tickets'
const call = async (method: string, path: string, body?: unknown, key: string | null = KEY) => {
  const res = await app.request(path, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: res.status, body: await res.json() }
}

beforeAll(async () => {
  deps = await createDeps(resolveConfig({ port: 0 }, {}), Date.now(), areas)
  app = createApp(deps)
})
afterAll(() => closeDeps(deps))

describe('an area added to the list', () => {
  it('is built with the others: its service joins the sandbox under its name, its collection opens with the store', () => {
    expect(deps.tickets).toBeInstanceOf(TicketService)
    expect(deps.cards).toBeDefined()
    expect(deps.store.col(KEY, 'tickets').size).toBe(0)
  })

  it('is served inside the chain of its access: a key is asked for, a body validated, a step refused once the ticket is used', async () => {
    expect(await call('POST', '/merchant/api/v1/tickets', { reference: 't-1' }, null)).toMatchObject({ status: 401, body: { status: false } })
    expect(await call('POST', '/merchant/api/v1/tickets', {})).toMatchObject({ status: 400, body: { message: MSG.INVALID_REQUEST, data: { reference: 'is required' } } })
    expect(await call('POST', '/merchant/api/v1/tickets', { reference: 't-1' })).toMatchObject({ status: 200, body: { status: true, message: 'Ticket opened', data: { reference: 't-1', status: 'open' } } })
    expect(await call('POST', '/merchant/api/v1/tickets/t-1/use')).toMatchObject({ status: 200, body: { data: { status: 'used' } } })
    expect(await call('POST', '/merchant/api/v1/tickets/t-1/use')).toMatchObject({ status: 409, body: { status: false, message: MSG.TRANSACTION_COMPLETED } })
    expect(await call('POST', '/merchant/api/v1/tickets/t-2/use')).toMatchObject({ status: 404 })
    // journaled as every merchant call is
    const journal = await call('GET', '/_sandbox/requests')
    expect(journal.body.data.map((e: { path: string }) => e.path)).toContain('/merchant/api/v1/tickets/t-1/use')
  })

  it('is in the OpenAPI document, its schemas as components and its step with 409', async () => {
    const doc = (await app.request('/_sandbox/openapi.json').then((r) => r.json())) as any
    expect(doc.paths['/merchant/api/v1/tickets'].post.operationId).toBe('openTicket')
    expect(doc.paths['/merchant/api/v1/tickets'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OpenTicketRequest' })
    expect(doc.components.schemas.Ticket.properties.status.enum).toEqual(['open', 'used'])
    expect(doc.paths['/merchant/api/v1/tickets/{reference}/use'].post.responses['409']).toEqual({ $ref: '#/components/responses/Conflict' })
    expect(doc.tags.at(-1)).toEqual({ name: 'tickets' })
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { html } from 'hono/html'
import { z } from 'zod'
import { createApp } from '../src/app.js'
import { AREAS } from '../src/areas.js'
import type { Kit } from '../src/engine/kit.js'
import type { Ledger } from '../src/engine/ledger.js'
import { resolveConfig } from '../src/config.js'
import { closeDeps, createDeps, type Deps } from '../src/deps.js'
import { conflict, notFound } from '../src/errors.js'
import { MSG } from '../src/messages.js'
import type { Area } from '../src/http/area.js'
import { readJsonObject, validate } from '../src/http/body.js'
import { ok } from '../src/http/envelope.js'
import type { Clocks } from '../src/clock.js'
import type { CollectionSpec } from '../src/store/collection.js'
import type { Frozen } from '../src/store/frozen.js'
import type { Store } from '../src/store/store.js'
import { STRING } from '../src/store/validate.js'

/**
 * "Add an area" (docs/architecture.md), built from scratch: a folder's worth of code (a collection,
 * a service, its messages, a route table with a step, an OpenAPI tag, a ledger source, a customer
 * page) and one line in a list of areas, served by the real app. Nothing outside the folder and
 * the line is edited: the document, the ledger and the pages' chain read the area's declaration.
 */

// the area's folder: src/tickets/messages.ts ...
const TICKET_MSG = {
  OPENED: 'Ticket opened',
  USED: 'Ticket used',
  /** how the balance history describes a ticket's entry */
  entry: (reference: string) => `Ticket ${reference} used`,
  page: (reference: string) => `Ticket ${reference}`,
}

// ... its service.ts ...
interface Ticket {
  reference: string
  status: 'open' | 'used'
  created_at: string
}
const TICKETS_SPEC: CollectionSpec<Ticket> = { name: 'tickets', fields: { reference: STRING, status: STRING, created_at: STRING } }
/** the ledger source a used ticket's credit is posted under */
const TICKET = 'ticket'
/** what a used ticket brings the merchant, in minor units */
const PRICE = { amount: 150_00, currency: 'NGN' }

class TicketService {
  constructor(
    private readonly store: Store,
    private readonly clocks: Clocks,
    private readonly ledger: Ledger,
  ) {}

  #col(ns: string) {
    return this.store.col<Ticket>(ns, TICKETS_SPEC.name)
  }

  open(ns: string, reference: string): Frozen<Ticket> {
    return this.#col(ns).put(reference, { reference, status: 'open', created_at: this.clocks.iso(ns) })
  }

  get(ns: string, reference: string): Frozen<Ticket> | undefined {
    return this.#col(ns).get(reference)
  }

  /** a step: refused once the ticket is used; its price is credited, available at once, in the same turn */
  use(ns: string, reference: string): Frozen<Ticket> {
    if (!this.#col(ns).has(reference)) throw notFound(MSG.TRANSACTION_NOT_FOUND)
    const used = this.#col(ns).update(reference, (t) => {
      if (t.status === 'used') throw conflict(MSG.TRANSACTION_COMPLETED)
      t.status = 'used'
    })
    const at = this.clocks.iso(ns)
    this.ledger.post(ns, TICKET, reference, { direction: 'credit', ...PRICE, available_at: at, created_at: at })
    return used
  }
}

// ... its schemas.ts ...
const openSchema = z.object({ reference: z.string().min(1) })
const ticketSchema = z.object({ reference: z.string(), status: z.enum(['open', 'used']), created_at: z.string() })

// ... and its area.ts
const ticketsArea: Area<{ tickets: TicketService }, Kit> = {
  key: 'tickets',
  tags: { tickets: 'Tickets: opened by the merchant, used once by the customer' },
  ledger: { [TICKET]: { describe: (reference) => TICKET_MSG.entry(reference) } },
  pages: { prefix: '/tickets/', replaysAsForm: true },
  collections: [TICKETS_SPEC],
  build: ({ store, clocks, ledger }) => ({ tickets: new TicketService(store, clocks, ledger) }),
  routes: [
    {
      method: 'post', path: '/merchant/api/v1/tickets', access: 'secret key', tag: 'tickets', operationId: 'openTicket', summary: 'Open a ticket',
      body: { name: 'OpenTicketRequest', schema: openSchema }, answer: { name: 'Ticket', schema: ticketSchema },
      handler: async (c, { tickets }) => ok(c, TICKET_MSG.OPENED, tickets.open(c.get('ns'), validate(openSchema, await readJsonObject(c)).reference)),
    },
    {
      method: 'post', path: '/merchant/api/v1/tickets/:reference/use', access: 'secret key', tag: 'tickets', operationId: 'useTicket', summary: 'Use a ticket, once',
      answer: { name: 'Ticket', schema: ticketSchema }, step: true,
      handler: (c, { tickets }) => ok(c, TICKET_MSG.USED, tickets.use(c.get('ns'), c.req.param('reference')!)),
    },
    {
      // the customer's page: the ticket by its reference in whichever namespace holds it (a test
      // area looks in the one namespace it is tried with)
      method: 'get', path: '/tickets/:reference', access: 'open', page: true,
      handler: (c, { tickets }) => {
        const reference = c.req.param('reference')!
        const ticket = tickets.get(KEY, reference)
        if (!ticket) throw notFound(MSG.TRANSACTION_NOT_FOUND)
        const title = TICKET_MSG.page(reference)
        return c.html(html`<!doctype html><title>${title}</title><h1>${title}: ${ticket.status}</h1>`)
      },
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
    expect(await call('POST', '/merchant/api/v1/tickets', {})).toMatchObject({ status: 422, body: { error: 'validation_error', message: MSG.INVALID_REQUEST, data: { reference: { message: 'reference is required' } } } })
    expect(await call('POST', '/merchant/api/v1/tickets', { reference: 't-1' })).toMatchObject({ status: 200, body: { status: true, message: TICKET_MSG.OPENED, data: { reference: 't-1', status: 'open' } } })
    expect(await call('POST', '/merchant/api/v1/tickets/t-1/use')).toMatchObject({ status: 200, body: { message: TICKET_MSG.USED, data: { status: 'used' } } })
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
    // its tag, with its description, after the shipped areas' (the order of the list)
    expect(doc.tags.at(-1)).toEqual({ name: 'tickets', description: ticketsArea.tags!.tickets })
  })

  it("posts to the one ledger under its own source: the balance history describes the entry as the area declares", async () => {
    const before = (await call('GET', '/merchant/api/v1/balances')).body.data.NGN.available_balance
    await call('POST', '/merchant/api/v1/tickets', { reference: 't-3' })
    await call('POST', '/merchant/api/v1/tickets/t-3/use')
    const history = await call('GET', '/merchant/api/v1/balances/history?currency=NGN')
    expect(history.body.data.history[0]).toMatchObject({ source: TICKET, source_reference: 't-3', description: TICKET_MSG.entry('t-3'), direction: 'credit', amount: '150.00' })
    expect((await call('GET', '/merchant/api/v1/balances')).body.data.NGN.available_balance).toBe(before + 150)
    // refused, it posts nothing
    await call('POST', '/merchant/api/v1/tickets/t-3/use')
    expect((await call('GET', '/merchant/api/v1/balances/history?currency=NGN')).body.data.history.filter((h: { source_reference: string }) => h.source_reference === 't-3')).toHaveLength(1)
  })

  it('is refused when the sandbox is built if its ledger source is another\'s, or its post names a source no area declares', async () => {
    const taken: Area<Record<string, never>, Kit> = { key: 'taken', ledger: { capture: { describe: () => 'x' } }, build: () => ({}), routes: [] }
    await expect(createDeps(resolveConfig({ port: 0 }, {}), Date.now(), [...AREAS, taken])).rejects.toThrow('ledger source "capture"')
    const at = deps.clocks.iso(KEY)
    expect(() => deps.ledger.post(KEY, 'nobody', 'x-1', { direction: 'credit', ...PRICE, available_at: at, created_at: at })).toThrow('no area declares the source "nobody"')
  })

  it('serves its page as a customer page: HTML, and refused in HTML, a path under it no route serves too', async () => {
    await call('POST', '/merchant/api/v1/tickets', { reference: 't-4' })
    const page = await app.request('/tickets/t-4')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain(`${TICKET_MSG.page('t-4')}: open`)
    for (const path of ['/tickets/t-none', '/tickets/t-4/nothing/here']) {
      const refused = await app.request(path)
      expect(refused.status).toBe(404)
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/)
    }
    expect(await (await app.request('/tickets/t-none')).text()).toContain(MSG.TRANSACTION_NOT_FOUND)
    // beside it, a path of no customer page is refused with the envelope
    expect((await app.request('/ticketsx/t-4')).headers.get('content-type')).toMatch(/^application\/json/)
  })
})

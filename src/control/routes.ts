import { Hono } from 'hono'
import type { ChargeBase, ChargeKind } from '../charges/types.js'
import { findCharge } from '../charges/routes.js'
import { requireProcessing } from '../charges/lifecycle.js'
import type { Deps } from '../deps.js'
import { readJsonObject, validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { MSG, badRequest, invalid, notFound } from '../errors.js'
import { PackError } from '../scenario/index.js'
import { journalToFlow } from '../flow/record.js'
import { advanceSchema, completeSchema, faultSchema, freezeSchema, eventsQuerySchema, requestsQuerySchema, webhookUrlSchema } from './schemas.js'

export type Completer = (ns: string, transactionReference: string, outcome: 'success' | 'failed', message?: string) => ChargeBase

/** Long polls are capped (docs/behaviour.md 9). */
const MAX_WAIT_MS = 30_000

function clockData(deps: Deps, ns: string) {
  // one reading: two could fall on either side of a millisecond
  const now = deps.clocks.now(ns)
  return {
    now: new Date(now).toISOString(),
    now_ms: now,
    offset_ms: deps.clocks.offset(ns),
    frozen: deps.clocks.frozenAt(ns) !== null,
    pending_timers: deps.clocks.pending(ns).map((t) => ({ id: t.id, kind: t.kind, due: new Date(t.due).toISOString() })),
  }
}

/** The control API (docs/behaviour.md 9), acting on the key's namespace. Health is mounted separately. */
export function controlRoutes(deps: Deps) {
  const app = new Hono<AppEnv>()
  const { cards, mobileMoney, directDebit, preauth, bankTransfer, checkout } = deps
  /** who finishes a processing charge of each kind (POST /charges/:reference/complete) */
  const completers: Record<ChargeKind, Completer> = {
    card: (ns, tx, outcome, message) => cards.complete(ns, tx, outcome, message),
    mobile_money: (ns, tx, outcome, message) => mobileMoney.complete(ns, tx, outcome, message),
    direct_debit: (ns, tx, outcome, message) => directDebit.completeNow(ns, tx, outcome, message),
    bank_transfer: (ns, tx, outcome, message) => bankTransfer.complete(ns, tx, outcome, message),
    // the attempt under way (docs/behaviour.md 13.1)
    checkout: (ns, tx, outcome, message) => checkout.completeCurrent(ns, checkout.get(ns, tx), outcome, message),
    // a transfer into a virtual account succeeds at once: nothing is left to complete (docs/behaviour.md 13.3)
    virtual_account: (ns, tx) => requireProcessing(findCharge(deps.store, ns, tx)),
  }

  app.post('/reset', (c) => {
    const ns = c.get('ns')
    deps.namespaces.reset(ns)
    return ok(c, 'Namespace reset', { namespace: ns, clock: clockData(deps, ns) })
  })

  app.get('/clock', (c) => ok(c, MSG.SUCCESS, clockData(deps, c.get('ns'))))

  app.post('/clock/advance', async (c) => {
    const ns = c.get('ns')
    const body = validate(advanceSchema, await readJsonObject(c))
    const now = deps.clocks.now(ns)
    // the last instant every timestamp can still be written as ISO 8601 (9999-12-31T23:59:59.999Z)
    const MAX_TIME = 253_402_300_799_999
    if (body.seconds !== undefined && now + body.seconds * 1000 > MAX_TIME) throw invalid({ seconds: 'would move the clock past the year 9999' })
    if (body.seconds !== undefined) {
      // by exactly this much: the offset grows by the seconds given, whatever time the call takes
      deps.clocks.advanceBy(ns, Math.round(body.seconds * 1000))
    } else {
      const target = typeof body.to === 'number' ? body.to : Date.parse(body.to!)
      if (!Number.isFinite(target)) throw invalid({ to: 'must be an ISO 8601 timestamp or milliseconds since the epoch' })
      if (target < now) throw invalid({ to: `must not be before the namespace's current time (${new Date(now).toISOString()}): the clock never moves backwards` })
      if (target > MAX_TIME) throw invalid({ to: 'must not be past the year 9999' })
      deps.clocks.advanceTo(ns, target)
    }
    return ok(c, 'Clock advanced', clockData(deps, ns))
  })

  app.post('/clock/freeze', async (c) => {
    const ns = c.get('ns')
    const { frozen } = validate(freezeSchema, await readJsonObject(c))
    deps.clocks.freeze(ns, frozen)
    return ok(c, frozen ? 'Clock frozen' : 'Clock running', clockData(deps, ns))
  })

  app.get('/scenarios', (c) => ok(c, MSG.SUCCESS, deps.scenarios.forNs(c.get('ns')).toJSON()))

  app.post('/scenarios', async (c) => {
    const body = await readJsonObject(c)
    try {
      const view = deps.scenarios.addPack(c.get('ns'), body)
      return ok(c, 'Scenario pack added', view.toJSON())
    } catch (e) {
      if (e instanceof PackError) {
        throw invalid(Object.fromEntries(e.issues.map((i) => {
          const at = i.indexOf(': ')
          return [i.slice(0, at), i.slice(at + 2)]
        })))
      }
      throw e
    }
  })

  app.delete('/scenarios', (c) => {
    deps.scenarios.clearPacks(c.get('ns'))
    return ok(c, 'Added scenario packs dropped', deps.scenarios.forNs(c.get('ns')).toJSON())
  })

  app.get('/requests', (c) => {
    const { format, ...q } = validate(requestsQuerySchema, c.req.query())
    const ns = c.get('ns')
    const entries = deps.journal.list(ns, q)
    // ?format=flow: the journal as a replayable flow (record to flow)
    if (format === 'flow') return ok(c, MSG.SUCCESS, journalToFlow(entries, deps.scenarios.forNs(ns)))
    return ok(c, MSG.SUCCESS, entries)
  })

  app.put('/webhook-url', async (c) => {
    const { url } = validate(webhookUrlSchema, await readJsonObject(c))
    const meta = deps.namespaces.update(c.get('ns'), { webhook_url: url })
    return ok(c, url ? 'Webhook URL set' : 'Webhook URL cleared', { url: meta.webhook_url })
  })

  app.get('/events', async (c) => {
    const ns = c.get('ns')
    const q = validate(eventsQuerySchema, c.req.query())
    const filter = { reference: q.reference, event: q.event, status: q.status }
    let events = deps.events.list(ns, filter)
    if (q.wait && !events.length) {
      // woken only by an event of this namespace that matches: listed again only then, so a
      // waiting poll costs nothing while others record events (docs/behaviour.md 8.6)
      if (await deps.events.waitForChange(ns, Math.min(q.wait, MAX_WAIT_MS), c.req.raw.signal, filter)) events = deps.events.list(ns, filter)
    }
    return ok(c, MSG.SUCCESS, events.map(({ seq: _seq, ...e }) => e))
  })

  app.post('/events/:id/resend', async (c) => {
    const ns = c.get('ns')
    const rec = deps.events.get(ns, c.req.param('id'))
    if (!rec) throw notFound('Event not found')
    const target = rec.target ?? deps.namespaces.get(ns)?.webhook_url ?? null
    if (!target) throw badRequest('No webhook URL is set: PUT /_sandbox/webhook-url first')
    const { attempt, event: sent } = await deps.webhooks.resend(ns, rec, target)
    const { seq: _seq, ...event } = sent
    return ok(c, 'status_code' in attempt && attempt.status_code! < 300 && attempt.status_code! >= 200 ? 'Event delivered' : 'Event delivery failed', { event, attempt })
  })

  app.post('/faults', async (c) => {
    const ns = c.get('ns')
    const input = validate(faultSchema, await readJsonObject(c))
    return ok(c, 'Fault added', deps.faults.add(ns, input, deps.clocks.iso(ns)))
  })

  app.get('/faults', (c) => ok(c, MSG.SUCCESS, deps.faults.list(c.get('ns'))))

  app.delete('/faults', (c) => ok(c, 'Faults cleared', { removed: deps.faults.remove(c.get('ns')) }))

  app.delete('/faults/:id', (c) => {
    const removed = deps.faults.remove(c.get('ns'), c.req.param('id'))
    if (!removed) throw notFound('Fault not found')
    return ok(c, 'Fault removed', { removed })
  })

  app.post('/captures/:reference/settle', (c) => {
    const ns = c.get('ns')
    const { op, charge } = preauth.settle(ns, c.req.param('reference'))
    return ok(c, 'Transaction settled', op ? { transaction_reference: op.transaction_reference, charge_operation: op.charge_operation, settled: true } : { transaction_reference: charge!.transaction_reference, payment_reference: charge!.payment_reference, settled: true, settled_at: charge!.settled_at })
  })

  app.post('/charges/:reference/complete', async (c) => {
    const ns = c.get('ns')
    const body = validate(completeSchema, await readJsonObject(c))
    const charge = findCharge(deps.store, ns, c.req.param('reference'))
    if (!charge) throw notFound(MSG.TRANSACTION_NOT_FOUND)
    const done = completers[charge.kind](ns, charge.transaction_reference, body.outcome, body.message)
    return ok(c, `Charge completed as ${done.status}`, { reference: done.payment_reference, transaction_reference: done.transaction_reference, status: done.status, message: done.failure_message ?? done.response_message })
  })

  return app
}

import { findCharge } from '../engine/charge-query.js'
import { requireProcessing } from '../engine/lifecycle.js'
import type { PreauthService } from '../cards/index.js'
import type { Kit } from '../engine/kit.js'
import type { Area } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { notFound } from '../errors.js'
import { MSG } from '../messages.js'
import { packSchema } from '../scenario/schema.js'
import { packRules } from '../scenario/area-settings.js'
import { journalToFlow } from '../flow/from-journal.js'
import { customerPages } from '../http/html-page.js'
import { CONTROL_MSG, PROBE_MSG } from './messages.js'
import { advanceSchema, completeSchema, faultSchema, freezeSchema, eventsQuerySchema, probeSchema, reportQuerySchema, requestsQuerySchema, webhookUrlSchema } from './schemas.js'
import { WebhookProbe } from './probe.js'
import { outcomeReport } from './outcomes.js'
import type { ChargeQuery } from '../engine/charge-query.js'
import { isoAt } from '../time.js'

/** Long polls are capped (docs/behaviour.md#control-api). */
const MAX_WAIT_MS = 30_000

function clockData(deps: Pick<Kit, 'clocks'>, ns: string) {
  // one reading: two could fall on either side of a millisecond
  const now = deps.clocks.now(ns)
  return {
    now: isoAt(now),
    now_ms: now,
    offset_ms: deps.clocks.offset(ns),
    frozen: deps.clocks.frozenAt(ns) !== null,
    pending_timers: deps.clocks.pending(ns).map((t) => ({ id: t.id, kind: t.kind, due: isoAt(t.due) })),
  }
}

/** The control API (docs/behaviour.md#control-api), acting on the key's namespace. Health is served by the info area (src/control/info.ts). */
export const controlArea: Area<{ webhookProbe: WebhookProbe }, Kit & { preauth: PreauthService; chargeQuery: ChargeQuery }> = {
  key: 'control',
  tags: { control: "The sandbox's own API: clock, scenarios, journal, events, faults. Loopback only unless --control-token is set" },
  build: (kit) => ({ webhookProbe: new WebhookProbe(kit, kit.chargeQuery) }),
  routes: [
    {
      method: 'post', path: '/_sandbox/reset', access: 'control', tag: 'control', operationId: 'resetNamespace', summary: "Empty the key's namespace and seed its fixtures again",
      handler: (c, deps) => {
        const ns = c.get('ns')
        deps.namespaces.reset(ns)
        return ok(c, CONTROL_MSG.RESET, { namespace: ns, clock: clockData(deps, ns) })
      },
    },
    {
      method: 'get', path: '/_sandbox/snapshot', access: 'control', tag: 'control', operationId: 'getSnapshot', summary: "The key's namespace whole as one JSON document: its key, clock and every record (docs/behaviour.md#snapshots)",
      handler: (c, deps) => ok(c, MSG.SUCCESS, deps.namespaces.snapshot(c.get('ns'))),
    },
    {
      method: 'post', path: '/_sandbox/snapshot', access: 'control', tag: 'control', operationId: 'restoreSnapshot', summary: "Replace the key's namespace with a snapshot (the body: a document GET /_sandbox/snapshot gave)",
      handler: async (c, deps) => {
        const ns = c.get('ns')
        await deps.namespaces.restore(await readJsonObject(c, { asSent: true, inSteps: true }), ns)
        return ok(c, CONTROL_MSG.SNAPSHOT_RESTORED, { namespace: ns, clock: clockData(deps, ns) })
      },
    },
    {
      method: 'get', path: '/_sandbox/clock', access: 'control', tag: 'control', operationId: 'getClock', summary: 'Read the namespace clock',
      handler: (c, deps) => ok(c, MSG.SUCCESS, clockData(deps, c.get('ns'))),
    },
    {
      method: 'post', path: '/_sandbox/clock/advance', access: 'control', tag: 'control', operationId: 'advanceClock', summary: 'Move the namespace clock forward; everything due fires in order', body: { name: 'ClockAdvanceRequest', schema: advanceSchema },
      handler: async (c, deps) => {
        const ns = c.get('ns')
        const step = validate(advanceSchema, await readJsonObject(c))
        await deps.webhooks.beforeClockMoves(ns)
        deps.clocks.advance(ns, step)
        return ok(c, CONTROL_MSG.CLOCK_ADVANCED, clockData(deps, ns))
      },
    },
    {
      method: 'post', path: '/_sandbox/clock/freeze', access: 'control', tag: 'control', operationId: 'freezeClock', summary: 'Stop or restart the namespace clock', body: { name: 'ClockFreezeRequest', schema: freezeSchema },
      handler: async (c, deps) => {
        const ns = c.get('ns')
        const { frozen } = validate(freezeSchema, await readJsonObject(c))
        deps.clocks.freeze(ns, frozen)
        return ok(c, frozen ? CONTROL_MSG.CLOCK_FROZEN : CONTROL_MSG.CLOCK_RUNNING, clockData(deps, ns))
      },
    },
    {
      method: 'get', path: '/_sandbox/scenarios', access: 'control', tag: 'control', operationId: 'getScenarios', summary: 'The active test values',
      handler: (c, deps) => ok(c, MSG.SUCCESS, deps.scenarios.forNs(c.get('ns')).toJSON()),
    },
    {
      method: 'post', path: '/_sandbox/scenarios', access: 'control', tag: 'control', operationId: 'addScenarioPack', summary: 'Add a scenario pack to this namespace (wins over the files)', body: { name: 'ScenarioPack', schema: packSchema, ofAreas: (areas) => packRules(areas).pack },
      handler: async (c, deps) => {
        const view = deps.scenarios.addPack(c.get('ns'), await readJsonObject(c, { asSent: true }))
        return ok(c, CONTROL_MSG.PACK_ADDED, view.toJSON())
      },
    },
    {
      method: 'delete', path: '/_sandbox/scenarios', access: 'control', tag: 'control', operationId: 'dropScenarioPacks', summary: 'Drop the packs added at run time',
      handler: (c, deps) => {
        deps.scenarios.clearPacks(c.get('ns'))
        return ok(c, CONTROL_MSG.PACKS_DROPPED, deps.scenarios.forNs(c.get('ns')).toJSON())
      },
    },
    {
      method: 'get', path: '/_sandbox/requests', access: 'control', tag: 'control', operationId: 'listRequests', summary: 'The request journal, PAN and CVV masked', query: requestsQuerySchema,
      handler: (c, deps) => {
        const { format, ...q } = validate(requestsQuerySchema, c.req.query())
        const ns = c.get('ns')
        const entries = deps.journal.list(ns, q)
        // ?format=flow: the journal as a replayable flow (record to flow)
        if (format === 'flow') return ok(c, MSG.SUCCESS, journalToFlow(entries, deps.scenarios.forNs(ns), customerPages(deps.areas), { secret: ns, public: deps.namespaces.get(ns)?.public_key }))
        return ok(c, MSG.SUCCESS, entries)
      },
    },
    {
      method: 'put', path: '/_sandbox/webhook-url', access: 'control', tag: 'control', operationId: 'setWebhookUrl', summary: "Set (or, with null, clear) the namespace's webhook URL", body: { name: 'WebhookUrlRequest', schema: webhookUrlSchema },
      handler: async (c, deps) => {
        const { url } = validate(webhookUrlSchema, await readJsonObject(c, { asSent: true }))
        const meta = deps.namespaces.update(c.get('ns'), { webhook_url: url })
        return ok(c, url ? CONTROL_MSG.WEBHOOK_URL_SET : CONTROL_MSG.WEBHOOK_URL_CLEARED, { url: meta.webhook_url })
      },
    },
    {
      method: 'get', path: '/_sandbox/events', access: 'control', tag: 'control', operationId: 'listEvents', summary: 'Events and their delivery attempts; `wait` long-polls (at most 30 s) until one matches', query: eventsQuerySchema,
      handler: async (c, deps) => {
        const ns = c.get('ns')
        const q = validate(eventsQuerySchema, c.req.query())
        const filter = { reference: q.reference, event: q.event, status: q.status }
        let events = deps.events.list(ns, filter)
        if (q.wait && !events.length) {
          // woken only by an event of this namespace that matches: listed again only then, so a
          // waiting poll costs nothing while others record events (docs/behaviour.md#event-log)
          if (await deps.events.waitForChange(ns, Math.min(q.wait, MAX_WAIT_MS), c.req.raw.signal, filter)) events = deps.events.list(ns, filter)
        }
        return ok(c, MSG.SUCCESS, events.map(({ seq: _seq, ...e }) => e))
      },
    },
    {
      method: 'post', path: '/_sandbox/events/:id/resend', access: 'control', tag: 'control', operationId: 'resendEvent', summary: 'Deliver an event again now',
      handler: async (c, deps) => {
        const ns = c.get('ns')
        const { delivered, attempt, event: { seq: _seq, ...event } } = await deps.webhooks.resendNow(ns, c.req.param('id')!)
        return ok(c, delivered ? CONTROL_MSG.EVENT_DELIVERED : CONTROL_MSG.EVENT_DELIVERY_FAILED, { event, attempt })
      },
    },
    {
      method: 'post', path: '/_sandbox/webhooks/probe', access: 'control', tag: 'control', operationId: 'probeWebhook', summary: "Probe a webhook handler: a series of deliveries, each judged by its answer, its time and whether the handler queried the transaction (docs/behaviour.md#webhook-probe)", body: { name: 'WebhookProbeRequest', schema: probeSchema },
      handler: async (c, deps) => {
        const { url, timeout_ms } = validate(probeSchema, await readJsonObject(c, { asSent: true }))
        const report = await deps.webhookProbe.run(c.get('ns'), url, timeout_ms)
        const failed = report.checks.filter((k) => !k.passed).map((k) => k.check)
        return ok(c, PROBE_MSG.answered(report.checks.length - failed.length, report.checks.length, failed), report)
      },
    },
    {
      method: 'get', path: '/_sandbox/report', access: 'control', tag: 'control', operationId: 'getReport', query: reportQuerySchema,
      summary: "The readiness report (docs/behaviour.md#readiness-report): which outcomes of the catalogue the namespace's calls met, each with the reference that met it, and what the webhook receiver answered per event type; `scope=all`: every namespace",
      handler: (c, deps) => {
        const { scope = 'namespace' } = validate(reportQuerySchema, c.req.query())
        const namespaces = scope === 'all' ? deps.namespaces.list().map((m) => m.secret_key) : [c.get('ns')]
        return ok(c, MSG.SUCCESS, outcomeReport(deps, namespaces, scope))
      },
    },
    {
      method: 'post', path: '/_sandbox/faults', access: 'control', tag: 'control', operationId: 'addFault', summary: 'Inject a fault into the next matching calls or webhook deliveries', body: { name: 'FaultRequest', schema: faultSchema },
      handler: async (c, deps) => {
        const ns = c.get('ns')
        const input = validate(faultSchema, await readJsonObject(c))
        return ok(c, CONTROL_MSG.FAULT_ADDED, deps.faults.add(ns, input, deps.clocks.iso(ns)))
      },
    },
    {
      method: 'get', path: '/_sandbox/faults', access: 'control', tag: 'control', operationId: 'listFaults', summary: 'The active faults',
      handler: (c, deps) => ok(c, MSG.SUCCESS, deps.faults.list(c.get('ns'))),
    },
    {
      method: 'delete', path: '/_sandbox/faults', access: 'control', tag: 'control', operationId: 'clearFaults', summary: 'Remove every fault',
      handler: (c, deps) => ok(c, CONTROL_MSG.FAULTS_CLEARED, { removed: deps.faults.remove(c.get('ns')) }),
    },
    {
      method: 'delete', path: '/_sandbox/faults/:id', access: 'control', tag: 'control', operationId: 'removeFault', summary: 'Remove one fault',
      handler: (c, deps) => {
        const removed = deps.faults.remove(c.get('ns'), c.req.param('id')!)
        if (!removed) throw notFound(CONTROL_MSG.FAULT_NOT_FOUND)
        return ok(c, CONTROL_MSG.FAULT_REMOVED, { removed })
      },
    },
    {
      method: 'post', path: '/_sandbox/captures/:reference/settle', access: 'control', tag: 'control', operationId: 'settleCapture', summary: 'Settle a capture (or a successful charge) now',
      handler: (c, deps) => {
        const ns = c.get('ns')
        const { op, charge } = deps.preauth.settle(ns, c.req.param('reference')!)
        return ok(c, CONTROL_MSG.SETTLED, op ? { transaction_reference: op.transaction_reference, charge_operation: op.charge_operation, settled: true } : { transaction_reference: charge!.transaction_reference, payment_reference: charge!.payment_reference, settled: true, settled_at: charge!.settled_at })
      },
    },
    {
      method: 'post', path: '/_sandbox/charges/:reference/complete', access: 'control', tag: 'control', operationId: 'completeCharge', step: true, summary: 'Finish a processing charge (3DS step, STK prompt, processing debit) as success or failed', body: { name: 'CompleteChargeRequest', schema: completeSchema },
      handler: async (c, deps) => {
        const ns = c.get('ns')
        const body = validate(completeSchema, await readJsonObject(c))
        const charge = findCharge(deps.store, ns, c.req.param('reference')!)
        if (!charge) throw notFound(MSG.TRANSACTION_NOT_FOUND)
        const complete = deps.kinds.of(charge.kind).complete
        // a kind with nothing to complete (a transfer into a virtual account succeeds at once, docs/behaviour.md#virtual-accounts)
        const done = complete ? complete(ns, charge.transaction_reference, body.outcome, body.message) : requireProcessing(charge)
        return ok(c, CONTROL_MSG.completedAs(done.status), { reference: done.payment_reference, transaction_reference: done.transaction_reference, status: done.status, message: done.failure_message ?? done.response_message })
      },
    },
  ],
}

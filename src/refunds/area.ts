import { cardOperation, refundSchema, type PreauthService } from '../cards/index.js'
import type { Kit } from '../engine/kit.js'
import type { Area } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { MSG } from '../messages.js'
import { completeRefundSchema, initiateSchema, refundListSchema } from './schemas.js'
import { REFUND_MSG } from './messages.js'
import { REFUND, REFUNDS, REFUNDS_SPEC, REFUND_STATUSES, RefundService, detail, initiated, type Refund } from './service.js'
import { statusOutcomes } from '../engine/outcomes.js'
import { refundsPanel } from './panel.js'
import { refundsTestValues } from './test-values.js'
import { refundSettings } from './settings.js'

/**
 * Refunds (docs/behaviour.md#refunds), the card refund of docs/api.md 3.2 among them: a card refund is
 * also a refund record and a ledger debit, so the refunds area, built after the cards area, serves it.
 */
export const refundsArea: Area<{ refunds: RefundService }, Kit & { preauth: PreauthService }> = {
  key: 'refunds',
  panels: [refundsPanel],
  testValues: refundsTestValues,
  settings: refundSettings,
  // a refund of the refunds API opens processing (a card refund succeeds at once); one of less than its pay-in is partial
  outcomes: statusOutcomes<Refund>('refund', REFUNDS, [...REFUND_STATUSES, 'partial'], {
    states: (r) => [r.made_by === 'refunds_api' ? 'processing' : null, r.status, r.amount < r.transaction_amount ? 'partial' : null],
    label: (s) => (s === 'partial' ? 'partial: less than its pay-in' : s),
  }),
  tags: { refunds: 'Refunds of any settled pay-in, on the same ledger as the card refund, and the control call that finishes one' },
  ledger: { [REFUND]: { describe: (ref, e) => REFUND_MSG.entry(ref, e.why, e.of) } },
  collections: [REFUNDS_SPEC],
  build: (kit) => ({ refunds: new RefundService(kit, kit.preauth) }),
  routes: [
    {
      method: 'post', path: '/merchant/api/v1/charges/card/refund', access: 'secret key', tag: 'cards', operationId: 'refundCapture', summary: 'Refund a settled capture or charge',
      body: { name: 'RefundRequest', schema: refundSchema },
      handler: cardOperation(refundSchema, (s, ns, input) => s.refunds.refundCard(ns, input)),
    },
    {
      method: 'post', path: '/merchant/api/v1/refunds/initiate', access: 'secret key', tag: 'refunds', operationId: 'initiateRefund', summary: 'Refund a settled pay-in, in full or in part (processing, then success or failed)',
      body: { name: 'InitiateRefundRequest', schema: initiateSchema },
      description: 'Any successful, settled pay-in, by its payment reference (a checkout by its own). The amount is debited from the available balance at once and returned if the refund fails. Test fields: `completion_status` (`success` | `failed`) and `status_reason` pick the outcome, which comes refund_delay_seconds (60) later on the namespace clock.',
      handler: async (c, { refunds }) => ok(c, REFUND_MSG.INITIATED, initiated(refunds.initiate(c.get('ns'), validate(initiateSchema, await readJsonObject(c))))),
    },
    {
      method: 'get', path: '/merchant/api/v1/refunds', access: 'secret key', tag: 'refunds', operationId: 'listRefunds', summary: 'The refunds, newest first, by status, currency and date, paged by pointer (message `Refunds retrieved successfully`)', query: refundListSchema,
      handler: (c, { refunds }) => ok(c, REFUND_MSG.LISTED, refunds.list(c.get('ns'), validate(refundListSchema, c.req.query()))),
    },
    {
      method: 'get', path: '/merchant/api/v1/refunds/:reference', access: 'secret key', tag: 'refunds', operationId: 'getRefund', summary: 'One refund, by its reference (a card refund: its transaction reference)',
      handler: (c, { refunds }) => ok(c, REFUND_MSG.RETRIEVED, detail(refunds.get(c.get('ns'), c.req.param('reference')!))),
    },
    {
      method: 'post', path: '/_sandbox/refunds/:reference/complete', access: 'control', tag: 'refunds', operationId: 'completeRefund', summary: 'Finish a processing refund now (success unless asked otherwise)',
      body: { name: 'CompleteRefundRequest', schema: completeRefundSchema },
      handler: async (c, { refunds }) => {
        const { outcome, reason } = validate(completeRefundSchema, await readJsonObject(c))
        return ok(c, REFUND_MSG.COMPLETED, detail(refunds.complete(c.get('ns'), c.req.param('reference')!, outcome, reason)))
      },
    },
  ],
}

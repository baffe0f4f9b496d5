import type { CardService, PreauthService } from '../cards/index.js'
import type { Kit } from '../engine/kit.js'
import type { Area, Route } from '../http/area.js'
import { readBodyText, readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { CHARGEBACK_MSG } from './messages.js'
import { answerSchema, chargebackListSchema, decideSchema, openSchema } from './schemas.js'
import { CHARGEBACK, CHARGEBACKS, CHARGEBACKS_SPEC, ChargebackService, detail, type Chargeback } from './service.js'
import { statusOutcomes } from '../engine/outcomes.js'
import { CHARGEBACK_STATUSES } from './schemas.js'
import { chargebacksPanel } from './panel.js'
import { chargebacksTestValues } from './test-values.js'
import { chargebackSettings } from './settings.js'

type Chargebacks = { chargebacks: ChargebackService }

/** The pages write the bare `/api/v1/chargebacks` paths: served there and under `/merchant` alike (CONTRACT 15). */
const PREFIXES = [['', ''], ['/merchant', 'Merchant']] as const

const merchantRoutes = PREFIXES.flatMap(([prefix, suffix]): Route<Chargebacks>[] => [
  {
    method: 'patch', path: `${prefix}/api/v1/chargebacks/:reference`, access: 'secret key', tag: 'chargebacks', operationId: `answerChargeback${suffix}`,
    summary: 'Answer a pending chargeback: accept it, decline it with evidence, or accept part of it',
    body: { name: 'ChargebackAnswer', schema: answerSchema },
    description: '`status` `accepted` debits the whole amount now; `declined` (with `evidence` and `reason`) and `partial` (with `amount`, the part accepted and debited now, `evidence` and `reason`) are decided won or lost chargeback_decision_hours (48) later as the pack says (won). Unanswered by its deadline (chargeback_deadline_hours, 24), a chargeback is accepted.',
    handler: async (c, { chargebacks }) => ok(c, CHARGEBACK_MSG.UPDATED, detail(chargebacks.answer(c.get('ns'), c.req.param('reference')!, validate(answerSchema, await readJsonObject(c))))),
  },
  {
    method: 'get', path: `${prefix}/api/v1/chargebacks`, access: 'secret key', tag: 'chargebacks', operationId: `listChargebacks${suffix}`,
    summary: 'The chargebacks, newest first, by status, currency, payment reference and date, paged by pointer', query: chargebackListSchema,
    handler: (c, { chargebacks }) => ok(c, CHARGEBACK_MSG.LISTED, chargebacks.list(c.get('ns'), validate(chargebackListSchema, c.req.query()))),
  },
  {
    method: 'get', path: `${prefix}/api/v1/chargebacks/:reference`, access: 'secret key', tag: 'chargebacks', operationId: `getChargeback${suffix}`,
    summary: 'One chargeback, by its reference',
    handler: (c, { chargebacks }) => ok(c, CHARGEBACK_MSG.RETRIEVED, detail(chargebacks.get(c.get('ns'), c.req.param('reference')!))),
  },
])

/** Chargebacks (docs/behaviour.md#chargebacks): opened by the control API as a customer's bank would, answered by the merchant. */
export const chargebacksArea: Area<Chargebacks, Kit & { preauth: PreauthService; cards: CardService }> = {
  key: 'chargebacks',
  panels: [chargebacksPanel],
  testValues: chargebacksTestValues,
  settings: chargebackSettings,
  outcomes: statusOutcomes<Chargeback>('chargeback', CHARGEBACKS, CHARGEBACK_STATUSES, { states: (c) => ['pending', c.status, c.answer] }),
  tags: { chargebacks: "Disputes a customer's bank opens on a successful pay-in: the merchant's answer, the deadline on the namespace clock, the debit of what is accepted or lost" },
  ledger: { [CHARGEBACK]: { describe: (_ref, e) => CHARGEBACK_MSG.entry(e.of), overdraws: true } },
  collections: [CHARGEBACKS_SPEC],
  build: (kit) => {
    const chargebacks = new ChargebackService(kit, kit.preauth)
    kit.cards.onCharged((ns, charge) => chargebacks.cardCharged(ns, charge))
    return { chargebacks }
  },
  routes: [
    ...merchantRoutes,
    {
      method: 'post', path: '/_sandbox/charges/:reference/chargeback', access: 'control', tag: 'chargebacks', operationId: 'openChargeback',
      summary: "Open a chargeback on a successful pay-in, as the customer's bank would (amount: what is left after refunds unless given)",
      body: { name: 'OpenChargebackRequest', schema: openSchema }, bodyRequired: false,
      handler: async (c, { chargebacks }) => {
        // the body may be left out: the whole of what is left, the pack's deadline
        const body = (await readBodyText(c)).trim() ? await readJsonObject(c) : {}
        return ok(c, CHARGEBACK_MSG.OPENED, detail(chargebacks.open(c.get('ns'), c.req.param('reference')!, validate(openSchema, body))))
      },
    },
    {
      method: 'post', path: '/_sandbox/chargebacks/:reference/decide', access: 'control', tag: 'chargebacks', operationId: 'decideChargeback',
      summary: 'Decide a declined or partly accepted chargeback now, won or lost',
      body: { name: 'DecideChargebackRequest', schema: decideSchema },
      handler: async (c, { chargebacks }) => {
        const { outcome } = validate(decideSchema, await readJsonObject(c))
        return ok(c, CHARGEBACK_MSG.DECIDED, detail(chargebacks.decide(c.get('ns'), c.req.param('reference')!, outcome)))
      },
    },
  ],
}

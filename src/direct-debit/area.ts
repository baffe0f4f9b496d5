import type { Kit } from '../engine/kit.js'
import { chargeKind } from '../engine/types.js'
import { STRING } from '../store/validate.js'
import type { Area, Route } from '../http/area.js'
import { readBodyText, readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { MSG } from '../messages.js'
import { AUTH_STATUSES, createAuthorizationSchema, debitSchema, initiateAnswerSchema, initiateSchema, transitionReasonSchema } from './schemas.js'
import { DD_MSG } from './messages.js'
import { AUTHS, AUTHS_SPEC, DirectDebitService, type DebitAuthorization, type DirectDebit as DirectDebitCharge, type Transition } from './service.js'
import { allOutcomes, chargeOutcomes, statusOutcomes } from '../engine/outcomes.js'
import { directDebitSettings } from './settings.js'

/** its kind of charge, declared to the engine (`ChargeKinds`, src/engine/types.ts) */
declare module '../engine/types.js' {
  interface ChargeKinds { direct_debit: { record: DirectDebitCharge; method: 'direct_debit'; attempt: 'bank_account' } }
}

type DirectDebit = { directDebit: DirectDebitService }

/** docs/behaviour.md#direct-debit: GET .../authorizations/{reference} and POST .../{code}/debits (docs/api.md 4.3), with and without the /merchant prefix. */
const merchantRoutes = ([['/merchant', 'Merchant'], ['', '']] as const).flatMap(([prefix, suffix]): Route<DirectDebit>[] => [
  {
    method: 'get', path: `${prefix}/api/v1/direct-debit/authorizations/:reference`, access: 'secret key', tag: 'direct debit', operationId: `getDirectDebitAuthorization${suffix}`, summary: 'Read a direct-debit authorization',
    handler: (c, { directDebit }) => ok(c, MSG.SUCCESS, directDebit.authorizationRecord(directDebit.get(c.get('ns'), c.req.param('reference')!))),
  },
  {
    method: 'post', path: `${prefix}/api/v1/direct-debit/authorizations/:code/debits`, access: 'secret key', tag: 'direct debit', operationId: `debitAuthorization${suffix}`, summary: 'Debit an active variable authorization',
    body: { name: 'DebitRequest', schema: debitSchema },
    handler: async (c, { directDebit }) => {
      const input = validate(debitSchema, await readJsonObject(c))
      return ok(c, MSG.SUCCESS, directDebit.debitRecord(directDebit.debit(c.get('ns'), c.req.param('code')!, input)))
    },
  },
])

const PAST: Record<Transition, string> = DD_MSG.PAST

/** The control calls of docs/behaviour.md#control-api that move an authorization. */
const moveRoutes = (Object.keys(PAST) as Transition[]).map((move): Route<DirectDebit> => ({
  method: 'post', path: `/_sandbox/direct-debit/authorizations/:reference/${move}`, access: 'control', tag: 'direct debit',
  operationId: `${move}DirectDebitAuthorization`, summary: `${move[0].toUpperCase()}${move.slice(1)} a direct-debit authorization`,
  body: { name: 'TransitionRequest', schema: transitionReasonSchema }, bodyRequired: false,
  handler: async (c, { directDebit }) => {
    // the body is optional: `{reason}` overrides the recorded reason
    const text = await readBodyText(c)
    const { reason } = text.trim() ? validate(transitionReasonSchema, await readJsonObject(c)) : { reason: undefined }
    return ok(c, DD_MSG.moved(PAST[move]), directDebit.authorizationRecord(directDebit.move(c.get('ns'), c.req.param('reference')!, move, reason)))
  },
}))

/** Direct-debit authorizations and their debits (docs/api.md 4.3, docs/behaviour.md#direct-debit and docs/behaviour.md#identity). */
export const directDebitArea: Area<DirectDebit, Kit> = {
  key: 'direct debit',
  settings: directDebitSettings,
  // the debits as the pack's accounts end them, and each status a mandate went through (its history; a seeded mandate's first status is not the merchant's)
  outcomes: allOutcomes(
    chargeOutcomes('direct-debit', 'direct_debit', (s) => s.accounts.values()),
    statusOutcomes<DebitAuthorization>('direct-debit.mandate', AUTHS, AUTH_STATUSES, { states: (a) => a.history.filter((h) => h?.reason !== DD_MSG.HISTORY_SEEDED).map((h) => h?.status), label: (s) => `a mandate ${s}` }),
  ),
  tags: { 'direct debit': 'Direct-debit authorizations and debits' },
  collections: [AUTHS_SPEC, chargeKind('direct_debit', { authorization_code: STRING, account_number: STRING, bank_code: STRING, narration: STRING }, { asWritten: ['authorization_code', 'account_number'] })],
  build(kit) {
    const directDebit = new DirectDebitService(kit)
    kit.kinds.declare<DirectDebitCharge>({
      kind: 'direct_debit',
      queryExtras: (_ns, debit) => directDebit.queryExtras(debit),
      complete: (ns, tx, outcome, message) => directDebit.completeNow(ns, tx, outcome, message),
      instrument: (debit) => [`account ${debit.account_number} (${debit.authorization_code})`],
    })
    return { directDebit }
  },
  routes: [
    {
      method: 'get', path: '/_sandbox/direct-debit/authorizations', access: 'control', tag: 'direct debit', operationId: 'listDirectDebitAuthorizations', summary: "List the namespace's direct-debit authorizations",
      handler: (c, { directDebit }) => ok(c, MSG.SUCCESS, directDebit.list(c.get('ns')).map((a) => directDebit.authorizationRecord(a))),
    },
    {
      method: 'post', path: '/_sandbox/direct-debit/authorizations', access: 'control', tag: 'direct debit', operationId: 'createDirectDebitAuthorization', summary: 'Create a direct-debit authorization (pending)',
      body: { name: 'CreateAuthorizationRequest', schema: createAuthorizationSchema },
      handler: async (c, { directDebit }) => {
        const input = validate(createAuthorizationSchema, await readJsonObject(c))
        return ok(c, DD_MSG.CREATED, directDebit.authorizationRecord(directDebit.create(c.get('ns'), input)))
      },
    },
    {
      method: 'post', path: '/merchant/api/v1/direct-debit/initiate', access: 'secret key', tag: 'direct debit', operationId: 'initiateDirectDebitAuthorization',
      summary: 'Create a mandate, active once the customer makes the token payment', body: { name: 'InitiateDirectDebitRequest', schema: initiateSchema },
      answer: { name: 'InitiatedAuthorization', schema: initiateAnswerSchema },
      description: "The mandate is `pending` until the customer's NGN 50.00 token payment from the registered account arrives: by itself `transfer_delay_seconds` (120) later on the namespace clock, or at once with `POST /_sandbox/direct-debit/authorizations/{reference}/approve`. It is then `active`, with a `direct_debit.auth` event (`status: success`). Read it by `reference` or `authorization_code`; debit a variable one by either.",
      handler: async (c, { directDebit }) => {
        const input = validate(initiateSchema, await readJsonObject(c))
        return ok(c, DD_MSG.INITIATED, directDebit.initiateRecord(directDebit.initiate(c.get('ns'), input)))
      },
    },
    ...moveRoutes,
    ...merchantRoutes,
  ],
}

import { Hono } from 'hono'
import { readBodyText, readJsonObject, validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { MSG } from '../errors.js'
import { createAuthorizationSchema, debitSchema, transitionReasonSchema } from './schemas.js'
import { DD_MSG, type DirectDebitService, type Transition } from './service.js'

/** GET .../direct-debit/authorizations/{reference} and POST .../{code}/debits (docs/api.md 4.3). */
export function directDebitRoutes(dd: DirectDebitService) {
  const app = new Hono<AppEnv>()
  app.get('/authorizations/:reference', (c) => ok(c, MSG.SUCCESS, dd.authorizationRecord(dd.get(c.get('ns'), c.req.param('reference')))))
  app.post('/authorizations/:code/debits', async (c) => {
    const input = validate(debitSchema, await readJsonObject(c))
    return ok(c, MSG.SUCCESS, dd.debitRecord(dd.debit(c.get('ns'), c.req.param('code'), input)))
  })
  return app
}

/** The control calls of docs/behaviour.md 9 for direct debit. */
export function directDebitControlRoutes(dd: DirectDebitService) {
  const app = new Hono<AppEnv>()
  app.get('/authorizations', (c) => ok(c, MSG.SUCCESS, dd.list(c.get('ns')).map((a) => dd.authorizationRecord(a))))
  app.post('/authorizations', async (c) => {
    const input = validate(createAuthorizationSchema, await readJsonObject(c))
    return ok(c, DD_MSG.CREATED, dd.authorizationRecord(dd.create(c.get('ns'), input)))
  })
  const moves: Transition[] = ['approve', 'decline', 'suspend', 'reactivate', 'deactivate']
  const PAST: Record<Transition, string> = { approve: 'approved', decline: 'declined', suspend: 'suspended', reactivate: 'reactivated', deactivate: 'deactivated' }
  for (const move of moves) {
    app.post(`/authorizations/:reference/${move}`, async (c) => {
      // the body is optional: `{reason}` overrides the recorded reason
      const text = await readBodyText(c)
      const { reason } = text.trim() ? validate(transitionReasonSchema, await readJsonObject(c)) : { reason: undefined }
      return ok(c, `Authorization ${PAST[move]}`, dd.authorizationRecord(dd.move(c.get('ns'), c.req.param('reference'), move, reason)))
    })
  }
  return app
}

import { Hono } from 'hono'
import { readJsonObject, validate } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { mmAuthorizeSchema, mobileMoneyChargeSchema, resendSchema, stkAuthorizeSchema } from './schemas.js'
import { MM_MSG, type MobileMoneyCharge, type MobileMoneyService } from './service.js'

/** docs/api.md 4.2 plus docs/behaviour.md 5's resend and sandbox calls. */
export function mobileMoneyRoutes(mm: MobileMoneyService) {
  const app = new Hono<AppEnv>()
  const answer = (c: Parameters<typeof ok>[0], charge: MobileMoneyCharge, message?: string) => {
    const env = mm.envelope(charge)
    return ok(c, message ?? env.message, mm.responseData(charge), env.code ? { code: env.code } : {})
  }

  app.post('/', async (c) => {
    const input = validate(mobileMoneyChargeSchema, await readJsonObject(c))
    return answer(c, mm.charge(c.get('ns'), input))
  })

  app.post('/authorize', async (c) => {
    const { reference, token } = validate(mmAuthorizeSchema, await readJsonObject(c))
    return answer(c, mm.authorize(c.get('ns'), reference, token))
  })

  app.post('/sandbox/authorize-stk', async (c) => {
    const { reference, pin } = validate(stkAuthorizeSchema, await readJsonObject(c))
    return answer(c, mm.authorizeStk(c.get('ns'), reference, pin))
  })

  app.post('/resend-otp', async (c) => {
    const b = validate(resendSchema, await readJsonObject(c))
    return answer(c, mm.resendOtp(c.get('ns'), (b.transaction_reference ?? b.reference)!), MM_MSG.OTP_RESENT)
  })

  app.post('/resend-stk', async (c) => {
    const b = validate(resendSchema, await readJsonObject(c))
    return answer(c, mm.resendStk(c.get('ns'), (b.transaction_reference ?? b.reference)!), MM_MSG.STK_RESENT)
  })

  return app
}

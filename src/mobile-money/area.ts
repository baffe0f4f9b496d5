import type { Context } from 'hono'
import type { Kit } from '../charges/kit.js'
import { servedBy } from '../charges/kinds.js'
import { STEPPED_FIELDS, chargeKind } from '../charges/types.js'
import { MINOR, STRING, shape } from '../store/validate.js'
import type { Area } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { validateWithMetadata } from '../charges/schemas.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { MSG } from '../errors.js'
import { mmAuthorizeSchema, mobileMoneyChargeSchema, resendSchema, stkAuthorizeSchema } from './schemas.js'
import { MM_MSG } from './messages.js'
import { WALLET_CURRENCIES } from '../scenario/lookups.js'
import { MobileMoneyService, type MobileMoneyCharge } from './service.js'

const answer = (c: Context<AppEnv>, mm: MobileMoneyService, charge: MobileMoneyCharge, message?: string) => {
  const env = mm.envelope(charge)
  return ok(c, message ?? env.message, mm.responseData(charge), env.code ? { code: env.code } : {})
}

const MM = '/merchant/api/v1/charges/mobile-money'
const resend = { name: 'ResendRequest', schema: resendSchema }

/** docs/api.md 4.2 plus docs/behaviour.md 5's resend and sandbox calls. */
export const mobileMoneyArea: Area<{ mobileMoney: MobileMoneyService }, Kit> = {
  key: 'mobile money',
  tags: { 'mobile money': `Mobile money charges (${WALLET_CURRENCIES.join(', ')}) with OTP and STK prompt` },
  collections: [chargeKind('mobile_money', { ...STEPPED_FIELDS, wallet: shape({ number: STRING }), amount_expected: MINOR }, ['wallet.number', 'message'])],
  build(kit) {
    const mobileMoney = new MobileMoneyService(kit)
    kit.kinds.declare<MobileMoneyCharge>({
      ...servedBy(mobileMoney),
      attemptLine: (charge) => MM_MSG.attempt(charge.wallet.number),
      instrument: (charge) => [`wallet ${charge.wallet.number}`],
    })
    return { mobileMoney }
  },
  routes: [
    {
      method: 'post', path: MM, access: 'secret key', tag: 'mobile money', operationId: 'chargeMobileMoney', summary: `Charge a mobile money wallet (${WALLET_CURRENCIES.join(', ')})`,
      body: { name: 'MobileMoneyChargeRequest', schema: mobileMoneyChargeSchema },
      handler: async (c, { mobileMoney, scenarios }) => {
        const ns = c.get('ns')
        return answer(c, mobileMoney, mobileMoney.charge(ns, validateWithMetadata(mobileMoneyChargeSchema, await readJsonObject(c), scenarios.forNs(ns).settings.metadata_underscores)))
      },
    },
    {
      method: 'post', path: `${MM}/authorize`, access: 'secret key', tag: 'mobile money', operationId: 'authorizeMobileMoney', step: true, summary: 'Answer the OTP step',
      body: { name: 'MobileMoneyAuthorizeRequest', schema: mmAuthorizeSchema },
      handler: async (c, { mobileMoney }) => {
        const { reference, token } = validate(mmAuthorizeSchema, await readJsonObject(c))
        return answer(c, mobileMoney, mobileMoney.authorize(c.get('ns'), reference, token))
      },
    },
    {
      method: 'post', path: `${MM}/sandbox/authorize-stk`, access: 'secret key', tag: 'mobile money', operationId: 'authorizeStk', step: true, summary: 'Answer the STK prompt with the wallet PIN',
      body: { name: 'StkAuthorizeRequest', schema: stkAuthorizeSchema },
      handler: async (c, { mobileMoney }) => {
        const { reference, pin } = validate(stkAuthorizeSchema, await readJsonObject(c))
        return answer(c, mobileMoney, mobileMoney.authorizeStk(c.get('ns'), reference, pin))
      },
    },
    {
      method: 'post', path: `${MM}/resend-otp`, access: 'secret key', tag: 'mobile money', operationId: 'resendMobileMoneyOtp', step: true, summary: 'Resend the OTP', body: resend,
      handler: async (c, { mobileMoney }) => {
        const b = validate(resendSchema, await readJsonObject(c))
        return answer(c, mobileMoney, mobileMoney.resendOtp(c.get('ns'), (b.transaction_reference ?? b.reference)!), MSG.OTP_RESENT)
      },
    },
    {
      method: 'post', path: `${MM}/resend-stk`, access: 'secret key', tag: 'mobile money', operationId: 'resendStk', step: true, summary: 'Send the STK prompt again', body: resend,
      handler: async (c, { mobileMoney }) => {
        const b = validate(resendSchema, await readJsonObject(c))
        return answer(c, mobileMoney, mobileMoney.resendStk(c.get('ns'), (b.transaction_reference ?? b.reference)!), MM_MSG.STK_RESENT)
      },
    },
  ],
}
